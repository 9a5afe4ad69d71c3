/**
 * Runs the machine checks of a build (./machine-check.ts) beside Astro's rendering: in a worker thread,
 * started as soon as the artifacts are written, on the core Astro leaves idle. The thread reads
 * the artifacts while Astro writes the pages into the same folder; what it needs of the pages or of
 * public/ it reads only after {@link MachineCheckRun.rendered}. The main thread joins it before the folder
 * moves or is swapped in, so a failure it finds fails the build as one found afterwards would.
 *
 * A thread that cannot start or dies (not a finding: its own fault) is not trusted to have checked
 * anything: the same checks then run in the main thread once the pages are rendered. So do they when a
 * file the thread read before rendering ended is not the same afterwards (./machine-check.ts
 * `staleReads`): its result is of a folder that no longer is.
 */
import { Worker } from 'node:worker_threads';
import { bundledWorkerExecArgv } from '../util/compiled-worker.js';
import {
  runMachineChecks,
  staleReads,
  type MachineCheckJob,
  type MachineCheckResult,
} from './machine-check.js';

/** Machine checks under way. */
export interface MachineCheckRun {
  /** Where they run: a worker thread, or this thread after rendering (`here`). */
  readonly where: 'worker' | 'here';
  /** Tells the checks that the pages are rendered and the folder is complete: waiting reads go ahead. */
  rendered(): void;
  /**
   * What the checks found (findings never reject it). In the worker's place, when it failed, the result
   * of the same checks run in this thread after {@link rendered}; `onFallback` hears why.
   */
  readonly result: Promise<MachineCheckResult>;
  /** Stops the worker thread if it still runs (a failed render); the result is then never used. */
  stop(): Promise<void>;
}

/** Options of {@link startMachineChecks}. */
export interface StartOptions {
  /** Run in a worker thread (default true); false runs them in this thread once rendered. */
  worker?: boolean;
  /** Hears why the worker thread gave no result, when the checks then run in this thread. */
  onFallback?: (reason: string) => void;
  /**
   * Hears the files the worker read before rendering ended and that rendering changed, when the checks
   * then run again in this thread.
   */
  onStale?: (files: string[]) => void;
  /** The worker's entry (default ./machine-check-worker.mjs); tests give one that fails. */
  workerFile?: URL;
  /**
   * The bundled plain-JavaScript worker (src/core/util/compiled-worker.ts `compiledWorker('machine-check')`),
   * started without the parent's Node options (no tsx loader: about a second of CPU less beside
   * rendering). Used when no `workerFile` is given.
   */
  bundle?: string;
}

/**
 * Starts the machine checks of `job`. Never throws: a worker that cannot start or fails gives way to
 * the same checks in this thread (see {@link MachineCheckRun.result}).
 */
export function startMachineChecks(job: MachineCheckJob, options: StartOptions = {}): MachineCheckRun {
  let markRendered!: () => void;
  const rendered = new Promise<void>((resolve) => (markRendered = resolve));
  const here = () => rendered.then(() => runMachineChecks(job, Promise.resolve()));
  if (options.worker === false) {
    return { where: 'here', rendered: markRendered, result: here(), stop: async () => {} };
  }
  let worker: Worker | undefined;
  let stopped = false;
  const fromWorker = new Promise<MachineCheckResult>((resolve, reject) => {
    worker =
      options.workerFile === undefined && options.bundle !== undefined
        ? new Worker(options.bundle, { workerData: job, execArgv: bundledWorkerExecArgv() })
        : new Worker(options.workerFile ?? new URL('./machine-check-worker.mjs', import.meta.url), {
            workerData: job,
          });
    worker.on(
      'message',
      (message: { kind: 'done'; result: MachineCheckResult } | { kind: 'failed'; message: string }) => {
        if (message.kind === 'done') resolve(message.result);
        else reject(new Error(message.message));
      },
    );
    worker.on('error', reject);
    worker.on('exit', (code) => reject(new Error(`the thread exited with code ${code}`)));
  });
  const result = fromWorker
    .finally(() => void worker?.terminate())
    .then(
      // A file the thread read before rendering ended and that rendering changed: the checks run again.
      async (found) => {
        await rendered;
        const stale = staleReads(job.folder, found);
        if (stale.length === 0) return found;
        options.onStale?.(stale);
        return runMachineChecks(job, Promise.resolve());
      },
      (error: unknown) => {
        if (stopped) throw error;
        options.onFallback?.((error as Error).message);
        return here();
      },
    );
  // A result never awaited (a failed render) must not be an unhandled rejection.
  result.catch(() => {});
  return {
    where: 'worker',
    rendered() {
      markRendered();
      worker?.postMessage('rendered');
    },
    result,
    async stop() {
      stopped = true;
      await worker?.terminate();
    },
  };
}
