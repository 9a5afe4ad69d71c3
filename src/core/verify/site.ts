/**
 * Verifies an ARD site the way a crawler does (DESIGN.md §4, ARD draft §3.5, §6.2): manifest shape,
 * URNs, (identifier, version) uniqueness, digests of the served bytes, trustManifest signatures through
 * did:web, publisher authority, A2A card signatures through the site's own key set, the card's entry
 * extension, RAM integrity and the two RAM copies. The same code checks the build's own output (from
 * the folder it just wrote) and any site given to `npm run verify`: only the {@link SiteReader} differs.
 */
import { verifyAgentCardSignature } from '@a2a-js/sdk';
import { isDeepStrictEqual } from 'node:util';
import { ENTRY_EXTENSION_URI } from '../card.js';
import { assertNoPrivateMembers, didFromKid, domainFromDidWeb, findAssertionKey } from '../did.js';
import { digestMatches, sha256Digest } from '../digest.js';
import { ArdsiteError, type ErrorCode } from '../errors.js';
import { canonicalBytes } from '../jcs.js';
import { decodeProtectedHeader, verifyCompactDetached } from '../jws.js';
import { ArdEntry, ArdManifest, TrustManifest } from '../schema/entry.js';
import { trustManifestPayload } from '../trust-manifest.js';
import { parseAirUrn } from '../urn.js';
import { checkRamIntegrity } from './ram-integrity.js';

/** A fetched document. */
export interface FetchedDocument {
  bytes: Uint8Array;
  /** The Content-Type, when the transport has one. */
  contentType?: string;
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

function parseJson(bytes: Uint8Array, what: string): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (error) {
    throw new ArdsiteError('JSON_INVALID', `${what} is not JSON: ${(error as Error).message}`);
  }
}

/** A per-run cache of DID documents and JWK sets, by URL. */
class DocumentCache {
  private readonly docs = new Map<string, Promise<unknown>>();
  constructor(private readonly reader: SiteReader) {}
  json(url: string, what: string): Promise<unknown> {
    let p = this.docs.get(url);
    if (!p) {
      p = this.reader.read(url).then((doc) => {
        if (!doc) throw new ArdsiteError('DID_RESOLUTION_FAILED', `${what} at ${url} cannot be read from here`);
        return parseJson(doc.bytes, `${what} at ${url}`);
      });
      this.docs.set(url, p);
    }
    return p;
  }
}

/** `did:web:<domain>` → `https://<domain>/.well-known/did.json` (did:web method, no path form). */
function didDocumentUrl(did: string): string {
  return `https://${domainFromDidWeb(did)}/.well-known/did.json`;
}

/**
 * Verifies one trustManifest's signature through did:web. The DID of the `kid` must equal `identity`
 * before any DID document is fetched (DESIGN.md §4); the key must be listed under `assertionMethod`.
 * @throws ArdsiteError `JWS_INVALID`, `DID_RESOLUTION_FAILED`, `TRUST_SIGNATURE_INVALID`, `KEY_PRIVATE_PUBLISHED`.
 */
async function verifyTrustManifestSignature(tm: Record<string, unknown>, cache: DocumentCache): Promise<void> {
  const identity = tm.identity;
  const signature = tm.signature;
  if (typeof identity !== 'string' || !identity.startsWith('did:web:')) {
    throw new ArdsiteError('DID_RESOLUTION_FAILED', `identity ${JSON.stringify(identity)} is not a did:web DID`);
  }
  if (typeof signature !== 'string') throw new ArdsiteError('TRUST_MISSING', 'the trustManifest has no signature');
  const header = decodeProtectedHeader(signature);
  if (typeof header.kid !== 'string') throw new ArdsiteError('JWS_INVALID', 'the JWS protected header has no kid');
  if (didFromKid(header.kid) !== identity) {
    throw new ArdsiteError('TRUST_AUTHORITY_MISMATCH', `the kid ${header.kid} is not a key of ${identity}`);
  }
  const didDocument = await cache.json(didDocumentUrl(identity), 'the DID document');
  const jwk = findAssertionKey(didDocument, header.kid);
  await verifyCompactDetached(signature, trustManifestPayload(tm), jwk as never);
}

function entryLabel(entry: unknown, index: number): string {
  const id = (entry as { identifier?: unknown })?.identifier;
  return typeof id === 'string' ? id : `entries[${index}]`;
}

/** Compares the subject of a trustManifest with its entry (ARD draft §3.5.1 (a)). */
function subjectMismatch(subject: Record<string, unknown> | undefined, entry: Record<string, unknown>): string | undefined {
  if (!subject) return 'the trustManifest has no subject';
  for (const field of ['identifier', 'type', 'version', 'digest'] as const) {
    if (subject[field] !== entry[field]) {
      return `subject.${field} is ${JSON.stringify(subject[field])} but the entry's ${field} is ${JSON.stringify(entry[field])}`;
    }
  }
  return undefined;
}

