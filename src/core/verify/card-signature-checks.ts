/**
 * The signatures of one A2A card (A2A spec §8.4; DESIGN.md §9 "Card signatures amended"; A2A#2122;
 * docs/trust-profile.md "Card signatures"). Each signature's key is resolved through did:web: the DID
 * document the `kid` names must list it under `assertionMethod` (DID Core §5.3.2); `jku` is only a hint
 * and must be `https://<that DID's domain>/.well-known/jwks.json`. A signature is read under the reading
 * its protected header names: the whole card as served (RFC 8785 JCS minus `signatures`, header
 * `canonicalization: "jcs-served-card"`), else @a2a-js/sdk's canonical form.
 *
 * A card passes when @a2a-js/sdk accepts it (one signature holds under the SDK reading, confirmed by the
 * SDK itself unless the fast path proved it) and a signature holds under the whole-card reading (without
 * one, a `CARD_PARTLY_SIGNED` warning: the members the SDK drops go unsigned). Every signature that does
 * not hold is a failure naming its cause: `CARD_ALG_NOT_ALLOWED`, `CARD_KEY_UNKNOWN`,
 * `CARD_KEY_NOT_AUTHORISED`, `CARD_FOREIGN_JKU`, `CARD_PAYLOAD_CHANGED`, `DID_RESOLUTION_FAILED`.
 */
import { verifyAgentCardSignature } from '@a2a-js/sdk';
import {
  agentCardSigningPayload,
  isWholeCardHeader,
  wholeCardSigningPayload,
} from '../trust/card-signature.js';
import type { JsonObject } from '../a2a/card.js';
import { didFromKid, domainFromDidWeb, findAssertionKey, type PublicJwk } from '../trust/did.js';
import { ArdsiteError, type ErrorCode } from '../util/errors.js';
import { DEFAULT_VERIFY_ALGORITHMS, verifyCompactDetached } from '../trust/jws.js';
import { isRecord, type DocumentCache } from './documents.js';
import { canonicalBase64url, signatureCheck, signatureHolds, signingInput } from './fast-signatures.js';
import type { RunContext } from './findings.js';
import { muteConsoleDebug } from './mute-debug.js';

/** Which key types each accepted `alg` needs (RFC 7518 §3.4, RFC 8037 §3.1). */
function keyFitsAlg(alg: string, jwk: PublicJwk): boolean {
  if (alg === 'ES256') return jwk.kty === 'EC' && jwk.crv === 'P-256';
  return jwk.kty === 'OKP' && jwk.crv === 'Ed25519';
}

/** A signature that does not hold, and why. */
class SignatureFailure extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Whether `kid` is defined anywhere in the DID document (a verification method, embedded or not). */
function definesKey(didDocument: Record<string, unknown>, kid: string): boolean {
  const fragment = kid.slice(kid.indexOf('#'));
  const named = (v: unknown) => isRecord(v) && (v.id === kid || v.id === fragment);
  return Object.values(didDocument).some((value) => Array.isArray(value) && value.some(named));
}

/**
 * The key of `kid` from its DID document, authorised for assertions (DID Core §5.3.2).
 * @throws SignatureFailure `CARD_KEY_UNKNOWN`, `CARD_KEY_NOT_AUTHORISED`, `DID_RESOLUTION_FAILED`.
 */
async function assertionKey(kid: string, cache: DocumentCache): Promise<PublicJwk> {
  const did = didFromKid(kid);
  const url = `https://${domainFromDidWeb(did)}/.well-known/did.json`;
  let doc: unknown;
  try {
    doc = await cache.json(url, `the DID document of ${did}`);
  } catch (error) {
    throw new SignatureFailure('DID_RESOLUTION_FAILED', (error as Error).message);
  }
  try {
    return findAssertionKey(doc, kid);
  } catch (error) {
    if (error instanceof ArdsiteError && error.code === 'KEY_PRIVATE_PUBLISHED')
      throw new SignatureFailure(error.code, error.message);
    if (!isRecord(doc) || doc.id !== did)
      throw new SignatureFailure('DID_RESOLUTION_FAILED', (error as Error).message);
    if (definesKey(doc, kid)) {
      throw new SignatureFailure(
        'CARD_KEY_NOT_AUTHORISED',
        `the key ${kid} is in ${did}'s DID document but not under assertionMethod, so it may not sign`,
      );
    }
    throw new SignatureFailure('CARD_KEY_UNKNOWN', `${did}'s DID document (${url}) has no key ${kid}`);
  }
}

