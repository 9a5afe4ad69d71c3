/**
 * Fuzz test of `npm run verify` over a folder (docs/security.md, "Fuzz tests" and "Verify: a
 * hostile site"): a built site's files are mutated (test/helpers/mutations.ts: byte flips, truncations, deep
 * nesting, huge strings, type swaps, BOMs) and replaced on disk (symbolic links out of the folder, to
 * `/dev/zero`, to another file of the site, to themselves, dangling; folders; FIFOs; empty files), and
 * the command checks the folder. No input ends in an uncaught exception, a stack trace, or exit 2 while
 * the manifest could be read; `--json` always prints a report (or, at exit 2, the reason).
 *
 * Most runs call the command in-process (scripts/verify.ts `runVerify`, fast); {@link CLI_RUNS} run it as
 * its own process. Bounded by count: {@link RUNS} inputs a run from the fixed seed {@link SEED}
 * (`FUZZ_SEED`, `FUZZ_RUNS` choose others; fast-check prints the seed and shrunk input of a failure).
 */
import fc from 'fast-check';
import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runVerify } from '../../src/cli/run.js';
import { folderReader } from '../../src/core/verify/folder-reader.js';
import { runScript } from '../helpers/cli.js';
import { buildFixtureSite, FIXTURE_ORIGIN, removeFixtureSites } from '../helpers/fixture-site.js';
import { applyMutation, mutation, type Mutation } from '../helpers/mutations.js';

/** In-process inputs per run. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
/** Inputs run as a process of their own (each costs a Node start). */
const CLI_RUNS = 3;
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_201);
/** `--max-bytes` of the runs: 4 MiB, so that some huge strings pass and others are over. */
const MAX_BYTES = 4 * 1024 * 1024;
const ORIGIN = FIXTURE_ORIGIN;
const MANIFEST = '.well-known/ard.json';

/** A change of a file's kind on disk. */
type Replacement =
  | 'symlink-dev-zero'
  | 'symlink-outside'
  | 'symlink-inside'
  | 'symlink-loop'
  | 'dangling'
  | 'folder'
  | 'fifo'
  | 'empty'
  | 'delete';

/** One fuzz input: byte mutations of some files, and some files replaced. File indices are taken modulo the count. */
interface Input {
  mutations: Array<[FilePick, Mutation]>;
  replacements: Array<[FilePick, Replacement]>;
}

let built: string;
/** The built site's files (relative paths), and its JSON documents but the manifest. */
let files: string[];
let jsonFiles: string[];
const original = new Map<string, Buffer>();
const work = mkdtempSync(path.join(tmpdir(), 'ardsite-fuzz-verify-'));
const outsideFile = path.join(work, 'outside.txt');
const site = path.join(work, 'site');

/** A file of the site: the manifest, one of the JSON documents (where most checks look), or any file. */
type FilePick = [group: 'manifest' | 'json' | 'any', n: number];
const filePick: fc.Arbitrary<FilePick> = fc.tuple(
  fc.constantFrom<FilePick[0]>('manifest', 'json', 'json', 'any'),
  fc.nat(),
);

const input: fc.Arbitrary<Input> = fc.record({
  mutations: fc.array(fc.tuple(filePick, mutation), { minLength: 1, maxLength: 3 }),
  replacements: fc.array(
    fc.tuple(
      filePick,
      fc.constantFrom<Replacement>(
        'symlink-dev-zero',
        'symlink-outside',
        'symlink-inside',
        'symlink-loop',
        'dangling',
        'folder',
        'fifo',
        'empty',
        'delete',
      ),
    ),
    { maxLength: 1 },
  ),
});

function walk(dir: string, rel = ''): string[] {
  return readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const r = rel ? `${rel}/${e.name}` : e.name;
    return e.isDirectory() ? walk(dir, r) : [r];
  });
}

/** Writes the pristine site into `site` (the previous input's changes undone). */
function restore(): void {
  rmSync(site, { recursive: true, force: true });
  for (const [rel, bytes] of original) {
    mkdirSync(path.dirname(path.join(site, rel)), { recursive: true });
    writeFileSync(path.join(site, rel), bytes);
  }
}

