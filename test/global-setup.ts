/**
 * Set up once for each group of test files (vitest.config.ts) in an `npm test` run, before its first
 * file: the folder of the builds its test files share (test/helpers/shared-build.ts), removed when the
 * run ends.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder of this run's shared builds (test/helpers/shared-build.ts). */
    sharedBuilds: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const folder = await mkdtemp(path.join(tmpdir(), 'ardsite-shared-builds-'));
  project.provide('sharedBuilds', folder);
  return () => rm(folder, { recursive: true, force: true });
}
