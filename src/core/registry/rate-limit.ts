/**
 * Per-client rate limiting of the lookup API (ARD draft §6.6: "Public registries SHOULD implement
 * rate-limiting per client IP"): a token bucket per client address. A bucket holds up to `capacity`
 * tokens, gains `refillPerSecond` tokens a second, and each request takes one; a request that finds the
 * bucket empty is refused with the number of whole seconds after which one token will be there
 * (`Retry-After`, RFC 9110 §10.2.3). Loopback clients may be exempt (`exemptLoopback`), for benchmarks.
 *
 * Memory is bounded: at most `maxClients` buckets are kept, the least recently used dropped first (a
 * dropped bucket comes back full, which only errs in the client's favour).
 */
import { LruCache } from '../util/lru-cache.js';
import { isLoopbackAddress } from '../util/net-address.js';

/** Settings of a {@link TokenBucketLimiter} (the `registry.rateLimit` settings). */
export interface RateLimitOptions {
  capacity: number;
  refillPerSecond: number;
  exemptLoopback: boolean;
  /** Most buckets kept (default 100,000). */
  maxClients?: number;
  /** Clock in milliseconds (default `performance.now`), for tests. */
  now?: () => number;
}

/** The verdict on one request. */
export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  updated: number;
}

/** A token bucket per client (see the module comment). */
export class TokenBucketLimiter {
  private readonly buckets: LruCache<Bucket>;
  private readonly capacity: number;
  private readonly refillPerMs: number;
  private readonly exemptLoopback: boolean;
  private readonly now: () => number;

  constructor(options: RateLimitOptions) {
    this.capacity = options.capacity;
    this.refillPerMs = options.refillPerSecond / 1000;
    this.exemptLoopback = options.exemptLoopback;
    this.buckets = new LruCache(options.maxClients ?? 100_000);
    this.now = options.now ?? (() => performance.now());
  }

  /** Takes one token for `client` (its address), or says how long to wait. */
  take(client: string): RateDecision {
    if (this.exemptLoopback && isLoopbackAddress(client)) return { allowed: true };
    const now = this.now();
    const bucket = this.buckets.get(client) ?? { tokens: this.capacity, updated: now };
    bucket.tokens = Math.min(this.capacity, bucket.tokens + (now - bucket.updated) * this.refillPerMs);
    bucket.updated = now;
    this.buckets.set(client, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true };
    }
    const waitMs = (1 - bucket.tokens) / this.refillPerMs;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }

  /** Number of clients currently tracked. */
  get size(): number {
    return this.buckets.size;
  }
}
