/**
 * The test data kept beside this repository's CI checkout (`../shared/testdata/`). A user's clone has no such
 * folder, so no test may depend on it: every test reads its own copy under `test/fixtures/`, and may compare
 * that copy with its source here only when the source exists. This module is the one place that names the
 * folder; test/unit/repository/outside-reads.test.ts fails on any other test source that reaches outside the repository.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './site.js';

/** `../shared/testdata/` beside the repository (it may not exist). */
const SHARED_TESTDATA = path.resolve(REPO_ROOT, '..', 'shared', 'testdata');

/**
 * The absolute path of `relative` under `../shared/testdata/`, or `undefined` when that file or folder does not
 * exist (a clone with nothing beside it). Use only to check a fixture copy against its source.
 */
export function sharedTestdata(relative: string): string | undefined {
  const file = path.join(SHARED_TESTDATA, relative);
  return existsSync(file) ? file : undefined;
}
