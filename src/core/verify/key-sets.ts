/**
 * The site's two key documents agree (DESIGN.md §9 "Card signatures amended"; docs/trust-profile.md):
 * `/.well-known/jwks.json` (RFC 7517 §5, the `jku` of card signatures, A2A §8.4.2) is only a hint, and
 * must hold exactly the keys that `/.well-known/did.json` (DID Core §5) authorises for assertions, under
 * the same kids with the same key members. A difference is `JWKS_DID_MISMATCH`: a client that trusts
 * the `jku` alone would accept a key the publisher's DID never authorised, or miss one it did.
 */
import { findAssertionKey } from '../trust/did.js';
import { ArdsiteError } from '../util/errors.js';
import { isRecord, type DocumentCache } from './documents.js';
import type { Findings } from './findings.js';

const sameKey = (a: Record<string, unknown>, b: Record<string, unknown>) =>
  a.kty === b.kty && a.crv === b.crv && a.x === b.x && a.y === b.y;

/**
 * Compares jwks.json with did.json at `origin` and records into `f`: a failure per jwks.json key that
 * did.json does not authorise under its kid with the same members, and per did.json assertion key that
 * jwks.json lacks; one pass when they agree. Either document unreadable: nothing (the signature checks
 * report what they could not read).
 */
export async function checkKeySets(origin: string, cache: DocumentCache, f: Findings): Promise<void> {
  const jwksUrl = `${origin}/.well-known/jwks.json`;
  let jwks: unknown;
  let did: unknown;
  try {
    jwks = await cache.json(jwksUrl, 'the JWK Set');
    did = await cache.json(`${origin}/.well-known/did.json`, 'the DID document');
  } catch {
    return;
  }
  if (!isRecord(jwks) || !Array.isArray(jwks.keys) || !isRecord(did)) return;
  const problems: string[] = [];
  const listed = new Set<string>();
  for (const [i, key] of jwks.keys.entries()) {
    if (!isRecord(key)) continue;
    const kid = String(key.kid);
    listed.add(kid);
    let authorised: Record<string, unknown> | undefined;
    try {
      authorised = findAssertionKey(did, kid);
    } catch (error) {
      if (error instanceof ArdsiteError && error.code === 'KEY_PRIVATE_PUBLISHED') continue; // reported as such
      problems.push(`keys[${i}] (${kid}) is not a key did.json authorises: ${(error as Error).message}`);
      continue;
    }
    if (!sameKey(key, authorised))
      problems.push(`keys[${i}] lists another key under ${kid} than did.json's verification method`);
  }
  const assertion = Array.isArray(did.assertionMethod) ? did.assertionMethod : [];
  for (const ref of assertion) {
    const id = typeof ref === 'string' ? ref : isRecord(ref) ? ref.id : undefined;
    if (typeof id !== 'string') continue;
    const kid = id.startsWith('#') ? `${String(did.id)}${id}` : id;
    if (!listed.has(kid)) problems.push(`it lacks ${kid}, which did.json authorises`);
  }
  if (problems.length === 0) f.pass();
  else
    f.fail(
      jwksUrl,
      'JWKS_DID_MISMATCH',
      `jwks.json differs from did.json (did.json decides; card-signature keys are taken from it): ${problems.join('; ')}`,
    );
}
