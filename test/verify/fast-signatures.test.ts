/**
 * The verifier's fast path for signatures (src/core/verify/fast-signatures.ts) only ever accepts what the
 * libraries accept: node:crypto's verification agrees with jose's on valid and broken JWS, every input the
 * fast path is unsure of goes to the library path, and on a site the findings are the libraries' own.
 * Also the fast `true` of the RAM-copies comparison (key order does not matter, `-0` is not `0`).
 */
import { createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { FlattenedSign, flattenedVerify, importJWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/core/a2a/card.js';
import {
  canonicalBase64url,
  signatureCheck,
  signatureHolds,
  signingInput,
  simpleProtectedHeader,
} from '../../src/core/verify/fast-signatures.js';
import {
  buildExampleSite,
  cardPath,
  cleanUpSites,
  expectClean,
  expectFailures,
  SiteCopy,
  urnOf,
  type Json,
} from '../helpers/ard-site.js';

const b64 = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** The same bytes, spelled with a non-zero unused trailing bit (a non-canonical base64url). */
function nonCanonical(encoded: string): string {
  const last = ALPHABET.indexOf(encoded[encoded.length - 1]!);
  return encoded.slice(0, -1) + ALPHABET[last ^ 1];
}

describe('canonicalBase64url', () => {
  it('decodes the one canonical spelling', () => {
    expect(canonicalBase64url('aGVsbG8')).toEqual(Buffer.from('hello'));
    expect(canonicalBase64url('')).toEqual(Buffer.alloc(0));
  });

  it('refuses padding, whitespace, the base64 alphabet, a stray length and non-zero trailing bits', () => {
    for (const value of ['aGVsbG8=', 'aGVs bG8', 'a+/b', 'aGVsb', nonCanonical('aGVsbG8'), 42, undefined]) {
      expect(canonicalBase64url(value), String(value)).toBeUndefined();
    }
  });
});

describe('simpleProtectedHeader', () => {
  it('reads a plain JSON object header', () => {
    expect(simpleProtectedHeader(b64({ alg: 'ES256', kid: 'k' }))).toEqual({ alg: 'ES256', kid: 'k' });
  });

  it('leaves crit, b64, a byte order mark, bad UTF-8, non-objects and bad JSON to jose', () => {
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"alg":"ES256"}')]);
    const badUtf8 = Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]);
    for (const encoded of [
      b64({ alg: 'ES256', crit: ['exp'], exp: 1 }),
      b64({ alg: 'ES256', b64: false }),
      bom.toString('base64url'),
      badUtf8.toString('base64url'),
      b64([1, 2]),
      b64('null'),
      b64('{"alg":'),
      '',
    ]) {
      expect(simpleProtectedHeader(encoded), encoded).toBeUndefined();
    }
  });
});

describe('signatureCheck', () => {
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey;
  const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey;
  const ed = generateKeyPairSync('ed25519').publicKey;
  const sig = new Uint8Array(64);

  it('fits ES256 to P-256 and EdDSA / Ed25519 to Ed25519, with 64-byte signatures', () => {
    expect(signatureCheck('ES256', ec, sig)).toMatchObject({ digest: 'sha256', dsaEncoding: 'ieee-p1363' });
    expect(signatureCheck('EdDSA', ed, sig)).toMatchObject({ digest: null });
    expect(signatureCheck('Ed25519', ed, sig)).toMatchObject({ digest: null });
  });

  it('leaves every other alg, key and length to the library', () => {
    expect(signatureCheck('ES256', p384, sig)).toBeUndefined();
    expect(signatureCheck('ES256', ed, sig)).toBeUndefined();
    expect(signatureCheck('EdDSA', ec, sig)).toBeUndefined();
    expect(signatureCheck('ES384', p384, sig)).toBeUndefined();
    expect(signatureCheck('HS256', ec, sig)).toBeUndefined();
    expect(signatureCheck('ES256', ec, new Uint8Array(63))).toBeUndefined();
    expect(signatureCheck('EdDSA', ed, new Uint8Array(65))).toBeUndefined();
  });
});

