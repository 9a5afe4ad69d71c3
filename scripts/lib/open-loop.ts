/**
 * The `mix-open` scenario of `npm run load:registry` (scripts/load-registry.ts): requests offered at a
 * fixed rate, evenly spaced (request k is due at k / rate seconds), over at most `connections` keep-alive
 * connections, as a registry's traffic arrives from many clients; each latency is measured from the
 * request's due time to the end of its answer, so a request that waits for a free connection, or behind
 * a stalled server, counts its wait (the open-loop measurement of Gil Tene's "How NOT to Measure
 * Latency": no coordinated omission, and none added).
 *
 * Why not autocannon's `overallRate` (the `mix-rate` scenario): autocannon 9 gives each connection a
 * quota of rate / connections requests a second, sent back to back at the start of each second (a
 * one-second `setInterval` per client resets the quota), so the offered load is a burst of the whole
 * second's requests, then silence; and it records each latency with HdrHistogram's coordinated-omission
 * correction at an expected interval of `Math.ceil(1 / rate)` ms, 1 ms for 25 requests a second per
 * connection, which adds L − 1 made-up values for a latency of L ms: its p99 weighs each answer by its
 * own latency.
 */
import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type autocannon from 'autocannon';
import { log, type Figures } from './load-measures.js';

/** Options of {@link openLoop}. */
export interface OpenLoopOptions {
  /** The server's origin (`http://127.0.0.1:port`). */
  origin: string;
  /** Most connections open at once. */
  connections: number;
  /** Requests offered a second. */
  rate: number;
  /** Seconds during which requests are offered. */
  duration: number;
  /** The requests, as autocannon takes them: each request is `setupRequest` of the first one. */
  requests: autocannon.Request[];
  /** A request not answered within this many seconds counts as a timeout. */
  timeout: number;
}

/** The value below which `share` (0–1) of the sorted `xs` lie (nearest rank). */
export function percentile(sorted: readonly number[], share: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;
}

/**
 * Offers `options.rate` requests a second for `options.duration` seconds (see the module comment) and
 * resolves with the figures of the answers, once every request offered has been answered or has timed
 * out. Latencies in ms, rounded to 0.1 ms.
 */
export async function openLoop(scenario: string, options: OpenLoopOptions): Promise<Figures> {
  log(
    `Scenario ${scenario}: ${options.rate} req/s evenly spaced, up to ${options.connections} connections, ${options.duration} s …`,
  );
  const { hostname, port } = new URL(options.origin);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const template = options.requests[0]!;
  type Setup = (request: autocannon.Request, context: object) => autocannon.Request;
  const setup: Setup = (template.setupRequest as Setup | undefined) ?? ((r) => r);
  const latencies: number[] = [];
  /** When each answered request was due, ms from the start (the same order as `latencies`). */
  const dueAt: number[] = [];
  let non2xx = 0;
  let status429 = 0;
  let errors = 0;
  let timeouts = 0;
  let pending = 0;
  let offered = 0;
  const total = Math.round(options.rate * options.duration);
  const interval = 1000 / options.rate;
  // The generator's own stalls (its garbage collection, its share of the cores) delay requests too, and
  // count in their latency: its event-loop delay is reported beside the figures.
  const ownDelay = monitorEventLoopDelay({ resolution: 5 });
  ownDelay.enable();
  const started = performance.now();
  let allOffered: () => void = () => {};
  const finished = new Promise<void>((resolve) => (allOffered = resolve));
  const settle = () => {
    pending--;
    if (pending === 0 && offered === total) allOffered();
  };
  const send = (due: number) => {
    const r = setup({ ...template, headers: { ...template.headers } }, {});
    const body = typeof r.body === 'string' ? Buffer.from(r.body) : undefined;
    const headers: Record<string, string> = { ...(r.headers as Record<string, string>) };
    if (body) headers['content-length'] = String(body.length);
    pending++;
    const req = http.request(
      {
        agent,
        hostname,
        port,
        method: r.method ?? 'GET',
        path: r.path,
        headers,
        timeout: options.timeout * 1000,
      },
      (res) => {
        res.resume();
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          if (status < 200 || status > 299) non2xx++;
          if (status === 429) status429++;
          latencies.push(performance.now() - due);
          dueAt.push(due - started);
          settle();
        });
      },
    );
    // A request that times out or fails is counted once, as a timeout or as an error, and its time until
    // then counts among the latencies (a lower bound of what it would have taken), so the slowest are
    // never left out of the percentiles.
    let timedOut = false;
    req.on('timeout', () => {
      timeouts++;
      timedOut = true;
      req.destroy(new Error('timeout'));
    });
    req.on('error', () => {
      if (!timedOut) errors++;
      latencies.push(performance.now() - due);
      dueAt.push(due - started);
      settle();
    });
    req.end(body);
  };
  // One timer per millisecond or so sends every request that is due; a late timer sends the late ones
  // at once, each still measured from its own due time.
  const tick = () => {
    const now = performance.now();
    while (offered < total && started + offered * interval <= now) send(started + interval * offered++);
    if (offered < total) setTimeout(tick, Math.max(0, started + offered * interval - performance.now()));
    else if (pending === 0) allOffered();
  };
  tick();
  await finished;
  ownDelay.disable();
  log(
    `  load generator's own event-loop delay: p99 ${(ownDelay.percentile(99) / 1e6).toFixed(1)} ms, max ${(ownDelay.max / 1e6).toFixed(1)} ms`,
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  // Where the slowest 1% were due, by 100 ms: a few windows mean stalls, many mean a steady queue.
  const cut = percentile(
    [...latencies].sort((a, b) => a - b),
    0.99,
  );
  const windows = new Map<number, number>();
  latencies.forEach((l, i) => {
    if (l < cut) return;
    const window = Math.floor(dueAt[i]! / 100) / 10;
    windows.set(window, (windows.get(window) ?? 0) + 1);
  });
  log(
    `  the slowest 1% (>= ${cut.toFixed(1)} ms) were due in ${windows.size} windows of 100 ms; the fullest: ${[
      ...windows,
    ]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([at, n]) => `${at.toFixed(1)} s (${n})`)
      .join(', ')}`,
  );
  const sorted = latencies.sort((a, b) => a - b);
  const ms = (x: number) => Math.round(x * 10) / 10;
  return {
    scenario,
    connections: options.connections,
    seconds: Math.round(seconds),
    requests: latencies.length,
    rps: Math.round(latencies.length / options.duration),
    p50: ms(percentile(sorted, 0.5)),
    p99: ms(percentile(sorted, 0.99)),
    max: ms(sorted.at(-1) ?? 0),
    status429,
    non2xx,
    errors,
    timeouts,
  };
}
