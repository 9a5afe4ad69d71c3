/**
 * `npm run bench -- --verify`: times `npm run verify` over a built folder, one fresh process a
 * run. Each run gives the verifier's own `elapsedMs` (discovery and every check: the clock starts after
 * Node, tsx and the verifier's modules are loaded, and after the helper threads were started), the wall
 * time with the process start, and the CPU time of the whole process (every thread, the process start
 * included; read from `process.resourceUsage()` at exit by ./cpu-usage-hook.mjs), which moves less than
 * the elapsed time when other jobs share the machine. The 1-minute load average is noted before each run.
 *
 * With a baseline tree (`--baseline <project folder>`, e.g. a worktree of the commit before a change),
 * the runs alternate: baseline then this tree, then this tree then baseline, and so on, over the same
 * folder, so neither always meets a warmer cache or a quieter minute.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The hook that writes a child's CPU time at exit. */
const CPU_HOOK = fileURLToPath(new URL('./cpu-usage-hook.mjs', import.meta.url));

/** One verification, timed. */
export interface VerifyRun {
  /** The verifier's `elapsedMs` (no process start). */
  elapsedMs: number;
  /** Wall time of the whole process, milliseconds. */
  wallMs: number;
  /** User + system CPU time of the whole process (all threads), milliseconds. */
  cpuMs: number;
  /** The 1-minute load average just before the run. */
  loadAverage: number;
  entries: number;
  passed: number;
  failed: number;
  helperThreads: number;
}

/**
 * Runs `npm run verify -- <folder> --origin <origin> --json [--threads N]` of the project `appRoot` in a
 * fresh process and times it.
 * @throws Error when the child prints no JSON report (a crash, exit 2).
 */
export async function timeVerify(
  appRoot: string,
  folder: string,
  origin: string,
  threads: string | undefined,
): Promise<VerifyRun> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'ardsite-bench-cpu-'));
  const cpuFile = path.join(tmp, 'cpu.json');
  const loadAverage = os.loadavg()[0]!;
  const args = [
    '--import',
    'tsx',
    '--import',
    CPU_HOOK,
    'src/cli/main.ts',
    'verify',
    folder,
    '--origin',
    origin,
  ];
  args.push('--json', ...(threads === undefined ? [] : ['--threads', threads]));
  const started = performance.now();
  const { stdout } = await run(process.execPath, args, {
    cwd: appRoot,
    maxBuffer: 1024 ** 3,
    env: { ...process.env, ARDSITE_BENCH_CPU_FILE: cpuFile },
  }).catch((e: { stdout?: string }) => ({ stdout: e.stdout ?? '' }));
  const wallMs = performance.now() - started;
  try {
    const report = JSON.parse(stdout) as Omit<VerifyRun, 'wallMs' | 'cpuMs' | 'loadAverage'>;
    const cpu = JSON.parse(await readFile(cpuFile, 'utf8')) as { userMs: number; systemMs: number };
    return {
      elapsedMs: report.elapsedMs,
      wallMs,
      cpuMs: cpu.userMs + cpu.systemMs,
      loadAverage,
      entries: report.entries,
      passed: report.passed,
      failed: report.failed,
      helperThreads: report.helperThreads,
    };
  } catch (error) {
    throw new Error(
      `npm run verify of ${appRoot} over ${folder} gave no report: ${(error as Error).message}`,
    );
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/** The median: the middle value, or the mean of the two middle values of an even count. */
export const median = (xs: readonly number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** Medians and spread (min–max) of a series of runs. */
export interface RunSummary {
  runs: VerifyRun[];
  elapsedMs: { median: number; min: number; max: number };
  cpuMs: { median: number; min: number; max: number };
  wallMs: number;
  entriesPerSecond: number;
  loadAverage: { min: number; max: number };
}

/** Summarises `runs` (at least one). */
export function summarise(runs: VerifyRun[]): RunSummary {
  const stats = (xs: number[]) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs) });
  const elapsedMs = stats(runs.map((r) => r.elapsedMs));
  const loads = runs.map((r) => r.loadAverage);
  return {
    runs,
    elapsedMs,
    cpuMs: stats(runs.map((r) => r.cpuMs)),
    wallMs: median(runs.map((r) => r.wallMs)),
    entriesPerSecond: runs[0]!.entries / (elapsedMs.median / 1000),
    loadAverage: { min: Math.min(...loads), max: Math.max(...loads) },
  };
}

/** One line for a summary: median elapsed and entries/s, spread, CPU, load. */
export function describe(label: string, s: RunSummary): string {
  const sec = (ms: number) => (ms / 1000).toFixed(2);
  const r = s.runs[0]!;
  return `${label}: ${r.entries} entries in ${sec(s.elapsedMs.median)} s median (${sec(s.elapsedMs.min)}–${sec(s.elapsedMs.max)}), ${s.entriesPerSecond.toFixed(0)} entries/s; CPU ${sec(s.cpuMs.median)} s median (${sec(s.cpuMs.min)}–${sec(s.cpuMs.max)}), wall ${sec(s.wallMs)} s with process start; ${r.passed} passed, ${r.failed} failed, ${r.helperThreads} helper thread${r.helperThreads === 1 ? '' : 's'}; load average ${s.loadAverage.min.toFixed(1)}–${s.loadAverage.max.toFixed(1)}`;
}

/**
 * Times `runs` verifications of `folder` by this tree (`appRoot`) and, when `baselineRoot` is given,
 * as many by the baseline tree, alternating which goes first. `log` hears each run.
 */
export async function benchVerify(options: {
  appRoot: string;
  baselineRoot?: string;
  folder: string;
  origin: string;
  runs: number;
  threads?: string;
  log: (line: string) => void;
}): Promise<{ ours: RunSummary; baseline?: RunSummary }> {
  const { appRoot, baselineRoot, folder, origin, runs, threads, log } = options;
  const ours: VerifyRun[] = [];
  const baseline: VerifyRun[] = [];
  const line = (who: string, i: number, r: VerifyRun) =>
    log(
      `${who} run ${i + 1}: ${(r.elapsedMs / 1000).toFixed(2)} s, CPU ${(r.cpuMs / 1000).toFixed(2)} s, wall ${(r.wallMs / 1000).toFixed(2)} s, load average ${r.loadAverage.toFixed(1)}`,
    );
  for (let i = 0; i < runs; i++) {
    const order =
      baselineRoot === undefined ? ['ours'] : i % 2 === 0 ? ['baseline', 'ours'] : ['ours', 'baseline'];
    for (const who of order) {
      const r = await timeVerify(who === 'ours' ? appRoot : baselineRoot!, folder, origin, threads);
      (who === 'ours' ? ours : baseline).push(r);
      line(who === 'ours' ? 'this tree' : 'baseline', i, r);
    }
  }
  return { ours: summarise(ours), ...(baselineRoot === undefined ? {} : { baseline: summarise(baseline) }) };
}

/**
 * The ratios `ours / baseline` of elapsed time, pair by pair (run i of each; the runs alternate, so a pair
 * shares its moment of the host): their median, min and max, and how many pairs there were. `undefined`
 * when there is no pair.
 */
export function pairedRatios(
  ours: RunSummary,
  baseline: RunSummary,
): { median: number; min: number; max: number; pairs: number } | undefined {
  const count = Math.min(ours.runs.length, baseline.runs.length);
  const ratios = Array.from(
    { length: count },
    (_, i) => ours.runs[i]!.elapsedMs / baseline.runs[i]!.elapsedMs,
  );
  if (ratios.length === 0) return undefined;
  return { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios), pairs: count };
}