/** The jwks.json key listed under `kid`, when it differs from `didKey` (the jku hint disagreeing). */
async function differingJwksKey(
  jku: string,
  kid: string,
  didKey: PublicJwk,
  cache: DocumentCache,
): Promise<PublicJwk | undefined> {
  let jwks: unknown;
  try {
    jwks = await cache.json(jku, 'the JWK Set');
  } catch {
    return undefined;
  }
  const keys = isRecord(jwks) && Array.isArray(jwks.keys) ? jwks.keys.filter(isRecord) : [];
  const key = keys.find((k) => k.kid === kid) as PublicJwk | undefined;
  if (!key || (key.kty === didKey.kty && key.crv === didKey.crv && key.x === didKey.x && key.y === didKey.y))
    return undefined;
  return key;
}

/**
 * Whether the detached JWS `{protected, signature}` holds over `payload` with `jwk`: `'fast'` when
 * node:crypto proved it (./fast-signatures.ts), `'jose'` when jose's `flattenedVerify` did, else `false`.
 * @throws SignatureFailure `CARD_SIGNATURE_INVALID` when jose refuses the JWS itself (crit, b64, …).
 */
async function holds(
  encodedHeader: string,
  encodedSignature: string,
  alg: string,
  payload: Uint8Array,
  jwk: PublicJwk,
  cache: DocumentCache,
): Promise<'fast' | 'jose' | false> {
  const members: Record<string, unknown> = { kty: jwk.kty, crv: jwk.crv, x: jwk.x };
  if (jwk.kty === 'EC') members.y = jwk.y;
  // The fast path only for a header jose reads the same way (no crit, no b64); jose decides the rest.
  const simple = cache.simpleHeader(encodedHeader) !== undefined;
  const key = simple ? await cache.keyObject(members, alg) : undefined;
  const bytes = canonicalBase64url(encodedSignature);
  const check = key && bytes && signatureCheck(alg, key, bytes);
  if (check && signatureHolds(check, signingInput(encodedHeader, payload))) return 'fast';
  try {
    await verifyCompactDetached(`${encodedHeader}..${encodedSignature}`, payload, jwk);
    return 'jose';
  } catch (error) {
    // A JWS jose refuses before checking the signature (an unknown crit, b64, …) is not a changed card.
    if (error instanceof ArdsiteError && error.code === 'JWS_INVALID')
      throw new SignatureFailure(
        'CARD_SIGNATURE_INVALID',
        `is not a JWS this profile accepts: ${error.message}`,
      );
    return false;
  }
}

/** What one signature entry of a card is, once checked. */
interface CheckedSignature {
  wholeCard: boolean;
  kid: string;
  key: PublicJwk;
  /**
   * An SDK-reading signature that @a2a-js/sdk's `verifyAgentCardSignature` provably accepts with this
   * key: no unprotected `header`, a protected header jose reads as decoded here with `kid`, `typ` and
   * `alg` (the SDK's requirements), and node:crypto verified it over the SDK's own canonical payload.
   */
  sdkProven: boolean;
}

/**
 * Checks `entry`, one of the `signatures` of `card`, against its publisher `did:web:<urnDomain>`.
 * @throws SignatureFailure naming the cause.
 */