async function verifyCard(
  subject: string,
  entry: Record<string, unknown>,
  bytes: Uint8Array,
  origin: string,
  cache: DocumentCache,
  f: Findings,
): Promise<void> {
  let card: Record<string, unknown>;
  try {
    card = parseJson(bytes, 'the agent card') as Record<string, unknown>;
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
        throw new ArdsiteError('CARD_FOREIGN_JKU', `the card signature's jku ${String(header.jku)} is not this site's ${jwksUrl}`);
      }
      if (header.alg === 'none') throw new ArdsiteError('JWS_INVALID', 'the card signature uses alg "none"');
    }
    const jwks = (await cache.json(jwksUrl, 'the JWK Set')) as { keys?: unknown };
    const keys = Array.isArray(jwks?.keys) ? (jwks.keys as Record<string, unknown>[]) : [];
    keys.forEach((k, i) => assertNoPrivateMembers(k, `jwks.json key ${i + 1}`));
    const verify = verifyAgentCardSignature(async (kid) => {
      const key = keys.find((k) => k.kid === kid);
      if (!key) throw new Error(`kid ${kid} is not in ${jwksUrl}`);
      return { kty: key.kty, crv: key.crv, x: key.x, ...(key.y ? { y: key.y } : {}) } as never;
    });
    const debug = console.debug;
    console.debug = () => {}; // the SDK logs every failed attempt at debug level
    try {
      await verify(card as never);
    } catch (error) {
      throw new ArdsiteError('CARD_SIGNATURE_INVALID', `the A2A card signature does not verify: ${(error as Error).message}`);
    } finally {
      console.debug = debug;
    }
  });
  const extensions = (card.capabilities as { extensions?: unknown } | undefined)?.extensions;
  const list = Array.isArray(extensions) ? (extensions as Record<string, unknown>[]) : [];
  await f.check(subject, 'CARD_IDENTITY_MISMATCH', () => {
    const ext = list.find((e) => e.uri === ENTRY_EXTENSION_URI);
    const params = ext?.params as { identifier?: unknown } | undefined;
    if (params?.identifier !== entry.identifier) {
      throw new ArdsiteError('CARD_IDENTITY_MISMATCH', `the card's entry extension names ${JSON.stringify(params?.identifier)}, not ${String(entry.identifier)}`);
    }
  });
  const top = card.resourceAccessManifest;
  const ramExtension = list.find((e) => {
    const p = e.params as Record<string, unknown> | undefined;
    return p !== undefined && Array.isArray(p.resourceAccesses);
  });
  const extensionRam = ramExtension?.params as Record<string, unknown> | undefined;
  if (top !== undefined || extensionRam !== undefined) {
    const { skillAccesses: _s, ...extensionCopy } = extensionRam ?? {};
    if (top !== undefined && extensionRam !== undefined) {
      await f.check(subject, 'CARD_RAM_COPIES_DIFFER', () => {
        if (!isDeepStrictEqual(top, extensionCopy)) {
          throw new ArdsiteError('CARD_RAM_COPIES_DIFFER', 'resourceAccessManifest differs from the RAM extension params');
        }
      });
    }
    for (const problem of checkRamIntegrity(top ?? extensionCopy)) f.fail(subject, problem.code, problem.message);
    if (checkRamIntegrity(top ?? extensionCopy).length === 0) f.pass();
  }
}

/**
 * Verifies the site served at `options.origin` through `reader`. Never throws for a broken site: every
 * problem is a finding. Throws `ArdsiteError('FILE_MISSING')` only when the manifest itself cannot be read
 * (exit 2 of `npm run verify`).
 */
