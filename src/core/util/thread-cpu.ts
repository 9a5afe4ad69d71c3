/**
 * CPU time of the calling thread alone, for the build's figures (`npm run build -- --report`, read by
 * `npm run bench`): Node 20 tells a process's CPU time (`process.cpuUsage`, every thread together) but
 * not one thread's, so this reads Linux's `/proc/thread-self/stat` (proc(5): `utime` and `stime`, fields
 * 14 and 15, in clock ticks). Called in a worker thread, it gives that thread's time. Elsewhere (no
 * /proc) there is no figure.
 */
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's figures (`sysconf(_SC_CLK_TCK)`, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * Milliseconds of CPU (user and system) the calling thread has used since it started, in steps of a
 * clock tick (10 ms), or undefined where `/proc/thread-self/stat` cannot be read (not Linux). Never
 * throws.
 */
export function threadCpuMs(): number | undefined {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    // The thread's name may hold spaces and parentheses: count the fields after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of proc(5), 12 and 13 after the name (field 2).
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_SECOND : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Milliseconds of CPU (user and system) the whole process has used since it started: every thread,
 * Node's own helpers included (`process.cpuUsage`, microsecond resolution).
 */
export function processCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}
