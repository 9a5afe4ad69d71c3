/**
 * The signed-card known-answer vector (DESIGN.md §4 "one signed card"; test/vectors/signed-card-es256.json,
 * made by scripts/make-vectors.ts): @a2a-js/sdk's canonical form and verifier and jose are used
 * directly; our signer must reproduce `signatures[0]` exactly.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { canonicalizeAgentCard, verifyAgentCardSignature } from '@a2a-js/sdk';
import canonicalize from 'canonicalize';
import { calculateJwkThumbprint, flattenedVerify, importJWK, type JWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { signAgentCard } from '../../../src/core/trust/card-signature.js';
import type { JsonObject } from '../../../src/core/a2a/card.js';
import { createSigningKey } from '../../../src/core/trust/keys.js';
import { parsePrivateKey } from '../../../src/core/trust/key-checks.js';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../vectors');
const vector = JSON.parse(readFileSync(path.join(dir, 'signed-card-es256.json'), 'utf8')) as {
  comment: string;
  keyFile: string;
  kid: string;
  card: JsonObject;
  canonicalPayload: string;
  protectedHeader: Record<string, unknown>;
  signingInput: string;
  signature: { protected: string; signature: string };
  wholeCardPayload: string;
  wholeCardProtectedHeader: Record<string, unknown>;
  wholeCardSigningInput: string;
  wholeCardSignature: { protected: string; signature: string };
  signatures: Array<{ protected: string; signature: string }>;
};
const keyText = readFileSync(path.join(dir, vector.keyFile), 'utf8');
const keyJwk = JSON.parse(keyText) as Record<string, string>;
const publicJwk = { kty: keyJwk.kty, crv: keyJwk.crv, x: keyJwk.x, y: keyJwk.y } as JWK;
const b64u = (s: string) => Buffer.from(s, 'utf8').toString('base64url');

async function sdkVerify(card: unknown): Promise<void> {
  const debug = console.debug;
  console.debug = () => {}; // the SDK logs each failed attempt at debug level
  try {
    await verifyAgentCardSignature(async (kid, jku) => {
      expect(kid).toBe(vector.kid);
      expect(jku).toBe('https://agents.example.com/.well-known/jwks.json');
      return (await importJWK(publicJwk, 'ES256')) as CryptoKey;
    })(card as never);
  } finally {
    console.debug = debug;
  }
}

describe('signed-card-es256.json', () => {
  it('is a TEST ONLY vector of the ES256 test key, kid = did:web#RFC 7638 thumbprint', async () => {
    expect(vector.comment).toMatch(/^TEST ONLY/);
    expect(vector.kid).toBe(
      `did:web:agents.example.com#${await calculateJwkThumbprint(publicJwk, 'sha256')}`,
    );
    expect(vector.card).not.toHaveProperty('signatures');
  });

  it("canonicalPayload is the SDK's canonical form: JCS of the proto fields, without the top-level RAM or false `required`", () => {
    expect(canonicalizeAgentCard(vector.card as never)).toBe(vector.canonicalPayload);
    expect(canonicalize(JSON.parse(vector.canonicalPayload))).toBe(vector.canonicalPayload);
    const payload = JSON.parse(vector.canonicalPayload) as Record<string, unknown>;
    expect(payload).not.toHaveProperty('resourceAccessManifest');
    expect(vector.canonicalPayload).not.toContain('"required"');
    // Members at their default are not in the card at all (A2A v1.0 §8.4.1).
    expect(JSON.stringify(vector.card)).not.toMatch(/"required"|false/);
    // The extension copy of the RAM is covered, so the A2A signature binds the RAM.
    const ram = (vector.card.capabilities as { extensions: Array<{ params: unknown }> }).extensions[0]!
      .params;
    expect(
      (payload.capabilities as { extensions: Array<{ params: unknown }> }).extensions[0]!.params,
    ).toEqual(ram);
  });

  it('protected header is {alg, jku, kid, typ: JOSE} and the signing input is header "." BASE64URL(payload)', () => {
    expect(JSON.parse(Buffer.from(vector.signature.protected, 'base64url').toString('utf8'))).toEqual(
      vector.protectedHeader,
    );
    expect(vector.protectedHeader).toEqual({
      alg: 'ES256',
      jku: 'https://agents.example.com/.well-known/jwks.json',
      kid: vector.kid,
      typ: 'JOSE',
    });
    expect(vector.signingInput).toBe(`${vector.signature.protected}.${b64u(vector.canonicalPayload)}`);
    expect(Buffer.from(vector.signature.signature, 'base64url')).toHaveLength(64);
  });

  it('our signer reproduces both signatures exactly (deterministic ES256), every time', async () => {
    const { privateJwk } = parsePrivateKey(keyText, vector.keyFile);
    const key = createSigningKey(privateJwk, 'agents.example.com');
    expect(vector.signatures).toEqual([vector.signature, vector.wholeCardSignature]);
    for (let i = 0; i < 2; i++) {
      const signed = await signAgentCard(vector.card, key, 'agents.example.com');
      expect(signed.signatures).toEqual([vector.signature, vector.wholeCardSignature]);
      const { signatures: _s, ...rest } = signed;
      expect(rest).toEqual(vector.card);
    }
  });

  it('@a2a-js/sdk verifyAgentCardSignature and jose flattenedVerify accept it', async () => {
    await sdkVerify({ ...vector.card, signatures: [vector.signature] });
    const res = await flattenedVerify(
      {
        protected: vector.signature.protected,
        payload: b64u(vector.canonicalPayload),
        signature: vector.signature.signature,
      },
      await importJWK(publicJwk, 'ES256'),
    );
    expect(new TextDecoder().decode(res.payload)).toBe(vector.canonicalPayload);
  });

  it('the SDK refuses it when a covered field changes, and ignores the top-level RAM copy', async () => {
    const changedRam = structuredClone(vector.card) as {
      capabilities: { extensions: Array<{ params: { resourceAccesses: Array<{ necessity: string }> } }> };
    };
    changedRam.capabilities.extensions[0]!.params.resourceAccesses[0]!.necessity = 'REQUIRED';
    await expect(sdkVerify({ ...changedRam, signatures: [vector.signature] })).rejects.toThrow();
    // The top-level copy is not covered by the A2A signature (only by the ARD digest, DESIGN.md §3).
    await sdkVerify({
      ...vector.card,
      resourceAccessManifest: { changed: true },
      signatures: [vector.signature],
    });
  });
});

describe('signed-card-es256.json, the whole-card signature (A2A#2122; docs/trust-profile.md)', () => {
  const { signatures: _none, ...served } = vector.card;
  const verifyWhole = async (card: Record<string, unknown>) => {
    const { signatures: _s, ...rest } = card;
    return flattenedVerify(
      {
        protected: vector.wholeCardSignature.protected,
        payload: b64u(String(canonicalize(rest))),
        signature: vector.wholeCardSignature.signature,
      },
      await importJWK(publicJwk, 'ES256'),
      { algorithms: ['ES256'] },
    );
  };

  it('its payload is canonicalize() of the whole card minus signatures, v0.3 fields and top-level RAM included', () => {
    expect(canonicalize(served)).toBe(vector.wholeCardPayload);
    const payload = JSON.parse(vector.wholeCardPayload) as Record<string, unknown>;
    for (const field of ['url', 'protocolVersion', 'additionalInterfaces', 'resourceAccessManifest'])
      expect(payload).toHaveProperty(field);
    expect(vector.wholeCardProtectedHeader).toEqual({
      alg: 'ES256',
      canonicalization: 'jcs-served-card',
      jku: 'https://agents.example.com/.well-known/jwks.json',
      kid: vector.kid,
      typ: 'JOSE',
    });
    expect(
      JSON.parse(Buffer.from(vector.wholeCardSignature.protected, 'base64url').toString('utf8')),
    ).toEqual(vector.wholeCardProtectedHeader);
    expect(vector.wholeCardSigningInput).toBe(
      `${vector.wholeCardSignature.protected}.${b64u(vector.wholeCardPayload)}`,
    );
  });

  it('jose accepts it over the served card, and the SDK accepts the card carrying both signatures', async () => {
    await verifyWhole({ ...vector.card, signatures: vector.signatures });
    await sdkVerify({ ...vector.card, signatures: vector.signatures });
  });

  it('every change of meaning the SDK reading misses breaks it: v0.3 url, additionalInterfaces, security, the top-level RAM', async () => {
    const changes: Array<(c: Record<string, unknown>) => void> = [
      (c) => (c.url = 'https://evil.example/a2a'),
      (c) =>
        ((c.additionalInterfaces as Array<Record<string, unknown>>)[0]!.url = 'https://evil.example/a2a'),
      (c) => delete (c.securitySchemes as Record<string, Record<string, unknown>>).bearer!.type,
      (c) => (c.security = [{ bearer: [] }]),
      (c) =>
        ((
          c.resourceAccessManifest as { resourceAccesses: Array<Record<string, unknown>> }
        ).resourceAccesses[0]!.confirmationRequired = false),
    ];
    for (const change of changes) {
      const card = structuredClone({ ...vector.card, signatures: vector.signatures });
      change(card);
      await expect(verifyWhole(card)).rejects.toThrow();
      // ... which the SDK's reading alone does not see.
      await sdkVerify(card);
    }
  });
});
