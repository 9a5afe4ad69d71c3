/**
 * What `npm run load:registry` (scripts/load-registry.ts) measures with: one autocannon run of a
 * scenario and its figures (p50/p99 latency, requests per second, 429s and errors), the floor of a bare
 * node:http server, the worst-case query loop with the server process's CPU time per query (Linux
 * /proc), the query texts of the `search` scenario, and the machine line of BENCHMARKS.md ("Registry
 * lookup").
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import autocannon from 'autocannon';
import { WORST_CASE_WORDS } from '../../bench/synthetic.js';

/** Writes a progress line to stderr (stdout carries only the Markdown table). */
export const log = (line: string) => process.stderr.write(`${line}\n`);

/** The machine, as BENCHMARKS.md reports it. */
export function machine(): { cpus: number; cpuModel: string; node: string } {
  const cpuinfo = existsSync('/proc/cpuinfo') ? readFileSync('/proc/cpuinfo', 'utf8') : '';
  const model = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? 'unknown';
  return { cpus: availableParallelism(), cpuModel: model, node: process.version };
}

/** The texts of the `search` scenario: the synthetic vocabulary, agent numbers, topics, and misses. */
export function texts(n: number): string[] {
  const verbs = ['plan', 'search', 'summarise'];
  const out: string[] = [];
  for (let i = 0; i < 48; i++) {
    const verb = verbs[i % 3]!;
    const k = (i * 7919) % n;
    out.push(
      [
        `${verb} my week number ${k}`,
        `can you ${verb} everything about topic ${i % 97}`,
        `${verb} for agent ${k}`,
        'book a flight to Tokyo next Monday',
      ][i % 4]!,
    );
  }
  return out;
}

/** The figures of one scenario, as the report and the Markdown table give them. */
export interface Figures {
  scenario: string;
  connections: number;
  seconds: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  status429: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Server CPU time per request, ms (where /proc is there): every server process, or the bare floor's. */
  cpuMsPerRequest?: number;
}

/** Runs one autocannon scenario against `url` and reads its figures. */
export async function load(
  scenario: string,
  url: string,
  options: Partial<autocannon.Options>,
): Promise<Figures> {
  log(`Scenario ${scenario}: ${options.connections} connections, ${options.duration} s …`);
  const result = await autocannon({ url, ...options } as autocannon.Options);
  return {
    scenario,
    connections: result.connections,
    seconds: result.duration,
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    status429: result.statusCodeStats?.['429']?.count ?? 0,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

/**
 * Runs `measure` against a bare node:http server in a child process (no framework) that answers every
 * request with a fixed JSON body of `bytes` bytes.
 */
export async function nodeFloor(bytes: number, measure: (url: string) => Promise<Figures>): Promise<Figures> {
  const code = `const b=Buffer.from('{"results":['+'0,'.repeat(${Math.max(0, Math.floor((bytes - 16) / 2))})+'0]}');const s=require('node:http').createServer((q,r)=>{r.setHeader('content-type','application/json');r.end(b)});s.listen(0,'127.0.0.1',()=>process.stdout.write(String(s.address().port)+'\\n'))`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await new Promise<string>((resolve) =>
      child.stdout!.setEncoding('utf8').once('data', (d: string) => resolve(d.trim())),
    );
    const before = cpuMs(child.pid!);
    const figures = await measure(`http://127.0.0.1:${port}/`);
    const after = cpuMs(child.pid!);
    // The floor's own CPU per request, beside the server's of the scenarios it is the floor of.
    return before !== undefined && after !== undefined && figures.requests > 0
      ? { ...figures, cpuMsPerRequest: Math.round(((after - before) / figures.requests) * 100) / 100 }
      : figures;
  } finally {
    child.kill();
  }
}

/** CPU time (user + system) of process `pid` so far, in ms; undefined where /proc is not there. */
export function cpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces, hence the last ')'): utime is the 12th, stime the 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}

/** The `i`-th order of the worst-case words (a seeded shuffle): a new text, the same words. */
function worstText(i: number): string {
  const words: string[] = [...WORST_CASE_WORDS];
  let seed = (i + 1) * 2654435761;
  for (let k = words.length - 1; k > 0; k--) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    const j = seed % (k + 1);
    [words[k], words[j]] = [words[j]!, words[k]!];
  }
  return words.join(' ');
}

/**
 * The `worst-case` scenario: `count` worst-case queries one at a time; the server's CPU time per query.
 */
export async function worstCase(
  search: string,
  pid: number,
  count: number,
): Promise<Figures & { cpuMsPerQuery?: number }> {
  log(`Scenario worst-case: ${count} queries of every shared word, one at a time …`);
  const latencies: number[] = [];
  let errors = 0;
  const before = cpuMs(pid);
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    const response = await fetch(search, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: { text: worstText(i) }, federation: 'none' }),
    });
    await response.arrayBuffer();
    if (response.status !== 200) errors++;
    latencies.push(performance.now() - t0);
  }
  const seconds = (performance.now() - started) / 1000;
  const after = cpuMs(pid);
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]! * 10) / 10;
  const cpuMsPerQuery =
    before !== undefined && after !== undefined
      ? Math.round(((after - before) / count) * 10) / 10
      : undefined;
  log(
    `worst-case: ${cpuMsPerQuery !== undefined ? `${cpuMsPerQuery} ms of server CPU per query` : 'server CPU not measurable here (no /proc)'}; latency p50 ${at(0.5)} ms, p99 ${at(0.99)} ms.`,
  );
  return {
    scenario: 'worst-case',
    connections: 1,
    seconds: Math.round(seconds),
    requests: count,
    rps: Math.round(count / seconds),
    p50: at(0.5),
    p99: at(0.99),
    max: Math.round(latencies[latencies.length - 1]! * 10) / 10,
    status429: 0,
    non2xx: errors,
    errors: 0,
    timeouts: 0,
    ...(cpuMsPerQuery !== undefined ? { cpuMsPerQuery } : {}),
  };
}

/**
 * Whether every request of a run was answered with a 2xx: none refused (429, 5xx or any other non-2xx),
 * none failed, none timed out. A latency target counts as met only for such a run: refusals are fast, and
 * a run that sheds load is not one that answers it.
 */
export function allAnswered(f: Pick<Figures, 'non2xx' | 'errors' | 'timeouts'>): boolean {
  return f.non2xx === 0 && f.errors === 0 && f.timeouts === 0;
}
