/**
 * The output folders of `npm run bench` (scripts/bench.ts): every build writes a folder of its own that
 * does not exist yet, and earlier outputs are kept, not removed before the next build. On an ext4 file
 * system without a journal, files and folders made within about half a minute of a large removal cost the
 * kernel a pass over the inodes just freed, which the next build would pay for (BENCHMARKS.md, "Build CPU
 * at 10,000 agents: where the extra CPU is"). Only when the disk could not hold the next two builds are the
 * earlier outputs removed (all but the latest, which the report still reads), and the next build waits out
 * that half-minute first.
 */
import { lstat, mkdir, readdir, rm, statfs } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** How long a build waits after a removal of earlier outputs, in milliseconds: the kernel's half-minute and a margin. */
export const REMOVAL_SETTLE_MS = 35_000;

/** Builds the disk must hold besides what it holds now before earlier outputs are removed. */
const BUILDS_AHEAD = 2;

/**
 * Whether `freeBytes` of disk hold `ahead` more builds of `perBuildBytes` each, with a quarter to spare.
 * Pure.
 */
export function roomFor(freeBytes: number, perBuildBytes: number, ahead = BUILDS_AHEAD): boolean {
  return freeBytes >= perBuildBytes * ahead * 1.25;
}

/**
 * What the folder `dir` holds: `bytes` of its files' contents, `files` (regular files), and `diskBytes`, the
 * disk its files and folders take, `dir` itself included (POSIX `st_blocks` × 512). Links are not followed.
 * @throws the file system's errors (`ENOENT` for a missing `dir`).
 */
export async function folderUsage(dir: string): Promise<{ bytes: number; files: number; diskBytes: number }> {
  let bytes = 0;
  let files = 0;
  let diskBytes = (await lstat(dir)).blocks * 512;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const s = await lstat(path.join(entry.parentPath, entry.name));
    diskBytes += s.blocks * 512;
    if (!entry.isFile()) continue;
    bytes += s.size;
    files++;
  }
  return { bytes, files, diskBytes };
}

/** Bytes an unprivileged process may still write on the file system of `dir` (`statfs`: `bavail × bsize`). */
export async function freeBytes(dir: string): Promise<number> {
  const s = await statfs(dir);
  return s.bavail * s.bsize;
}

/** What {@link BenchOutputs} is given (tests give their own disk and clock). */
export interface BenchOutputsOptions {
  /** Free bytes on the disk of a folder (default {@link freeBytes}). */
  free?: (dir: string) => Promise<number>;
  /** Waits this many milliseconds (default a timer). */
  settle?: (ms: number) => Promise<void>;
  /** Where a removal is reported (default nowhere). */
  log?: (line: string) => void;
}

/** The output folders of one bench run, under one folder of their own. */
export class BenchOutputs {
  private readonly made: string[] = [];
  private builds = 0;
  private perBuild = 0;

  /** @param root the folder the outputs go in (made when missing). */
  constructor(
    private readonly root: string,
    private readonly options: BenchOutputsOptions = {},
  ) {}

  /**
   * The folder of the next build, `<root>/<name>-<n>`, which does not exist yet. When the disk could not
   * hold two more builds as large as the largest so far, every earlier output but the latest is removed
   * first, then {@link REMOVAL_SETTLE_MS} pass.
   * @throws the file system's errors.
   */
  async fresh(name: string): Promise<string> {
    await mkdir(this.root, { recursive: true });
    const free = await (this.options.free ?? freeBytes)(this.root);
    if (this.made.length > 1 && !roomFor(free, this.perBuild)) {
      const old = this.made.splice(0, this.made.length - 1);
      this.options.log?.(
        `removing ${old.length} earlier outputs: the disk has ${(free / 2 ** 30).toFixed(1)} GiB free, builds take ${(this.perBuild / 2 ** 30).toFixed(1)} GiB; the next build waits ${REMOVAL_SETTLE_MS / 1000} s after the removal`,
      );
      for (const dir of old) await rm(dir, { recursive: true, force: true });
      await (this.options.settle ?? ((ms) => sleep(ms)))(REMOVAL_SETTLE_MS);
    }
    const dir = path.join(this.root, `${name}-${++this.builds}`);
    this.made.push(dir);
    return dir;
  }

  /** Notes the disk space the build written into `dir` took (what {@link fresh} plans with). */
  async written(dir: string): Promise<void> {
    this.perBuild = Math.max(this.perBuild, (await folderUsage(dir)).diskBytes);
  }
}
