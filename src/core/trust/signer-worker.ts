/**
 * Worker thread of a signer pool (src/core/trust/signer-pool.ts): makes the site's key again from the key
 * material in `workerData` (keys.ts `createSigningKey`, so the signatures are the same bytes as the main
 * thread's) and does batches of jobs: a JWS signing input is signed, a card is sealed
 * (./card-signature.ts `sealAgentCard` with the key: the same functions as in the main thread).
 * `{ id, jobs }` in, `{ id, results, busyMs }` or `{ id, error }` out; the bytes of sealed cards are
 * transferred, not copied. The key material never leaves this thread in a message.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { sealAgentCard } from './card-signature.js';
import { createSigningKey } from './keys.js';
import { type PrivateSigningJwk } from './jwk.js';
import type { SignerJob, SignerResult } from './signer-pool.js';

const { privateJwk, domain } = workerData as { privateJwk: PrivateSigningJwk; domain: string };
const key = createSigningKey(privateJwk, domain);

parentPort!.on('message', ({ id, jobs }: { id: number; jobs: SignerJob[] }) => {
  const started = performance.now();
  void (async () => {
    try {
      const results: SignerResult[] = [];
      const transfer: ArrayBuffer[] = [];
      for (const job of jobs) {
        if ('input' in job) results.push(key.sign(job.input));
        else {
          const sealed = await sealAgentCard(job.card, key, job.domain);
          results.push(sealed);
          // Moved, not copied, when the bytes own their buffer (they do: a fresh TextEncoder result).
          const { buffer, byteOffset, byteLength } = sealed.bytes;
          if (byteOffset === 0 && byteLength === buffer.byteLength) transfer.push(buffer as ArrayBuffer);
        }
      }
      parentPort!.postMessage({ id, results, busyMs: performance.now() - started }, transfer);
    } catch (error) {
      parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
    }
  })();
});
parentPort!.postMessage({ ready: true });
