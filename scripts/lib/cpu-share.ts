/**
 * How much of the machine other jobs used while a benchmark's child process ran (a ratio is
 * trusted only when the machine was quiet). The 1-minute load average cannot tell: a build that keeps
 * both cores busy raises it to about 2 by itself. Instead, from Linux's `/proc/stat` (all CPUs) and
 * `/proc/self/stat` (this process, and the children it waited for): the CPU time the whole machine was
 * busy, less what the child and this process used, is what others used; `steal` is time the hypervisor
 * gave the virtual CPUs to other guests (proc(5)). On a system without /proc, no figures.
 */
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's figures (`getconf CLK_TCK`: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** Cumulative CPU figures, in clock ticks, at one moment. */
export interface CpuSnapshot {
  /** performance.now() when read (ms). */
  at: number;
  /** Every CPU's user, nice, system, irq and softirq time. */
  busy: number;
  /** Every CPU's steal time. */
  steal: number;
  /** This process's user and system time, and its waited-for children's. */
  own: number;
  /** Its waited-for children's user and system time alone (theirs and their own children's). */
  children: number;
}

/** The figures now, or undefined where /proc cannot be read. */
export function cpuSnapshot(): CpuSnapshot | undefined {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8')
      .split('\n', 1)[0]!
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    const [user, nice, system, , , irq, softirq, steal] = cpu;
    // /proc/self/stat: the command may hold spaces, so count fields after its closing parenthesis.
    const self = readFileSync('/proc/self/stat', 'utf8');
    const fields = self
      .slice(self.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    // utime, stime, cutime, cstime are fields 14–17 of proc(5), 12–15 after the command's field.
    const children = fields[13]! + fields[14]!;
    const own = fields[11]! + fields[12]! + children;
    return {
      at: performance.now(),
      busy: user! + nice! + system! + irq! + softirq!,
      steal: steal ?? 0,
      own,
      children,
    };
  } catch {
    return undefined;
  }
}

/**
 * Milliseconds of CPU (user and system, every thread) that the children waited for between `before`
 * and `after` used, their own waited-for children included (an esbuild or git a build started): taken
 * around one child's run, its whole cost, which other jobs on the machine cannot inflate. In steps of a
 * clock tick (10 ms); undefined when either snapshot is missing.
 */
export function childrenCpuMs(
  before: CpuSnapshot | undefined,
  after: CpuSnapshot | undefined,
): number | undefined {
  if (!before || !after) return undefined;
  return ((after.children - before.children) * 1000) / TICKS_PER_SECOND;
}

/** What others took between two snapshots: CPU cores used on average by other processes, and stolen. */
export interface OthersShare {
  /** Cores' worth of CPU time other processes used (0.5: half a core, all along). */
  othersCores: number;
  /** Cores' worth of time the hypervisor gave to other guests. */
  stealCores: number;
}

/**
 * The share of the machine others used from `before` to `after` (taken around a child's whole run, once
 * it was waited for), or undefined when either snapshot is missing. Never below 0 (ticks are coarse).
 */
export function othersShare(
  before: CpuSnapshot | undefined,
  after: CpuSnapshot | undefined,
): OthersShare | undefined {
  if (!before || !after || after.at <= before.at) return undefined;
  const seconds = (after.at - before.at) / 1000;
  const others = after.busy - before.busy - (after.own - before.own);
  return {
    othersCores: Math.max(0, others / TICKS_PER_SECOND / seconds),
    stealCores: Math.max(0, (after.steal - before.steal) / TICKS_PER_SECOND / seconds),
  };
}
