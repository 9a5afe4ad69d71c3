/**
 * Worker thread of a signer pool (src/core/trust/signer-pool.ts): loads its code, then waits for the key
 * material (`{ key }`, keys.ts `keyMaterialForWorkers`), makes the site's key again from it
 * (`createSigningKey`, so the signatures are the same bytes as the main thread's) and says `{ ready }`.
 * Then it does batches of jobs: a JWS signing input is signed, a card is sealed (./card-signature.ts
 * `sealAgentCard` with the key: the same functions as in the main thread). `{ id, jobs }` in,
 * `{ id, results, busyMs, cpuMs }` or `{ id, error }` out (`cpuMs`: this thread's CPU so far,
 * src/core/util/thread-cpu.ts); the bytes of sealed cards are transferred, not
 * copied. The key material never leaves this thread in a message.
 */
import { parentPort } from 'node:worker_threads';
import { sealAgentCard } from './card-signature.js';
import { createSigningKey, type SigningKey } from './keys.js';
import { type PrivateSigningJwk } from './jwk.js';
import type { SignerJob, SignerResult } from './signer-pool.js';
import { threadCpuMs } from '../util/thread-cpu.js';

let key: SigningKey | undefined;

/** Does a batch of jobs with `signer`; the results in order, and the buffers to transfer. */
async function work(signer: SigningKey, jobs: SignerJob[]): Promise<[SignerResult[], ArrayBuffer[]]> {
  const results: SignerResult[] = [];
  const transfer: ArrayBuffer[] = [];
  for (const job of jobs) {
    if ('input' in job) results.push(signer.sign(job.input));
    else {
      const sealed = await sealAgentCard(job.card, signer, job.domain);
      results.push(sealed);
      // Moved, not copied, when the bytes own their buffer (they do: a fresh TextEncoder result).
      const { buffer, byteOffset, byteLength } = sealed.bytes;
      if (byteOffset === 0 && byteLength === buffer.byteLength) transfer.push(buffer as ArrayBuffer);
    }
  }
  return [results, transfer];
}

parentPort!.on(
  'message',
  (
    message: { key: { privateJwk: PrivateSigningJwk; domain: string } } | { id: number; jobs: SignerJob[] },
  ) => {
    if ('key' in message) {
      try {
        key = createSigningKey(message.key.privateJwk, message.key.domain);
        parentPort!.postMessage({ ready: true, cpuMs: threadCpuMs() });
      } catch (error) {
        // Never the material: the error names the member at fault only (key-checks.ts).
        parentPort!.postMessage({ error: error instanceof Error ? error.message : String(error) });
      }
      return;
    }
    const { id, jobs } = message;
    const started = performance.now();
    void (async () => {
      try {
        if (!key) throw new Error('no key was given to this signing thread');
        const [results, transfer] = await work(key, jobs);
        parentPort!.postMessage(
          { id, results, busyMs: performance.now() - started, cpuMs: threadCpuMs() },
          transfer,
        );
      } catch (error) {
        parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
      }
    })();
  },
);
