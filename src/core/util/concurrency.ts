/**
 * Bounded concurrency for I/O-bound loops (file reads, WebCrypto verifications): enough work in flight
 * to keep the disk and the thread pool busy, without opening thousands of files at once.
 */

/**
 * Runs `fn` over `items` with at most `limit` calls in flight. Calls start in item order; results keep
 * the items' order. A rejection rejects the whole call: calls already started still run to their end,
 * and no further call starts (a build that failed must not go on writing files).
 * @throws the first error any call throws.
 */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const lanes = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length && !failed) {
      const i = next++;
      try {
        results[i] = await fn(items[i]!, i);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  });
  await Promise.all(lanes);
  return results;
}

/** A promise with its resolve and reject, to settle from elsewhere (Node 20 has no `Promise.withResolvers`). */
export interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

/**
 * A {@link Deferred} whose rejection, if nobody awaits the promise, is never an unhandled rejection: the
 * build settles such promises (the site, each agent) for pages that may never ask (scripts/build.ts,
 * src/core/site/build-context.ts `pendingAgents`). Whoever awaits it still sees the rejection.
 */
export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  promise.catch(() => {});
  return { promise, resolve, reject };
}
