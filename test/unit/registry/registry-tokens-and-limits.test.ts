/**
 * src/core/registry/page-token.ts (opaque, HMAC-signed page tokens: any change is a 400, never a crash)
 * and src/core/registry/rate-limit.ts (a token bucket per client, ARD draft §6.6), and the pageToken
 * secret of src/core/registry/config.ts.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { resolvePageTokenSecret } from '../../../src/core/registry/config.js';
import { PageTokenSettings } from '../../../src/core/schema/registry-settings.js';
import { decodePageToken, encodePageToken, queryDigest } from '../../../src/core/registry/page-token.js';
import { RegistryProblem } from '../../../src/core/registry/problems.js';
import { TokenBucketLimiter } from '../../../src/core/registry/rate-limit.js';
import { isLoopbackAddress } from '../../../src/core/util/net-address.js';
import { codeOf } from '../../helpers/errors.js';

const secret = new TextEncoder().encode('a test secret that is long enough to use here');
const expected = { query: queryDigest('{"q":1}'), index: 'abc123' };

/** What decoding `token` gives: the offset, or the problem's code and detail. */
function decode(token: string, s: Uint8Array = secret, e = expected): number | string {
  try {
    return decodePageToken(token, s, e);
  } catch (error) {
    if (error instanceof RegistryProblem) return `${error.status} ${error.code}: ${error.message}`;
    throw error;
  }
}

describe('page tokens', () => {
  const token = encodePageToken({ offset: 30, ...expected }, secret);

  it('round-trip the offset for the same query and index', () => {
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(decode(token)).toBe(30);
  });

  it('refuse every single-character change, truncation and extension with a 400, never anything else', () => {
    const alphabet = 'AaZz09_-.';
    for (let i = 0; i < token.length; i++) {
      for (const c of alphabet) {
        if (token[i] === c) continue;
        const changed = `${token.slice(0, i)}${c}${token.slice(i + 1)}`;
        const result = decode(changed);
        // A base64url change in the last character can leave the decoded bytes unchanged.
        if (typeof result === 'number')
          expect(Buffer.from(changed.split('.')[1] ?? '', 'base64url')).toEqual(
            Buffer.from(token.split('.')[1]!, 'base64url'),
          );
        else expect(result).toMatch(/^400 INVALID_ARGUMENT/);
      }
    }
    for (const t of [
      token.slice(0, -1),
      `${token}x`,
      token.replace('.', ''),
      `.${token}`,
      '',
      '.',
      'x.y.z',
      '%%%.%%%',
    ]) {
      expect(decode(t)).toMatch(/^400 INVALID_ARGUMENT/);
    }
  });

  it('refuse a token signed with another secret, of another query, or of another build', () => {
    expect(decode(token, new TextEncoder().encode('another secret, also long enough to use'))).toMatch(
      /^400/,
    );
    expect(decode(token, secret, { ...expected, query: queryDigest('{"q":2}') })).toMatch(/another query/);
    expect(decode(token, secret, { ...expected, index: 'def456' })).toMatch(/another build/);
  });

  it('refuse a well-signed payload that is not a cursor', () => {
    // Signed with the secret, as the format says (HMAC-SHA256 over "ardsite-page-token.v1." + payload):
    // the shape is still checked.
    const forge = (payload: unknown) => {
      const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
      const mac = createHmac('sha256', secret).update(`ardsite-page-token.v1.${body}`).digest('base64url');
      return `${body}.${mac}`;
    };
    expect(decode(forge({ o: 5, q: expected.query, i: expected.index }))).toBe(5);
    for (const payload of [
      { o: -1, q: expected.query, i: expected.index },
      { o: 1.5, q: expected.query, i: expected.index },
      { o: 1 },
      [1],
      null,
      'x',
    ]) {
      expect(decode(forge(payload))).toMatch(/^400 INVALID_ARGUMENT/);
    }
  });
});

