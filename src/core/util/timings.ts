/**
 * Phase timings of a build, for `npm run bench` and `npm run build -- --report`: wall-clock
 * milliseconds spent in named phases (loading/checks, signing, digesting, rendering, writing,
 * self-verification), the process's CPU time while each ran, and the CPU time of named threads (the
 * main thread, the signing and self-check worker threads). Phases may be entered many times; their
 * times add up.
 */
import { processCpuMs, threadCpuMs } from './thread-cpu.js';

/** A build's CPU figures, in milliseconds (user and system time). */
export interface CpuReport {
  /** The whole process so far: every thread, Node's helpers included. */
  processMs: number;
  /** The calling (main) thread alone, where it can be read (src/core/util/thread-cpu.ts). */
  mainThreadMs?: number;
  /** Named worker threads ({@link PhaseTimer.addThreadCpu}). */
  threadsMs: Record<string, number>;
  /** The process's CPU while each phase ran (phases that overlap count the same CPU twice). */
  phasesMs: Record<string, number>;
}

/** Most entries of a phase whose CPU {@link PhaseTimer.time} measures. */
export const MAX_CPU_ENTRIES = 16;

/** Accumulates milliseconds per phase name, and per thread name. */
export class PhaseTimer {
  private readonly totals = new Map<string, number>();
  private readonly cpuTotals = new Map<string, number>();
  private readonly threadTotals = new Map<string, number>();
  /** How many times each phase was entered through {@link time}. */
  private readonly entries = new Map<string, number>();

  /**
   * Adds `ms` milliseconds of wall time to `phase`, and `cpuMs` of process CPU when known (a worker's
   * busy time is wall time; its CPU goes to {@link addThreadCpu}).
   */
  add(phase: string, ms: number, cpuMs?: number): void {
    this.totals.set(phase, (this.totals.get(phase) ?? 0) + ms);
    if (cpuMs !== undefined) this.cpuTotals.set(phase, (this.cpuTotals.get(phase) ?? 0) + cpuMs);
  }

  /**
   * Runs `fn` and adds its duration to `phase` (sync or async), with the CPU time the whole process
   * used meanwhile (`process.cpuUsage`: every thread, so phases that overlap count the same CPU twice).
   * A phase entered more than {@link MAX_CPU_ENTRIES} times (a small step taken once an agent) keeps
   * only its wall time: reading the process's CPU, a system call over every thread, would cost more
   * than the step.
   */
  time<T>(phase: string, fn: () => T): T {
    const entries = (this.entries.get(phase) ?? 0) + 1;
    this.entries.set(phase, entries);
    const withCpu = entries <= MAX_CPU_ENTRIES;
    if (!withCpu) this.cpuTotals.delete(phase);
    const start = performance.now();
    const cpuStart = withCpu ? processCpuMs() : 0;
    const done = () => {
      const ms = performance.now() - start;
      if (withCpu && (this.entries.get(phase) ?? 0) <= MAX_CPU_ENTRIES)
        this.add(phase, ms, processCpuMs() - cpuStart);
      else this.add(phase, ms);
    };
    const result = fn();
    if (result instanceof Promise) return result.finally(done) as T;
    done();
    return result;
  }

  /** Adds `ms` milliseconds of CPU used by the thread (or threads) named `thread`. */
  addThreadCpu(thread: string, ms: number): void {
    this.threadTotals.set(thread, (this.threadTotals.get(thread) ?? 0) + ms);
  }

  /** Phase → milliseconds, rounded to 0.1 ms, in the order phases were first seen. */
  toJSON(): Record<string, number> {
    return rounded(this.totals);
  }

  /** Phase → milliseconds of process CPU while it ran (rounded to 0.1 ms), for the phases that know it. */
  cpuJSON(): Record<string, number> {
    return rounded(this.cpuTotals);
  }

  /** Thread → milliseconds of its CPU (rounded to 0.1 ms), in the order threads were first added. */
  threadsJSON(): Record<string, number> {
    return rounded(this.threadTotals);
  }
}

/**
 * The CPU figures of the process as of now, with `timer`'s threads and phases; called from the main
 * thread (its own time is read there).
 */
export function cpuReport(timer: PhaseTimer): CpuReport {
  const mainThreadMs = threadCpuMs();
  return {
    processMs: Math.round(processCpuMs()),
    ...(mainThreadMs !== undefined ? { mainThreadMs } : {}),
    threadsMs: timer.threadsJSON(),
    phasesMs: timer.cpuJSON(),
  };
}

/** A map's entries as an object, each value rounded to 0.1. */
function rounded(totals: Map<string, number>): Record<string, number> {
  return Object.fromEntries([...totals].map(([k, v]) => [k, Math.round(v * 10) / 10]));
}
