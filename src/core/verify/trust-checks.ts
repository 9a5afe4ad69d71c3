/**
 * The checks of an entry's trustManifests (ARD draft §3.5, §3.5.1, §3.5.2, §6.2, §6.4;
 * docs/trust-profile.md): publisher authority (the identity is did:web of the URN's domain), the
 * signature through the identity's DID document, the subject against the entry, the dates, and the
 * attestation documents' digests. Third-party manifests are verified against their own identity and
 * never count as publisher authority.
 */
import { didFromKid, domainFromDidWeb, findAssertionKey, type PublicJwk } from '../trust/did.js';
import { digestMatches, sha256Digest } from '../ard/digest.js';
import { ArdsiteError } from '../util/errors.js';
import { DEFAULT_VERIFY_ALGORITHMS, verifyCompactDetached } from '../trust/jws.js';
import { trustManifestPayload } from '../trust/trust-manifest.js';
import { DidUnreadable, isRecord, Unreadable, type DocumentCache } from './documents.js';
import { canonicalBase64url, signatureCheck, signatureHolds, signingInput } from './fast-signatures.js';
import type { Findings, RunContext } from './findings.js';
import type { FetchedDocument, SiteReader } from './reader.js';

/** `did:web:<domain>` → `https://<domain>/.well-known/did.json` (did:web method, no path form). */
function didDocumentUrl(did: string): string {
  return `https://${domainFromDidWeb(did)}/.well-known/did.json`;
}

/** The domain of a bare did:web DID, or undefined for anything else. */
/** The domain of a `did:web:<domain>` identity (lower case), or `undefined` for anything else. */
export function didWebDomain(identity: unknown): string | undefined {
  if (typeof identity !== 'string') return undefined;
  try {
    return domainFromDidWeb(identity);
  } catch {
    return undefined;
  }
}

/** Which key types each accepted `alg` needs (RFC 7518 §3.4, RFC 8037 §3.1). */
function keyFitsAlg(alg: string, jwk: PublicJwk): boolean {
  if (alg === 'ES256') return jwk.kty === 'EC' && jwk.crv === 'P-256';
  return jwk.kty === 'OKP' && jwk.crv === 'Ed25519';
}

/**
 * Verifies one trustManifest's signature through did:web (docs/trust-profile.md, "Verification, in
 * order"). Everything that can be refused without the network is refused first: the JWS shape, `alg`,
 * and the DID of the `kid` equal to `identity`; only then is the DID document of `identity` read (once
 * per run). The key must be listed under `assertionMethod`, fit `alg` and verify the JWS.
 * @throws ArdsiteError `TRUST_MISSING`, `JWS_INVALID`, `TRUST_AUTHORITY_MISMATCH` (kid of another DID),
 *   `DID_RESOLUTION_FAILED` ({@link DidUnreadable} when the document cannot be read),
 *   `TRUST_SIGNATURE_INVALID`, `KEY_PRIVATE_PUBLISHED`.
 */
async function verifyTrustManifestSignature(
  tm: Record<string, unknown>,
  cache: DocumentCache,
): Promise<void> {
  const identity = tm.identity;
  if (typeof identity !== 'string' || didWebDomain(identity) === undefined) {
    // Another identity method (did:key, an X.509 name, …) is one this verifier cannot check, not a
    // failed check: a third party's manifest is then a warning (ARD draft §3.5.1, §6.2).
    throw new DidUnreadable(
      `identity ${JSON.stringify(identity)} is not a did:web:<domain> DID, the only method this profile resolves`,
    );
  }
  const signature = tm.signature;
  if (typeof signature !== 'string')
    throw new ArdsiteError('TRUST_MISSING', 'the trustManifest has no signature');
  const header = cache.protectedHeader(signature);
  const alg = header.alg;
  if (typeof alg !== 'string' || !DEFAULT_VERIFY_ALGORITHMS.includes(alg)) {
    throw new ArdsiteError(
      'JWS_INVALID',
      `the JWS uses alg ${JSON.stringify(alg)}; accepted: ${DEFAULT_VERIFY_ALGORITHMS.join(', ')}`,
    );
  }
  if (typeof header.kid !== 'string')
    throw new ArdsiteError('JWS_INVALID', 'the JWS protected header has no kid');
  // A kid that is only a fragment (`#key-1`) names a key of the identity's own DID document (a relative
  // DID URL, DID Core §3.2.2).
  const kid = header.kid.startsWith('#') ? `${identity}${header.kid}` : header.kid;
  let kidDid: string;
  try {
    kidDid = didFromKid(kid);
  } catch (error) {
    throw new ArdsiteError('JWS_INVALID', (error as Error).message);
  }
  if (kidDid !== identity) {
    throw new ArdsiteError(
      'TRUST_AUTHORITY_MISMATCH',
      `the kid ${header.kid} is not a key of ${identity}; its DID document was not fetched`,
    );
  }
  let didDocument: unknown;
  try {
    didDocument = await cache.json(didDocumentUrl(identity), `the DID document of ${identity}`);
  } catch (error) {
    if (error instanceof Unreadable) throw new DidUnreadable(error.message);
    throw new ArdsiteError('DID_RESOLUTION_FAILED', (error as Error).message);
  }
  const jwk = findAssertionKey(didDocument, kid);
  if (!keyFitsAlg(alg, jwk)) {
    throw new ArdsiteError(
      'TRUST_SIGNATURE_INVALID',
      `the kid ${header.kid} names a ${jwk.kty}/${String(jwk.crv)} key, which cannot have made an ${alg} signature`,
    );
  }
  const payload = trustManifestPayload(tm);
  if (await trustSignatureHolds(signature, header, jwk, payload, cache)) return;
  await verifyCompactDetached(signature, payload, jwk);
}

