/**
 * Builds shared by the test files of one `npm test` run. Several files need the very same built site as
 * their input (the example-like site of the verifier's tests, the content-valid site of the hardening and
 * fuzz tests, the Portuguese fixtures of the browser and Lighthouse tests); each used to build it again,
 * about eight seconds a build. {@link sharedBuild} builds a project once per run and gives every caller a
 * private copy of the output, so a test that edits its copy changes nobody else's.
 *
 * The builds live in one folder for the whole run (every group of test files), which test/global-setup.ts
 * makes in the run's temp folder, empties when watch mode runs the tests again (so no output of an earlier run, or of other
 * code, is reused) and removes when the run ends, named by what was built: the project's path, the
 * environment laid over the clean one, and whether a copy of the project is built. Test files in other
 * worker processes share it too: the first to ask builds, holding a lock folder made with `mkdir` (which
 * only one process can create) that names its process; the others wait for its result. Whatever ends a
 * build without output (a failed build, an error thrown while building, the building process gone) is
 * reported to every file waiting for it. The lock folder stays beside the build until the run ends, so
 * that a file asking later finds a failed build failed instead of building it again. A file's private
 * copies are in the temp folder, and its `removeProjects` (test/helpers/build.ts) removes them.
 */
import { createHash } from 'node:crypto';
import { cp, mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { processRunning } from '../../src/core/build/stale-temp.js';
import { buildProject, copyProject, rememberForRemoval } from './build.js';

/** What a shared build is asked for. */
export interface SharedBuildOptions {
  /** Variables laid over the build's clean environment (test/helpers/build.ts `buildProject`). */
  env?: Record<string, string>;
  /**
   * Build a copy of the project (`copyProject`: its content and public files, with one git commit of a
   * fixed date) rather than the project where it is (default false). A build where the project is writes
   * its temporary `.ardsite-tmp-*` folder into the project while it runs.
   */
  copy?: boolean;
  /**
   * Build in registry mode (`--registry`, as test/helpers/registry.ts `buildRegistrySite`; default false):
   * the caller's copy is then `<folder>/dist` with the server bundle beside it in `<folder>/dist-server`,
   * where the build puts it (src/core/registry/bundle.ts `registryServerDir`), and a build whose output
   * does not announce the lookup API counts as failed.
   */
  registry?: boolean;
}

/** What a registry build prints once it wrote the server bundle (src/cli/commands/build.ts). */
const REGISTRY_BUILT = /Registry mode: the lookup API/;

/**
 * How long a file waits for another file's build of the same project: less than the hook timeout of
 * vitest.config.ts (300 s), so that the wait ends with this module's message, not vitest's.
 */
const WAIT_MS = 240_000;

const exists = (p: string) =>
  stat(p).then(
    () => true,
    () => false,
  );

/** Writes `text` to `file` through a temporary name, so a reader never sees half of it. */
async function writeWhole(file: string, text: string): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, text);
  await rename(temporary, file);
}

/**
 * Builds `project` into `done` (through a temporary folder beside it, renamed when complete), or writes
 * why it could not into `failed`. Never throws.
 */
async function buildInto(project: string, options: SharedBuildOptions, done: string, failed: string) {
  const out = `${done}.building`;
  let root: string | undefined;
  try {
    await rm(out, { recursive: true, force: true });
    root = options.copy ? await copyProject(project) : project;
    const result = await buildProject(root, {
      // Registry mode writes the server bundle beside the output folder: both go in `out`.
      out: options.registry ? path.join(out, 'dist') : out,
      ...(options.env ? { env: options.env } : {}),
      ...(options.registry ? { args: ['--registry'] } : {}),
    });
    if (result.code !== 0)
      await writeWhole(failed, `the build exited with ${result.code}:\n${result.stderr}`);
    else if (options.registry && !REGISTRY_BUILT.test(result.stderr))
      await writeWhole(failed, `the registry build did not announce the lookup API:\n${result.stderr}`);
    else await rename(out, done);
  } catch (error) {
    await writeWhole(failed, `the build could not run: ${(error as Error).stack ?? String(error)}`);
  } finally {
    if (options.copy && root !== undefined) await rm(root, { recursive: true, force: true });
  }
}

/** Waits until `done` or `failed` exists, or the builder named in `lock` is gone or takes too long. */
async function waitFor(project: string, done: string, failed: string, lock: string): Promise<void> {
  const until = Date.now() + WAIT_MS;
  while (!(await exists(done)) && !(await exists(failed))) {
    const owner = Number(await readFile(path.join(lock, 'pid'), 'utf8').catch(() => ''));
    // The lock is made before its pid file: a lock without one yet is a build just starting.
    if (owner > 0 && !processRunning(owner) && !(await exists(done)) && !(await exists(failed)))
      throw new Error(`the test process ${owner} that was building ${project} for this run ended first`);
    if (Date.now() > until)
      throw new Error(`another test file's build of ${project} did not end in ${WAIT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * A private copy of `project` built with `options`, building it only if no test file of this run did
 * yet. `project` is built where it is unless `options.copy` says to build a copy of it. Call it from a
 * test file of a project whose `globalSetup` is test/global-setup.ts (vitest.config.ts).
 *
 * @returns the absolute path of a fresh folder holding the built site (removed by `removeProjects`;
 *   in registry mode `<folder>/dist`, its server bundle in `<folder>/dist-server`).
 * @throws Error with the build's standard error when the build failed, or with the error when it could
 *   not run (in whichever test process built it); when the process building it ended without a result,
 *   or took longer than {@link WAIT_MS}; TypeError when no global setup provided the folder of builds;
 *   the file-system errors of copying the output.
 */
export async function sharedBuild(project: string, options: SharedBuildOptions = {}): Promise<string> {
  const runFolder = inject('sharedBuilds');
  const env = Object.entries(options.env ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const key = createHash('sha256')
    .update(JSON.stringify([path.resolve(project), env, options.copy === true, options.registry === true]))
    .digest('hex')
    .slice(0, 16);
  const done = path.join(runFolder, key);
  const failed = `${done}.failed`;
  const lock = `${done}.lock`;
  if (!(await exists(done))) {
    let mine = false;
    try {
      await mkdir(lock);
      mine = true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (mine) {
      await writeFile(path.join(lock, 'pid'), String(process.pid));
      await buildInto(project, options, done, failed);
    } else await waitFor(project, done, failed, lock);
  }
  if (await exists(failed)) throw new Error(`${project} did not build: ${await readFile(failed, 'utf8')}`);
  const copy = await mkdtemp(path.join(tmpdir(), 'ardsite-shared-copy-'));
  rememberForRemoval(copy);
  await cp(done, copy, { recursive: true });
  return options.registry ? path.join(copy, 'dist') : copy;
}
