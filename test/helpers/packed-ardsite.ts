/**
 * ardsite as a publisher installs it, made once per `npm test` run: `npm pack` of this repository (its
 * `prepack` compiles `lib/`), and the tarball installed into a folder that has only its own package.json,
 * with ardsite's dependencies (Astro among them) from the npm registry, as in CI. Packing and installing
 * take minutes, so the test files that need the installed package (test/package/) share one: it lives in
 * the folder of shared builds that test/global-setup.ts makes for the group and removes when the run
 * ends, and the first file to ask makes it while holding a lock folder (`mkdir`, which one process only
 * can create); a later file finds it done, or finds why it failed.
 */
import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { inject } from 'vitest';
import { processRunning } from '../../src/core/build/stale-temp.js';
import { REPO_ROOT } from './site.js';

/** What one command gave. */
export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Variables of the parent process that must not reach the publisher's commands. */
const SCRUBBED = /^(CI|ARDSITE_.*|SOURCE_DATE_EPOCH|NODE_ENV|VITEST.*|TEST|GIT_.*|INIT_CWD|npm_.*)$/;

/**
 * Runs `command args` in `cwd` over the parent's environment without {@link SCRUBBED} variables, plus
 * `NO_COLOR=1` and `env`; never throws for a non-zero exit (`code` is -1 when the command did not start).
 */
export function run(
  command: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<Ran> {
  const clean: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !SCRUBBED.test(k)) clean[k] = v;
  return new Promise((resolve) => {
    execFile(
      command,
      [...args],
      { cwd, env: { ...clean, NO_COLOR: '1', ...env }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** The packed and installed ardsite. */
export interface PackedArdsite {
  /** The tarball `npm pack` made. */
  tarball: string;
  /**
   * A folder with a package.json of its own (`a-publisher`) and the tarball installed in its
   * node_modules. Tests make their projects in sub-folders of their own name, never at its top.
   */
  installed: string;
}

/** How long a file waits for another file's pack and install (below the hook timeout of 900 s). */
const WAIT_MS = 840_000;

const exists = (p: string) =>
  stat(p).then(
    () => true,
    () => false,
  );

/** Packs and installs into `building`, then renames it to `done`; writes why not into `failed`. */
async function packAndInstall(building: string, done: string, failed: string): Promise<void> {
  const fail = (why: string) => writeFile(failed, why);
  await rm(building, { recursive: true, force: true });
  await mkdir(building, { recursive: true });
  const packed = await run('npm', ['pack', '--pack-destination', building], REPO_ROOT);
  if (packed.code !== 0) return fail(`npm pack exited with ${packed.code}:\n${packed.stderr}`);
  const name = (await readdir(building)).find((f) => f.endsWith('.tgz'));
  if (!name) return fail(`npm pack made no .tgz in ${building}`);
  const installed = path.join(building, 'publisher');
  await mkdir(installed);
  await writeFile(path.join(installed, 'package.json'), '{ "name": "a-publisher", "private": true }\n');
  const install = await run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', path.join(building, name)],
    installed,
  );
  if (install.code !== 0) return fail(`npm install exited with ${install.code}:\n${install.stderr}`);
  await rename(building, done);
}

/**
 * The packed ardsite of this run, packing and installing it if no test file of the group did yet. Call
 * it from a test file whose `globalSetup` is test/global-setup.ts (vitest.config.ts), in `beforeAll`.
 * @throws Error with npm's standard error when packing or installing failed (in whichever test process
 *   did it), or when the process doing it ended without a result or took longer than {@link WAIT_MS}.
 */
export async function packedArdsite(): Promise<PackedArdsite> {
  const done = path.join(inject('sharedBuilds'), 'packed-ardsite');
  const failed = `${done}.failed`;
  const lock = `${done}.lock`;
  let mine = false;
  try {
    await mkdir(lock);
    mine = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  if (mine) {
    await writeFile(path.join(lock, 'pid'), String(process.pid));
    await packAndInstall(`${done}.building`, done, failed).catch((error: unknown) =>
      writeFile(failed, `could not pack or install: ${(error as Error).stack ?? String(error)}`),
    );
  } else {
    const until = Date.now() + WAIT_MS;
    while (!(await exists(done)) && !(await exists(failed))) {
      const owner = Number(await readFile(path.join(lock, 'pid'), 'utf8').catch(() => ''));
      if (owner > 0 && !processRunning(owner) && !(await exists(done)) && !(await exists(failed)))
        throw new Error(`the test process ${owner} that was packing ardsite for this run ended first`);
      if (Date.now() > until) throw new Error(`another test file's pack of ardsite took over ${WAIT_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  if (await exists(failed)) throw new Error(`ardsite could not be packed: ${await readFile(failed, 'utf8')}`);
  const name = (await readdir(done)).find((f) => f.endsWith('.tgz'));
  return { tarball: path.join(done, name!), installed: path.join(done, 'publisher') };
}
