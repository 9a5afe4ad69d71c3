/**
 * Reading content and writing artifacts keep one file open at a time, whatever the number of agents: a
 * publisher with 4,000 agent files and 300 stored specs (more than the limit: read all at once, they
 * failed) is checked under an open-file limit of 256 (a macOS shell's default), a build's artifact writer
 * takes 300 agents' files at once under the same limit, and a whole build of 400 agents passes under it. Before: a prefetch of every agent file at once
 * failed with EMFILE at 20,000 agents; the stored specs were all read at once; each agent's files were
 * written concurrently while the next agents were computed, and 600 agents failed a build under
 * `ulimit -n 128`.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { writeSyntheticPublisher } from '../../bench/synthetic.js';
import { fixedKeyEnv } from '../helpers/build.js';
import { REPO_ROOT } from '../helpers/site.js';

const run = promisify(execFile);

/**
 * Runs `command` (bash) under `ulimit -n 256` (a macOS shell's default) from the repository root: exit
 * code and both streams. Lower limits trip Node's own ES module loader, which opens a package's modules
 * all at once (zod's, under 64).
 */
function underLimit(
  command: string,
  env: Record<string, string> = {},
): Promise<{ code: number | undefined; out: string }> {
  return run('bash', ['-c', `ulimit -n 256 && ${command}`], {
    cwd: REPO_ROOT,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, ...env },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, out: stdout + stderr }),
    (e: { code?: number; stdout?: string; stderr?: string }) => ({
      code: e.code,
      out: `${e.stdout ?? ''}${e.stderr ?? ''}`,
    }),
  );
}
const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

it('npm run check reads 4,000 agent files and 300 stored specs under `ulimit -n 256` without EMFILE', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'ardsite-open-files-'));
  dirs.push(dir);
  await writeSyntheticPublisher(dir, { agents: 4000 });
  const outcome = await underLimit(
    `exec "${process.execPath}" --import tsx src/cli/main.ts check --root "${dir}"`,
  );
  expect(outcome.out).not.toMatch(/EMFILE|FILE_UNREADABLE/);
  expect(outcome.code, outcome.out).toBe(0);
}, 60_000);

it("the artifact writer takes 300 agents' files at once under `ulimit -n 256` without EMFILE", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'ardsite-open-files-'));
  dirs.push(dir);
  const script = `
    import { ArtifactWriter } from './src/core/build/output.ts';
    const writer = new ArtifactWriter(${JSON.stringify(path.join(dir, 'out'))}, ${JSON.stringify(path.join(dir, 'public'))});
    const bytes = new TextEncoder().encode('{}');
    await Promise.all(Array.from({ length: 300 }, (_, i) => writer.write([
      { path: '/agents/a' + i + '/agent-card.json', bytes, mediaType: 'application/json' },
      { path: '/agents/a' + i + '/permissions.json', bytes, mediaType: 'application/json' },
    ])));
    console.log('written', writer.written.size);
  `;
  const file = path.join(REPO_ROOT, `.open-files-${process.pid}.tmp.mts`);
  await writeFile(file, script);
  try {
    const outcome = await underLimit(`exec "${process.execPath}" --import tsx "${file}"`);
    expect(outcome.out).not.toMatch(/EMFILE/);
    expect(outcome.out).toContain('written 600');
    expect(outcome.code, outcome.out).toBe(0);
  } finally {
    await rm(file, { force: true });
  }
}, 60_000);

it('npm run build of 400 agents passes under `ulimit -n 256` (Astro and its bundler included)', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'ardsite-open-files-'));
  dirs.push(dir);
  await writeSyntheticPublisher(dir, { agents: 400 });
  await run('git', ['init', '-q'], { cwd: dir });
  const outcome = await underLimit(
    `exec "${process.execPath}" --import tsx src/cli/main.ts build --root "${dir}"`,
    fixedKeyEnv(),
  );
  expect(outcome.out).not.toMatch(/EMFILE/);
  expect(outcome.code, outcome.out).toBe(0);
  expect(outcome.out).toContain('400 agents');
}, 120_000);
