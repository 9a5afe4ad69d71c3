/**
 * The site key's signers with Node's arithmetic (src/core/trust/native-signers.ts) must give, byte for
 * byte, what @noble/curves gives: a reproducible build depends on it, and so do the stored vectors.
 */
import { randomBytes } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { p256 } from '@noble/curves/nist.js';
import { describe, expect, it } from 'vitest';
import { ed25519Signer, es256Signer } from '../../src/core/trust/native-signers.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
/** Messages of many lengths, the empty one included. */
const messages = (count: number) =>
  Array.from({ length: count }, (_, i) => (i === 0 ? new Uint8Array(0) : randomBytes(1 + ((i * 37) % 700))));
const N = p256.Point.Fn.ORDER;
const scalar = (n: bigint) => Uint8Array.from(Buffer.from(n.toString(16).padStart(64, '0'), 'hex'));

describe('es256Signer', () => {
  it('gives the signatures of @noble/curves p256.sign (RFC 6979, low-S) for many keys and messages', () => {
    // Random keys, and the extreme scalars 1 and n − 1.
    const keys = [
      ...Array.from({ length: 8 }, () => p256.utils.randomSecretKey()),
      scalar(1n),
      scalar(N - 1n),
    ];
    let compared = 0;
    for (const d of keys) {
      const sign = es256Signer(d);
      for (const message of messages(30)) {
        const reference = p256.sign(message, d, { prehash: true, lowS: true, extraEntropy: false });
        const ours = sign(message);
        expect(hex(ours)).toBe(hex(reference));
        if (compared % 30 === 0) expect(p256.verify(ours, message, p256.getPublicKey(d))).toBe(true);
        compared++;
      }
    }
    expect(compared).toBe(300);
  });

  it('signs the same input the same way every time (the blinding factor does not show)', () => {
    const sign = es256Signer(p256.utils.randomSecretKey());
    const input = new TextEncoder().encode('header.payload');
    const first = hex(sign(input));
    for (let i = 0; i < 20; i++) expect(hex(sign(input))).toBe(first);
  });

  it('refuses a key that is not a P-256 scalar', () => {
    expect(() => es256Signer(new Uint8Array(31))).toThrow(RangeError);
    expect(() => es256Signer(new Uint8Array(32))).toThrow(/not a P-256 scalar/);
    expect(() => es256Signer(scalar(N))).toThrow(/not a P-256 scalar/);
  });
});

describe('ed25519Signer', () => {
  it('gives the signatures of @noble/curves ed25519.sign for many keys and messages', () => {
    for (let i = 0; i < 6; i++) {
      const seed = ed25519.utils.randomSecretKey();
      const jwk = {
        d: Buffer.from(seed).toString('base64url'),
        x: Buffer.from(ed25519.getPublicKey(seed)).toString('base64url'),
      };
      const sign = ed25519Signer(jwk);
      for (const message of messages(30)) expect(hex(sign(message))).toBe(hex(ed25519.sign(message, seed)));
    }
  });
});
