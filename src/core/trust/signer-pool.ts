/**
 * A pool of worker threads that sign JWS signing inputs with the site's key, for builds with many agents:
 * signing is the CPU-bound step of computing a site (two deterministic signatures per agent, about half a
 * millisecond each in JavaScript), and a build machine has several cores. The pool is a {@link JwsSigner}:
 * `sign(input)` resolves to exactly the bytes `key.sign(input)` gives (each worker makes the same key
 * from the same material), so a pooled build and an in-thread build write the same files.
 *
 * Requests are queued and sent in batches (one message carries up to `batchSize` inputs), at most two
 * batches in flight per worker, so the main thread keeps building cards while the workers sign.
 */
import { Worker } from 'node:worker_threads';
import { ArdsiteError } from '../errors.js';
import { keyMaterialForWorkers, type JwsSigner, type SigningKey } from './keys.js';
import { type SigningAlgorithm } from './jwk.js';

/** Options of {@link createSignerPool}. */
export interface SignerPoolOptions {
  /** Worker threads (at least 1). */
  workers: number;
  /** Most signing inputs per message (default 16). */
  batchSize?: number;
}

/** A running pool. */
export interface SignerPool extends JwsSigner {
  sign(signingInput: Uint8Array): Promise<Uint8Array>;
  /** Milliseconds the workers spent signing, summed over the workers (thread time, not wall time). */
  readonly busyMs: number;
  /** Stops the workers; pending and later requests are refused. */
  close(): Promise<void>;
}

interface Pending {
  input: Uint8Array;
  resolve: (signature: Uint8Array) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  inFlight: Map<number, Pending[]>;
}

/** Batches in flight per worker: one being signed, one waiting in its queue. */
const MAX_IN_FLIGHT = 2;

/**
 * Starts `options.workers` worker threads holding `key` (keys.ts `keyMaterialForWorkers`; the material
 * goes to the threads of this process only).
 * @throws Error when `key` was not made by `createSigningKey`. A worker that fails later rejects the
 *   requests it held and every later one with ArdsiteError `BUILD_SIGNING_FAILED`.
 */
export function createSignerPool(key: SigningKey, options: SignerPoolOptions): SignerPool {
  const material = keyMaterialForWorkers(key);
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
        slot.worker.postMessage({ id, inputs: batch.map((p) => p.input) });
      }
    }
  };

  for (let i = 0; i < Math.max(1, options.workers); i++) {
    const worker = new Worker(new URL('./signer-worker.mjs', import.meta.url), { workerData: material });
    const slot: Slot = { worker, ready: false, inFlight: new Map() };
    worker.on(
      'message',
      (message: {
        ready?: true;
        id?: number;
        signatures?: Uint8Array[];
        busyMs?: number;
        error?: string;
      }) => {
        if (message.ready) {
          slot.ready = true;
        } else {
          const batch = slot.inFlight.get(message.id!);
          slot.inFlight.delete(message.id!);
          if (!batch) return;
          if (message.error !== undefined || !message.signatures) {
            fail(new Error(message.error ?? 'no signatures in the answer'), batch);
            return;
          }
          busyMs += message.busyMs ?? 0;
          batch.forEach((p, i) => p.resolve(message.signatures![i]!));
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
  return {
    alg: key.alg as SigningAlgorithm,
    kid: key.kid,
    get busyMs() {
      return busyMs;
    },
    sign(signingInput: Uint8Array): Promise<Uint8Array> {
      if (!(signingInput instanceof Uint8Array)) {
        return Promise.reject(
          new ArdsiteError('JWS_INVALID', 'The JWS signing input must be bytes (a Uint8Array).'),
        );
      }
      if (failure) return Promise.reject(failure);
      if (closed)
        return Promise.reject(new ArdsiteError('BUILD_SIGNING_FAILED', 'the signer pool is closed'));
      return new Promise<Uint8Array>((resolve, reject) => {
        queue.push({ input: signingInput, resolve, reject });
        // Batches fill up with the requests of one turn of the event loop before they are sent.
        if (!scheduled) {
          scheduled = true;
          setImmediate(() => {
            scheduled = false;
            pump();
          });
        }
      });
    },
    async close(): Promise<void> {
      closed = true;
      for (const p of queue.splice(0))
        p.reject(new ArdsiteError('BUILD_SIGNING_FAILED', 'the signer pool was closed'));
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}
