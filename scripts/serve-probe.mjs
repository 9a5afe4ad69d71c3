/**
 * A preload for the server's processes under `npm run load:registry -- --probe <folder>` (plain
 * JavaScript: the compiled server runs without tsx). In each process that answers requests (one server,
 * or each worker of `--workers`; not the primary that only hands connections on), from its first request
 * until it ends, it records:
 * - the event loop's delay (`perf_hooks.monitorEventLoopDelay`, 5 ms resolution): percentiles, ms;
 * - every garbage collection (a PerformanceObserver of 'gc' entries): count, total, p99 and max pause
 *   per kind (V8's `NODE_PERFORMANCE_GC_*` flags: 1 minor (scavenge), 2 major, 4 incremental, 8 weak
 *   callbacks) and the longest ones with their time;
 * - each request's time from the server's `request` event to its answer's end (node:diagnostics_channel's
 *   `http.server.request.start` and `http.server.response.finish`), by kind (a `/search` with or without
 *   a filter, a GET), and the slowest requests with their path and the start of their body;
 * - the first 4 s by windows of about 100 ms (a timer's ticks, so a busy loop makes them longer): the
 *   event loop's utilisation (`performance.eventLoopUtilization`, 1: never idle), the process's CPU
 *   time, the requests begun and their handling time, and the GC pauses; a utilisation of 1 means
 *   requests wait in the kernel's socket buffers, a wait that neither the event-loop delay nor the
 *   requests' own time shows;
 * - the heap when it ends.
 * It writes `probe-<pid>.json` into the folder named by `ARDSITE_PROBE_OUT` when the process exits.
 * For the load test's synthetic questions only: it records request paths and the start of their bodies,
 * which hold query texts, so it is never to be loaded into a registry that serves real people (ardsite
 * serve itself never logs query texts, ARD draft §7).
 */
import cluster from 'node:cluster';
import diagnostics from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';
import { PerformanceObserver, monitorEventLoopDelay, performance } from 'node:perf_hooks';

const out = process.env.ARDSITE_PROBE_OUT;
const workers = process.argv.indexOf('--workers');
const primaryOfWorkers = cluster.isPrimary && workers > 0 && process.argv[workers + 1] !== '1';

if (out && process.argv.includes('serve') && !primaryOfWorkers) {
  let t0 = -1;
  const loop = monitorEventLoopDelay({ resolution: 5 });
  const gcs = [];
  const requests = [];
  const open = new WeakMap();
  new PerformanceObserver((list) => {
    if (t0 < 0) return;
    for (const e of list.getEntries())
      gcs.push({ at: e.startTime - t0, ms: e.duration, kind: e.detail?.kind });
  }).observe({ entryTypes: ['gc'] });
  const windows = [];
  let lastElu;
  let lastCpu;
  let sampler;
  diagnostics.subscribe('http.server.request.start', ({ request }) => {
    if (t0 < 0) {
      t0 = performance.now();
      loop.enable();
      lastElu = performance.eventLoopUtilization();
      lastCpu = process.cpuUsage();
      sampler = setInterval(() => {
        const elu = performance.eventLoopUtilization();
        const cpu = process.cpuUsage();
        windows.push({
          at: performance.now() - t0,
          elu: performance.eventLoopUtilization(elu, lastElu).utilization,
          cpuMs: (cpu.user + cpu.system - lastCpu.user - lastCpu.system) / 1000,
        });
        lastElu = elu;
        lastCpu = cpu;
        if (windows.length >= 40) clearInterval(sampler);
      }, 100);
      sampler.unref();
    }
    const seen = { start: performance.now(), body: '' };
    open.set(request, seen);
    request.on('data', (chunk) => {
      if (seen.body.length < 160) seen.body += chunk.toString('utf8').slice(0, 160);
    });
  });
  diagnostics.subscribe('http.server.response.finish', ({ request }) => {
    const seen = open.get(request);
    if (!seen) return;
    const kind =
      request.method !== 'POST'
        ? `${request.method}`
        : /"filter"/.test(seen.body)
          ? 'search+filter'
          : 'search';
    requests.push({
      at: seen.start - t0,
      ms: performance.now() - seen.start,
      kind,
      url: request.url.slice(0, 100),
      body: seen.body,
    });
  });
  const nearest = (sorted, share) =>
    sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)];
  const summary = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    return {
      count: sorted.length,
      total: sorted.reduce((a, b) => a + b, 0),
      p50: nearest(sorted, 0.5),
      p99: nearest(sorted, 0.99),
      max: sorted.at(-1) ?? 0,
    };
  };
  process.on('exit', () => {
    if (t0 < 0) return;
    const ms = (ns) => ns / 1e6;
    const kinds = [...new Set(gcs.map((g) => g.kind))];
    const byKind = [...new Set(requests.map((r) => r.kind))];
    const memory = process.memoryUsage();
    const report = {
      pid: process.pid,
      seconds: (performance.now() - t0) / 1000,
      loopDelayMs: {
        p50: ms(loop.percentile(50)),
        p90: ms(loop.percentile(90)),
        p99: ms(loop.percentile(99)),
        p999: ms(loop.percentile(99.9)),
        max: ms(loop.max),
        mean: ms(loop.mean),
      },
      gc: {
        all: summary(gcs.map((g) => g.ms)),
        byKind: Object.fromEntries(
          kinds.map((k) => [k, summary(gcs.filter((g) => g.kind === k).map((g) => g.ms))]),
        ),
        longest: [...gcs].sort((a, b) => b.ms - a.ms).slice(0, 10),
      },
      requests: Object.fromEntries(
        byKind.map((k) => [k, summary(requests.filter((r) => r.kind === k).map((r) => r.ms))]),
      ),
      firstSeconds: windows.map((w, i) => {
        const from = i === 0 ? 0 : windows[i - 1].at;
        const inWindow = requests.filter((r) => r.at >= from && r.at < w.at);
        const gcIn = gcs.filter((g) => g.at >= from && g.at < w.at);
        return {
          at: Math.round(w.at),
          elu: Math.round(w.elu * 100) / 100,
          cpuMs: Math.round(w.cpuMs),
          started: inWindow.length,
          handlingMs: Math.round(inWindow.reduce((a, r) => a + r.ms, 0)),
          maxMs: Math.round(Math.max(0, ...inWindow.map((r) => r.ms))),
          gcMs: Math.round(gcIn.reduce((a, g) => a + g.ms, 0)),
        };
      }),
      slowest: [...requests].sort((a, b) => b.ms - a.ms).slice(0, 10),
      heapMiB: {
        used: memory.heapUsed / 2 ** 20,
        total: memory.heapTotal / 2 ** 20,
        rss: memory.rss / 2 ** 20,
        external: memory.external / 2 ** 20,
      },
    };
    writeFileSync(`${out}/probe-${process.pid}.json`, `${JSON.stringify(report, null, 1)}\n`);
  });
}
