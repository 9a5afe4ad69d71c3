/**
 * Known-answer vectors (test/vectors/, DESIGN.md §4). The expected values are checked with
 * `canonicalize` and jose directly, not through src/core, so that one misreading of RFC 8785 / RFC 7515
 * cannot pass both the signer and its checker. Only the determinism check uses our signer.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import canonicalize from 'canonicalize';
import { calculateJwkThumbprint, flattenedVerify, importJWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { createSigningKey } from '../../../src/core/trust/keys.js';
import { parsePrivateKey } from '../../../src/core/trust/key-checks.js';
import { signCompactDetached } from '../../../src/core/trust/jws.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const dir = path.resolve(here, '../../vectors');
const readJson = (f: string): Record<string, unknown> =>
  JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Record<string, unknown>;

interface Vector {
  keyFile: string;
  kid: string;
  trustManifest: Record<string, unknown>;
  jcsHex: string;
  protectedHeader: { alg: string; kid: string };
  signingInput: string;
  jws: string;
}

const b64u = (s: string | Uint8Array): string => Buffer.from(s).toString('base64url');

describe.each([
  ['trust-manifest-es256.json', 'test-key-es256.jwk.json', 'ES256', 'EC'],
  ['trust-manifest-ed25519.json', 'test-key-ed25519.jwk.json', 'EdDSA', 'OKP'],
] as const)('%s', (vectorFile, keyFile, alg, kty) => {
  const v = readJson(vectorFile) as unknown as Vector;
  const keyText = readFileSync(path.join(dir, keyFile), 'utf8');
  const key = JSON.parse(keyText) as Record<string, string>;
  const publicMembers = Object.fromEntries(
    Object.entries(key).filter(([k]) => ['kty', 'crv', 'x', 'y'].includes(k)),
  );

  it('is marked TEST ONLY, as is its key', () => {
    expect(key.kid).toBe('TEST-ONLY-public-test-vector-never-sign-a-real-site');
    expect(key.kty).toBe(kty);
    expect(v.keyFile).toBe(keyFile);
    expect(readFileSync(path.join(dir, 'README.md'), 'utf8')).toMatch(/TEST-ONLY/);
  });

  it('has a realistic trustManifest without signature', () => {
    expect(v.trustManifest).toMatchObject({ identity: 'did:web:agents.example.com', identityType: 'did' });
    expect(v.trustManifest).toHaveProperty('issuedAt');
    expect(v.trustManifest).toHaveProperty('subject.digest');
    expect(v.trustManifest).toHaveProperty('trustSchema.verificationMethods', ['did:web']);
    expect(v.trustManifest).not.toHaveProperty('signature');
  });

  it('jcsHex is the canonicalize output of the trustManifest', () => {
    const direct = canonicalize(v.trustManifest);
    expect(typeof direct).toBe('string');
    expect(v.jcsHex).toBe(Buffer.from(direct ?? '', 'utf8').toString('hex'));
  });

  it('kid is did:web:<domain>#<jose RFC 7638 thumbprint>', async () => {
    expect(v.kid).toBe(
      `did:web:agents.example.com#${await calculateJwkThumbprint(publicMembers as { kty: string }, 'sha256')}`,
    );
    expect(v.protectedHeader).toEqual({ alg, kid: v.kid });
  });

  it('signingInput is BASE64URL(header) "." BASE64URL(jcs), and the JWS is header..signature', () => {
    const jcs = Buffer.from(v.jcsHex, 'hex');
    const header = canonicalize(v.protectedHeader) ?? '';
    expect(v.signingInput).toBe(`${b64u(header)}.${b64u(jcs)}`);
    const [h, p, s] = v.jws.split('.');
    expect(h).toBe(b64u(header));
    expect(p).toBe('');
    expect(Buffer.from(s ?? '', 'base64url')).toHaveLength(64);
  });

  it('our signer reproduces the exact JWS (determinism)', () => {
    const { privateJwk } = parsePrivateKey(keyText, keyFile);
    const signer = createSigningKey(privateJwk, 'agents.example.com');
    expect(signer.kid).toBe(v.kid);
    const jcs = new Uint8Array(Buffer.from(v.jcsHex, 'hex'));
    expect(signCompactDetached(jcs, v.protectedHeader, signer)).toBe(v.jws);
    expect(signCompactDetached(jcs, v.protectedHeader, signer)).toBe(v.jws);
  });

  it("jose's flattenedVerify accepts it with the public key imported by importJWK", async () => {
    const [h, , s] = v.jws.split('.');
    const publicKey = await importJWK(publicMembers, alg);
    const res = await flattenedVerify(
      { protected: h ?? '', payload: b64u(Buffer.from(v.jcsHex, 'hex')), signature: s ?? '' },
      publicKey,
      { algorithms: [alg] },
    );
    expect(res.protectedHeader).toEqual(v.protectedHeader);
    expect(Buffer.from(res.payload).toString('hex')).toBe(v.jcsHex);
  });

  it("jose's flattenedVerify rejects it with one signature byte flipped", async () => {
    const [h, , s] = v.jws.split('.');
    const sig = Buffer.from(s ?? '', 'base64url');
    sig[0] = (sig[0] ?? 0) ^ 0x80;
    const publicKey = await importJWK(publicMembers, alg);
    await expect(
      flattenedVerify(
        {
          protected: h ?? '',
          payload: b64u(Buffer.from(v.jcsHex, 'hex')),
          signature: sig.toString('base64url'),
        },
        publicKey,
      ),
    ).rejects.toThrow();
  });
});
