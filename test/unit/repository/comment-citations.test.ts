/**
 * Comments and texts in src/, scripts/ and test/ cite public specifications (the RAM proposal, A2A v1.0
 * §…, the IETF ARD draft draft-bu-dawn-ard-discovery-00 §…, RFC 8785 §…), never this project's own work
 * items: a note naming "seed 000", "issue 15" or "round 3" means nothing to someone who clones the
 * repository. Scans every .ts, .mts, .js, .mjs and .astro file under src/, scripts/ and test/, except
 * this file, whose planted examples are such citations on purpose.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const thisFile = fileURLToPath(import.meta.url);
const engineRoot = resolve(dirname(thisFile), '../../..');

/** What a citation of a private work item looks like (case-insensitive). */
const PRIVATE_CITATION = /seed 00\d|issue \d|round \d/i;

/** Every source file under `dir`, as absolute paths. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|mts|js|mjs|astro)$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

/** `name:line: text` for each line of `text` that matches `pattern`. */
function matchingLines(name: string, text: string, pattern: RegExp): string[] {
  return text
    .split('\n')
    .flatMap((line, i) => (pattern.test(line) ? [`${name}:${i + 1}: ${line.trim()}`] : []));
}

/** `path:line: text` for each line of `files` that matches `pattern`. */
function linesMatching(files: string[], pattern: RegExp): string[] {
  return files.flatMap((file) =>
    matchingLines(relative(engineRoot, file), readFileSync(file, 'utf8'), pattern),
  );
}

/** Every source file under test/, but this one (its planted examples cite work items on purpose). */
function testFiles(): string[] {
  return sourceFiles(join(engineRoot, 'test')).filter((f) => f !== thisFile);
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

describe('citations in test/', () => {
  it('name public specifications, not seeds, issues or rounds of this project', () => {
    const files = testFiles();
    expect(files.length).toBeGreaterThan(150);
    expect(linesMatching(files, PRIVATE_CITATION)).toEqual([]);
  });

  it('leave out this file only: helpers, fixtures and every test folder are scanned', () => {
    const names = testFiles().map((f) => relative(engineRoot, f));
    expect(names).not.toContain(relative(engineRoot, thisFile));
    for (const name of [
      'test/global-setup.ts',
      'test/helpers/releases.ts',
      'test/fixtures/verify/crashing-helper.mjs',
      'test/unit/repository/tests-apart.test.ts',
      'test/browser/lighthouse.test.ts',
    ])
      expect(names, name).toContain(name);
  });

  it('fail on a bad comment planted in a test file, naming its file and line', () => {
    const file = join(engineRoot, 'test/helpers/releases.ts');
    const name = relative(engineRoot, file);
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(matchingLines(name, lines.join('\n'), PRIVATE_CITATION)).toEqual([]);
    const planted = [...lines.slice(0, 4), '// The widening of issue 16 (seed 000).', ...lines.slice(4)];
    expect(matchingLines(name, planted.join('\n'), PRIVATE_CITATION)).toEqual([
      `${name}:5: // The widening of issue 16 (seed 000).`,
    ]);
  });
});
