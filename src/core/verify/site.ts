/**
 * Verifies an ARD site the way a crawler does (DESIGN.md §4, ARD draft §3.5, §4.3.1, §6;
 * docs/trust-profile.md): manifest shape, URNs, (identifier, version) uniqueness, entry URLs, digests of
 * the served bytes, trustManifest signatures through did:web, publisher authority, third-party
 * manifests against their own identity, expiry, attestation digests, A2A card signatures through the
 * site's own key set, the card's entry extension, RAM integrity, the two RAM copies, and published keys
 * without private members. The same code checks the build's own output (from the folder it just wrote)
 * and any site given to `npm run verify`: only the {@link SiteReader} differs.
 *
 * What cannot be read from here (another origin, for a folder reader) is a warning that says it was not
 * checked; what was read and does not hold is a failure. The site's own artifacts and DID document must
 * be readable: failing to read them is a failure.
 *
 * Signatures are accepted first by a fast path (./fast-signatures.ts: node:crypto over the same payload
 * the libraries build) that only ever says yes to what jose and @a2a-js/sdk would accept; everything else
 * goes through the libraries, which decide and word every failure.
 */
import { canonicalizeAgentCard, verifyAgentCardSignature } from '@a2a-js/sdk';
import { importJWK } from 'jose';
import { KeyObject } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { ENTRY_EXTENSION_URI } from '../card.js';
import {
  assertNoPrivateMembers,
  didFromKid,
  domainFromDidWeb,
  findAssertionKey,
  PRIVATE_JWK_MEMBERS,
  type PublicJwk,
} from '../did.js';
import { digestMatches, sha256Digest } from '../digest.js';
import { ArdsiteError, type ErrorCode } from '../errors.js';
import { canonicalBytes } from '../jcs.js';
import { DEFAULT_VERIFY_ALGORITHMS, decodeProtectedHeader, verifyCompactDetached } from '../jws.js';
import { ArdEntry, ArdManifest } from '../schema/entry.js';
import { trustManifestPayload } from '../trust-manifest.js';
import { parseAirUrn } from '../urn.js';
import {
  canonicalBase64url,
  signatureCheck,
  signatureHolds,
  signingInput,
  type SignatureCheck,
  simpleProtectedHeader,
} from './fast-signatures.js';
import type { EntryOutcome, SharedEntries, VerifyHelpers } from './helper-threads.js';
import { checkRamIntegrity } from './ram-integrity.js';

/** A fetched document. */
export interface FetchedDocument {
  bytes: Uint8Array;
  /** The Content-Type, when the transport has one. */
  contentType?: string;
  /** The HTTP `Link` header, when the transport has one (RFC 8288). */
  link?: string;
}

/**
 * How the verifier reads a site: a folder on disk or the network. `read` takes an absolute URL and
 * returns the bytes, `undefined` when the URL is outside what this reader may read (another origin for
 * a folder), and throws an Error with a message for a failed read.
 */
export interface SiteReader {
  read(url: string): Promise<FetchedDocument | undefined>;
}

/** One finding of the verifier. `subject` names what was checked (an identifier or a URL). */
export interface VerifyFinding {
  code: ErrorCode;
  severity: 'error' | 'warning';
  subject: string;
  message: string;
}

/** The verifier's report. `passed` counts the checks that held. */
export interface VerifyReport {
  origin: string;
  entries: number;
  passed: number;
  findings: VerifyFinding[];
}

/** Options of {@link verifySite}. */
export interface VerifySiteOptions {
  /** The site's origin, `https://<domain>` (no trailing slash). */
  origin: string;
  /** The time `expiresAt` is compared with (default now). */
  now?: Date;
  /** At most this many entries are checked (default 100,000). */
  maxEntries?: number;
  /**
   * Helper threads that check entries beside this thread (./helper-threads.ts), reading `folder` (the
   * folder reader's folder) with the same `maxBytes`. `checkHere: false` leaves every entry to the
   * helpers (tests; entries a helper took and did not report are still checked here).
   */
  parallel?: {
    folder: string;
    maxBytes?: number;
    helpers: VerifyHelpers;
    checkHere?: boolean;
  };
  /** The manifest's URL when discovery found it elsewhere (default `<origin>/.well-known/ard.json`). */
  manifestUrl?: string;
}

const A2A_CARD_TYPE = 'application/a2a-agent-card+json';

