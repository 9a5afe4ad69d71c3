/**
 * The CPU side of `npm run load:registry` (scripts/load-registry.ts): on a shared host the wall-clock
 * figures are mostly the queue behind other jobs, so beside them each scenario reports the CPU time the
 * server used per request (all its processes: the primary and the workers of `--workers`), the CPU time
 * of the load generator (autocannon runs in the script's own process) and the load average; with
 * `--runs K` the figures of every run and their spread (median, smallest, largest).
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { cpuMs, type Figures } from './load-measures.js';

/** The figures of one run of one scenario, with the CPU and the host's load around it. */
export interface RunFigures extends Figures {
  /** Which run (1-based) of `--runs`. */
  run: number;
  /** CPU ms the load generator (this process) used per request. */
  generatorCpuMsPerRequest?: number;
  /** The 1-minute load average before and after the scenario (`/proc/loadavg`). */
  loadBefore: number;
  loadAfter: number;
}

/** The process ids of `pid` and every process below it (Linux `/proc/<pid>/task/<pid>/children`). */
export function processTree(pid: number): number[] {
  const all = [pid];
  for (let i = 0; i < all.length; i++) {
    let children = '';
    try {
      children = readFileSync(`/proc/${all[i]}/task/${all[i]}/children`, 'utf8');
    } catch {
      continue;
    }
    for (const child of children.trim().split(/\s+/)) if (child !== '') all.push(Number(child));
  }
  return all;
}

/**
 * CPU time (user + system, ms) used so far by `pid` and the processes below it; undefined where /proc is
 * not there. A process that ended between two readings takes its CPU with it.
 */
export function treeCpuMs(pid: number): number | undefined {
  let total: number | undefined;
  for (const p of processTree(pid)) {
    const ms = cpuMs(p);
    if (ms !== undefined) total = (total ?? 0) + ms;
  }
  return total;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/**
 * Runs one scenario (`measure`) as run `run`, with the CPU of the process tree of `serverPid` (when
 * given and the scenario reports none itself), this process's CPU, and the load average around it.
 */
export async function measuredRun(
  run: number,
  measure: () => Promise<Figures>,
  serverPid?: number,
): Promise<RunFigures> {
  const loadBefore = loadavg()[0]!;
  const server0 = serverPid !== undefined ? treeCpuMs(serverPid) : undefined;
  const own0 = process.cpuUsage();
  const figures = await measure();
  const own = process.cpuUsage(own0);
  const server1 = serverPid !== undefined ? treeCpuMs(serverPid) : undefined;
  const perRequest = (ms: number) => (figures.requests > 0 ? round2(ms / figures.requests) : undefined);
  const server =
    figures.cpuMsPerRequest ??
    (server0 !== undefined && server1 !== undefined ? perRequest(server1 - server0) : undefined);
  const generator = perRequest((own.user + own.system) / 1000);
  return {
    ...figures,
    run,
    ...(server !== undefined ? { cpuMsPerRequest: server } : {}),
    ...(generator !== undefined ? { generatorCpuMsPerRequest: generator } : {}),
    loadBefore: round2(loadBefore),
    loadAfter: round2(loadavg()[0]!),
  };
}

/** `median (min–max)` of `xs`, or `–` for none. */
export function spreadText(xs: ReadonlyArray<number | undefined>): string {
  const known = xs.filter((x): x is number => x !== undefined).sort((a, b) => a - b);
  if (known.length === 0) return '–';
  const mid = known.length >> 1;
  const median = known.length % 2 === 1 ? known[mid]! : (known[mid - 1]! + known[mid]!) / 2;
  return known.length === 1 ? `${round2(median)}` : `${round2(median)} (${known[0]}–${known.at(-1)})`;
}

/** The Markdown rows of every run, then one spread row per scenario (median (min–max) over the runs). */
export function runRows(figures: readonly RunFigures[]): string[] {
  const head = [
    '| scenario | run | requests | req/s | p50 ms | p99 ms | max ms | server CPU ms/req | load-generator CPU ms/req | load avg (before → after) | non-2xx | errors |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  const rows = figures.map(
    (f) =>
      `| ${f.scenario} | ${f.run} | ${f.requests} | ${f.rps} | ${f.p50} | ${f.p99} | ${f.max} | ${f.cpuMsPerRequest ?? '–'} | ${f.generatorCpuMsPerRequest ?? '–'} | ${f.loadBefore} → ${f.loadAfter} | ${f.non2xx} | ${f.errors} |`,
  );
  const scenarios = [...new Set(figures.map((f) => f.scenario))];
  const spreads = scenarios.map((name) => {
    const of = figures.filter((f) => f.scenario === name);
    const pick = (key: keyof RunFigures) => of.map((f) => f[key] as number | undefined);
    return `| ${name} | median (min–max) of ${of.length} | ${spreadText(pick('requests'))} | ${spreadText(pick('rps'))} | ${spreadText(pick('p50'))} | ${spreadText(pick('p99'))} | ${spreadText(pick('max'))} | ${spreadText(pick('cpuMsPerRequest'))} | ${spreadText(pick('generatorCpuMsPerRequest'))} | ${spreadText(pick('loadBefore'))} | | |`;
  });
  return [...head, ...rows, ...spreads];
}
