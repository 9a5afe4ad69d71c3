/**
 * Engine, example and tests apart: no test reads the example publisher's `content/` or
 * `public/` at the repository root, so a publisher who edits or replaces the example keeps `npm test`
 * green. Tests use fixtures (test/fixtures/example-like/ for "a realistic site"). This scans every test
 * source for the ways a test could reach the example: the repository root as a project root, or a path
 * under its content/ or public/.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/site.js';

/** Patterns that name the example at the repository root. */
const REACHES_EXAMPLE: readonly RegExp[] = [
  /REPO_ROOT\s*,\s*['"`](content|public)\b/, // path.join(REPO_ROOT, 'content', …)
  /REPO_ROOT\s*,\s*['"`]\.?\/?(content|public)\//,
  /root:\s*REPO_ROOT\b/, // loadAndCheck({ root: REPO_ROOT }), prepareBuild({ root: REPO_ROOT })
  /copyProject\(\s*REPO_ROOT\s*\)/, // copyProject() alone copies the example-like fixture
  /\(\s*['"`][^'"`]*['"`]\s*,\s*REPO_ROOT\s*[,)]/, // buildSite('example', REPO_ROOT, …)
  /check\(\s*\)/, // scripts/check.ts with no --root checks the working directory, the example
];

function offences(text: string): string[] {
  return text
    .split('\n')
    .map((line, i) => ({ line, n: i + 1 }))
    .filter(({ line }) => REACHES_EXAMPLE.some((re) => re.test(line)))
    .map(({ line, n }) => `${n}: ${line.trim()}`);
}

describe('tests stay apart from the example', () => {
  it('the guard recognises each way of reaching the example', () => {
    for (const line of [
      "readFileSync(path.join(REPO_ROOT, 'content/agents/x.md'))",
      "path.join(REPO_ROOT, 'public', 'mcp')",
      'loadAndCheck({ root: REPO_ROOT })',
      'root = await copyProject(REPO_ROOT);',
      "buildAndServe('example', REPO_ROOT)",
      'const { code } = await check();',
    ])
      expect(offences(line), line).toHaveLength(1);
    expect(offences("path.join(REPO_ROOT, 'node_modules', 'axe-core')")).toEqual([]);
    expect(offences("copyProject(); copyProject(EXAMPLE_LIKE); check('--root', EXAMPLE_LIKE)")).toEqual([]);
  });

  it('no test source reaches the example content/ or public/', async () => {
    const files = await fg(['test/**/*.ts'], {
      cwd: REPO_ROOT,
      ignore: ['test/fixtures/**', 'test/unit/repository/tests-apart.test.ts'],
    });
    const found: string[] = [];
    for (const file of files)
      for (const o of offences(readFileSync(path.join(REPO_ROOT, file), 'utf8'))) found.push(`${file}:${o}`);
    expect(found).toEqual([]);
  });
});
