/**
 * A bounded map that forgets the least recently used key first: the one LRU of ardsite (the registry's
 * search caches, answer cache, trust verdicts and rate-limit buckets). A JavaScript `Map` iterates in
 * insertion order (ECMA-262 §24.1.3.5), so re-inserting a key on use keeps the oldest first.
 */

/** A map of at most `capacity` entries (a count, at least 1); {@link set} drops the least recently used. */
export class LruCache<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly capacity: number) {}
  /** The value of `key`, marked as used. */
  get(key: string): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }
  /** Stores `value`, dropping the least recently used entry when full. */
  set(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.capacity) {
      const oldest = this.map.keys().next().value;
      if (oldest !== undefined) this.map.delete(oldest);
    }
  }
  /** The value of `key`, without marking it as used. */
  peek(key: string): V | undefined {
    return this.map.get(key);
  }
  /** Removes and returns the least recently used value (undefined when empty). */
  shift(): V | undefined {
    const oldest = this.map.entries().next();
    if (oldest.done) return undefined;
    this.map.delete(oldest.value[0]);
    return oldest.value[1];
  }
  /** Number of cached values. */
  get size(): number {
    return this.map.size;
  }
}
