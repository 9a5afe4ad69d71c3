/**
 * A pool of worker threads that sign JWS signing inputs with the site's key, for builds with many agents:
 * signing is the CPU-bound step of computing a site (two deterministic signatures per agent, about half a
 * millisecond each in JavaScript), and a build machine has several cores. The pool is a {@link JwsSigner}:
 * `sign(input)` resolves to exactly the bytes `key.sign(input)` gives (each worker makes the same key
 * from the same material), so a pooled build and an in-thread build write the same files.
 *
 * A pool also seals whole cards (`sealCard`, ./card-signature.ts `sealAgentCard`): the card's two
 * canonical payloads, both signatures and its serialisation are then made in a worker, which is most of
 * what a card costs, so the thread that builds the cards hands them on as soon as they are built.
 *
 * Requests are queued and sent in batches (one message carries up to `batchSize` of them), at most two
 * batches in flight per worker, so the main thread keeps building cards while the workers sign.
 */
import { Worker } from 'node:worker_threads';
import { bundledWorkerExecArgv } from '../util/compiled-worker.js';
import type { JsonObject } from '../a2a/card.js';
import { ArdsiteError } from '../util/errors.js';
import type { CardSealer, SealedCard } from './card-signature.js';
import { keyMaterialForWorkers, type JwsSigner, type SigningKey } from './keys.js';
import { type SigningAlgorithm } from './jwk.js';

/** Options of {@link createSignerPool}. */
export interface SignerPoolOptions {
  /** Worker threads (at least 1). */
  workers: number;
  /** Most signing inputs per message (default 16). */
  batchSize?: number;
  /**
   * The worker's module: the bundled plain-JavaScript worker (src/core/util/compiled-worker.ts
   * `compiledWorker('signer')`), started without the parent's Node options (no tsx loader). Default:
   * ./signer-worker.mjs, which loads the TypeScript worker through tsx (about a second of CPU more).
   */
  workerFile?: string;
}

/** A running pool. */
export interface SignerPool extends JwsSigner, CardSealer {
  sign(signingInput: Uint8Array): Promise<Uint8Array>;
  /** Milliseconds the workers spent signing, summed over the workers (thread time, not wall time). */
  readonly busyMs: number;
  /**
   * Milliseconds of CPU the worker threads used since they started (loading their code included), summed
   * over the workers as of their last answers (src/core/util/thread-cpu.ts; a thread that has not answered
   * yet counts nothing), or undefined where no thread's CPU could be read.
   */
  readonly cpuMs: number | undefined;
  /** Stops the workers; pending and later requests are refused. */
  close(): Promise<void>;
}

/** A job a worker does: sign a JWS signing input, or seal a card (./signer-worker.ts). */
export type SignerJob = { input: Uint8Array } | { card: JsonObject; domain: string };

/** A worker's answer to a job: the signature, or the sealed card. */
export type SignerResult = Uint8Array | SealedCard;

interface Pending {
  job: SignerJob;
  resolve: (result: SignerResult) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  inFlight: Map<number, Pending[]>;
  /** The thread's CPU milliseconds as of its last answer. */
  cpuMs?: number | undefined;
}

/** Batches in flight per worker: one being signed, one waiting in its queue. */
const MAX_IN_FLIGHT = 2;

/**
 * Signing threads started before the key is known (a build starts them before it reads the content, so
 * that they load their code meanwhile, on a core the main thread leaves idle).
 */
export interface SignerThreads {
  /**
   * Gives every thread `key` (keys.ts `keyMaterialForWorkers`; the material goes to the threads of this
   * process only) and returns the pool that signs with it. Once per threads.
   * @throws Error when `key` was not made by `createSigningKey`, or when a key was given already.
   */
  withKey(key: SigningKey): SignerPool;
  /** Stops the threads (also those never given a key). */
  close(): Promise<void>;
}

/**
 * Starts `options.workers` worker threads holding `key` ({@link startSignerThreads}, then
 * {@link SignerThreads.withKey}).
 * @throws Error when `key` was not made by `createSigningKey`. A worker that fails later rejects the
 *   requests it held and every later one with ArdsiteError `BUILD_SIGNING_FAILED`.
 */
export function createSignerPool(key: SigningKey, options: SignerPoolOptions): SignerPool {
  return startSignerThreads(options).withKey(key);
}

/**
 * Starts `options.workers` worker threads without a key: they load their code and wait for
 * {@link SignerThreads.withKey}. A worker that fails rejects the requests it held and every later one
 * with ArdsiteError `BUILD_SIGNING_FAILED`.
 */