async function checkSignature(
  card: Record<string, unknown>,
  entry: unknown,
  urnDomain: string,
  cache: DocumentCache,
): Promise<CheckedSignature> {
  if (!isRecord(entry) || typeof entry.protected !== 'string' || typeof entry.signature !== 'string')
    throw new SignatureFailure('CARD_SIGNATURE_INVALID', 'is not a {protected, signature} object');
  let header: Record<string, unknown>;
  try {
    header = cache.protectedHeader(`${entry.protected}..x`);
  } catch (error) {
    throw new SignatureFailure('CARD_SIGNATURE_INVALID', (error as Error).message);
  }
  const alg = header.alg;
  if (typeof alg !== 'string' || !DEFAULT_VERIFY_ALGORITHMS.includes(alg)) {
    throw new SignatureFailure(
      'CARD_ALG_NOT_ALLOWED',
      `uses alg ${JSON.stringify(alg)}; accepted: ${DEFAULT_VERIFY_ALGORITHMS.join(', ')}`,
    );
  }
  const publisher = `did:web:${urnDomain}`;
  const kid =
    typeof header.kid === 'string' && header.kid.startsWith('#') ? `${publisher}${header.kid}` : header.kid;
  if (typeof kid !== 'string') throw new SignatureFailure('CARD_KEY_UNKNOWN', 'has no kid');
  let did: string;
  try {
    did = didFromKid(kid);
    domainFromDidWeb(did);
  } catch (error) {
    throw new SignatureFailure('CARD_KEY_UNKNOWN', `kid ${kid}: ${(error as Error).message}`);
  }
  if (did !== publisher)
    throw new SignatureFailure(
      'CARD_KEY_NOT_AUTHORISED',
      `kid ${kid} is a key of ${did}, not of the card's publisher ${publisher}`,
    );
  const jku = `https://${domainFromDidWeb(did)}/.well-known/jwks.json`;
  if (header.jku !== undefined && header.jku !== jku) {
    throw new SignatureFailure(
      'CARD_FOREIGN_JKU',
      `its jku ${String(header.jku)} is not ${jku}, the key set of ${did}`,
    );
  }
  const key = await assertionKey(kid, cache);
  if (!keyFitsAlg(alg, key))
    throw new SignatureFailure(
      'CARD_ALG_NOT_ALLOWED',
      `alg ${alg} does not fit the ${key.kty}/${String(key.crv)} key ${kid}`,
    );
  const wholeCard = isWholeCardHeader(header);
  let payload: Uint8Array;
  try {
    payload = wholeCard
      ? wholeCardSigningPayload(card as JsonObject)
      : agentCardSigningPayload(card as JsonObject);
  } catch (error) {
    throw new SignatureFailure(
      'CARD_SIGNATURE_INVALID',
      `the card cannot be canonicalised: ${(error as Error).message}`,
    );
  }
  const held = await holds(entry.protected, entry.signature, alg, payload, key, cache);
  if (held) {
    const sdkProven =
      !wholeCard &&
      held === 'fast' &&
      entry.header === undefined &&
      typeof header.typ === 'string' &&
      typeof header.kid === 'string';
    return { wholeCard, kid, key, sdkProven };
  }
  const reading = wholeCard
    ? 'the whole card as served (JCS minus signatures)'
    : "@a2a-js/sdk's canonical form of the card";
  const other = await differingJwksKey(jku, kid, key, cache);
  if (other && (await holds(entry.protected, entry.signature, alg, payload, other, cache))) {
    throw new SignatureFailure(
      'CARD_KEY_NOT_AUTHORISED',
      `was made by the key jwks.json lists under ${kid}, which is not the key ${did}'s DID document authorises for it: jwks.json was changed`,
    );
  }
  throw new SignatureFailure(
    'CARD_PAYLOAD_CHANGED',
    `does not hold over ${reading} with ${did}'s key ${kid}: the card changed after it was signed`,
  );
}

/** The reading a signature entry names in its protected header (the SDK's when it names none). */
function namesWholeCard(entry: unknown, cache: DocumentCache): boolean {
  if (!isRecord(entry) || typeof entry.protected !== 'string') return false;
  try {
    return isWholeCardHeader(cache.protectedHeader(`${entry.protected}..x`));
  } catch {
    return false;
  }
}

