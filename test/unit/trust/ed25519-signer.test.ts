/**
 * The site key's Ed25519 signer (src/core/trust/ed25519-signer.ts, node:crypto) gives, byte for byte, what
 * @noble/curves gives: a reproducible build and the stored vectors depend on it.
 */
import { randomBytes } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { describe, expect, it } from 'vitest';
import { ed25519Signer } from '../../../src/core/trust/ed25519-signer.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('ed25519Signer', () => {
  it('gives the signatures of @noble/curves ed25519.sign for many keys and messages', () => {
    let compared = 0;
    for (let i = 0; i < 6; i++) {
      const seed = ed25519.utils.randomSecretKey();
      const jwk = {
        d: Buffer.from(seed).toString('base64url'),
        x: Buffer.from(ed25519.getPublicKey(seed)).toString('base64url'),
      };
      const sign = ed25519Signer(jwk);
      for (let m = 0; m < 30; m++) {
        const message = m === 0 ? new Uint8Array(0) : randomBytes(1 + ((m * 37) % 700));
        expect(hex(sign(message))).toBe(hex(ed25519.sign(message, seed)));
        compared++;
      }
    }
    expect(compared).toBe(180);
  });
});
