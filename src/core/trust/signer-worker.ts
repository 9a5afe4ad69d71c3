/**
 * Worker thread of a signer pool (src/core/trust/signer-pool.ts): makes the site's key again from the key
 * material in `workerData` (keys.ts `createSigningKey`, so the signatures are the same bytes as the main
 * thread's) and signs batches of JWS signing inputs: `{ id, inputs }` in, `{ id, signatures, busyMs }` or
 * `{ id, error }` out. The key material never leaves this thread in a message.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createSigningKey } from './keys.js';
import { type PrivateSigningJwk } from './jwk.js';

const { privateJwk, domain } = workerData as { privateJwk: PrivateSigningJwk; domain: string };
const key = createSigningKey(privateJwk, domain);

parentPort!.on('message', ({ id, inputs }: { id: number; inputs: Uint8Array[] }) => {
  const started = performance.now();
  try {
    const signatures = inputs.map((input) => key.sign(input));
    parentPort!.postMessage({ id, signatures, busyMs: performance.now() - started });
  } catch (error) {
    parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
parentPort!.postMessage({ ready: true });