describe('the token bucket (ARD draft §6.6)', () => {
  it('lets a burst of `capacity` through, then refuses with the seconds until one token is back', () => {
    let now = 0;
    const limiter = new TokenBucketLimiter({
      capacity: 3,
      refillPerSecond: 0.5,
      exemptLoopback: false,
      now: () => now,
    });
    expect([1, 2, 3].map(() => limiter.take('203.0.113.7').allowed)).toEqual([true, true, true]);
    expect(limiter.take('203.0.113.7')).toEqual({ allowed: false, retryAfterSeconds: 2 });
    expect(limiter.take('198.51.100.1').allowed).toBe(true); // per client
    now = 1_000;
    expect(limiter.take('203.0.113.7')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    now = 2_000;
    expect(limiter.take('203.0.113.7').allowed).toBe(true);
    expect(limiter.take('203.0.113.7').allowed).toBe(false);
    now = 1_000_000;
    expect([1, 2, 3, 4].map(() => limiter.take('203.0.113.7').allowed)).toEqual([true, true, true, false]);
  });

  it('exempts loopback clients when asked to, IPv4-mapped included', () => {
    const limiter = new TokenBucketLimiter({ capacity: 1, refillPerSecond: 0.001, exemptLoopback: true });
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '127.8.9.10']) {
      expect(isLoopbackAddress(address)).toBe(true);
      expect([1, 2, 3].every(() => limiter.take(address).allowed)).toBe(true);
    }
    expect(isLoopbackAddress('10.0.0.1')).toBe(false);
    expect(limiter.take('10.0.0.1').allowed).toBe(true);
    expect(limiter.take('10.0.0.1').allowed).toBe(false);
  });

  it('keeps at most maxClients buckets', () => {
    const limiter = new TokenBucketLimiter({
      capacity: 1,
      refillPerSecond: 1,
      exemptLoopback: false,
      maxClients: 100,
    });
    for (let i = 0; i < 1000; i++) limiter.take(`198.51.100.${i % 256}-${i}`);
    expect(limiter.size).toBe(100);
  });
});

describe('the pageToken secret', () => {
  it('is named by content only among the registry variables (a pull request cannot pick PATH or a key)', () => {
    for (const name of ['PATH', 'HOME', 'ARDSITE_SIGNING_KEY', 'ARDSITE_DEV_KEY', 'AWS_SECRET_ACCESS_KEY']) {
      expect(PageTokenSettings.safeParse({ secretEnv: name }).success, name).toBe(false);
    }
    expect(PageTokenSettings.parse({ secretEnv: 'ARDSITE_REGISTRY_STAGING' }).secretEnv).toBe(
      'ARDSITE_REGISTRY_STAGING',
    );
    expect(PageTokenSettings.parse({}).secretEnv).toBe('ARDSITE_REGISTRY_SECRET');
  });

  it('comes from the named environment variable, at least 32 bytes', () => {
    const value = 'x'.repeat(40);
    expect(resolvePageTokenSecret('MY_SECRET', { MY_SECRET: value }, { dev: false })).toEqual({
      secret: new TextEncoder().encode(value),
      ephemeral: false,
    });
    expect(codeOf(() => resolvePageTokenSecret('MY_SECRET', { MY_SECRET: 'short' }, { dev: true }))).toBe(
      'REGISTRY_SECRET_MISSING',
    );
  });

  it('is an error when missing, naming the variable; a throw-away one only in dev', () => {
    let message = '';
    try {
      resolvePageTokenSecret('MY_SECRET', {}, { dev: false });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/MY_SECRET/);
    expect(codeOf(() => resolvePageTokenSecret('MY_SECRET', {}, { dev: false }))).toBe(
      'REGISTRY_SECRET_MISSING',
    );
    const dev = resolvePageTokenSecret('MY_SECRET', {}, { dev: true });
    expect(dev.ephemeral).toBe(true);
    expect(dev.secret.length).toBe(32);
    expect(resolvePageTokenSecret('MY_SECRET', {}, { dev: true }).secret).not.toEqual(dev.secret);
  });
});
