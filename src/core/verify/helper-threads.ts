/**
 * Helper threads of a folder verification: worker threads running the bundled verification worker
 * (src/core/util/compiled-worker.ts) that check entries beside the thread that reads the manifest.
 *
 * The work is shared, not split: the threads take the next unchecked entry from one counter in shared
 * memory (`Atomics.add`), so a helper that is still starting takes nothing, and one that is slower takes
 * less. Each helper reads the folder itself and posts back what each entry it took found, by index; the
 * report is put together in manifest order, so it is the same whichever thread checked an entry. An
 * entry a helper took and did not report (the helper crashed) is checked again by the main thread.
 *
 * Start them early ({@link startVerifyHelpers}, before the main thread loads the verifier's modules): a
 * helper needs a while to load its own. Each helper parses its own copy of the
 * manifest (its heap several times the manifest's size) and reads the cards itself;
 * told where the manifest probably is ({@link ManifestPrefetch}), it reads and parses it as soon as it has
 * started, while the main thread still loads its modules, and uses that parse when the job brings the
 * very same bytes.
 */
import { Worker } from 'node:worker_threads';
import type { VerifyFinding } from './findings.js';
import { compiledWorker } from '../util/compiled-worker.js';

/** What checking one entry found: the checks that held and the findings, in the order they were made. */
export interface EntryOutcome {
  passed: number;
  findings: VerifyFinding[];
}

/**
 * A manifest a helper reads and parses as soon as it starts, before any job: `<origin>/.well-known/ard.json`
 * of `folder`, read as a job's reader would (`maxBytes`), its first `maxEntries` entries. A job whose
 * folder, origin, caps and manifest bytes are the same uses that parse; any other job parses its own bytes.
 */
export interface ManifestPrefetch {
  folder: string;
  origin: string;
  maxBytes?: number;
  maxEntries: number;
}

/** What a helper thread is started with (its `workerData`). */
export interface HelperStart {
  prefetch?: ManifestPrefetch;
}

/** The facts a helper needs to check a folder site's entries as the main thread would. */
export interface HelperJob {
  /** The built folder, read as `origin` (see ./folder-reader.ts). */
  folder: string;
  maxBytes?: number;
  origin: string;
  siteDomain: string;
  /** The time `expiresAt` is compared with. */
  now: Date;
  /**
   * The manifest's bytes, as the main thread read them: helpers take the entries from these with the
   * main thread's own function (entry-checks.ts `readManifest`), while the main thread does the same.
   */
  manifest: Uint8Array;
  /** The entry cap the main thread applies (`--max-entries`). */
  maxEntries: number;
}

/**
 * The message that gives a helper a job (entries-worker.ts reads it): the job's facts, `now` as an ISO
 * 8601 string, the job's `id` and the shared counter (one Int32 in shared memory).
 */
export type HelperRequest = Omit<HelperJob, 'now'> & {
  kind: 'job';
  id: number;
  now: string;
  counter: SharedArrayBuffer;
};
/**
 * What a helper posts back for job `id`: outcomes by entry index (in batches, in no set order), then
 * `done` when the counter ran out, or `failed` when a check threw (its other claimed entries unreported).
 */
export type HelperReply =
  | { kind: 'outcomes'; id: number; items: Array<[index: number, outcome: EntryOutcome]> }
  | { kind: 'done'; id: number }
  | { kind: 'failed'; id: number; message: string };

/** One verification's share of the work, as the main thread sees it. */
export interface SharedEntries {
  /** `Atomics.add(counter, 0, 1)` gives the next entry index to check (past the last entry: none left). */
  readonly counter: Int32Array;
  /** What the helpers found, by entry index. */
  readonly outcomes: Map<number, EntryOutcome>;
  /**
   * Resolves when every index below `count` (the number of entries) has an outcome, here or where
   * `checkedHere(index)` says the main thread has one, or when no helper can add one any more (every
   * helper done or dead). Helpers still busy then keep the process alive no more.
   */
  settled(count: number, checkedHere: (index: number) => boolean): Promise<void>;
}

/** Helper threads started by {@link startVerifyHelpers}. */
export interface VerifyHelpers {
  /** How many helper threads there are. */
  readonly size: number;
  /**
   * Shares the entries of `job` with every helper that is alive. One job at a time.
   * @throws RangeError when `job.now` is not a valid date.
   */
  share(job: HelperJob): SharedEntries;
  /** Stops every helper. */
  close(): Promise<void>;
}