describe('the fast path against jose', () => {
  /** Whether the fast path accepts a flattened JWS with a detached payload, as the verifier runs it. */
  function fastAccepts(jws: { protected: string; signature: string }, payload: Uint8Array, key: KeyObject) {
    const header = simpleProtectedHeader(jws.protected);
    const signature = canonicalBase64url(jws.signature);
    const check = header && signature && signatureCheck(header.alg, key, signature);
    return check ? signatureHolds(check, signingInput(jws.protected, payload)) : false;
  }

  /** Whether jose's flattenedVerify (what src/core/trust/jws.ts and @a2a-js/sdk run) accepts it. */
  async function joseAccepts(jws: { protected: string; signature: string }, payload: Uint8Array, jwk: Json) {
    try {
      const key = await importJWK(jwk as never, jwk.kty === 'OKP' ? 'EdDSA' : 'ES256');
      await flattenedVerify({ ...jws, payload: Buffer.from(payload).toString('base64url') }, key);
      return true;
    } catch {
      return false;
    }
  }

  for (const [name, alg, pair] of [
    ['ES256', 'ES256', generateKeyPairSync('ec', { namedCurve: 'P-256' })],
    ['EdDSA', 'EdDSA', generateKeyPairSync('ed25519')],
    ['Ed25519', 'Ed25519', generateKeyPairSync('ed25519')],
  ] as const) {
    it(`${name}: accepts the valid signatures jose accepts, and never one jose refuses`, async () => {
      const jwk = pair.publicKey.export({ format: 'jwk' }) as Json;
      const key = createPublicKey({ key: jwk as never, format: 'jwk' });
      const payload = new TextEncoder().encode(JSON.stringify({ card: 'Ünïcödé ✓', n: [1, 2, 3] }));
      const jws = await new FlattenedSign(payload)
        .setProtectedHeader({ alg, kid: 'did:web:example.com#k', typ: 'JOSE' })
        .sign(pair.privateKey);
      const valid = { protected: jws.protected!, signature: jws.signature };
      expect(fastAccepts(valid, payload, key)).toBe(true);
      expect(await joseAccepts(valid, payload, jwk)).toBe(true);

      const sig = Buffer.from(valid.signature, 'base64url');
      const flipped = (bytes: Buffer, i: number) => {
        const copy = Buffer.from(bytes);
        copy[i % copy.length]! ^= 1 << (i % 8);
        return copy;
      };
      const variants: Array<[{ protected: string; signature: string }, Uint8Array]> = [
        [{ ...valid, signature: nonCanonical(valid.signature) }, payload],
        [{ ...valid, signature: `${valid.signature}==` }, payload],
        [{ ...valid, signature: valid.signature.slice(0, -2) }, payload],
        [{ ...valid, protected: b64({ alg, kid: 'k', typ: 'JOSE', crit: ['b64'], b64: true }) }, payload],
        [{ ...valid, protected: b64({ alg: 'ES384', kid: 'k', typ: 'JOSE' }) }, payload],
        [{ ...valid, protected: b64({ alg: 'none', kid: 'k', typ: 'JOSE' }) }, payload],
        [valid, flipped(Buffer.from(payload), 3)],
      ];
      for (let i = 0; i < 40; i++)
        variants.push([{ ...valid, signature: flipped(sig, i).toString('base64url') }, payload]);
      for (const [variant, bytes] of variants) {
        if (fastAccepts(variant, bytes, key)) expect(await joseAccepts(variant, bytes, jwk)).toBe(true);
      }
      // The non-canonical spelling decodes to the same bytes: jose accepts it, the fast path leaves it to jose.
      expect(fastAccepts(variants[0]![0], payload, key)).toBe(false);
      expect(await joseAccepts(variants[0]![0], payload, jwk)).toBe(true);
    });
  }
});

