/**
 * The lines `npm run load:registry -- --probe <folder>` prints once the server has ended: per server
 * process, what scripts/serve-probe.mjs recorded (event-loop delay, garbage-collection pauses by kind,
 * requests by kind, the slowest requests, the heap).
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';

/** A count, total and percentiles of durations in ms (scripts/serve-probe.mjs `summary`). */
interface Durations {
  count: number;
  total: number;
  p50: number;
  p99: number;
  max: number;
}

/** One process's probe file (scripts/serve-probe.mjs). */
interface ProbeReport {
  pid: number;
  seconds: number;
  loopDelayMs: { p50: number; p90: number; p99: number; p999: number; max: number; mean: number };
  gc: {
    all: Durations;
    byKind: Record<string, Durations>;
    longest: Array<{ at: number; ms: number; kind: number }>;
  };
  requests: Record<string, Durations>;
  slowest: Array<{ at: number; ms: number; kind: string; url: string; body: string }>;
  /** The first 4 s by 100 ms windows (scripts/serve-probe.mjs `firstSeconds`); absent in older files. */
  firstSeconds?: Array<{ at: number; elu: number; cpuMs: number; started: number; handlingMs: number }>;
  heapMiB: { used: number; total: number; rss: number; external: number };
}

const GC_KINDS: Record<string, string> = {
  '1': 'minor',
  '2': 'major',
  '4': 'incremental',
  '8': 'weak callbacks',
};

const f1 = (x: number) => x.toFixed(1);

/** The report lines of every `probe-<pid>.json` in `folder` (none when there is none). */
export async function probeLines(folder: string): Promise<string[]> {
  const files = (await readdir(folder).catch(() => [] as string[])).filter((f) =>
    /^probe-\d+\.json$/.test(f),
  );
  const lines: string[] = [];
  for (const file of files.sort()) {
    const r = JSON.parse(await readFile(path.join(folder, file), 'utf8')) as ProbeReport;
    const loop = r.loopDelayMs;
    lines.push(
      `process ${r.pid} (${f1(r.seconds)} s from its first request): event-loop delay p50 ${f1(loop.p50)} ms, p90 ${f1(loop.p90)}, p99 ${f1(loop.p99)}, p99.9 ${f1(loop.p999)}, max ${f1(loop.max)}; heap used ${f1(r.heapMiB.used)} MiB (rss ${f1(r.heapMiB.rss)})`,
      `  GC: ${r.gc.all.count} pauses, ${f1(r.gc.all.total)} ms in all, p99 ${f1(r.gc.all.p99)}, max ${f1(r.gc.all.max)}; ${Object.entries(
        r.gc.byKind,
      )
        .map(
          ([k, d]) =>
            `${GC_KINDS[k] ?? k} ${d.count} × (p50 ${f1(d.p50)}, max ${f1(d.max)}, ${f1(d.total)} ms in all)`,
        )
        .join('; ')}`,
      `  requests (server's own time): ${Object.entries(r.requests)
        .map(([k, d]) => `${k} ${d.count} × (p50 ${f1(d.p50)}, p99 ${f1(d.p99)}, max ${f1(d.max)} ms)`)
        .join('; ')}`,
      ...(r.firstSeconds && r.firstSeconds.length > 0
        ? [
            `  first seconds by ~100 ms (end ms: event-loop utilisation, requests begun): ${r.firstSeconds
              .slice(0, 25)
              .map((w) => `${w.at}: ${w.elu.toFixed(2)} ${w.started}`)
              .join(', ')}`,
          ]
        : []),
      ...r.slowest
        .slice(0, 5)
        .map(
          (s) => `  slow: ${f1(s.ms)} ms at ${f1(s.at / 1000)} s, ${s.kind} ${s.url} ${s.body.slice(0, 90)}`,
        ),
    );
  }
  return lines;
}
