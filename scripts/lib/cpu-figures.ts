/**
 * The CPU side of `npm run bench`: CPU time is what other jobs on a shared machine cannot
 * steal, so beside the wall-clock ratio the bench compares the CPU each build used (all its threads and
 * child processes, ./cpu-share.ts `childrenCpuMs`), pair by pair, and says how much of it was ardsite's
 * own work: the build's CPU less the floor's (which renders the same pages), per agent. The build's own
 * report (src/core/util/timings.ts `cpuReport`) splits its CPU by thread.
 */
import type { CpuReport } from '../../src/core/util/timings.js';
import { median } from './bench-verify.js';

/** What the bench knows of one build's CPU. */
export interface BuildCpu {
  /** Milliseconds of CPU of the build's process and its children, measured from outside. */
  cpuMs?: number;
  /** The build's own CPU report (ardsite's builds only). */
  cpu?: CpuReport;
}

/** A median with the smallest and largest value. */
export interface Spread {
  median: number;
  min: number;
  max: number;
}

/** The median and range of `xs`, or undefined when there are none. */
export function spread(xs: readonly number[]): Spread | undefined {
  if (xs.length === 0) return undefined;
  return { median: median(xs), min: Math.min(...xs), max: Math.max(...xs) };
}

/** The CPU figures of a run of alternated pairs. */
export interface CpuSummary {
  /** Each pair's ardsite CPU / baseline CPU. */
  ratios: number[];
  ratio?: Spread;
  /** Each pair's (ardsite CPU − baseline CPU) / agents, in milliseconds. */
  ownMsPerAgent: number[];
  ownPerAgent?: Spread;
  /** The median of each thread's CPU (ms) over ardsite's builds: main thread, workers, the rest. */
  threadsMs: Record<string, number>;
  /** The same over the baseline's builds, where they report it. */
  baselineThreadsMs: Record<string, number>;
}

/**
 * The median CPU (ms) of each thread over `builds` that report it: the main thread, each named worker
 * thread, and the rest of the process (Node's and V8's helper threads, the module loader's).
 */
function threadMedians(builds: BuildCpu[]): Record<string, number> {
  const perThread = new Map<string, number[]>();
  const note = (name: string, ms: number | undefined) => {
    if (ms !== undefined) perThread.set(name, [...(perThread.get(name) ?? []), ms]);
  };
  for (const { cpu } of builds) {
    if (!cpu) continue;
    note('main thread', cpu.mainThreadMs);
    for (const [name, ms] of Object.entries(cpu.threadsMs)) note(name, ms);
    const named = (cpu.mainThreadMs ?? 0) + Object.values(cpu.threadsMs).reduce((a, b) => a + b, 0);
    if (cpu.mainThreadMs !== undefined) note('other threads (GC, I/O, loader)', cpu.processMs - named);
  }
  return Object.fromEntries([...perThread].map(([name, xs]) => [name, median(xs)]));
}

/**
 * Pairs `ours[i]` with `baseline[i]` (pairs where either lacks a CPU figure are left out) and sums
 * them up for `agents` agents. Never throws.
 */
export function cpuSummary(ours: BuildCpu[], baseline: BuildCpu[], agents: number): CpuSummary {
  const ratios: number[] = [];
  const ownMsPerAgent: number[] = [];
  ours.forEach((o, i) => {
    const b = baseline[i]?.cpuMs;
    if (o.cpuMs === undefined || b === undefined || b <= 0) return;
    ratios.push(o.cpuMs / b);
    ownMsPerAgent.push((o.cpuMs - b) / agents);
  });
  const threadsMs = threadMedians(ours);
  const baselineThreadsMs = threadMedians(baseline);
  const ratio = spread(ratios);
  const ownPerAgent = spread(ownMsPerAgent);
  return {
    ratios,
    ownMsPerAgent,
    threadsMs,
    baselineThreadsMs,
    ...(ratio ? { ratio } : {}),
    ...(ownPerAgent ? { ownPerAgent } : {}),
  };
}

/** `1.23 (1.10–1.40)` with `digits` decimals. */
const shown = (s: Spread, digits: number) =>
  `${s.median.toFixed(digits)} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})`;

/** The summary's lines for the bench's output, naming the baseline `baselineName`. */
export function cpuLines(summary: CpuSummary, baselineName: string): string[] {
  if (!summary.ratio || !summary.ownPerAgent) return ['CPU: no figures (this system has no /proc)'];
  const byThread = (threadsMs: Record<string, number>) =>
    Object.entries(threadsMs)
      .map(([name, ms]) => `${name} ${(ms / 1000).toFixed(2)} s`)
      .join(', ');
  const threads = byThread(summary.threadsMs);
  const baselineThreads = byThread(summary.baselineThreadsMs);
  return [
    `CPU ratio ${shown(summary.ratio, 2)} (median of ${summary.ratios.length} per-pair ratios of the CPU time of every thread and child process; spread in brackets)`,
    `ardsite's own CPU per agent (its CPU less the ${baselineName}'s): ${shown(summary.ownPerAgent, 2)} ms`,
    ...(threads ? [`ardsite CPU by thread (median): ${threads}`] : []),
    ...(baselineThreads ? [`${baselineName} CPU by thread (median): ${baselineThreads}`] : []),
  ];
}
