/**
 * `npm run load:registry`: a load test of the lookup API with autocannon: ONE server process
 * (`npm run serve`, the one server of DESIGN.md §7) on loopback over a synthetic N-agent publisher
 * (bench/synthetic.ts) built in registry mode, loopback exempt from the rate limit, each scenario bounded
 * in time. Prints p50/p99 latency, requests per second and the 429 / error counts, the machine, and a
 * Markdown table for BENCHMARKS.md ("Registry lookup").
 *
 * Scenarios (the first one is the headline figure), each followed by one request that waits for the
 * server to drain what is still queued, so no scenario pays for the previous one:
 * - `mix`: the realistic mix of ./lib/mix-scenario.ts (mostly never-seen texts, some repeats, some
 *   filters, list pages), 50 connections, `--duration` s, with the server's CPU time per request;
 * - `node-floor-mix`: the bare Node floor (below) for the same time, printed beside it;
 * - `mix-rate`: the same mix offered at a fixed rate over the same connections (`--rate`, default 1,250
 *   requests a second, of which 1,000 are never-seen questions: 16 of every 20), as a registry's traffic
 *   arrives, instead of as fast as the server answers: its p99 is the latency at that rate, not the
 *   queue a saturating client builds; but autocannon sends each second's quota in a burst at the start
 *   of the second, and its p99 weighs each answer by its own latency (./lib/open-loop.ts says how);
 * - `mix-open`: the same mix at the same rate, evenly spaced, latency from each request's due time
 *   (./lib/open-loop.ts): the figure the target is judged by (p99 < 50 ms with >= 1,000 never-seen
 *   questions a second);
 * - `search`: POST /search with 48 varied texts, 50 connections, 20 s, with the `Accept-Encoding: gzip,
 *   deflate, br` of fetch and browsers; each text was asked once before (the warm-up), so the server's
 *   answer cache (src/core/registry/answer-cache.ts) answers them, gzip-compressed, as it does the
 *   repeated queries and the pages of one query of steady use;
 * - `search-10c`: the same at 10 connections, 10 s;
 * - `search-identity`: the same without Accept-Encoding (a client that takes no compression: answers
 *   of about 8 KB instead of about 1.5 KB), 10 s;
 * - `search-render`: the same texts, every body made unique by trailing whitespace, so every answer is
 *   made again by the service (the rankings are cached): the cost of an answer not asked before
 *   with a known ranking, 10 s;
 * - `node-floor`: a bare node:http server answering a fixed 14-byte JSON body, in its own process: the
 *   floor of any Node server on this machine, 10 s;
 * - `node-floor-8k`: the same server with a fixed body of the size of an uncompressed answer (8 KB):
 *   the floor of `search-identity`, 10 s;
 * - `search-cold`: POST /search with a text no request used before, so every ranking is computed
 *   (no cache of any kind hits), 10 s;
 * - `worst-case`: the most expensive query text this index has: every word all the
 *   synthetic entries share (bench/synthetic.ts `WORST_CASE_WORDS`), in a new order each time so no cache
 *   helps, one request at a time (`--queries`, default 200); reports the server process's CPU time per
 *   query (Linux: /proc/<pid>/stat) and the latency. `--app <checkout>` builds and serves with another
 *   ardsite checkout (an older commit, for a before/after figure) while this script drives the load.
 *
 * Every scenario that loads the server also reports the server's CPU per request (every process of it),
 * the load generator's (this process) and the load average (./lib/load-runs.ts); the node floors report
 * their own process's CPU per request.
 *
 * Usage: npm run load:registry [-- --agents 10000] [-- --duration 20] [-- --connections 50]
 *        [-- --root <folder>] [-- --json <file>] [-- --only search] [-- --queries 200] [-- --app <dir>]
 *        [-- --workers 2] [-- --runs 3] [-- --profile <folder>] [-- --rate 1250]
 * `--workers N`: `ardsite serve --workers N` (default 1: one process). `--runs K`: the chosen scenarios K
 * times over, one after the other in each run (so `--only mix,node-floor-mix` alternates the mix with its
 * floor), against the same server; each run's figures, then their spread. `--profile <folder>`: the
 * server's processes run with `node --cpu-prof`, their profiles written into the folder when they end
 * (`npx tsx scripts/profile-summary.ts <file>` lists the costliest functions). `--server-flags "<flags>"`:
 * Node flags for the server's processes only (the workers inherit them), e.g. `--trace-gc`; the load
 * generator runs without them. `--probe <folder>`: each server process records its event-loop delay, its
 * garbage-collection pauses and its slowest requests (scripts/serve-probe.mjs) over every scenario of the
 * invocation, written into the folder and printed once the server has ended.
 * `--only`: one scenario, or several separated by commas (`--only mix,node-floor-mix`). `--compiled`:
 * build and serve with the compiled CLI (`lib/`, run `npm run compile` first), as a publisher runs it.
 * `--root`: a project folder to reuse (its registry build is reused when current; else written and
 * built there); by default a temporary folder, removed afterwards. A 10,000-agent build takes minutes.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type autocannon from 'autocannon';
import { parseCommandLine } from '../src/cli/lib/args.js';
import {
  allAnswered,
  load,
  log,
  machine,
  nodeFloor,
  texts,
  worstCase,
  type Figures,
} from './lib/load-measures.js';
import { measuredRun, runRows, spreadText, type RunFigures } from './lib/load-runs.js';
import { mixRequests } from './lib/mix-scenario.js';
import { openLoop } from './lib/open-loop.js';
import { probeLines } from './lib/probe-summary.js';
import { exemptLoopback, exited, prepare, startServer, type ServerOptions } from './lib/load-server.js';

const { values } = parseCommandLine(
  {
    options: {
      agents: { type: 'string', default: '10000' },
      duration: { type: 'string', default: '20' },
      connections: { type: 'string', default: '50' },
      root: { type: 'string' },
      json: { type: 'string' },
      only: { type: 'string' },
      compiled: { type: 'boolean' },
      queries: { type: 'string', default: '200' },
      app: { type: 'string' },
      workers: { type: 'string', default: '1' },
      runs: { type: 'string', default: '1' },
      profile: { type: 'string' },
      rate: { type: 'string', default: '1250' },
      'server-flags': { type: 'string' },
      probe: { type: 'string' },
    },
  },
  'usage: npm run load:registry [-- --agents 10000] [-- --duration 20] [-- --connections 50] [-- --root <folder>] [-- --json <file>] [-- --only search] [-- --queries 200] [-- --app <dir>] [-- --compiled] [-- --workers 1] [-- --runs 1] [-- --profile <folder>] [-- --rate 1250] [-- --server-flags "<flags>"] [-- --probe <folder>]',
);
const appRoot = values.app ? path.resolve(values.app) : path.resolve(import.meta.dirname, '..');
const agents = Number(values.agents);
const duration = Number(values.duration);
const connections = Number(values.connections);
const workers = Number(values.workers);
const runs = Number(values.runs);
const rate = Number(values.rate);
const serverOptions: ServerOptions = {
  appRoot,
  compiled: values.compiled,
  agents,
  workers,
  profile: values.profile,
  serverFlags: values['server-flags'],
  probe: values.probe,
};

async function main(): Promise<void> {
  if (!Number.isInteger(agents) || agents < 1) throw new Error('--agents must be a positive whole number');
  if (!Number.isInteger(workers) || workers < 1) throw new Error('--workers must be a positive whole number');
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a positive whole number');
  if (!Number.isInteger(rate) || rate < 1) throw new Error('--rate must be a positive whole number');
  const root = values.root ? path.resolve(values.root) : await mkdtemp(path.join(tmpdir(), 'ardsite-load-'));
  if (values.probe) await mkdir(path.resolve(values.probe), { recursive: true });
  let server: ChildProcess | undefined;
  try {
    await prepare(serverOptions, root);
    await exemptLoopback(root);
    const started = await startServer(serverOptions, root);
    server = started.child;
    const search = `${started.api}/search`;
    const json = { 'content-type': 'application/json' };
    const list = texts(agents);
    // Warm-up: every text once (their rankings and answers are cached afterwards, as in steady use).
    for (const text of list) {
      await fetch(search, { method: 'POST', headers: json, body: JSON.stringify({ query: { text } }) });
    }
    // The same bodies as the warm-up, given to autocannon as they are (it builds each request once),
    // with the Accept-Encoding that fetch (undici) and browsers send.
    const varied = list.map((text) => ({
      method: 'POST' as const,
      path: new URL(search).pathname,
      headers: { ...json, 'accept-encoding': 'gzip, deflate, br' },
      body: JSON.stringify({ query: { text } }),
    }));
    const identity = varied.map((r) => ({ ...r, headers: json }));
    let unique = 0;
    // The same 48 texts, each body made unique by trailing JSON whitespace (a binary count in spaces and
    // tabs): no answer-cache hit, so the service makes every answer; the rankings are cached.
    const rendered = [
      {
        ...varied[0]!,
        setupRequest: (req: autocannon.Request) => {
          const k = unique++;
          return {
            ...req,
            body: `${JSON.stringify({ query: { text: list[k % list.length] } })}${k.toString(2).replace(/0/g, ' ').replace(/1/g, '\t')}`,
          };
        },
      },
    ];
    const cold = [
      {
        ...varied[0]!,
        setupRequest: (req: autocannon.Request) => ({
          ...req,
          body: JSON.stringify({
            query: { text: `plan my week number ${(unique * 7) % agents} about topic ${unique++}` },
          }),
        }),
      },
    ];
    const settle = () => fetch(`${started.api}/agents?pageSize=1`).then((r) => r.arrayBuffer());
    const serverPid = started.child.pid!;
    let run = 1;
    /** The `mix` scenario; each run's never-seen texts are new to the server (`first`). */
    const mix = (): Promise<Figures> =>
      load('mix', search, {
        connections,
        duration,
        requests: mixRequests(started.api, list, agents, (run - 1) * 10_000_000),
        timeout: 30,
      });
    /** The `mix-rate` scenario: the mix offered at `--rate` requests a second in all. */
    const mixRate = (): Promise<Figures> =>
      load('mix-rate', search, {
        connections,
        duration,
        overallRate: rate,
        requests: mixRequests(started.api, list, agents, (run - 1) * 10_000_000 + 5_000_000),
        timeout: 30,
      });
    /** The `mix-open` scenario: the mix offered at `--rate` requests a second, evenly spaced. */
    const mixOpen = (): Promise<Figures> =>
      openLoop('mix-open', {
        origin: new URL(started.api).origin,
        connections,
        rate,
        duration,
        requests: mixRequests(started.api, list, agents, (run - 1) * 10_000_000 + 8_000_000),
        timeout: 30,
      });
    const scenarios: Array<[string, () => Promise<Figures>]> = [
      ['mix', mix],
      ['mix-rate', mixRate],
      ['mix-open', mixOpen],
      [
        'node-floor-mix',
        () => nodeFloor(14, (url) => load('node-floor-mix', url, { connections, duration })),
      ],
      ['search', () => load('search', search, { connections, duration, requests: varied })],
      ['search-10c', () => load('search-10c', search, { connections: 10, duration: 10, requests: varied })],
      [
        'search-identity',
        () => load('search-identity', search, { connections, duration: 10, requests: identity }),
      ],
      [
        'search-render',
        () => load('search-render', search, { connections, duration: 10, requests: rendered }),
      ],
      ['node-floor', () => nodeFloor(14, (url) => load('node-floor', url, { connections, duration: 10 }))],
      [
        'node-floor-8k',
        () => nodeFloor(8_386, (url) => load('node-floor-8k', url, { connections, duration: 10 })),
      ],
      [
        'search-cold',
        () => load('search-cold', search, { connections, duration: 10, requests: cold, timeout: 30 }),
      ],
      ['worst-case', () => worstCase(search, started.child.pid!, Number(values.queries))],
    ];
    const figures: RunFigures[] = [];
    for (; run <= runs; run++) {
      for (const [name, scenario] of scenarios) {
        if (values.only && !values.only.split(',').includes(name)) continue;
        // The floors run in processes of their own and report their own CPU.
        const pid = name.startsWith('node-floor') ? undefined : serverPid;
        const f = await measuredRun(run, scenario, pid);
        log(
          `  run ${run} ${name}: ${f.rps} req/s, p50 ${f.p50} ms, p99 ${f.p99} ms, CPU/request ${f.cpuMsPerRequest ?? '?'} ms (load generator ${f.generatorCpuMsPerRequest ?? '?'} ms), load average ${f.loadBefore} → ${f.loadAfter}`,
        );
        figures.push(f);
        await settle();
      }
    }
    const host = machine();
    const report = {
      date: new Date().toISOString(),
      agents,
      entries: agents + 1,
      machine: host,
      startupSeconds: started.startupSeconds,
      workers,
      runs,
      figures,
    };
    if (values.json) await writeFile(values.json, `${JSON.stringify(report, null, 2)}\n`);
    const rows = runRows(figures.filter((f) => f.scenario !== 'worst-case'));
    const worst = figures.find((f) => f.scenario === 'worst-case') as
      (Figures & { cpuMsPerQuery?: number }) | undefined;
    if (worst?.cpuMsPerQuery !== undefined)
      rows.push(
        '',
        `Worst-case query (every word all ${agents} agents share): ${worst.cpuMsPerQuery} ms of server CPU per query (target < 20 ms).`,
      );
    const table = [
      `Machine: ${host.cpus} × ${host.cpuModel}, Node ${host.node}; ${agents} agents (${agents + 1} entries); ${workers === 1 ? 'one server process' : `${workers} server workers`}, started (index verified and built) in ${started.startupSeconds.toFixed(0)} s; ${connections} connections, ${duration} s a scenario.`,
      '',
      ...rows,
    ].join('\n');
    process.stdout.write(`${table}\n`);
    const mixes = figures.filter((f) => f.scenario === 'mix');
    const floors = figures.filter((f) => f.scenario === 'node-floor-mix');
    const rated = figures.filter((f) => f.scenario === 'mix-rate');
    const open = figures.filter((f) => f.scenario === 'mix-open');
    if (open.length > 0)
      log(
        `Evenly spaced (mix-open: ${rate} req/s offered, ${Math.round((rate * 16) / 20)} of them never-seen questions, latency from each request's due time), up to ${connections} connections, median (min–max) of ${open.length} run(s): p50 ${spreadText(open.map((f) => f.p50))} ms, p99 ${spreadText(open.map((f) => f.p99))} ms, ${spreadText(open.map((f) => f.rps))} req/s answered, server CPU ${spreadText(open.map((f) => f.cpuMsPerRequest))} ms per request. Target p99 < 50 ms with >= 1,000 never-seen questions a second: ${open.every((f) => f.p99 < 50 && (f.rps * 16) / 20 >= 1000 && allAnswered(f)) ? 'met' : 'not met'}.`,
      );
    if (rated.length > 0)
      log(
        `At a fixed rate (mix-rate: ${rate} req/s offered, ${Math.round((rate * 16) / 20)} of them never-seen questions), ${connections} connections, median (min–max) of ${rated.length} run(s): p50 ${spreadText(rated.map((f) => f.p50))} ms, p99 ${spreadText(rated.map((f) => f.p99))} ms, ${spreadText(rated.map((f) => f.rps))} req/s answered. Target p99 < 50 ms with >= 1,000 never-seen questions a second: ${rated.every((f) => f.p99 < 50 && (f.rps * 16) / 20 >= 1000 && allAnswered(f)) ? 'met' : 'not met'}.`,
      );
    if (mixes.length > 0)
      log(
        `Headline (mix: 70% never-seen texts, 15% repeats, 10% filtered, 5% GET /agents pages), ${connections} connections, ${workers} worker(s), median (min–max) of ${mixes.length} run(s): p99 ${spreadText(mixes.map((f) => f.p99))} ms, ${spreadText(mixes.map((f) => f.rps))} req/s, server CPU ${spreadText(mixes.map((f) => f.cpuMsPerRequest))} ms per request; bare Node floor p99 ${spreadText(floors.map((f) => f.p99))} ms at ${spreadText(floors.map((f) => f.rps))} req/s. Target p99 < 50 ms and >= 1,000 req/s: ${mixes.every((f) => f.p99 < 50 && f.rps >= 1000 && allAnswered(f)) ? 'met' : 'not met'}.`,
      );
    const main = figures.find((f) => f.scenario === 'search');
    if (main)
      log(
        `Target p99 < 10 ms at ${connections} connections: ${main.p99 < 10 ? 'met' : 'not met'} (p99 ${main.p99} ms).`,
      );
  } finally {
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await exited(server);
    }
    if (!values.root) await rm(root, { recursive: true, force: true });
    if (values.probe) for (const line of await probeLines(path.resolve(values.probe))) log(line);
  }
}

try {
  await main();
} catch (error) {
  log(`Load test failed: ${(error as Error).message}`);
  process.exitCode = 1;
}
