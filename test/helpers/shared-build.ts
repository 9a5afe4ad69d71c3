/**
 * Builds shared by the test files of one `npm test` run. Several files need the very same built site as
 * their input (the example-like site for the verifier's tests, the Portuguese fixtures for the browser and
 * Lighthouse tests); each used to build it again, eight seconds a build. {@link sharedBuild} builds a
 * project once per run and gives every caller a private copy of the output, so a test that edits its copy
 * changes nobody else's.
 *
 * The builds live in a folder that test/global-setup.ts makes for the run and removes after it (so no
 * output of an earlier run, or of other code, is ever reused), named by what was built: the project's
 * path, the environment laid over the clean one, the extra arguments and whether a copy is built. Test files in other worker
 * processes share it too: the first to ask builds (holding a lock folder made with `mkdir`, which only one
 * process can create), the others wait for its result, and a failed build is reported to every one of
 * them with the build's own output.
 */
import { createHash } from 'node:crypto';
import { cp, mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { buildProject, copyProject, rememberForRemoval } from './build.js';

/** What a shared build is asked for. */
export interface SharedBuildOptions {
  /** Variables laid over the build's clean environment (test/helpers/build.ts `buildProject`). */
  env?: Record<string, string>;
  /** Extra arguments of `scripts/build.ts`. */
  args?: readonly string[];
  /**
   * Build a copy of the project (`copyProject`: its content and public files, with one git commit of a
   * fixed date) rather than the project where it is (default false).
   */
  copy?: boolean;
}

/** How long a file waits for another worker's build of the same project before giving up. */
const WAIT_MS = 300_000;

const exists = (p: string) =>
  stat(p).then(
    () => true,
    () => false,
  );

/** Builds `project` into `done` (through a temporary folder beside it, renamed when complete). */
async function buildInto(project: string, options: SharedBuildOptions, done: string, failed: string) {
  const out = `${done}.building`;
  await rm(out, { recursive: true, force: true });
  const root = options.copy ? await copyProject(project) : project;
  const result = await buildProject(root, {
    out,
    ...(options.env ? { env: options.env } : {}),
    ...(options.args ? { args: options.args } : {}),
  });
  if (result.code !== 0) {
    await writeFile(failed, `exit ${result.code}\n${result.stderr}`);
    return;
  }
  await rename(out, done);
  if (options.copy) await rm(root, { recursive: true, force: true });
}

/**
 * A private copy of `project` built with `options`, building it only if no test file of this run did yet.
 * `project` is built where it is unless `options.copy` says to build a copy of it.
 *
 * @returns the absolute path of a fresh folder holding the built site (removed by `removeProjects`).
 * @throws Error with the build's output when the build failed (in whichever worker ran it), or when
 *   another worker's build of it took longer than five minutes.
 */
export async function sharedBuild(project: string, options: SharedBuildOptions = {}): Promise<string> {
  const runFolder = inject('sharedBuilds');
  const key = createHash('sha256')
    .update(
      JSON.stringify([path.resolve(project), options.env ?? {}, options.args ?? [], options.copy === true]),
    )
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
    if (mine) await buildInto(project, options, done, failed);
    else {
      const until = Date.now() + WAIT_MS;
      while (!(await exists(done)) && !(await exists(failed))) {
        if (Date.now() > until) throw new Error(`another test file's build of ${project} did not end`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }
  if (await exists(failed)) throw new Error(`${project} did not build: ${await readFile(failed, 'utf8')}`);
  const copy = await mkdtemp(path.join(tmpdir(), 'ardsite-shared-copy-'));
  rememberForRemoval(copy);
  await cp(done, copy, { recursive: true });
  return copy;
}
