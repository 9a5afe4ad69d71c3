/**
 * Bounded concurrency for I/O-bound loops (file reads, WebCrypto verifications): enough work in flight
 * to keep the disk and the thread pool busy, without opening thousands of files at once.
 */

/**
 * Runs `fn` over `items` with at most `limit` calls in flight. Calls start in item order; results keep
 * the items' order. A rejection rejects the whole call (calls already started still run to their end).
 * @throws the first error any call throws.
 */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!, i);
    }
  });
  await Promise.all(lanes);
  return results;
}
