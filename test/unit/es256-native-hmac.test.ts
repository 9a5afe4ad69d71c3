import { createHash } from 'node:crypto';
import { p256 } from '@noble/curves/nist.js';
import { describe, expect, it } from 'vitest';
import { es256, precomputeSigningTables } from '../../src/core/trust/keys.js';

// The signer swaps noble's JS HMAC/SHA-256 for Node's; the signatures must not change by one byte.
describe('es256 with Node HMAC in the RFC 6979 DRBG', () => {
  it('gives the same signatures as @noble/curves p256.sign for many keys and messages', () => {
    for (let i = 0; i < 25; i++) {
      const d = p256.utils.randomSecretKey();
      const message = new TextEncoder().encode(`message ${i} ${'x'.repeat(i * 97)}`);
      const reference = p256.sign(message, d, {
        prehash: true,
        lowS: true,
        extraEntropy: false,
        format: 'compact',
      });
      const ours = es256.sign(createHash('sha256').update(message).digest(), d, {
        prehash: false,
        lowS: true,
        extraEntropy: false,
        format: 'compact',
      });
      expect(Buffer.from(ours).toString('hex')).toBe(Buffer.from(reference).toString('hex'));
    }
  });
});

// Signing threads build a larger table of base-point multiples (keys.ts precomputeSigningTables): k·G
// is only computed faster, so every signature stays the same bytes.
describe('precomputeSigningTables', () => {
  it('leaves every ES256 signature as it was', () => {
    const cases = Array.from({ length: 20 }, (_, i) => ({
      d: p256.utils.randomSecretKey(),
      hash: createHash('sha256').update(`message ${i}`).digest(),
    }));
    const options = { prehash: false, lowS: true, extraEntropy: false, format: 'compact' } as const;
    const hex = () => cases.map(({ d, hash }) => Buffer.from(es256.sign(hash, d, options)).toString('hex'));
    const before = hex();
    precomputeSigningTables();
    expect(hex()).toEqual(before);
    expect(new Set(before).size).toBe(cases.length);
  });
});
