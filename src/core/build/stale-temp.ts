/**
 * Temporary folders of killed builds (DESIGN.md §4: a build writes into a temporary folder and swaps
 * it into place). A build that is killed (Ctrl-C twice, an out-of-memory kill, a CI timeout) leaves its
 * `.ardsite-tmp-*` folder in the project and its `ardsite-vite-*` cache in the system temp folder; the
 * next build removes them. Only ardsite's own folders are touched, known by name, and never one of a
 * build that may still be running: each name carries the pid of the build that made it
 * (`<prefix><pid>-<random>`), and a folder is removed only when that process is gone and the folder is
 * older than {@link DEAD_OWNER_MIN_AGE_MS}, or when it is older than {@link MAX_AGE_MS} whatever its pid
 * says (a pid may be reused, or belong to another machine or container sharing the folder). A folder
 * named before pids were added is removed after {@link UNNAMED_OWNER_MIN_AGE_MS}.
 */
import { lstat, readdir, rm } from 'node:fs/promises';
import path from 'node:path';

/** Prefix of the temporary build folders in the project (git-ignored). */
export const TEMP_PREFIX = '.ardsite-tmp-';
/** Prefix of Vite's per-build cache folders in the system temp folder. */
export const VITE_CACHE_PREFIX = 'ardsite-vite-';

/** A folder whose owner is gone is removed once it is this old (1 minute). */
export const DEAD_OWNER_MIN_AGE_MS = 60_000;
/** A folder without a pid in its name is removed once it is this old (1 hour). */
export const UNNAMED_OWNER_MIN_AGE_MS = 3_600_000;
/** Any folder of ardsite's is removed once it is this old (24 hours): no build runs that long. */
export const MAX_AGE_MS = 86_400_000;

/** `<prefix><pid>-` for a new temporary folder of this process (mkdtemp adds six random characters). */
export function ownedPrefix(prefix: string, pid = process.pid): string {
  return `${prefix}${pid}-`;
}

/**
 * True when a process with this pid runs on this machine: `kill(pid, 0)` only checks (POSIX.1 kill(),
 * signal 0); EPERM means it runs under another user. Never throws.
 */
export function processRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether the folder `name` (which starts with `prefix`), last modified `ageMs` ago, is a leftover of a
 * build that no longer runs (see the module comment for the rule).
 */
export function isStale(name: string, prefix: string, ageMs: number): boolean {
  if (ageMs >= MAX_AGE_MS) return true;
  const pid = /^(\d+)-/.exec(name.slice(prefix.length))?.[1];
  if (pid === undefined) return ageMs >= UNNAMED_OWNER_MIN_AGE_MS;
  const owner = Number(pid);
  if (owner === process.pid) return false;
  return ageMs >= DEAD_OWNER_MIN_AGE_MS && !processRunning(owner);
}

/**
 * Removes the stale folders named `<prefix>…` directly in each `dir` (not links, not files, nothing
 * else). Errors are swallowed: a folder that cannot be removed now is tried again by the next build.
 * @returns the absolute paths removed.
 */
export async function removeStaleTempFolders(
  places: ReadonlyArray<{ dir: string; prefix: string }>,
  now = Date.now(),
): Promise<string[]> {
  const removed: string[] = [];
  for (const { dir, prefix } of places) {
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      if (!name.startsWith(prefix)) continue;
      const abs = path.join(dir, name);
      const st = await lstat(abs).catch(() => undefined);
      if (!st?.isDirectory()) continue;
      if (!isStale(name, prefix, now - st.mtimeMs)) continue;
      try {
        await rm(abs, { recursive: true, force: true });
        removed.push(abs);
      } catch {
        // Left for the next build.
      }
    }
  }
  return removed;
}