interface Helper {
  worker: Worker;
  /** The job this helper is on and has not ended (done, failed or dead), if any. */
  busyWith?: number;
  dead: boolean;
}

/** Helper threads that started, or why there are none. */
export type StartedHelpers = { helpers: VerifyHelpers } | { helpers?: undefined; reason: string };

/**
 * Starts `count` helper threads from the bundled worker (src/core/util/compiled-worker.ts), or from
 * `options.workerFile` (tests give a worker of their own); `options.prefetch`: the manifest each helper
 * reads and parses right away ({@link ManifestPrefetch}). Never throws: no helpers when `count` < 1, or
 * when the bundle cannot be made or a thread cannot be started, with the reason; a helper that fails
 * later only stops helping. Helpers run without the parent's Node options (no tsx loader: the bundle
 * is plain JavaScript).
 */
export async function startVerifyHelpers(
  count: number,
  options: { workerFile?: string; prefetch?: ManifestPrefetch } = {},
): Promise<StartedHelpers> {
  if (count < 1) return { reason: 'no helper threads were asked for' };
  let file = options.workerFile;
  if (file === undefined) {
    const compiled = await compiledWorker('verify');
    if (compiled.file === undefined) return { reason: compiled.reason };
    file = compiled.file;
  }
  const helpers: Helper[] = [];
  let onChange: (() => void) | undefined;
  let current: { id: number; outcomes: Map<number, EntryOutcome> } | undefined;
  let jobs = 0;
  /** Set by close(): a reply that arrives while the helpers stop must not let go of them. */
  let closing = false;

  for (let i = 0; i < count; i++) {
    let worker: Worker;
    try {
      const workerData: HelperStart = options.prefetch ? { prefetch: options.prefetch } : {};
      worker = new Worker(file, { execArgv: [], workerData });
    } catch (error) {
      await Promise.all(helpers.map((h) => h.worker.terminate()));
      return { reason: `a helper thread could not start: ${(error as Error).message}` };
    }
    const helper: Helper = { worker, dead: false };
    // A helper that is not working keeps no process alive; one that is working does (see share()).
    helper.worker.unref();
    helper.worker.on('message', (reply: HelperReply) => {
      if (closing || reply.id !== current?.id) return;
      if (reply.kind === 'outcomes') {
        for (const [index, outcome] of reply.items) current.outcomes.set(index, outcome);
      } else {
        helper.busyWith = undefined;
        helper.worker.unref();
      }
      onChange?.();
    });
    const die = () => {
      helper.dead = true;
      helper.busyWith = undefined;
      onChange?.();
    };
    helper.worker.on('error', die);
    helper.worker.on('exit', die);
    helpers.push(helper);
  }

  const started: VerifyHelpers = {
    size: helpers.length,
    share(job: HelperJob): SharedEntries {
      const id = ++jobs;
      const counter = new Int32Array(new SharedArrayBuffer(4));
      const outcomes = new Map<number, EntryOutcome>();
      current = { id, outcomes };
      const { now, ...facts } = job;
      const request: HelperRequest = {
        ...facts,
        kind: 'job',
        id,
        now: now.toISOString(),
        counter: counter.buffer as SharedArrayBuffer,
      };
      for (const helper of helpers) {
        if (helper.dead) continue;
        helper.busyWith = id;
        helper.worker.ref();
        helper.worker.postMessage(request);
      }
      return {
        counter,
        outcomes,
        settled(count, checkedHere) {
          const complete = () => {
            if (helpers.every((h) => h.busyWith !== id)) return true;
            for (let i = 0; i < count; i++) if (!checkedHere(i) && !outcomes.has(i)) return false;
            return true;
          };
          return new Promise<void>((resolve) => {
            onChange = () => {
              if (!complete()) return;
              onChange = undefined;
              // A helper still starting, or ending its last look at the counter, holds the process no more.
              for (const h of helpers) h.worker.unref();
              resolve();
            };
            onChange();
          });
        },
      };
    },
    async close() {
      // A worker that holds no reference would let the process run out of work while its termination is
      // awaited (an unsettled top-level await, exit code 13): each is held until it has stopped, and a
      // reply still on its way (a helper's "done") no longer lets go of it.
      closing = true;
      await Promise.all(
        helpers.map((h) => {
          h.worker.ref();
          return h.worker.terminate();
        }),
      );
    },
  };
  return { helpers: started };
}
