/**
 * The CPU figures of a build: one thread's CPU (src/core/util/thread-cpu.ts), the phase timer's CPU
 * per phase and per thread (src/core/util/timings.ts), a child's CPU measured from outside
 * (scripts/lib/cpu-share.ts) and the bench's CPU summary (scripts/lib/cpu-figures.ts).
 */
import { execFileSync } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { describe, expect, it, vi } from 'vitest';
import { childrenCpuMs, cpuSnapshot } from '../../../scripts/lib/cpu-share.js';
import { cpuLines, cpuSummary } from '../../../scripts/lib/cpu-figures.js';
import { processCpuMs, threadCpuMs } from '../../../src/core/util/thread-cpu.js';
import { cpuReport, MAX_CPU_ENTRIES, PhaseTimer } from '../../../src/core/util/timings.js';

/**
 * Keeps this thread busy until the process has used `ms` more milliseconds of CPU (CPU, not wall time:
 * other jobs on the machine may take the core meanwhile).
 */
function spin(ms: number): void {
  const start = processCpuMs();
  let x = 0;
  while (processCpuMs() - start < ms) for (let i = 0; i < 10_000; i++) x += Math.sqrt(x + 1);
  if (x < 0) throw new Error('unreachable');
}

const linux = process.platform === 'linux';

describe('threadCpuMs', () => {
  it.runIf(linux)('counts this thread’s CPU, not a worker thread’s', async () => {
    const before = threadCpuMs()!;
    // A worker spins until its thread used 400 ms: the process's CPU grows by that much, this thread's does not.
    const processBefore = processCpuMs();
    const workerCpu = await new Promise<number>((resolve, reject) => {
      const worker = new Worker(
        `const { parentPort } = require('node:worker_threads');
         const { readFileSync } = require('node:fs');
         const own = () => {
           const f = readFileSync('/proc/thread-self/stat', 'utf8');
           const fields = f.slice(f.lastIndexOf(')') + 2).split(' ');
           return (Number(fields[11]) + Number(fields[12])) * 10;
         };
         let x = 0;
         while (own() < 400) for (let i = 0; i < 100000; i++) x += Math.sqrt(x + 1);
         parentPort.postMessage(own());`,
        { eval: true },
      );
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    const between = threadCpuMs()! - before;
    expect(workerCpu).toBeGreaterThanOrEqual(400);
    expect(processCpuMs() - processBefore).toBeGreaterThan(350);
    expect(between).toBeLessThan(workerCpu);
    spin(300);
    expect(threadCpuMs()! - before - between).toBeGreaterThan(150);
  });
});

describe('PhaseTimer CPU', () => {
  it('adds the process CPU of each timed phase, and threads’ CPU by name', async () => {
    const timer = new PhaseTimer();
    timer.time('busy', () => spin(200));
    // A phase that waits 200 ms on a timer, on vitest's fake clock: exactly 200 ms of wall time, no sleep.
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
    try {
      const idle = timer.time('idle', () => new Promise((r) => setTimeout(r, 200)));
      await vi.advanceTimersByTimeAsync(200);
      await idle;
    } finally {
      vi.useRealTimers();
    }
    timer.addThreadCpu('signing worker threads', 120);
    timer.addThreadCpu('signing worker threads', 30);
    const cpu = timer.cpuJSON();
    expect(cpu.busy).toBeGreaterThan(100);
    expect(cpu.idle).toBeLessThan(100);
    expect(timer.toJSON().idle).toBe(200);
    const report = cpuReport(timer);
    expect(report.threadsMs).toEqual({ 'signing worker threads': 150 });
    expect(report.phasesMs).toEqual(cpu);
    expect(report.processMs).toBeGreaterThanOrEqual(cpu.busy!);
    if (linux) expect(report.mainThreadMs).toBeGreaterThan(100);
  });

  it('keeps only the wall time of a phase entered once an agent', () => {
    const timer = new PhaseTimer();
    for (let i = 0; i <= MAX_CPU_ENTRIES; i++) timer.time('permissions', () => spin(1));
    timer.time('computing', () => spin(1));
    expect(Object.keys(timer.cpuJSON())).toEqual(['computing']);
    expect(Object.keys(timer.toJSON())).toEqual(['permissions', 'computing']);
  });
});

describe('childrenCpuMs', () => {
  it.runIf(linux)('is the CPU of the child waited for between two snapshots', () => {
    const before = cpuSnapshot();
    execFileSync(process.execPath, [
      '-e',
      'let x = 0; while (process.cpuUsage().user < 300_000) x += Math.sqrt(x + 1);',
    ]);
    const ms = childrenCpuMs(before, cpuSnapshot())!;
    expect(ms).toBeGreaterThan(200);
    expect(ms).toBeLessThan(3000);
  });
});

describe('cpuSummary', () => {
  it('pairs the builds, gives the CPU ratio and ardsite’s own CPU per agent with their spread', () => {
    const cpu = (mainThreadMs: number) => ({
      processMs: 30_000,
      mainThreadMs,
      threadsMs: { 'signing worker threads': 2000 },
      phasesMs: {},
    });
    const ours = [
      { cpuMs: 24_000, cpu: cpu(20_000) },
      { cpuMs: 33_000, cpu: cpu(22_000) },
      { cpuMs: 22_000 },
    ];
    const floor = [
      { cpuMs: 20_000, cpu: { processMs: 19_000, mainThreadMs: 15_000, threadsMs: {}, phasesMs: {} } },
      { cpuMs: 30_000 },
      {},
    ];
    const summary = cpuSummary(ours, floor, 1000);
    expect(summary.ratios).toEqual([1.2, 1.1]);
    expect(summary.ratio).toEqual({ median: 1.15, min: 1.1, max: 1.2 });
    expect(summary.ownPerAgent).toEqual({ median: 3.5, min: 3, max: 4 });
    expect(summary.threadsMs).toEqual({
      'main thread': 21_000,
      'signing worker threads': 2000,
      'other threads (GC, I/O, loader)': 7000,
    });
    expect(summary.baselineThreadsMs).toEqual({
      'main thread': 15_000,
      'other threads (GC, I/O, loader)': 4000,
    });
    expect(cpuLines(summary, 'floor').join('\n')).toContain(
      'floor CPU by thread (median): main thread 15.00 s, other threads (GC, I/O, loader) 4.00 s',
    );
    expect(cpuLines(summary, 'floor').join('\n')).toMatch(
      /CPU ratio 1\.15 \(1\.10–1\.20\)[^]*3\.50 \(3\.00–4\.00\) ms/,
    );
  });

  it('says so when no pair has figures', () => {
    expect(cpuLines(cpuSummary([{}], [{}], 10), 'floor')).toEqual([
      'CPU: no figures (this system has no /proc)',
    ]);
  });
});