/** Applies `input` to `site`. Returns the files it changed, for the failure message. */
function apply({ mutations, replacements }: Input): string[] {
  const changed: string[] = [];
  const pick = ([group, n]: FilePick) =>
    group === 'manifest'
      ? MANIFEST
      : group === 'json'
        ? jsonFiles[n % jsonFiles.length]!
        : files[n % files.length]!;
  const codec = {
    parse: (t: string) => JSON.parse(t) as unknown,
    serialise: (v: unknown) => JSON.stringify(v),
  };
  for (const [i, m] of mutations) {
    const rel = pick(i);
    const file = path.join(site, rel);
    const bytes = readFileSync(file);
    writeFileSync(file, applyMutation(bytes, m, rel.endsWith('.json') ? codec : undefined));
    changed.push(`${rel}: ${m.kind}`);
  }
  for (const [i, r] of replacements) {
    const rel = pick(i);
    const file = path.join(site, rel);
    rmSync(file, { recursive: true, force: true });
    if (r === 'symlink-dev-zero') symlinkSync('/dev/zero', file);
    else if (r === 'symlink-outside') symlinkSync(outsideFile, file);
    else if (r === 'symlink-inside') symlinkSync(path.join(site, pick(['any', i[1] + 1])), file);
    else if (r === 'symlink-loop') symlinkSync(file, file);
    else if (r === 'dangling') symlinkSync(path.join(site, 'no-such-file'), file);
    else if (r === 'folder') mkdirSync(file);
    else if (r === 'fifo') execFileSync('mkfifo', [file]);
    else if (r === 'empty') writeFileSync(file, '');
    changed.push(`${rel}: ${r}`);
  }
  return changed;
}

/** Whether the manifest can be read at all (then exit 2 is wrong). */
async function manifestReadable(): Promise<boolean> {
  try {
    return (
      (await folderReader(site, ORIGIN, { maxBytes: MAX_BYTES }).read(`${ORIGIN}/${MANIFEST}`)) !== undefined
    );
  } catch {
    return false;
  }
}

const ARGS = ['--origin', ORIGIN, '--json', '--max-bytes', String(MAX_BYTES), '--deadline', '60'];
/** A stack trace, or the message of a stack overflow: never in a report. */
const STACK = /\n\s+at .+[:(]\d+:\d+|Maximum call stack|RangeError/;

/** The oracle: what any run over any input must give. */
function expectReport(
  code: number,
  stdout: string,
  stderr: string,
  readable: boolean,
  changed: string[],
): void {
  const what = `${changed.join('; ')}\nexit ${code}\n${stdout.slice(0, 2000)}\n${stderr.slice(0, 2000)}`;
  expect(STACK.test(stdout) || STACK.test(stderr), what).toBe(false);
  const report = JSON.parse(stdout) as { error?: string; findings?: unknown[] };
  if (readable) {
    expect([0, 1], what).toContain(code);
    expect(Array.isArray(report.findings), what).toBe(true);
  } else {
    expect(code, what).toBe(2);
    expect(typeof report.error, what).toBe('string');
  }
}

beforeAll(async () => {
  built = await buildFixtureSite();
  const all = walk(built);
  files = all;
  jsonFiles = all.filter((f) => f.endsWith('.json') && f !== MANIFEST);
  for (const rel of all) original.set(rel, readFileSync(path.join(built, rel)));
  writeFileSync(outsideFile, 'root:x:0:0:root:/root:/bin/bash\n');
}, 120_000);

afterAll(async () => {
  rmSync(work, { recursive: true, force: true });
  await removeFixtureSites();
});

describe('verify fuzzing (a hostile site never ends verify without a report)', () => {
  it('the pristine site verifies clean (the oracle starts from a passing site)', async () => {
    restore();
    let stdout = '';
    const code = await runVerify([site, ...ARGS, '--threads', '0'], {
      stdout: { write: (t: string) => (stdout += t) },
      stderr: { write: () => true },
    });
    expect(code, stdout).toBe(0);
  });

  it(`${RUNS} mutated sites, in-process: never a throw, a stack trace, or exit 2 with a readable manifest`, async () => {
    await fc.assert(
      fc.asyncProperty(input, async (value) => {
        restore();
        const changed = apply(value);
        const readable = await manifestReadable();
        let stdout = '';
        let stderr = '';
        const code = await runVerify([site, ...ARGS, '--threads', '0'], {
          stdout: { write: (t: string) => (stdout += t) },
          stderr: { write: (t: string) => (stderr += t) },
        });
        expectReport(code, stdout, stderr, readable, changed);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  }, 600_000);

  it(`${CLI_RUNS} mutated sites, each verified by the command in its own process`, async () => {
    const inputs = fc.sample(input, { numRuns: CLI_RUNS, seed: SEED + 1 });
    for (const [n, value] of inputs.entries()) {
      restore();
      const changed = apply(value);
      const readable = await manifestReadable();
      // One of them with a helper thread, so the threads' path is fuzzed too.
      const run = await runScript('verify.ts', site, ...ARGS, '--threads', n === 0 ? '1' : '0');
      expectReport(run.code, run.stdout, run.stderr, readable, changed);
    }
  }, 300_000);
});
