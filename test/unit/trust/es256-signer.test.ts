/**
 * The ES256 signer (src/core/trust/es256-signer.ts): RFC 6979 deterministic ECDSA over P-256 with k·G
 * from Node's OpenSSL must give, byte for byte, the signatures of @noble/curves' `p256.sign` (which
 * reproducible builds and the known-answer vectors rely on), and Node's own verifier must accept them.
 */
import { createPublicKey, randomBytes, verify } from 'node:crypto';
import { p256 } from '@noble/curves/nist.js';
import { describe, expect, it } from 'vitest';
import { es256Signer } from '../../../src/core/trust/es256-signer.js';
import { createSigningKey } from '../../../src/core/trust/keys.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('es256Signer', () => {
  it('gives the bytes of @noble/curves p256.sign for many keys and messages', () => {
    for (let i = 0; i < 200; i++) {
      const d = p256.utils.randomSecretKey();
      const message = i === 0 ? new Uint8Array(0) : randomBytes((i * 37) % 1500);
      expect(hex(es256Signer(d)(message)), `case ${i}`).toBe(hex(p256.sign(message, d)));
    }
  });

  it('signs the same bytes on every call, and each message differently', () => {
    const sign = es256Signer(p256.utils.randomSecretKey());
    const messages = Array.from({ length: 20 }, (_, i) => new TextEncoder().encode(`header.payload-${i}`));
    const first = messages.map((m) => hex(sign(m)));
    expect(messages.map((m) => hex(sign(m)))).toEqual(first);
    expect(new Set(first).size).toBe(messages.length);
  });

  it('writes low-S signatures that Node’s OpenSSL verifies', () => {
    const d = p256.utils.randomSecretKey();
    const publicKey = p256.getPublicKey(d, false);
    const key = createPublicKey({
      key: {
        kty: 'EC',
        crv: 'P-256',
        x: Buffer.from(publicKey.subarray(1, 33)).toString('base64url'),
        y: Buffer.from(publicKey.subarray(33)).toString('base64url'),
      },
      format: 'jwk',
    });
    const half = p256.Point.Fn.ORDER >> 1n;
    for (let i = 0; i < 50; i++) {
      const message = randomBytes(64 + i);
      const signature = es256Signer(d)(message);
      expect(signature.length).toBe(64);
      expect(BigInt(`0x${hex(signature.subarray(32))}`) <= half).toBe(true);
      expect(verify('sha256', message, { key, dsaEncoding: 'ieee-p1363' }, signature)).toBe(true);
    }
  });

  it('is the signer of an ES256 site key', () => {
    const d = p256.utils.randomSecretKey();
    const point = p256.getPublicKey(d, false);
    const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
    const key = createSigningKey(
      { kty: 'EC', crv: 'P-256', x: b64(point.subarray(1, 33)), y: b64(point.subarray(33)), d: b64(d) },
      'agents.example.com',
    );
    const input = new TextEncoder().encode('eyJhbGciOiJFUzI1NiJ9.cGF5bG9hZA');
    expect(hex(key.sign(input))).toBe(hex(p256.sign(input, d)));
  });

  it('refuses a private scalar that is not in [1, n−1]', () => {
    expect(() => es256Signer(new Uint8Array(32))).toThrow('invalid private key');
    expect(() => es256Signer(new Uint8Array(32).fill(0xff))).toThrow('invalid private key');
    expect(() => es256Signer(new Uint8Array(31).fill(1))).toThrow('invalid private key');
  });
});