describe('on a site, the library decides what the fast path leaves', () => {
  let built: string;
  beforeAll(async () => {
    built = await buildExampleSite();
  });
  afterAll(cleanUpSites);

  it('a trustManifest signature spelled non-canonically, which jose accepts, passes', async () => {
    const site = await SiteCopy.of(built);
    await site.editEntry('trip-tools', (e) => {
      const [h, , s] = e.trustManifest!.signature.split('.');
      e.trustManifest!.signature = `${h}..${nonCanonical(s!)}`;
    });
    expectClean(await site.verify());
  });

  it('a trustManifest header with crit → JWS_INVALID, as jose words it', async () => {
    const site = await SiteCopy.of(built);
    await site.editEntry('trip-tools', (e) => {
      const [h, , s] = e.trustManifest!.signature.split('.');
      const header = JSON.parse(Buffer.from(h!, 'base64url').toString()) as Json;
      e.trustManifest!.signature = `${b64({ ...header, crit: ['exp'], exp: 1 })}..${s}`;
    });
    const report = await site.verify();
    expectFailures(report, ['JWS_INVALID', urnOf('trip-tools')]);
    expect(report.findings.find((f) => f.code === 'JWS_INVALID')?.message).toContain('"exp"');
  });

  it('a card whose first signature is broken and second holds passes, as with the SDK', async () => {
    const site = await SiteCopy.of(built);
    await site.editCard('travel-policy-helper', (card) => {
      const [good] = card.signatures as JsonObject[];
      const bytes = Buffer.from(String(good!.signature), 'base64url');
      bytes[10]! ^= 1;
      const bad: JsonObject = { ...good, signature: bytes.toString('base64url') };
      card.signatures = [bad, good!];
    });
    expectClean(await site.verify());
  });

  it('a card signature with an unprotected header passes through the SDK', async () => {
    const site = await SiteCopy.of(built);
    await site.editCard('travel-policy-helper', (card) => {
      (card.signatures as Json[])[0]!.header = { note: 'not protected' };
    });
    expectClean(await site.verify());
  });

  it('a card signature header with an unknown crit → CARD_SIGNATURE_INVALID', async () => {
    const site = await SiteCopy.of(built);
    await site.resignCardWithHeader('travel-policy-helper', { crit: ['zzz'], zzz: 1 });
    expectFailures(await site.verify(), ['CARD_SIGNATURE_INVALID', urnOf('travel-policy-helper')]);
  });

  it('RAM copies with their keys in another order are equal', async () => {
    const site = await SiteCopy.of(built);
    await site.editCard('travel-reservation', (card) => {
      const ram = card.resourceAccessManifest as JsonObject;
      card.resourceAccessManifest = Object.fromEntries(Object.entries(ram).reverse()) as JsonObject;
    });
    expectClean(await site.verify());
  });

  it('RAM copies that differ only by -0 and 0 differ (as isDeepStrictEqual says)', async () => {
    const site = await SiteCopy.of(built);
    await site.editCard(
      'travel-reservation',
      (card) => {
        const extensions = (card.capabilities as { extensions: Json[] }).extensions;
        const ram = extensions.find((e) => Array.isArray((e.params as Json | undefined)?.resourceAccesses));
        (ram!.params as Json).zz = 0;
        (card.resourceAccessManifest as Json).zz = 1;
      },
      { resign: true },
    );
    await site.editText(cardPath('travel-reservation'), (t) => t.replace('"zz": 1', '"zz": -0'));
    // The primary agent's card: its A2A well-known copies follow, as the build writes them.
    const card = await site.read(cardPath('travel-reservation'));
    for (const copy of ['/.well-known/agent-card.json', '/.well-known/agent.json'])
      await site.write(copy, card);
    await site.repin('travel-reservation');
    // The edit after signing also breaks the whole-card signature (JCS writes -0 as 0, and it was 1).
    expectFailures(
      await site.verify(),
      ['CARD_RAM_COPIES_DIFFER', urnOf('travel-reservation')],
      ['CARD_PAYLOAD_CHANGED', urnOf('travel-reservation')],
    );
  });
});