/**
 * The fast path of a trustManifest signature (./fast-signatures.ts): `true` only when
 * `verifyCompactDetached` (src/core/trust/jws.ts, jose's `flattenedVerify`) would accept the same compact
 * detached JWS, i.e. the payload part is empty, the header is one jose reads the same way
 * (`simpleProtectedHeader` of ./fast-signatures.ts) with an accepted `alg` fitting the key and no `b64`, jose imports the
 * key from the same members, the signature part is canonical base64url, and the signature verifies.
 * `false` leaves the decision, and the wording of any failure, to `verifyCompactDetached`.
 */
async function trustSignatureHolds(
  jws: string,
  header: Record<string, unknown>,
  jwk: PublicJwk,
  payload: Uint8Array,
  cache: DocumentCache,
): Promise<boolean> {
  const [encodedHeader, attached, encodedSignature] = jws.split('.');
  if (attached !== '' || encodedHeader === undefined || !cache.simpleHeader(encodedHeader)) return false;
  const alg = header.alg;
  if (typeof alg !== 'string' || !DEFAULT_VERIFY_ALGORITHMS.includes(alg)) return false;
  const fits =
    alg === 'ES256' ? jwk.kty === 'EC' && jwk.crv === 'P-256' : jwk.kty === 'OKP' && jwk.crv === 'Ed25519';
  const signature = canonicalBase64url(encodedSignature);
  if (!fits || !signature) return false;
  // The members and alg src/core/trust/jws.ts imports: kty, crv, x (and y for EC).
  const members: Record<string, unknown> = { kty: jwk.kty, crv: jwk.crv, x: jwk.x };
  if (jwk.kty === 'EC') members.y = jwk.y;
  const key = await cache.keyObject(members, alg);
  const check = key && signatureCheck(alg, key, signature);
  if (!check) return false;
  return signatureHolds(check, signingInput(encodedHeader, payload));
}

/** Compares the subject of a trustManifest with its entry (ARD draft §3.5.1 (a); `url` too when the subject names it, §5). */
function subjectMismatch(subject: unknown, entry: Record<string, unknown>): string | undefined {
  if (!isRecord(subject)) return 'the trustManifest has no subject';
  for (const field of ['identifier', 'type', 'version', 'digest'] as const) {
    if (subject[field] !== entry[field]) {
      return `subject.${field} is ${JSON.stringify(subject[field])} but the entry's ${field} is ${JSON.stringify(entry[field])}`;
    }
  }
  // The CDDL's trust-subject may name the url too (ARD draft §5): when it does, it is signed, and binds.
  if (subject.url !== undefined && subject.url !== entry.url) {
    return `subject.url is ${JSON.stringify(subject.url)} but the entry's url is ${JSON.stringify(entry.url)}`;
  }
  return undefined;
}

/** ISO 8601 / RFC 3339 date or date-time, as ARD draft §3.5 asks of `issuedAt` and `expiresAt`. */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/i;

/** `issuedAt` and `expiresAt` are dates; `expiresAt` is after `now`. */
function checkDates(label: string, tm: Record<string, unknown>, now: Date, f: Findings): void {
  const valid: Record<string, number> = {};
  for (const field of ['issuedAt', 'expiresAt'] as const) {
    const value = tm[field];
    if (value === undefined) continue;
    const time = typeof value === 'string' && ISO_DATE.test(value) ? Date.parse(value) : NaN;
    if (Number.isNaN(time)) {
      f.fail(label, 'SCHEMA_INVALID_VALUE', `${field} ${JSON.stringify(value)} is not an ISO 8601 date-time`);
    } else {
      valid[field] = time;
    }
  }
  const expires = valid.expiresAt;
  if (expires === undefined) return;
  if (expires <= now.getTime())
    f.fail(label, 'TRUST_EXPIRED', `the trustManifest expired at ${String(tm.expiresAt)}`);
  else f.pass();
}

function sameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}

/**
 * Attestation documents (ARD draft §3.5.2, §6.4): each attestation with a `digest` is fetched when the
 * reader can, and its bytes must hash to the digest the signature sealed. One of this site's own
 * attestation documents that cannot be read is a failure; another origin's is a warning.
 */