class Findings {
  passed = 0;
  readonly list: VerifyFinding[] = [];
  fail(subject: string, code: ErrorCode, message: string): void {
    this.list.push({ code, severity: 'error', subject, message });
  }
  warn(subject: string, code: ErrorCode, message: string): void {
    this.list.push({ code, severity: 'warning', subject, message });
  }
  pass(): void {
    this.passed++;
  }
  /** Runs one check; a thrown ArdsiteError becomes a failure with its code. */
  async check(subject: string, fallback: ErrorCode, fn: () => Promise<void> | void): Promise<boolean> {
    try {
      await fn();
      this.pass();
      return true;
    } catch (error) {
      const code = error instanceof ArdsiteError ? error.code : fallback;
      this.fail(subject, code, (error as Error).message);
      return false;
    }
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** One strict UTF-8 decoder for every document (a fatal decoder keeps no state between whole calls). */
const utf8 = new TextDecoder('utf-8', { fatal: true });

function parseJson(bytes: Uint8Array, what: string): unknown {
  try {
    return JSON.parse(utf8.decode(bytes));
  } catch (error) {
    throw new ArdsiteError('JSON_INVALID', `${what} is not JSON: ${(error as Error).message}`);
  }
}

/** A document that could not be read at all (as opposed to one that was read and does not hold). */
class Unreadable extends Error {}

/** A DID document that could not be read: a failure for the site's own DID, a warning for others'. */
class DidUnreadable extends ArdsiteError {
  constructor(message: string) {
    super('DID_RESOLUTION_FAILED', message);
  }
}

let debugMutes = 0;
let savedDebug: typeof console.debug | undefined;

/**
 * Silences `console.debug` until the returned function is called; nested and concurrent callers share
 * one silence, and the original is restored when the last one ends.
 */
function muteConsoleDebug(): () => void {
  if (debugMutes++ === 0) {
    savedDebug = console.debug;
    console.debug = () => {};
  }
  let done = false;
  return () => {
    if (done) return;
    done = true;
    if (--debugMutes === 0 && savedDebug) console.debug = savedDebug;
  };
}

/**
 * A per-run cache of JSON documents (DID documents, JWK Sets), by URL: each is read at most once; and of
 * imported public keys (CryptoKeys for the libraries, KeyObjects for the fast path), so thousands of
 * signature checks share one import per key.
 */
class DocumentCache {
  private readonly docs = new Map<string, Promise<unknown>>();
  private readonly keys = new Map<string, Promise<CryptoKey>>();
  private readonly verificationKeys = new Map<string, Promise<CryptoKey>>();
  private readonly keyObjects = new Map<Promise<CryptoKey>, Promise<KeyObject | undefined>>();

  /** The public key of `jwk` (EC P-256 → ES256, OKP Ed25519 → EdDSA), imported once per run. */
  publicKey(jwk: Record<string, unknown>): Promise<CryptoKey> {
    const id = `${String(jwk.kty)}|${String(jwk.crv)}|${String(jwk.x)}|${String(jwk.y)}`;
    let key = this.keys.get(id);
    if (!key) {
      const alg = jwk.kty === 'OKP' ? 'EdDSA' : 'ES256';
      const members = { kty: jwk.kty, crv: jwk.crv, x: jwk.x, ...(jwk.y ? { y: jwk.y } : {}) };
      key = importJWK(members as never, alg) as Promise<CryptoKey>;
      this.keys.set(id, key);
    }
    return key;
  }

  /**
   * The KeyObject of `members` imported by jose's `importJWK` for `alg` (so a key jose refuses is never
   * used), once per run; `undefined` when jose refuses it.
   */
  keyObject(members: Record<string, unknown>, alg: string): Promise<KeyObject | undefined> {
    const id = `${alg}|${String(members.kty)}|${String(members.crv)}|${String(members.x)}|${String(members.y)}`;
    let key = this.verificationKeys.get(id);
    if (!key) {
      key = importJWK(members as never, alg) as Promise<CryptoKey>;
      this.verificationKeys.set(id, key);
    }
    return this.keyObjectOf(key);
  }

  /** The KeyObject of an imported CryptoKey, made once per key; `undefined` when the import failed. */
  keyObjectOf(key: Promise<CryptoKey>): Promise<KeyObject | undefined> {
    let object = this.keyObjects.get(key);
    if (!object) {
      // jose uses a CryptoKey only as a public key that may verify (its checkCryptoKey).
      object = key.then(
        (k) => (k.type === 'public' && k.usages.includes('verify') ? KeyObject.from(k) : undefined),
        () => undefined,
      );
      this.keyObjects.set(key, object);
    }
    return object;
  }
  constructor(private readonly reader: SiteReader) {}
  /**
   * @throws Unreadable when the document is outside the reader or the read failed;
   *   ArdsiteError `JSON_INVALID` when it is not JSON.
   */
  json(url: string, what: string): Promise<unknown> {
    let p = this.docs.get(url);
    if (!p) {
      p = (async () => {
        let doc: FetchedDocument | undefined;
        try {
          doc = await this.reader.read(url);
        } catch (error) {
          throw new Unreadable(`${what} at ${url} cannot be read: ${(error as Error).message}`);
        }
        if (!doc) throw new Unreadable(`${what} at ${url} is on another origin, which is not read from here`);
        return parseJson(doc.bytes, `${what} at ${url}`);
      })();
      this.docs.set(url, p);
    }
    return p;
  }
}

/** `did:web:<domain>` → `https://<domain>/.well-known/did.json` (did:web method, no path form). */
function didDocumentUrl(did: string): string {
  return `https://${domainFromDidWeb(did)}/.well-known/did.json`;
}

/** The domain of a bare did:web DID, or undefined for anything else. */
function didWebDomain(identity: unknown): string | undefined {
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
    throw new ArdsiteError(
      'DID_RESOLUTION_FAILED',
      `identity ${JSON.stringify(identity)} is not a did:web:<domain> DID, the only method this profile resolves`,
    );
  }
  const signature = tm.signature;
  if (typeof signature !== 'string')
    throw new ArdsiteError('TRUST_MISSING', 'the trustManifest has no signature');
  const header = decodeProtectedHeader(signature);
  const alg = header.alg;
  if (typeof alg !== 'string' || !DEFAULT_VERIFY_ALGORITHMS.includes(alg)) {
    throw new ArdsiteError(
      'JWS_INVALID',
      `the JWS uses alg ${JSON.stringify(alg)}; accepted: ${DEFAULT_VERIFY_ALGORITHMS.join(', ')}`,
    );
  }
  if (typeof header.kid !== 'string')
    throw new ArdsiteError('JWS_INVALID', 'the JWS protected header has no kid');
  let kidDid: string;
  try {
    kidDid = didFromKid(header.kid);
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
  const jwk = findAssertionKey(didDocument, header.kid);
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
 * `verifyCompactDetached` (src/core/jws.ts, jose's `flattenedVerify`) would accept the same compact
 * detached JWS, i.e. the payload part is empty, the header is one jose reads the same way
 * ({@link simpleProtectedHeader}) with an accepted `alg` fitting the key and no `b64`, jose imports the
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
  if (attached !== '' || encodedHeader === undefined || !simpleProtectedHeader(encodedHeader)) return false;
  const alg = header.alg;
  if (typeof alg !== 'string' || !DEFAULT_VERIFY_ALGORITHMS.includes(alg)) return false;
  const fits =
    alg === 'ES256' ? jwk.kty === 'EC' && jwk.crv === 'P-256' : jwk.kty === 'OKP' && jwk.crv === 'Ed25519';
  const signature = canonicalBase64url(encodedSignature);
  if (!fits || !signature) return false;
  // The members and alg src/core/jws.ts imports: kty, crv, x (and y for EC).
  const members: Record<string, unknown> = { kty: jwk.kty, crv: jwk.crv, x: jwk.x };
  if (jwk.kty === 'EC') members.y = jwk.y;
  const key = await cache.keyObject(members, alg);
  const check = key && signatureCheck(alg, key, signature);
  if (!check) return false;
  return signatureHolds(check, signingInput(encodedHeader, payload));
}

function entryLabel(entry: unknown, index: number): string {
  const id = (entry as { identifier?: unknown })?.identifier;
  return typeof id === 'string' ? id : `entries[${index}]`;
}

/** Compares the subject of a trustManifest with its entry (ARD draft §3.5.1 (a)). */
function subjectMismatch(subject: unknown, entry: Record<string, unknown>): string | undefined {
  if (!isRecord(subject)) return 'the trustManifest has no subject';
  for (const field of ['identifier', 'type', 'version', 'digest'] as const) {
    if (subject[field] !== entry[field]) {
      return `subject.${field} is ${JSON.stringify(subject[field])} but the entry's ${field} is ${JSON.stringify(entry[field])}`;
    }
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

/** Shared state of one run. */
interface RunContext {
  reader: SiteReader;
  cache: DocumentCache;
  origin: string;
  now: Date;
  f: Findings;
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
async function checkTrust(
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

/**
 * The fast path of an A2A card signature (A2A spec §8.4; ./fast-signatures.ts): `true` only when
 * @a2a-js/sdk's `verifyAgentCardSignature`, given the same key look-up as {@link verifyCard}'s (the first
 * key of the site's JWK Set with the header's `kid`, imported by {@link DocumentCache.publicKey}), would
 * accept the card. The payload is the SDK's own `canonicalizeAgentCard`; a signature entry counts when it
 * has no unprotected `header`, a protected header jose reads the same way ({@link simpleProtectedHeader})
 * with the `kid`, `typ` and `alg` the SDK requires, a canonical base64url signature, and it verifies. The
 * SDK accepts a card when any one entry verifies, so one such entry suffices. `false` leaves the decision,
 * and the wording of any failure, to the SDK.
 */
async function cardSignatureHolds(
  card: Record<string, unknown>,
  signatures: unknown[],
  keys: Record<string, unknown>[],
  cache: DocumentCache,
): Promise<boolean> {
  const candidates: Array<[string, SignatureCheck]> = [];
  for (const entry of signatures) {
    if (!isRecord(entry) || entry.header !== undefined) continue;
    const header = simpleProtectedHeader(entry.protected);
    const signature = canonicalBase64url(entry.signature);
    if (!header || !signature || !header.kid || !header.typ || !header.alg) continue;
    const jwk = keys.find((k) => k.kid === header.kid);
    if (!jwk) continue;
    const key = await cache.keyObjectOf(cache.publicKey(jwk));
    const check = key && signatureCheck(header.alg, key, signature);
    if (check) candidates.push([entry.protected as string, check]);
  }
  if (candidates.length === 0) return false;
  let payload: Buffer;
  try {
    payload = Buffer.from(canonicalizeAgentCard(card as never), 'utf8');
  } catch {
    return false; // the SDK throws the same error
  }
  return candidates.some(([encodedHeader, check]) =>
    signatureHolds(check, signingInput(encodedHeader, payload)),
  );
}

async function verifyCard(
  subject: string,
  entry: Record<string, unknown>,
  urnDomain: string,
  bytes: Uint8Array,
  run: RunContext,
): Promise<void> {
  const { f, origin, cache } = run;
  let card: Record<string, unknown>;
  try {
    const parsed = parseJson(bytes, 'the agent card');
    if (!isRecord(parsed)) throw new ArdsiteError('JSON_INVALID', 'the agent card is not a JSON object');
    card = parsed;
  } catch (error) {
    f.fail(subject, 'JSON_INVALID', (error as Error).message);
    return;
  }
  const jwksUrl = `${origin}/.well-known/jwks.json`;
  await f.check(subject, 'CARD_SIGNATURE_INVALID', async () => {
    const signatures = card.signatures;
    if (!Array.isArray(signatures) || signatures.length === 0) {
      throw new ArdsiteError('CARD_SIGNATURE_INVALID', 'the agent card is not signed (no signatures)');
    }
    for (const s of signatures) {
      const header = decodeProtectedHeader(`${String((s as { protected?: unknown }).protected)}..x`);
      if (header.jku !== undefined && header.jku !== jwksUrl) {
        throw new ArdsiteError(
          'CARD_FOREIGN_JKU',
          `the card signature's jku ${String(header.jku)} is not this site's ${jwksUrl}`,
        );
      }
      if (header.alg === 'none') throw new ArdsiteError('JWS_INVALID', 'the card signature uses alg "none"');
    }
    let jwks: unknown;
    try {
      jwks = await cache.json(jwksUrl, 'the JWK Set');
    } catch (error) {
      throw new ArdsiteError('CARD_SIGNATURE_INVALID', (error as Error).message);
    }
    const keys = isRecord(jwks) && Array.isArray(jwks.keys) ? (jwks.keys as Record<string, unknown>[]) : [];
    keys.forEach((k, i) => assertNoPrivateMembers(k, `jwks.json key ${i + 1}`));
    if (await cardSignatureHolds(card, signatures, keys, cache)) return;
    const verify = verifyAgentCardSignature(async (kid) => {
      const key = keys.find((k) => k.kid === kid);
      if (!key) throw new Error(`kid ${kid} is not in ${jwksUrl}`);
      return run.cache.publicKey(key);
    });
    const unmute = muteConsoleDebug(); // the SDK logs every failed attempt at debug level
    try {
      await verify(card as never);
    } catch (error) {
      throw new ArdsiteError(
        'CARD_SIGNATURE_INVALID',
        `the A2A card signature does not verify: ${(error as Error).message}`,
      );
    } finally {
      unmute();
    }
  });
  const extensions = (card.capabilities as { extensions?: unknown } | undefined)?.extensions;
  const list = Array.isArray(extensions) ? extensions.filter(isRecord) : [];
  // The card declares its entry (ARD draft §4.3.1): identifier, and publisher when given.
  await f.check(subject, 'CARD_IDENTITY_MISMATCH', () => {
    const ext = list.find((e) => e.uri === ENTRY_EXTENSION_URI);
    const params = isRecord(ext?.params) ? ext.params : {};
    if (params.identifier !== entry.identifier) {
      throw new ArdsiteError(
        'CARD_IDENTITY_MISMATCH',
        `the card's entry extension names ${JSON.stringify(params.identifier)}, not ${String(entry.identifier)}`,
      );
    }
    if (params.publisher !== undefined && params.publisher !== `did:web:${urnDomain}`) {
      throw new ArdsiteError(
        'CARD_IDENTITY_MISMATCH',
        `the card's entry extension names the publisher ${JSON.stringify(params.publisher)}, not did:web:${urnDomain}`,
      );
    }
  });
  // The RAM: the top-level copy (not covered by the A2A signature) must equal the extension copy.
  const top = card.resourceAccessManifest;
  const ramExtension = list.find((e) => isRecord(e.params) && Array.isArray(e.params.resourceAccesses));
  const extensionRam = ramExtension?.params as Record<string, unknown> | undefined;
  if (top === undefined && extensionRam === undefined) return;
  const { skillAccesses: _s, ...extensionCopy } = extensionRam ?? {};
  if (top !== undefined) {
    await f.check(subject, 'CARD_RAM_COPIES_DIFFER', () => {
      if (extensionRam === undefined) {
        throw new ArdsiteError(
          'CARD_RAM_COPIES_DIFFER',
          'resourceAccessManifest has no copy in capabilities.extensions, the copy the A2A signature covers',
        );
      }
      if (!jsonEqual(top, extensionCopy) && !isDeepStrictEqual(top, extensionCopy)) {
        throw new ArdsiteError(
          'CARD_RAM_COPIES_DIFFER',
          'resourceAccessManifest differs from the RAM extension params',
        );
      }
    });
  }
  const problems = checkRamIntegrity(extensionRam !== undefined ? extensionCopy : top);
  for (const problem of problems) f.fail(subject, problem.code, problem.message);
  if (problems.length === 0) f.pass();
}

/**
 * A fast `true` for `isDeepStrictEqual(a, b)` over values made by `JSON.parse` (and plain copies of them):
 * the same primitives (`Object.is`, so `0` and `-0` differ as there), arrays of the same length with equal
 * items, plain objects with the same own keys (in any order) and equal values. It answers `false` for
 * anything else, including every value JSON cannot make (another prototype, a function, a symbol), so a
 * `false` only means "ask isDeepStrictEqual", which decides.
 */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return a !== 0 || Object.is(a, b);
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    if (Object.getPrototypeOf(a) !== Array.prototype || Object.getPrototypeOf(b) !== Array.prototype)
      return false;
    for (let i = 0; i < a.length; i++) if (!(i in a) || !(i in b) || !jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  if (Object.getPrototypeOf(a) !== Object.prototype || Object.getPrototypeOf(b) !== Object.prototype)
    return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  if (Object.getOwnPropertySymbols(a).length > 0 || Object.getOwnPropertySymbols(b).length > 0) return false;
  for (const key of keys) {
    if (!Object.hasOwn(b, key)) return false;
    if (!jsonEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}

/** Why an entry `url` is not acceptable (absolute https; http for loopback only), or undefined. */
function urlProblem(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `url ${JSON.stringify(url)} is not an absolute URL`;
  }
  if (u.protocol === 'https:') return undefined;
  if (u.protocol === 'http:' && /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/i.test(u.hostname))
    return undefined;
  return `url ${url} is not https (ARD draft §6.5; http only for localhost)`;
}

/** Every JWK in a published document: `keys[]` of a JWK Set, every `publicKeyJwk` of a DID document. */
function publishedJwks(
  doc: unknown,
  where: string,
  out: Array<[string, Record<string, unknown>]> = [],
): Array<[string, Record<string, unknown>]> {
  if (Array.isArray(doc)) doc.forEach((v, i) => publishedJwks(v, `${where}[${i}]`, out));
  else if (isRecord(doc)) {
    for (const [key, value] of Object.entries(doc)) {
      if (key === 'publicKeyJwk' && isRecord(value)) out.push([`${where}.${key}`, value]);
      else if (key === 'keys' && where === '' && Array.isArray(value)) {
        value.forEach((k, i) => isRecord(k) && out.push([`keys[${i}]`, k]));
      } else publishedJwks(value, where === '' ? key : `${where}.${key}`, out);
    }
  }
  return out;
}

/**
 * Checks one entry (ARD draft §3, §3.5, §6.2): shape, URN, uniqueness, url XOR data, the artifact's
 * digest, the trustManifest(s) and, for this site's own A2A cards, the card. Records into `run.f`.
 * `duplicate`: an earlier entry has the same (identifier, version) (see {@link duplicateEntries}).
 */
async function verifyEntry(
  raw: unknown,
  index: number,
  siteDomain: string,
  duplicate: boolean,
  run: RunContext,
): Promise<void> {
  const { f, reader } = run;
  const subject = entryLabel(raw, index);
  const parsed = ArdEntry.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    f.fail(
      subject,
      'ARD_MANIFEST_INVALID',
      `the entry does not have the ARD shape: ${issue?.path.join('.') || '(entry)'}: ${issue?.message ?? ''}`,
    );
    return;
  }
  const entry = parsed.data as Record<string, unknown> & typeof parsed.data;
  const urn = parseAirUrn(entry.identifier);
  if (typeof urn === 'string') {
    f.fail(subject, 'ARD_URN_INVALID', urn);
    return;
  }
  f.pass();
  if (duplicate) {
    f.fail(
      subject,
      'ARD_DUPLICATE_ENTRY',
      `(identifier, version) ${entry.identifier} ${entry.version ?? ''} appears twice`,
    );
  }
  if ((entry.url === undefined) === (entry.data === undefined)) {
    f.fail(subject, 'ARD_URL_XOR_DATA', 'an entry needs exactly one of url and data (ARD draft §3.3)');
    return;
  }
  const queries = entry.representativeQueries?.length ?? 0;
  if (queries < 2 || queries > 5) {
    f.warn(subject, 'ARD_QUERIES_COUNT', `${queries} representative queries; ARD asks for 2 to 5`);
  }

  // The artifact and its digest. Only what can be checked is fetched: an artifact with a digest, or
  // this site's own A2A card. An artifact that cannot be read fails for this site's entries and is a
  // warning for other publishers' entries; one on an origin this reader does not read (a folder's
  // reader and another origin) is a warning that it was not checked.
  const ownDomain = urn.domain === siteDomain;
  const badUrl = entry.url !== undefined ? urlProblem(entry.url) : undefined;
  if (badUrl) {
    if (ownDomain) f.fail(subject, 'URL_NOT_HTTPS', badUrl);
    else f.warn(subject, 'URL_NOT_HTTPS', badUrl);
  }
  let artifact: Uint8Array | undefined;
  if (entry.data !== undefined) {
    artifact = canonicalBytes(entry.data);
  } else if (!badUrl && (entry.digest !== undefined || (ownDomain && entry.type === A2A_CARD_TYPE))) {
    try {
      artifact = (await reader.read(entry.url!))?.bytes;
      if (!artifact) {
        f.warn(
          subject,
          'FILE_UNREADABLE',
          `${entry.url} is on another origin, not read from here; its digest was not checked`,
        );
      }
    } catch (error) {
      const message = `cannot read ${entry.url}: ${(error as Error).message}`;
      if (ownDomain) f.fail(subject, 'FILE_UNREADABLE', message);
      else f.warn(subject, 'FILE_UNREADABLE', message);
    }
  }
  if (artifact && entry.digest !== undefined) {
    const bytes = artifact;
    await f.check(subject, 'ARD_DIGEST_MISMATCH', () => {
      if (!digestMatches(entry.digest!, bytes)) {
        throw new ArdsiteError(
          'ARD_DIGEST_MISMATCH',
          `digest ${entry.digest} does not match the ${bytes.length} bytes served at ${entry.url ?? '(inline data)'} (${sha256Digest(bytes)})`,
        );
      }
    });
  } else if (artifact && ownDomain && entry.url !== undefined) {
    f.warn(
      subject,
      'ARD_UNPINNED',
      'the entry has no digest, so its signed trustManifest does not pin the artifact',
    );
  }

  await checkTrust(subject, entry, urn.domain, ownDomain, run);

  if (entry.type === A2A_CARD_TYPE && artifact && entry.url && ownDomain) {
    await verifyCard(subject, entry, urn.domain, artifact, run);
  }
}

/**
 * Entries checked at once: network reads overlap, findings keep manifest order. A folder's reads and the
 * signature checks are synchronous, yet 16 interleaved entries still ran faster than 1 or 4 (measured at
 * 1,000 entries: 0.73 s against 0.86 s and 0.78 s; 32 was the same, 64 slower).
 */
const ENTRY_CONCURRENCY = 16;

/** Entries checked at most, unless `maxEntries` says otherwise. */
const MAX_ENTRIES = 100_000;

/**
 * Indices of entries whose (identifier, version) an earlier entry already has (ARD draft §3.4: the
 * pair identifies a release). Entries without a string identifier are skipped (their shape fails).
 */
export function duplicateEntries(entries: readonly unknown[]): Set<number> {
  const seen = new Set<string>();
  const out = new Set<number>();
  entries.forEach((raw, i) => {
    if (!isRecord(raw) || typeof raw.identifier !== 'string') return;
    const key = `${raw.identifier}\u0000${typeof raw.version === 'string' ? raw.version : ''}`;
    if (seen.has(key)) out.add(i);
    seen.add(key);
  });
  return out;
}

/** The site-wide facts every entry check needs. */
export interface EntryContext {
  origin: string;
  now: Date;
  siteDomain: string;
}

/** A manifest's entries as the verifier takes them, or why there are none (see {@link readManifest}). */
export type ManifestRead = { entries: unknown[]; total: number } | { problem: string; entries?: undefined };

/**
 * The entries of a manifest's bytes (ARD draft §3.6): the first `maxEntries` of a JSON object's
 * `entries` list, and how many the list has (`total`); or the problem, worded for the report, when the
 * bytes are not JSON or not such an object. The one reading of a manifest: {@link verifySite} and its
 * helper threads (./entries-worker.ts) take their entries through it from the same bytes.
 */
export function readManifest(bytes: Uint8Array, maxEntries: number): ManifestRead {
  let manifest: unknown;
  try {
    manifest = parseJson(bytes, 'the manifest');
  } catch (error) {
    return { problem: (error as Error).message };
  }
  const shape = ArdManifest.safeParse(manifest);
  if (!shape.success)
    return { problem: 'the manifest is not an object with an "entries" list (ARD draft §3.6)' };
  return { entries: shape.data.entries.slice(0, maxEntries), total: shape.data.entries.length };
}

/**
 * Checks entries through `reader`, 16 at a time so network reads overlap: `claim` gives the index of
 * the next entry to check (`undefined`: none left), `onOutcome` receives what it found. Used by
 * {@link verifySite} and by helper threads (./entries-worker.ts), which share one counter. `cache`: the
 * run's documents (each DID document and key set is read once per thread).
 * @throws the first error a check throws (checks turn a broken site into findings, not errors).
 */
export async function verifyClaimedEntries(
  reader: SiteReader,
  context: EntryContext,
  entries: readonly unknown[],
  duplicates: ReadonlySet<number>,
  claim: () => number | undefined,
  onOutcome: (index: number, outcome: EntryOutcome) => void,
  cache: DocumentCache = new DocumentCache(reader),
): Promise<void> {
  const lane = async () => {
    for (let index = claim(); index !== undefined; index = claim()) {
      const f = new Findings();
      await verifyEntry(entries[index], index, context.siteDomain, duplicates.has(index), {
        reader,
        cache,
        origin: context.origin,
        now: context.now,
        f,
      });
      onOutcome(index, { passed: f.passed, findings: f.list });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(ENTRY_CONCURRENCY, entries.length)) }, lane));
}

/**
 * Checks every entry: with the helper threads of `shared.run` when there are some (the threads share one
 * counter, see ./helper-threads.ts; `checkHere: false` leaves the claiming to them), and in this thread
 * whatever is left (all of it without helpers; what a helper took and did not report). Returns one
 * outcome per entry, in manifest order.
 */
async function checkAllEntries(
  reader: SiteReader,
  context: EntryContext,
  entries: readonly unknown[],
  duplicates: ReadonlySet<number>,
  cache: DocumentCache,
  shared: { run: SharedEntries; checkHere: boolean } | undefined,
): Promise<EntryOutcome[]> {
  const outcomes = new Array<EntryOutcome | undefined>(entries.length);
  const keep = (index: number, outcome: EntryOutcome) => {
    if (index < entries.length) outcomes[index] = outcome;
  };
  if (shared) {
    const { run } = shared;
    if (shared.checkHere) {
      const claim = () => {
        const index = Atomics.add(run.counter, 0, 1);
        return index < entries.length ? index : undefined;
      };
      await verifyClaimedEntries(reader, context, entries, duplicates, claim, keep, cache);
    }
    await run.settled(entries.length, (index) => outcomes[index] !== undefined);
    for (const [index, outcome] of run.outcomes) if (index < entries.length) outcomes[index] ??= outcome;
  }
  const left: number[] = [];
  for (let i = 0; i < entries.length; i++) if (outcomes[i] === undefined) left.push(i);
  let next = 0;
  await verifyClaimedEntries(reader, context, entries, duplicates, () => left[next++], keep, cache);
  return outcomes as EntryOutcome[];
}

/**
 * Verifies the site served at `options.origin` through `reader`. Never throws for a broken site: every
 * problem is a finding. Throws `ArdsiteError('FILE_MISSING')` only when the manifest itself cannot be read
 * (exit 2 of `npm run verify`).
 */
export async function verifySite(reader: SiteReader, options: VerifySiteOptions): Promise<VerifyReport> {
  const origin = options.origin.replace(/\/$/, '');
  const siteDomain = new URL(origin).hostname;
  const f = new Findings();
  const cache = new DocumentCache(reader);
  const run: RunContext = { reader, cache, origin, now: options.now ?? new Date(), f };
  const manifestUrl = options.manifestUrl ?? `${origin}/.well-known/ard.json`;
  let manifestDoc: FetchedDocument | undefined;
  try {
    manifestDoc = await reader.read(manifestUrl);
  } catch (error) {
    throw new ArdsiteError('FILE_MISSING', `cannot read ${manifestUrl}: ${(error as Error).message}`);
  }
  if (!manifestDoc) throw new ArdsiteError('FILE_MISSING', `cannot read ${manifestUrl}`);
  const type = manifestDoc.contentType;
  if (type !== undefined && !/^application\/(ard\+)?json\s*(;|$)/i.test(type)) {
    f.fail(
      manifestUrl,
      'ARD_MANIFEST_INVALID',
      `the manifest is served as "${type}"; application/ard+json (or application/json) is expected`,
    );
  }
  // Helper threads take the entries from the same bytes while this thread parses them.
  const maxEntries = options.maxEntries ?? MAX_ENTRIES;
  const { parallel } = options;
  const shared =
    parallel && parallel.helpers.size > 0
      ? {
          run: parallel.helpers.share({
            folder: parallel.folder,
            ...(parallel.maxBytes === undefined ? {} : { maxBytes: parallel.maxBytes }),
            origin,
            siteDomain,
            now: run.now,
            manifest: manifestDoc.bytes,
            maxEntries,
          }),
          checkHere: parallel.checkHere !== false,
        }
      : undefined;
  const read = readManifest(manifestDoc.bytes, maxEntries);
  if (read.entries === undefined) {
    f.fail(manifestUrl, 'ARD_MANIFEST_INVALID', read.problem);
    return { origin, entries: 0, passed: f.passed, findings: f.list };
  }
  f.pass();
  const { entries } = read;
  if (entries.length < read.total) {
    f.warn(
      manifestUrl,
      'ARD_MANIFEST_INVALID',
      `only the first ${entries.length} of ${read.total} entries were checked`,
    );
  }
  const duplicates = duplicateEntries(entries);
  const context = { origin, now: run.now, siteDomain };
  const outcomes = await checkAllEntries(reader, context, entries, duplicates, cache, shared);
  for (const outcome of outcomes) {
    f.passed += outcome.passed;
    f.list.push(...outcome.findings);
  }

  // Published keys carry no private members (each JWK of jwks.json and did.json, read once per run).
  for (const [url, what] of [
    [`${origin}/.well-known/jwks.json`, 'the JWK Set'],
    [`${origin}/.well-known/did.json`, `the DID document of did:web:${siteDomain}`],
  ] as const) {
    let doc: unknown;
    try {
      doc = await cache.json(url, what);
    } catch {
      continue; // a missing or broken did.json/jwks.json surfaces through the signature checks above
    }
    const exposed = publishedJwks(doc, '')
      .map(([where, jwk]) => [where, PRIVATE_JWK_MEMBERS.filter((m) => m in jwk)] as const)
      .filter(([, members]) => members.length > 0);
    if (exposed.length === 0) f.pass();
    else {
      // Names the members, never their values.
      const list = exposed.map(
        ([where, members]) => `${where} has ${members.map((m) => `"${m}"`).join(', ')}`,
      );
      f.fail(url, 'KEY_PRIVATE_PUBLISHED', `${url} publishes private key material: ${list.join('; ')}`);
    }
  }
  return { origin, entries: entries.length, passed: f.passed, findings: f.list };
}
