/**
 * The worker thread of ./machine-check-thread.ts: runs the machine checks (./machine-check.ts) of the job
 * in `workerData` while the main thread renders, and posts `{ kind: 'done', result }` (or
 * `{ kind: 'failed', message }` when the checks themselves broke). The message `'rendered'` from the main
 * thread lets the reads that wait for the pages go ahead. The key patterns come in `workerData`; no
 * message carries them back (a result names files, never bytes).
 */
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { runMachineChecks, type MachineCheckJob } from './machine-check.js';
import { threadCpuMs } from '../util/thread-cpu.js';

const port = parentPort!;
let markRendered!: () => void;
const rendered = new Promise<void>((resolve) => (markRendered = resolve));
port.on('message', (message: unknown) => {
  if (message === 'rendered') markRendered();
});
try {
  const result = await runMachineChecks(workerData as MachineCheckJob, rendered);
  // This thread's busy time, without the waits for the pages (performance.eventLoopUtilization).
  result.busyMs = performance.eventLoopUtilization().active;
  // And its CPU, loading its code included (src/core/util/thread-cpu.ts), where it can be read.
  const cpuMs = threadCpuMs();
  if (cpuMs !== undefined) result.cpuMs = cpuMs;
  port.postMessage({ kind: 'done', result });
} catch (error) {
  port.postMessage({ kind: 'failed', message: (error as Error).stack ?? String(error) });
}