async function checkAttestations(
  label: string,
  tm: Record<string, unknown>,
  reader: SiteReader,
  origin: string,
  f: Findings,
): Promise<void> {
  const list = Array.isArray(tm.attestations) ? tm.attestations : [];
  for (const [i, attestation] of list.entries()) {
    if (
      !isRecord(attestation) ||
      typeof attestation.digest !== 'string' ||
      typeof attestation.uri !== 'string'
    )
      continue;
    const { uri, digest } = attestation;
    const own = sameOrigin(uri, origin);
    let doc: FetchedDocument | undefined;
    try {
      doc = await reader.read(uri);
    } catch (error) {
      const message = `attestations[${i}] at ${uri} cannot be read: ${(error as Error).message}`;
      if (own) f.fail(label, 'FILE_UNREADABLE', message);
      else f.warn(label, 'FILE_UNREADABLE', `${message}; its digest was not checked`);
      continue;
    }
    if (!doc) {
      f.warn(
        label,
        'FILE_UNREADABLE',
        `attestations[${i}] at ${uri} is on another origin, not read from here; its digest was not checked`,
      );
      continue;
    }
    const bytes = doc.bytes;
    await f.check(label, 'ARD_DIGEST_MISMATCH', () => {
      if (!digestMatches(digest, bytes)) {
        throw new ArdsiteError(
          'ARD_DIGEST_MISMATCH',
          `attestations[${i}].digest ${digest} does not match the ${bytes.length} bytes served at ${uri} (${sha256Digest(bytes)})`,
        );
      }
    });
  }
}

/**
 * Checks one trustManifest of an entry: its signature through its own identity, its subject against the
 * entry, its dates and its attestation documents. `strict`: the DID document must be readable (the
 * publisher manifest of one of this site's own entries); otherwise an unreadable DID document is a
 * warning that the signature was not checked.
 */
async function checkTrustManifest(
  label: string,
  tm: Record<string, unknown>,
  entry: Record<string, unknown>,
  strict: boolean,
  run: RunContext,
): Promise<void> {
  const { f } = run;
  try {
    await verifyTrustManifestSignature(tm, run.cache);
    f.pass();
  } catch (error) {
    const code = error instanceof ArdsiteError ? error.code : 'TRUST_SIGNATURE_INVALID';
    const message = (error as Error).message;
    if (error instanceof DidUnreadable && !strict)
      f.warn(label, code, `${message}; the signature was not checked`);
    else f.fail(label, code, message);
  }
  const mismatch = subjectMismatch(tm.subject, entry);
  if (mismatch) f.fail(label, 'TRUST_SUBJECT_MISMATCH', mismatch);
  else f.pass();
  checkDates(label, tm, run.now, f);
  await checkAttestations(label, tm, run.reader, run.origin, f);
}

/**
 * Publisher authority (ARD draft §3.5.1, §6.2): the entry needs a trustManifest whose identity is
 * `did:web:<the URN's domain>`. `trustManifest` with another identity is a squatting signal and fails;
 * `trustManifests[]` may hold the publisher's manifest too, and every other one is a third party's,
 * verified against its own identity and never counted as publisher authority.
 */
export async function checkTrust(
  subject: string,
  entry: Record<string, unknown>,
  urnDomain: string,
  own: boolean,
  run: RunContext,
): Promise<void> {
  const { f } = run;
  const binds = (tm: Record<string, unknown>) => didWebDomain(tm.identity) === urnDomain;
  const publisher: Array<[string, Record<string, unknown>]> = [];
  const thirdParty: Array<[string, Record<string, unknown>]> = [];
  const single = isRecord(entry.trustManifest) ? entry.trustManifest : undefined;
  if (single) {
    if (binds(single)) publisher.push([subject, single]);
    else {
      f.fail(
        subject,
        'TRUST_AUTHORITY_MISMATCH',
        `the trustManifest identity ${JSON.stringify(single.identity)} is not did:web:${urnDomain}, the publisher the URN names`,
      );
    }
  }
  const list = Array.isArray(entry.trustManifests) ? entry.trustManifests : [];
  for (const [i, tm] of list.entries()) {
    if (!isRecord(tm)) continue; // the entry schema already refused it
    (binds(tm) ? publisher : thirdParty).push([`${subject} trustManifests[${i}]`, tm]);
  }
  if (!single && publisher.length === 0) {
    const others =
      thirdParty.length > 0 ? `; third-party trustManifests[] never count as publisher authority` : '';
    if (own) {
      f.fail(
        subject,
        'TRUST_MISSING',
        `the entry names this site's domain but carries no trustManifest signed by did:web:${urnDomain}${others}`,
      );
    } else {
      f.warn(
        subject,
        'TRUST_MISSING',
        `no trustManifest of did:web:${urnDomain}: an unverified discovery hint (ARD draft §6.2)${others}`,
      );
    }
  }
  for (const [label, tm] of publisher) await checkTrustManifest(label, tm, entry, own, run);
  for (const [label, tm] of thirdParty) await checkTrustManifest(label, tm, entry, false, run);
}
