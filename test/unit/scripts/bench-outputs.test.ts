import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BenchOutputs,
  folderUsage,
  freeBytes,
  REMOVAL_SETTLE_MS,
  roomFor,
} from '../../../scripts/lib/bench-outputs.js';

let work: string;
beforeEach(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'ardsite-bench-outputs-'));
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

/** Writes a build's worth of files into `dir`, as a build would. */
async function build(dir: string): Promise<void> {
  await mkdir(path.join(dir, 'agents'), { recursive: true });
  await writeFile(path.join(dir, 'agents', 'card.json'), 'x'.repeat(10_000));
  await writeFile(path.join(dir, 'index.html'), 'y'.repeat(5_000));
}

describe('roomFor (npm run bench)', () => {
  it('wants the next two builds and a quarter to spare', () => {
    expect(roomFor(2_500, 1_000)).toBe(true);
    expect(roomFor(2_499, 1_000)).toBe(false);
    expect(roomFor(1_250, 1_000, 1)).toBe(true);
    expect(roomFor(0, 0)).toBe(true);
  });
});

describe('folderUsage and freeBytes', () => {
  it('counts the files, their bytes, and the blocks of every file and folder', async () => {
    const dir = path.join(work, 'out');
    await build(dir);
    const usage = await folderUsage(dir);
    expect(usage.files).toBe(2);
    expect(usage.bytes).toBe(15_000);
    expect(usage.diskBytes).toBeGreaterThanOrEqual(15_000);
    expect(await freeBytes(work)).toBeGreaterThan(0);
  });
});

describe('BenchOutputs', () => {
  it('gives every build a folder that does not exist yet, and keeps earlier ones while the disk has room', async () => {
    const waits: number[] = [];
    const outputs = new BenchOutputs(path.join(work, 'outputs'), {
      free: async () => Number.MAX_SAFE_INTEGER,
      settle: async (ms) => void waits.push(ms),
    });
    const made: string[] = [];
    for (const name of ['floor', 'ardsite', 'ardsite', 'floor']) {
      const dir = await outputs.fresh(name);
      expect(existsSync(dir)).toBe(false);
      await build(dir);
      await outputs.written(dir);
      made.push(dir);
    }
    expect(made.map((d) => path.basename(d))).toEqual(['floor-1', 'ardsite-2', 'ardsite-3', 'floor-4']);
    expect(made.every((d) => existsSync(d))).toBe(true);
    expect(waits).toEqual([]);
  });

  it('removes every earlier output but the latest when the disk is short, then waits before the build', async () => {
    const waits: number[] = [];
    const lines: string[] = [];
    let free = Number.MAX_SAFE_INTEGER;
    const outputs = new BenchOutputs(path.join(work, 'outputs'), {
      free: async () => free,
      settle: async (ms) => void waits.push(ms),
      log: (line) => lines.push(line),
    });
    const made: string[] = [];
    for (const name of ['floor', 'ardsite', 'ardsite']) {
      const dir = await outputs.fresh(name);
      await build(dir);
      await outputs.written(dir);
      made.push(dir);
    }
    free = 1;
    const next = await outputs.fresh('floor');
    expect(existsSync(made[0]!)).toBe(false);
    expect(existsSync(made[1]!)).toBe(false);
    // The latest is the other half of the pair the report reads.
    expect(existsSync(made[2]!)).toBe(true);
    expect(waits).toEqual([REMOVAL_SETTLE_MS]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/removing 2 earlier outputs/);
    expect(path.basename(next)).toBe('floor-4');
    // Still short: the next build removes the one before the latest again, and waits again.
    await build(next);
    await outputs.written(next);
    await outputs.fresh('ardsite');
    expect(existsSync(made[2]!)).toBe(false);
    expect(existsSync(next)).toBe(true);
    expect(waits).toEqual([REMOVAL_SETTLE_MS, REMOVAL_SETTLE_MS]);
  });
});