export async function verifySite(reader: SiteReader, options: VerifySiteOptions): Promise<VerifyReport> {
  const origin = options.origin.replace(/\/$/, '');
  const now = options.now ?? new Date();
  const siteDomain = new URL(origin).hostname;
  const f = new Findings();
  const cache = new DocumentCache(reader);
  const manifestUrl = `${origin}/.well-known/ard.json`;
  let manifestDoc: FetchedDocument | undefined;
  try {
    manifestDoc = await reader.read(manifestUrl);
  } catch (error) {
    throw new ArdsiteError('FILE_MISSING', `cannot read ${manifestUrl}: ${(error as Error).message}`);
  }
  if (!manifestDoc) throw new ArdsiteError('FILE_MISSING', `cannot read ${manifestUrl}`);
  let manifest: unknown;
  try {
    manifest = parseJson(manifestDoc.bytes, 'the manifest');
  } catch (error) {
    f.fail(manifestUrl, 'ARD_MANIFEST_INVALID', (error as Error).message);
    return { origin, entries: 0, passed: f.passed, findings: f.list };
  }
  const shape = ArdManifest.safeParse(manifest);
  if (!shape.success) {
    f.fail(manifestUrl, 'ARD_MANIFEST_INVALID', 'the manifest is not an object with an "entries" list (ARD draft §3.6)');
    return { origin, entries: 0, passed: f.passed, findings: f.list };
  }
  f.pass();
  const entries = shape.data.entries.slice(0, options.maxEntries ?? 100_000);
  if (entries.length < shape.data.entries.length) {
    f.warn(manifestUrl, 'ARD_MANIFEST_INVALID', `only the first ${entries.length} of ${shape.data.entries.length} entries were checked`);
  }
  const seen = new Set<string>();

  for (const [index, raw] of entries.entries()) {
    const subject = entryLabel(raw, index);
    const parsed = ArdEntry.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      f.fail(subject, 'ARD_MANIFEST_INVALID', `the entry does not have the ARD shape: ${issue?.path.join('.') || '(entry)'}: ${issue?.message ?? ''}`);
      continue;
    }
    const entry = parsed.data as Record<string, unknown> & typeof parsed.data;
    const urn = parseAirUrn(entry.identifier);
    if (typeof urn === 'string') {
      f.fail(subject, 'ARD_URN_INVALID', urn);
      continue;
    }
    f.pass();
    const key = `${entry.identifier}\u0000${entry.version ?? ''}`;
    if (seen.has(key)) f.fail(subject, 'ARD_DUPLICATE_ENTRY', `(identifier, version) ${entry.identifier} ${entry.version ?? ''} appears twice`);
    seen.add(key);
    if ((entry.url === undefined) === (entry.data === undefined)) {
      f.fail(subject, 'ARD_URL_XOR_DATA', 'an entry needs exactly one of url and data (ARD draft §3.3)');
      continue;
    }
    const queries = entry.representativeQueries?.length ?? 0;
    if (queries < 2 || queries > 5) f.warn(subject, 'ARD_QUERIES_COUNT', `${queries} representative queries; ARD asks for 2 to 5`);

    // The artifact and its digest.
    let artifact: Uint8Array | undefined;
    if (entry.data !== undefined) {
      artifact = canonicalBytes(entry.data);
    } else {
      try {
        artifact = (await reader.read(entry.url!))?.bytes;
      } catch (error) {
        f.fail(subject, 'FILE_UNREADABLE', `cannot read ${entry.url}: ${(error as Error).message}`);
      }
    }
    if (artifact && entry.digest !== undefined) {
      await f.check(subject, 'ARD_DIGEST_MISMATCH', () => {
        if (!digestMatches(entry.digest!, artifact!)) {
          throw new ArdsiteError('ARD_DIGEST_MISMATCH', `digest ${entry.digest} does not match the ${artifact!.length} bytes served at ${entry.url ?? '(inline data)'} (${sha256Digest(artifact!)})`);
        }
      });
    }

    // Publisher authority: the trustManifest of the URN's domain.
    const tm = entry.trustManifest as Record<string, unknown> | undefined;
    const ownDomain = urn.domain === siteDomain;
    if (!tm) {
      if (ownDomain) f.fail(subject, 'TRUST_MISSING', 'the entry names this site\'s domain but carries no signed trustManifest');
      else f.warn(subject, 'TRUST_MISSING', 'no trustManifest: an unverified discovery hint (ARD draft §6.2)');
    } else {
      const authority = typeof tm.identity === 'string' && tm.identity.startsWith('did:web:') ? tm.identity.slice('did:web:'.length) : undefined;
      if (authority !== urn.domain) {
        f.fail(subject, 'TRUST_AUTHORITY_MISMATCH', `the trustManifest identity ${String(tm.identity)} is not did:web:${urn.domain}, the publisher the URN names`);
      } else {
        await f.check(subject, 'TRUST_SIGNATURE_INVALID', () => verifyTrustManifestSignature(tm, cache));
      }
      const mismatch = subjectMismatch(tm.subject as Record<string, unknown> | undefined, entry);
      if (mismatch) f.fail(subject, 'TRUST_SUBJECT_MISMATCH', mismatch);
      else f.pass();
      if (typeof tm.expiresAt === 'string' && Date.parse(tm.expiresAt) <= now.getTime()) {
        f.fail(subject, 'TRUST_EXPIRED', `the trustManifest expired at ${tm.expiresAt}`);
      }
    }
    // Third-party manifests: verified against their own identity, never publisher authority.
    for (const [i, other] of (entry.trustManifests ?? []).entries()) {
      const third = TrustManifest.safeParse(other);
      if (!third.success) {
        f.fail(subject, 'ARD_MANIFEST_INVALID', `trustManifests[${i}] does not have the trust-manifest shape`);
        continue;
      }
      await f.check(`${subject} trustManifests[${i}]`, 'TRUST_SIGNATURE_INVALID', () => verifyTrustManifestSignature(third.data, cache));
    }

    if (entry.type === A2A_CARD_TYPE && artifact && entry.url && ownDomain) {
      await verifyCard(subject, entry, artifact, origin, cache, f);
    }
  }

  // Published keys carry no private members.
  for (const url of [`${origin}/.well-known/jwks.json`, `${origin}/.well-known/did.json`]) {
    try {
      const doc = await reader.read(url);
      if (!doc) continue;
      const text = new TextDecoder().decode(doc.bytes);
      if (/"(d|p|q|dp|dq|qi|k)"\s*:/.test(text)) f.fail(url, 'KEY_PRIVATE_PUBLISHED', `${url} contains private key members`);
      else f.pass();
    } catch {
      // A missing did.json/jwks.json surfaces through the signature checks above.
    }
  }
  return { origin, entries: entries.length, passed: f.passed, findings: f.list };
}