/**
 * Checks the signatures of `card` (a non-empty `signatures` value) and records into `run.f`, per reading
 * (the SDK's, the whole card's): when a signature of that reading holds, each other one of it that does
 * not is a warning naming its cause (as @a2a-js/sdk accepts a card when any signature holds); when none
 * holds, each is a failure naming its cause. No signature over the SDK's form is a failure, and one that
 * holds must be accepted by the SDK itself; no signature over the whole card is a `CARD_PARTLY_SIGNED`
 * warning. One pass when nothing failed.
 */
export async function checkCardSignatures(
  subject: string,
  card: Record<string, unknown>,
  urnDomain: string,
  run: RunContext,
): Promise<void> {
  const { f, cache } = run;
  const signatures = card.signatures;
  if (!Array.isArray(signatures)) {
    f.fail(subject, 'CARD_SIGNATURE_INVALID', "the agent card's signatures is not a list");
    return;
  }
  const outcomes: Array<{ wholeCard: boolean; ok?: CheckedSignature; code?: ErrorCode; message?: string }> =
    [];
  for (const [i, entry] of signatures.entries()) {
    try {
      outcomes.push({
        wholeCard: namesWholeCard(entry, cache),
        ok: await checkSignature(card, entry, urnDomain, cache),
      });
    } catch (error) {
      const code =
        error instanceof SignatureFailure || error instanceof ArdsiteError
          ? error.code
          : 'CARD_SIGNATURE_INVALID';
      outcomes.push({
        wholeCard: namesWholeCard(entry, cache),
        code,
        message: `card signatures[${i}] ${(error as Error).message}`,
      });
    }
  }
  let failed = false;
  for (const wholeCard of [false, true]) {
    const mine = outcomes.filter((o) => o.wholeCard === wholeCard);
    const holds = mine.some((o) => o.ok);
    for (const o of mine) {
      if (o.ok || !o.code || !o.message) continue;
      if (holds) f.warn(subject, o.code, `${o.message} (another signature of the same reading holds)`);
      else {
        failed = true;
        f.fail(subject, o.code, o.message);
      }
    }
  }
  const sdkKeys = outcomes.flatMap((o) => (o.ok && !o.wholeCard ? [o.ok] : []));
  if (!outcomes.some((o) => !o.wholeCard)) {
    failed = true;
    f.fail(
      subject,
      'CARD_SIGNATURE_INVALID',
      "no card signature is over @a2a-js/sdk's canonical form, so A2A v1.0 clients accept none",
    );
  } else if (
    sdkKeys.length > 0 &&
    !sdkKeys.some((k) => k.sdkProven) &&
    !(await sdkAccepts(card, sdkKeys, cache))
  ) {
    failed = true;
    f.fail(
      subject,
      'CARD_SIGNATURE_INVALID',
      "@a2a-js/sdk's verifyAgentCardSignature accepts no signature of the card",
    );
  }
  if (!outcomes.some((o) => o.wholeCard)) {
    f.warn(
      subject,
      'CARD_PARTLY_SIGNED',
      "no card signature covers the whole card as served (JCS minus signatures): what @a2a-js/sdk's canonical form drops (v0.3 fields, the top-level resourceAccessManifest) is unsigned, and a verifier reading A2A §8.4 that way rejects the card",
    );
  }
  if (!failed) f.pass();
}

/**
 * @a2a-js/sdk's own verdict: `verifyAgentCardSignature`, keys from the DID document (the ones
 * {@link checkSignature} resolved). Called only when the fast path could not already prove acceptance
 * ({@link CheckedSignature.sdkProven}); the SDK's debug lines are muted.
 */
async function sdkAccepts(
  card: Record<string, unknown>,
  keys: CheckedSignature[],
  cache: DocumentCache,
): Promise<boolean> {
  const verify = verifyAgentCardSignature(async (kid) => {
    const key = keys.find((k) => k.kid === kid)?.key;
    if (!key) throw new Error(`kid ${kid} is not an authorised key`);
    return cache.publicKey(key);
  });
  const unmute = muteConsoleDebug();
  try {
    await verify(card as never);
    return true;
  } catch {
    return false;
  } finally {
    unmute();
  }
}
