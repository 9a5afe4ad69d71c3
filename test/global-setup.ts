/**
 * The global setup of each group of test files (vitest.config.ts), in vitest's own process.
 *
 * - The run's temp folder: the first group's setup makes `ardsite-test-run-*` in the system temp folder
 *   and points `TMPDIR` at it before any test process starts, so that every test file and every command a
 *   test runs (`npm run build`, git, Chromium) makes its temporary folders there (os.tmpdir() reads
 *   `TMPDIR`). A test that makes one removes it; when the last group ends, whatever is still there was
 *   left by a test or by ardsite itself: each path is printed as a warning, then the whole folder is
 *   removed, so a run leaves the machine's temp folder as it found it.
 * - The folder of the builds the test files share (test/helpers/shared-build.ts), one for the whole run
 *   so that a later group finds what an earlier one built: made in the run's temp folder before the first
 *   group's first file runs, emptied when watch mode runs tests again (the sources may have changed
 *   since), and removed with the run's temp folder.
 *
 * A leftover is warned about, not failed on: the folder is listed once every test process has ended, but
 * a command a test started and could not stop (a timed-out build, a browser killed mid-write) may still
 * write into it, and a run that fails on that now and then is worse than a warning that names the folder
 * to fix.
 */
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder of this group's shared builds (test/helpers/shared-build.ts). */
    sharedBuilds: string;
  }
}

/**
 * What tools keep in the temp folder between runs by design, so not a leftover of a test: tsx's compile
 * cache (`tsx-<uid>`).
 */
const TOOL_CACHES = [/^tsx-\d+$/];

/** The run's temp folder, shared by the setups of every group (they run in one process). */
interface RunTemp {
  /** The folder `TMPDIR` names while the run lasts. */
  folder: string;
  /** `TMPDIR` before the run (undefined when it was not set). */
  previous: string | undefined;
  /** The folder of the builds every group shares (test/helpers/shared-build.ts). */
  builds: string;
  /** The groups whose teardown has not run yet. */
  groups: number;
}

/** Where the groups' setups find the run's temp folder: each group loads this module on its own. */
const RUN_TEMP = Symbol.for('ardsite.tests.runTemp');
const shared = globalThis as typeof globalThis & { [RUN_TEMP]?: RunTemp };

/** The run's temp folder, made (and `TMPDIR` pointed at it) by the first group to ask. */
async function joinRunTemp(): Promise<RunTemp> {
  let run = shared[RUN_TEMP];
  if (run === undefined) {
    const folder = await mkdtemp(path.join(tmpdir(), 'ardsite-test-run-'));
    const builds = await mkdtemp(path.join(folder, 'ardsite-shared-builds-'));
    run = { folder, builds, previous: process.env.TMPDIR, groups: 0 };
    shared[RUN_TEMP] = run;
    process.env.TMPDIR = folder;
  }
  run.groups++;
  return run;
}

/**
 * Leaves the run's temp folder; the last group to leave warns about what is still in it (one line a
 * path), restores `TMPDIR` and removes the folder.
 */
async function leaveRunTemp(run: RunTemp): Promise<void> {
  if (--run.groups > 0) return;
  delete shared[RUN_TEMP];
  if (run.previous === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = run.previous;
  await rm(run.builds, { recursive: true, force: true });
  const names = await readdir(run.folder).catch(() => []);
  const leftovers = names.filter((name) => !TOOL_CACHES.some((cache) => cache.test(name))).sort();
  if (leftovers.length > 0) {
    const things = leftovers.length === 1 ? '1 thing' : `${leftovers.length} things`;
    process.stderr.write(
      [
        '',
        `WARNING: the tests left ${things} in the temp folder (removed now with the run's temp folder).`,
        'A test, a test helper or a command a test ran made each and did not remove it; fix it there:',
        ...leftovers.map((name) => `  ${path.join(run.folder, name)}`),
        '',
      ].join('\n'),
    );
  }
  await rm(run.folder, { recursive: true, force: true });
}

/**
 * Joins the run's temp folder and provides the run's folder of shared builds to the test files of
 * `project` as `sharedBuilds`.
 * @returns the teardown, which (the last group's) removes the folder of shared builds and the run's temp
 *   folder.
 * @throws the file-system error when a folder cannot be made.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const run = await joinRunTemp();
  project.provide('sharedBuilds', run.builds);
  project.onTestsRerun(async () => {
    await rm(run.builds, { recursive: true, force: true });
    await mkdir(run.builds, { recursive: true });
  });
  return () => leaveRunTemp(run);
}
