import { asyncCodeOf as codeOf } from '../../helpers/errors.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { canonicalizeAgentCard, verifyAgentCardSignature } from '@a2a-js/sdk';
import { compactVerify, flattenedVerify, importJWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { createSigningKey, generatePrivateJwk } from '../../../src/core/trust/keys.js';
import { type PrivateSigningJwk } from '../../../src/core/trust/jwk.js';
import {
  decodeProtectedHeader,
  signCompactDetached,
  signFlattenedDetached,
  verifyCompactDetached,
} from '../../../src/core/trust/jws.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const read = (f: string): PrivateSigningJwk =>
  JSON.parse(readFileSync(path.resolve(here, '../../vectors', f), 'utf8')) as PrivateSigningJwk;
const ES = createSigningKey(read('test-key-es256.jwk.json'), 'agents.example.com');
const ED = createSigningKey(read('test-key-ed25519.jwk.json'), 'agents.example.com');
const PAYLOAD = new TextEncoder().encode('{"identity":"did:web:agents.example.com","n":1}');
const enc = (v: unknown): string =>
  Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');

describe.each([
  ['ES256', ES],
  ['EdDSA', ED],
] as const)('%s detached JWS', (alg, key) => {
  it('is header..signature with the JCS header, and verifies', async () => {
    const jws = signCompactDetached(PAYLOAD, { kid: key.kid }, key);
    const [h, p, s] = jws.split('.');
    expect(p).toBe('');
    expect(Buffer.from(h ?? '', 'base64url').toString()).toBe(`{"alg":"${alg}","kid":"${key.kid}"}`);
    expect(Buffer.from(s ?? '', 'base64url')).toHaveLength(64);
    expect(await verifyCompactDetached(jws, PAYLOAD, key.publicJwk)).toEqual({ alg, kid: key.kid });
  });

  it('is deterministic and independent of header member order', () => {
    const a = signCompactDetached(PAYLOAD, { kid: key.kid, alg }, key);
    const b = signCompactDetached(PAYLOAD, { alg, kid: key.kid }, key);
    expect(a).toBe(b);
    expect(signCompactDetached(PAYLOAD, { kid: key.kid }, key)).toBe(a);
  });

  it('verifies with jose directly once the payload is re-attached', async () => {
    const jws = signCompactDetached(PAYLOAD, { kid: key.kid }, key);
    const [h, , s] = jws.split('.');
    const { kid: _k, alg: _a, use: _u, ...members } = key.publicJwk;
    const pub = await importJWK(members, alg);
    const res = await compactVerify(`${h}.${enc(Buffer.from(PAYLOAD).toString())}.${s}`, pub);
    expect(Buffer.from(res.payload).equals(Buffer.from(PAYLOAD))).toBe(true);
  });

  it('flattened form signs the same input and verifies with jose flattenedVerify', async () => {
    const header = { kid: key.kid, typ: 'JOSE', jku: 'https://agents.example.com/.well-known/jwks.json' };
    const flat = signFlattenedDetached(PAYLOAD, header, key);
    expect(Object.keys(flat).sort()).toEqual(['protected', 'signature']);
    expect(signFlattenedDetached(PAYLOAD, header, key)).toEqual(flat);
    const { kid: _k, alg: _a, use: _u, ...members } = key.publicJwk;
    const res = await flattenedVerify(
      { ...flat, payload: Buffer.from(PAYLOAD).toString('base64url') },
      await importJWK(members, alg),
    );
    expect(res.protectedHeader).toEqual({ ...header, alg });
    expect(
      await verifyCompactDetached(`${flat.protected}..${flat.signature}`, PAYLOAD, key.publicJwk),
    ).toMatchObject({ typ: 'JOSE' });
  });

  it('fails with TRUST_SIGNATURE_INVALID when one signature byte is flipped', async () => {
    const jws = signCompactDetached(PAYLOAD, { kid: key.kid }, key);
    const [h, , s] = jws.split('.');
    const sig = Buffer.from(s ?? '', 'base64url');
    sig[5] = (sig[5] ?? 0) ^ 0x01;
    expect(
      await codeOf(() => verifyCompactDetached(`${h}..${sig.toString('base64url')}`, PAYLOAD, key.publicJwk)),
    ).toBe('TRUST_SIGNATURE_INVALID');
  });

  it('fails with TRUST_SIGNATURE_INVALID for another payload or another key', async () => {
    const jws = signCompactDetached(PAYLOAD, { kid: key.kid }, key);
    const other = Uint8Array.from(PAYLOAD);
    other[other.length - 2] = 0x32;
    expect(await codeOf(() => verifyCompactDetached(jws, other, key.publicJwk))).toBe(
      'TRUST_SIGNATURE_INVALID',
    );
    const stranger = createSigningKey(await generatePrivateJwk(alg), 'agents.example.com');
    expect(await codeOf(() => verifyCompactDetached(jws, PAYLOAD, stranger.publicJwk))).toBe(
      'TRUST_SIGNATURE_INVALID',
    );
  });

  it('refuses an attached payload with JWS_INVALID', async () => {
    const [h, , s] = signCompactDetached(PAYLOAD, { kid: key.kid }, key).split('.');
    const attached = `${h}.${Buffer.from(PAYLOAD).toString('base64url')}.${s}`;
    expect(await codeOf(() => verifyCompactDetached(attached, PAYLOAD, key.publicJwk))).toBe('JWS_INVALID');
  });

  it('refuses alg none with JWS_INVALID, even when listed', async () => {
    const [, , s] = signCompactDetached(PAYLOAD, { kid: key.kid }, key).split('.');
    for (const jws of [`${enc({ alg: 'none' })}..`, `${enc({ alg: 'none' })}..${s}`]) {
      expect(
        await codeOf(() => verifyCompactDetached(jws, PAYLOAD, key.publicJwk, { algorithms: ['none', alg] })),
      ).toBe('JWS_INVALID');
    }
  });

  it('refuses an alg outside options.algorithms, b64:false, unknown crit and a mismatched key with JWS_INVALID', async () => {
    const jws = signCompactDetached(PAYLOAD, { kid: key.kid }, key);
    const other = alg === 'ES256' ? 'EdDSA' : 'ES256';
    expect(
      await codeOf(() => verifyCompactDetached(jws, PAYLOAD, key.publicJwk, { algorithms: [other] })),
    ).toBe('JWS_INVALID');
    const b64 = signCompactDetached(PAYLOAD, { kid: key.kid, b64: false, crit: ['b64'] }, key);
    expect(await codeOf(() => verifyCompactDetached(b64, PAYLOAD, key.publicJwk))).toBe('JWS_INVALID');
    const crit = signCompactDetached(PAYLOAD, { kid: key.kid, crit: ['exp'], exp: 1 }, key);
    expect(await codeOf(() => verifyCompactDetached(crit, PAYLOAD, key.publicJwk))).toBe('JWS_INVALID');
    const wrongKey = alg === 'ES256' ? ED.publicJwk : ES.publicJwk;
    expect(await codeOf(() => verifyCompactDetached(jws, PAYLOAD, wrongKey))).toBe('JWS_INVALID');
  });

  it('refuses to sign when the header alg does not match the key', async () => {
    expect(
      await codeOf(() => signCompactDetached(PAYLOAD, { alg: alg === 'ES256' ? 'EdDSA' : 'ES256' }, key)),
    ).toBe('JWS_INVALID');
    expect(await codeOf(() => signFlattenedDetached(PAYLOAD, { alg: 'none' }, key))).toBe('JWS_INVALID');
  });
});

describe('decodeProtectedHeader', () => {
  it('decodes the header of an attached or detached compact JWS', () => {
    expect(decodeProtectedHeader(`${enc({ alg: 'ES256', kid: 'k' })}..sig`)).toEqual({
      alg: 'ES256',
      kid: 'k',
    });
    expect(decodeProtectedHeader(`${enc({ alg: 'ES256' })}.${enc('x')}.sig`)).toEqual({ alg: 'ES256' });
  });

  it.each([
    ['two parts', `${enc({ alg: 'ES256' })}.sig`],
    ['four parts', `${enc({ alg: 'ES256' })}...sig`],
    ['an empty header', '..sig'],
    ['non-base64url characters', `${enc({ alg: 'ES256' })}..si+g/`],
    ['a header that is not JSON', `${enc('{alg')}..sig`],
    ['a header that is an array', `${enc([1])}..sig`],
    ['a JSON serialisation', JSON.stringify({ protected: enc({ alg: 'ES256' }), signature: 'x' })],
  ])('refuses %s with JWS_INVALID', async (_label, jws) => {
    expect(await codeOf(() => decodeProtectedHeader(jws))).toBe('JWS_INVALID');
    expect(await codeOf(() => verifyCompactDetached(jws, PAYLOAD, ES.publicJwk))).toBe('JWS_INVALID');
  });
});

describe('A2A card signatures (A2A spec §8.4)', () => {
  type Card = Parameters<typeof canonicalizeAgentCard>[0] & { signatures?: unknown[] };
  it.each([
    ['ES256', ES],
    ['EdDSA', ED],
  ] as const)(
    "@a2a-js/sdk's verifyAgentCardSignature accepts a %s flattened signature",
    async (_alg, key) => {
      const card = {
        name: 'Trip Planner',
        description: 'Plans trips.',
        version: '1.2.0',
        supportedInterfaces: [
          { url: 'https://agents.example.com/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        ],
        capabilities: { streaming: false },
        defaultInputModes: ['text/plain'],
        defaultOutputModes: ['text/plain'],
        skills: [{ id: 'plan', name: 'Plan', description: 'Plans a trip.', tags: ['travel'] }],
      } as unknown as Card;
      const payload = new TextEncoder().encode(canonicalizeAgentCard(card));
      const header = { kid: key.kid, typ: 'JOSE', jku: 'https://agents.example.com/.well-known/jwks.json' };
      const signed = {
        ...card,
        signatures: [signFlattenedDetached(payload, header, key)],
      } as unknown as Card;
      const { kid: _k, alg: _a, use: _u, ...members } = key.publicJwk;
      const seen: Array<[string, string | undefined]> = [];
      await verifyAgentCardSignature(async (kid, jku) => {
        seen.push([kid, jku]);
        return members;
      })(signed as Parameters<ReturnType<typeof verifyAgentCardSignature>>[0]);
      expect(seen).toEqual([[key.kid, header.jku]]);
    },
  );
});
