/**
 * Attacks on a built site folder, made with jose, canonicalize and @a2a-js/sdk directly (never through
 * `src/core`), for the tests of verify's card-signature key resolution (A2A §8.4;
 * DESIGN.md §9 "Card signatures amended": the keys come from the site's did:web document).
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { canonicalizeAgentCard } from '@a2a-js/sdk';
import canonicalize from 'canonicalize';
import { exportJWK, FlattenedSign, generateKeyPair } from 'jose';

type Json = Record<string, unknown>;

async function readJson(dir: string, rel: string): Promise<Json> {
  return JSON.parse(await readFile(path.join(dir, rel), 'utf8')) as Json;
}

async function writeJson(dir: string, rel: string, value: unknown): Promise<void> {
  await writeFile(path.join(dir, rel), `${JSON.stringify(value, null, 2)}\n`);
}

/**
 * The jwks.json key swap: a fresh P-256 key replaces the public key of jwks.json's first entry under the
 * same `kid`, and the card at `cardRel` is re-signed with it under both readings (@a2a-js/sdk's canonical
 * form and the whole card's JCS), with the same protected header members as before. did.json is left
 * alone. Returns the kid.
 */
export async function swapJwksKeyAndSign(dir: string, cardRel: string): Promise<string> {
  const jwks = await readJson(dir, '.well-known/jwks.json');
  const keys = jwks.keys as Json[];
  const old = keys[0] as Json;
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const pub = await exportJWK(publicKey);
  keys[0] = { ...old, kty: pub.kty, crv: pub.crv, x: pub.x, y: pub.y, alg: 'ES256' };
  await writeJson(dir, '.well-known/jwks.json', jwks);
  const card = await readJson(dir, cardRel);
  const { signatures: _s, ...unsigned } = card;
  const header = {
    alg: 'ES256',
    kid: String(old.kid),
    typ: 'JOSE',
    jku: `https://${String(old.kid).split('#')[0]?.slice(8)}/.well-known/jwks.json`,
  };
  const sign = async (payload: string, extra: Record<string, string> = {}) => {
    const jws = await new FlattenedSign(new TextEncoder().encode(payload))
      .setProtectedHeader({ ...header, ...extra })
      .sign(privateKey);
    return { protected: jws.protected, signature: jws.signature };
  };
  const signatures = [
    await sign(canonicalizeAgentCard(unsigned as never)),
    // docs/trust-profile.md: the whole-card signature names its reading in the protected header.
    await sign(String(canonicalize(unsigned)), { canonicalization: 'jcs-served-card' }),
  ];
  await writeJson(dir, cardRel, { ...unsigned, signatures });
  return String(old.kid);
}

/** Removes `kid` (default: the first) from did.json's `assertionMethod`, keeping its verification method. */
export async function dropAssertionMethod(dir: string, kid?: string): Promise<string> {
  const did = await readJson(dir, '.well-known/did.json');
  const list = did.assertionMethod as string[];
  const drop = kid ?? String(list[0]);
  did.assertionMethod = list.filter((k) => k !== drop);
  if ((did.assertionMethod as string[]).length === 0) delete did.assertionMethod;
  await writeJson(dir, '.well-known/did.json', did);
  return drop;
}
