/**
 * The bundled worker threads (src/core/util/compiled-worker.ts), here the verifier's: made once, used while its sources
 * are unchanged, made again when one changes, and a clear reason (never a throw) when it cannot be made.
 * Runs over a copy of src/core in a temporary root, so the project's own cache is left alone.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledWorkerExecArgv, compiledWorker } from '../../../src/core/util/compiled-worker.js';
import { REPO_ROOT } from '../../helpers/site.js';

let root: string;
let cacheDir: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'ardsite-worker-bundle-'));
  await cp(path.join(REPO_ROOT, 'src', 'core'), path.join(root, 'src', 'core'), { recursive: true });
  cacheDir = path.join(root, 'cache');
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('compiledWorker', () => {
  it('bundles the worker and the ardsite modules it imports, leaving packages as imports', async () => {
    const first = await compiledWorker('verify', { root, cacheDir });
    expect(first).toMatchObject({ made: true });
    const text = await readFile(first.file!, 'utf8');
    expect(text).toMatch(/from ["']@a2a-js\/sdk["']/); // a package import, resolved at run time
    expect(text).toContain('readManifest'); // src/core/verify/entry-checks.ts, bundled
    expect(text).not.toMatch(/from ["']\.\.?\//); // no relative import left to a .ts file
    const record = JSON.parse(await readFile(path.join(cacheDir, 'verify-worker.json'), 'utf8')) as {
      inputs: Record<string, string>;
    };
    expect(Object.keys(record.inputs)).toEqual(
      expect.arrayContaining(['src/core/verify/entries-worker.ts', 'src/core/verify/entry-checks.ts']),
    );
  });

  it('uses the same bundle while its sources are unchanged, and makes a new one when one changes', async () => {
    const before = await compiledWorker('verify', { root, cacheDir });
    const again = await compiledWorker('verify', { root, cacheDir });
    expect(again).toEqual({ file: before.file, made: false });

    const source = path.join(root, 'src', 'core', 'verify', 'entries-worker.ts');
    await writeFile(source, `${await readFile(source, 'utf8')}\nconsole.debug('changedForTest');\n`);
    const after = await compiledWorker('verify', { root, cacheDir });
    expect(after).toMatchObject({ made: true });
    expect(after.file).not.toBe(before.file);
    expect(await readFile(after.file!, 'utf8')).toContain('changedForTest');
  });

  it('makes the bundle again when the recipe changes (tsconfig.json)', async () => {
    expect(await compiledWorker('verify', { root, cacheDir })).toMatchObject({ made: false });
    await writeFile(path.join(root, 'tsconfig.json'), '{ "compilerOptions": { "strict": true } }\n');
    expect(await compiledWorker('verify', { root, cacheDir })).toMatchObject({ made: true });
    expect(await compiledWorker('verify', { root, cacheDir })).toMatchObject({ made: false });
  });

  it('gives a reason, not an error, when the worker cannot be bundled', async () => {
    const empty = await mkdtemp(path.join(os.tmpdir(), 'ardsite-worker-none-'));
    try {
      const result = await compiledWorker('verify', { root: empty, cacheDir: path.join(empty, 'cache') });
      expect(result.file).toBeUndefined();
      expect(result).toMatchObject({
        reason: expect.stringMatching(/the verify worker could not be bundled/),
      });
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});

describe('bundledWorkerExecArgv', () => {
  it('passes on the CPU profiler’s flags only: no loader, no shared profile name', () => {
    expect(
      bundledWorkerExecArgv([
        '--import',
        'tsx',
        '--cpu-prof',
        '--cpu-prof-dir',
        '/tmp/profiles',
        '--cpu-prof-interval=500',
        '--cpu-prof-name=main.cpuprofile',
        '--heap-growing-percent=50',
      ]),
    ).toEqual(['--cpu-prof', '--cpu-prof-dir', '/tmp/profiles', '--cpu-prof-interval=500']);
    expect(bundledWorkerExecArgv(['--import', 'tsx'])).toEqual([]);
  });
});