export function startSignerThreads(options: SignerPoolOptions): SignerThreads {
  const batchSize = options.batchSize ?? 16;
  const queue: Pending[] = [];
  const slots: Slot[] = [];
  let nextId = 0;
  let busyMs = 0;
  let failure: Error | undefined;
  let closed = false;

  const fail = (error: Error, batch: Pending[] = []) => {
    failure ??= new ArdsiteError('BUILD_SIGNING_FAILED', `a signing worker failed: ${error.message}`);
    for (const p of batch) p.reject(failure);
    for (const slot of slots) {
      for (const batch of slot.inFlight.values()) for (const p of batch) p.reject(failure);
      slot.inFlight.clear();
    }
    for (const p of queue.splice(0)) p.reject(failure);
  };

  const pump = () => {
    for (const slot of slots) {
      while (slot.ready && queue.length > 0 && slot.inFlight.size < MAX_IN_FLIGHT) {
        const batch = queue.splice(0, batchSize);
        const id = nextId++;
        slot.inFlight.set(id, batch);
        slot.worker.postMessage({ id, jobs: batch.map((p) => p.job) });
      }
    }
  };

  for (let i = 0; i < Math.max(1, options.workers); i++) {
    const worker = options.workerFile
      ? new Worker(options.workerFile, { execArgv: bundledWorkerExecArgv() })
      : new Worker(new URL('./signer-worker.mjs', import.meta.url));
    const slot: Slot = { worker, ready: false, inFlight: new Map() };
    worker.on(
      'message',
      (message: {
        ready?: true;
        id?: number;
        results?: SignerResult[];
        busyMs?: number;
        cpuMs?: number;
        error?: string;
      }) => {
        if ('cpuMs' in message) slot.cpuMs = message.cpuMs;
        if (message.ready) {
          slot.ready = true;
        } else if (message.id === undefined) {
          // The thread could not make the key: every request fails.
          fail(new Error(message.error ?? 'the key was not accepted'));
          return;
        } else {
          const batch = slot.inFlight.get(message.id!);
          slot.inFlight.delete(message.id!);
          if (!batch) return;
          if (message.error !== undefined || !message.results) {
            fail(new Error(message.error ?? 'no results in the answer'), batch);
            return;
          }
          busyMs += message.busyMs ?? 0;
          batch.forEach((p, i) => p.resolve(message.results![i]!));
        }
        pump();
      },
    );
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (!closed) fail(new Error(`it exited with code ${code}`));
    });
    slots.push(slot);
  }

  let scheduled = false;
  const enqueue = (job: SignerJob): Promise<SignerResult> => {
    if (failure) return Promise.reject(failure);
    if (closed) return Promise.reject(new ArdsiteError('BUILD_SIGNING_FAILED', 'the signer pool is closed'));
    return new Promise<SignerResult>((resolve, reject) => {
      queue.push({ job, resolve, reject });
      // Batches fill up with the requests of one turn of the event loop before they are sent.
      if (!scheduled) {
        scheduled = true;
        setImmediate(() => {
          scheduled = false;
          pump();
        });
      }
    });
  };
  const close = async (): Promise<void> => {
    closed = true;
    for (const p of queue.splice(0))
      p.reject(new ArdsiteError('BUILD_SIGNING_FAILED', 'the signer pool was closed'));
    await Promise.all(slots.map((s) => s.worker.terminate()));
  };
  let keyed = false;
  return {
    withKey(key: SigningKey): SignerPool {
      if (keyed) throw new Error('these signing threads have a key already');
      const material = keyMaterialForWorkers(key);
      keyed = true;
      for (const slot of slots) slot.worker.postMessage({ key: material });
      return {
        alg: key.alg as SigningAlgorithm,
        kid: key.kid,
        get busyMs() {
          return busyMs;
        },
        get cpuMs() {
          const known = slots.filter((s) => s.cpuMs !== undefined);
          return known.length > 0 ? known.reduce((sum, s) => sum + s.cpuMs!, 0) : undefined;
        },
        sign(signingInput: Uint8Array): Promise<Uint8Array> {
          if (!(signingInput instanceof Uint8Array)) {
            return Promise.reject(
              new ArdsiteError('JWS_INVALID', 'The JWS signing input must be bytes (a Uint8Array).'),
            );
          }
          return enqueue({ input: signingInput }) as Promise<Uint8Array>;
        },
        sealCard(card: JsonObject, domain: string): Promise<SealedCard> {
          return enqueue({ card, domain }) as Promise<SealedCard>;
        },
        close,
      };
    },
    close,
  };
}
