/**
 * The one LRU (src/core/util/lru-cache.ts) and the rate limiter that keeps its client buckets in it: the
 * least recently used key goes first, a read marks a key used, a peek does not.
 */
import { describe, expect, it } from 'vitest';
import { LruCache } from '../../../src/core/util/lru-cache.js';
import { TokenBucketLimiter } from '../../../src/core/registry/rate-limit.js';

describe('LruCache', () => {
  it('drops the least recently used key when full; get marks a key used, peek does not', () => {
    const cache = new LruCache<number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3);
    expect([cache.peek('a'), cache.peek('b'), cache.peek('c')]).toEqual([1, undefined, 3]);
    expect(cache.peek('a')).toBe(1);
    cache.set('d', 4);
    expect([cache.peek('a'), cache.peek('c'), cache.peek('d')]).toEqual([undefined, 3, 4]);
    expect(cache.size).toBe(2);
  });

  it('setting a key again replaces its value and marks it used; shift takes the oldest', () => {
    const cache = new LruCache<string>(3);
    cache.set('a', 'first');
    cache.set('b', 'b');
    cache.set('a', 'second');
    expect(cache.shift()).toBe('b');
    expect(cache.shift()).toBe('second');
    expect(cache.shift()).toBeUndefined();
  });
});

describe('TokenBucketLimiter keeps its buckets in the LRU', () => {
  it('forgets the least recently seen client first (its bucket comes back full)', () => {
    const limiter = new TokenBucketLimiter({
      capacity: 1,
      refillPerSecond: 0.001,
      exemptLoopback: false,
      maxClients: 2,
      now: () => 0,
    });
    expect(limiter.take('192.0.2.1')).toEqual({ allowed: true });
    expect(limiter.take('192.0.2.2')).toEqual({ allowed: true });
    // 192.0.2.1 is used again (refused: its bucket is empty), so 192.0.2.2 is now the oldest
    expect(limiter.take('192.0.2.1').allowed).toBe(false);
    expect(limiter.take('192.0.2.3')).toEqual({ allowed: true });
    expect(limiter.size).toBe(2);
    expect(limiter.take('192.0.2.2')).toEqual({ allowed: true });
    expect(limiter.take('192.0.2.1')).toEqual({ allowed: true });
  });
});
