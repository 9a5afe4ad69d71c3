/**
 * Comments and texts in src/ and scripts/ cite public specifications (the RAM proposal, A2A v1.0 §…,
 * the IETF ARD draft draft-bu-dawn-ard-discovery-00 §…, RFC 8785 §…), never this project's own work
 * items: a note naming "seed 000", "issue 15" or "round 3" means nothing to someone who clones the
 * repository. Scans every .ts, .mts, .js, .mjs and .astro file under src/ and scripts/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const engineRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** What a citation of a private work item looks like (case-insensitive). */
const PRIVATE_CITATION = /seed 00\d|issue \d|round \d/i;

/** Every source file under `dir`, as absolute paths. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|mts|js|mjs|astro)$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

/** `path:line: text` for each line of `files` that matches `pattern`. */
function linesMatching(files: string[], pattern: RegExp): string[] {
  return files.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((text, i) =>
        pattern.test(text) ? [`${relative(engineRoot, file)}:${i + 1}: ${text.trim()}`] : [],
      ),
  );
}

describe('citations in src/ and scripts/', () => {
  it('name public specifications, not seeds, issues or rounds of this project', () => {
    const files = ['src', 'scripts'].flatMap((d) => sourceFiles(join(engineRoot, d)));
    expect(files.length).toBeGreaterThan(50);
    expect(linesMatching(files, PRIVATE_CITATION)).toEqual([]);
  });

  it('the pattern catches each form it is meant to catch', () => {
    for (const text of [
      '(seed 000)',
      'Seed 001 calls',
      'issue 15',
      '(Issue 19: …)',
      'BENCHMARKS.md, "Round 6"',
    ])
      expect(PRIVATE_CITATION.test(text), text).toBe(true);
    for (const text of [
      'the RAM proposal',
      'A2A v1.0 §4.4',
      'draft-bu-dawn-ard-discovery-00 §3.5',
      'round-trip',
    ])
      expect(PRIVATE_CITATION.test(text), text).toBe(false);
  });
});
