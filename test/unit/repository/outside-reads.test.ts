/**
 * `npm test` passes on a clone with nothing beside it: no test source reaches outside the repository. A
 * user's clone has no `../shared/` (the test data beside this repository's CI checkout), so every test reads
 * its own copy under `test/fixtures/`; only test/helpers/shared-testdata.ts names that folder, and it answers
 * `undefined` when it is absent. This scans every test source for a path that leaves the repository: a
 * string naming `shared/testdata`, a relative path that climbs out of the repository from the file's own
 * folder, or a path joined onto the repository root that climbs out of it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';
import { sharedTestdata } from '../../helpers/shared-testdata.js';
import { fixture, REPO_ROOT } from '../../helpers/site.js';

/** The one test source allowed to name the folder beside the repository. */
const ALLOWED = 'test/helpers/shared-testdata.ts';
/** This file, whose probes of the guard are written as code. */
const SELF = 'test/unit/repository/outside-reads.test.ts';

/** Whether `target` lies outside the repository. */
function outside(target: string): boolean {
  const rel = path.relative(REPO_ROOT, target);
  return rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel);
}

/** The lines of `text` (a file at `file`, relative to the repository) that reach outside the repository. */
function offences(file: string, text: string): string[] {
  const dir = path.dirname(path.join(REPO_ROOT, file));
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    const code = line.trim();
    if (code.startsWith('*') || code.startsWith('//') || code.startsWith('/*')) return;
    const literals = [...code.matchAll(/(['"`])((?:\.\.?\/)[^'"`]*)\1/g)].map((m) => m[2]!);
    const climbs = literals.some((l) => l.startsWith('../') && outside(path.resolve(dir, l)));
    const fromRoot = /REPO_ROOT\s*,\s*['"`]\.\.(?:[/'"`])/.test(code);
    if (/shared\/testdata|['"`]shared['"`]\s*,\s*['"`]testdata/.test(code) || climbs || fromRoot) {
      found.push(`${file}:${i + 1}: ${code}`);
    }
  });
  return found;
}

describe('tests read nothing outside the repository', () => {
  it('the guard recognises each way out', () => {
    const probe = 'test/unit/probe.test.ts';
    expect(offences(probe, "const s = '../../../shared/testdata/a2a/x.json';")).toHaveLength(1);
    expect(offences(probe, "path.resolve(REPO_ROOT, '../shared/x.json')")).toHaveLength(1);
    expect(offences(probe, "readFileSync(path.join(here, '../../../elsewhere/x.json'))")).toHaveLength(1);
    expect(offences(probe, "path.join(dir, 'shared', 'testdata')")).toHaveLength(1);
    expect(offences(probe, "readFileSync(path.join(here, '../fixtures/a2a/x.json'))")).toEqual([]);
    expect(offences(probe, ' * copied from ../shared/testdata/specs')).toEqual([]);
  });

  it('no test source but the shared-testdata helper reaches outside', async () => {
    const files = await fg(['test/**/*.{ts,mts,js,mjs}', 'vitest.config.ts'], {
      cwd: REPO_ROOT,
      ignore: ['test/fixtures/**', 'test/vendor/**', ALLOWED, SELF],
    });
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((f) => offences(f, readFileSync(path.join(REPO_ROOT, f), 'utf8')));
    expect(found).toEqual([]);
  });

  it.skipIf(sharedTestdata('a2a/a2a-v0.3.0.schema.json') === undefined)(
    'the A2A v0.3.0 schema fixture equals its source when both exist',
    () => {
      const source = sharedTestdata('a2a/a2a-v0.3.0.schema.json')!;
      const copy = path.join(fixture('a2a'), 'a2a-v0.3.0.schema.json');
      expect(readFileSync(copy).equals(readFileSync(source))).toBe(true);
    },
  );
});
