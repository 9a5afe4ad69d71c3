/**
 * `npm run check` as a publisher runs it: the real CLI in a child process, over the example-like fixture, the
 * valid fixture and the broken fixture, in text and in `--json` form (DESIGN.md §1, §5).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/core/util/errors.js';
import { PLANTED_FAULTS } from '../helpers/broken-site.js';
import { runScript, runScriptWithEnv } from '../helpers/cli.js';
import { agentMd, EXAMPLE_LIKE, fixture, makeSite, removeSites, REPO_ROOT } from '../helpers/site.js';

afterAll(removeSites);

/** Runs `scripts/check.ts`; never throws on a non-zero exit. */
const check = (...args: string[]) => runScript('check.ts', ...args);
const run = promisify(execFile);

interface JsonReport {
  agents: number;
  resources: number;
  entries: number;
  errors: number;
  warnings: number;
  diagnostics: Diagnostic[];
}

const lines = (text: string) => text.split('\n').filter((l) => l !== '');
const summary = (text: string) => lines(text).at(-1);
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('npm run check on the example-like content', () => {
  it('exits 0 with the summary line, and each warning printed above it', async () => {
    const { code, stdout, stderr } = await check('--root', EXAMPLE_LIKE);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const last = summary(stdout)!;
    expect(last).toMatch(/^checked \S+\/: 3 agents, 5 resources, 2 entries, 0 errors, (\d+) warnings?$/);
    const warnings = Number(/(\d+) warnings?$/.exec(last)![1]);
    expect(lines(stdout).filter((l) => l.startsWith('W  '))).toHaveLength(warnings);
    expect(lines(stdout).filter((l) => l.startsWith('E  '))).toEqual([]);
  });

  it('runs as the package.json script', async () => {
    const { stdout } = await run(
      'npm',
      ['run', '--silent', 'check', '--', '--root', EXAMPLE_LIKE, '--json'],
      {
        cwd: REPO_ROOT,
      },
    );
    expect(JSON.parse(stdout)).toMatchObject({ agents: 3, resources: 5, entries: 2, errors: 0 });
  });
});

describe('npm run check --root content-valid', () => {
  it('exits 0 with no finding', async () => {
    const { code, stdout } = await check('--root', fixture('content-valid'));
    expect(code).toBe(0);
    expect(stdout).toMatch(/^checked \S+\/: 2 agents, 2 resources, 1 entry, 0 errors, 0 warnings\n$/);
  });

  it('--json gives the counts and an empty list', async () => {
    const { code, stdout } = await check('--root', fixture('content-valid'), '--json');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      agents: 2,
      resources: 2,
      entries: 1,
      errors: 0,
      warnings: 0,
      diagnostics: [],
    });
  });
});

describe('npm run check --root content-broken', () => {
  it('exits 1 and prints every fault of every file in one run, with file:line and path', async () => {
    const { code, stdout } = await check('--root', fixture('content-broken'));
    expect(code).toBe(1);
    const errorLines = lines(stdout).filter((l) => l.startsWith('E  '));
    expect(errorLines).toHaveLength(PLANTED_FAULTS.length);
    PLANTED_FAULTS.forEach((fault, i) => {
      const line = errorLines[i]!;
      // file:line, then :column when the parser knows it.
      expect(line).toMatch(new RegExp(`^E  ${escapeRegExp(fault.file)}:${fault.line}(:\\d+)?  `));
      if (fault.path) expect(line).toContain(`  ${fault.path}  `);
      expect(line.endsWith(`[${fault.code}]`)).toBe(true);
    });
    const files = new Set(PLANTED_FAULTS.map((f) => f.file));
    expect(files.size).toBeGreaterThanOrEqual(9);
    expect(summary(stdout)).toMatch(
      new RegExp(
        `^checked \\S+/: 6 agents, 2 resources, 0 entries, ${PLANTED_FAULTS.length} errors, 0 warnings$`,
      ),
    );
  });

  it('--json lists the same diagnostics with their fields', async () => {
    const { code, stdout } = await check('--root', fixture('content-broken'), '--json');
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as JsonReport;
    expect(report).toMatchObject({
      agents: 6, // counted by file, the five with errors included
      resources: 2,
      entries: 0,
      errors: PLANTED_FAULTS.length,
      warnings: 0,
    });
    expect(
      report.diagnostics.map((d) => ({ code: d.code, file: d.file, path: d.path, line: d.line })),
    ).toEqual(PLANTED_FAULTS.map((f) => ({ code: f.code, file: f.file, path: f.path, line: f.line })));
    for (const d of report.diagnostics) {
      expect(d.severity).toBe('error');
      expect(d.message.length).toBeGreaterThan(0);
    }
  });
});

describe('npm run check on a folder without content', () => {
  it('exits 1 and names the missing publisher file; the agents are still checked, RAM references included', async () => {
    const root = await makeSite({
      'content/publisher.yaml': null,
      'content/agents/a.md': agentMd({
        resourceAccesses: [
          {
            id: 'x',
            operation: 'no-such-operation',
            identityUsed: 'END_USER',
            accessJustification: 'Because.',
            necessity: 'REQUIRED',
          },
        ],
      }),
    });
    const { code, stdout } = await check('--root', root);
    expect(code).toBe(1);
    expect(stdout).toContain('E  content/publisher.yaml  file does not exist  [FILE_MISSING]');
    expect(stdout).toMatch(
      /^E {2}content\/agents\/a\.md:\d+:\d+ {2}resourceAccesses\[0\]\.operation .*\[RAM_DANGLING_OPERATION\]$/m,
    );
    expect(summary(stdout)).toBe(
      `checked ${root}/: no site (content/publisher.yaml is unusable; the other files were checked one by one), 2 errors, 0 warnings`,
    );
  });
});

describe('the summary line names the project checked', () => {
  const valid = fixture('content-valid');
  const counts = '2 agents, 2 resources, 1 entry, 0 errors, 0 warnings';

  it('as --root gave it: a folder outside the one the command was typed in, by its absolute path', async () => {
    const root = await makeSite({ 'content/agents/a.md': agentMd() });
    const { code, stdout } = await check('--root', root);
    expect([code, stdout]).toEqual([
      0,
      `checked ${root}/: 1 agent, 0 resources, 0 entries, 0 errors, 0 warnings\n`,
    ]);
  });

  it('relative to the folder npm was run from (INIT_CWD), not to ardsite’s own, where npm runs the script', async () => {
    // npm --prefix <ardsite> run check -- --root test/fixtures/content-valid, typed in another folder: the
    // --root is read in ardsite's folder, and the summary says which project that was.
    const elsewhere = await runScriptWithEnv('check.ts', ['--root', 'test/fixtures/content-valid'], {
      INIT_CWD: await makeSite({}),
    });
    expect(summary(elsewhere.stdout)).toBe(`checked ${valid}/: ${counts}`);
    const here = await runScriptWithEnv('check.ts', ['--root', 'test/fixtures/content-valid'], {
      INIT_CWD: REPO_ROOT,
    });
    expect(summary(here.stdout)).toBe(`checked test/fixtures/content-valid/: ${counts}`);
  });
});
