/**
 * The global setup of each group of test files (vitest.config.ts): the folder of the builds its test
 * files share (test/helpers/shared-build.ts), made before the group's first file runs, emptied when watch
 * mode runs tests again (the sources may have changed since), and removed when vitest ends.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
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
 * Makes the folder of shared builds and provides it to the test files of `project` as `sharedBuilds`.
 * @returns the teardown, which removes the folder.
 * @throws the file-system error when the temporary folder cannot be made.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const folder = await mkdtemp(path.join(tmpdir(), 'ardsite-shared-builds-'));
  project.provide('sharedBuilds', folder);
  project.onTestsRerun(async () => {
    await rm(folder, { recursive: true, force: true });
    await mkdir(folder);
  });
  return () => rm(folder, { recursive: true, force: true });
}
