/**
 * did:web identifiers and documents (W3C DID Core 1.0, did:web method spec; DESIGN.md §4).
 *
 * A site's DID is `did:web:<domain>`, resolved from `https://<domain>/.well-known/did.json`. Every
 * signing key is named by the DID URL `did:web:<domain>#<RFC 7638 thumbprint>`, used both as the
 * verification method `id` in did.json and as the `kid` in jwks.json and in JWS headers.
 *
 * Only the bare-domain form is supported: no ports (`%3A`) and no path segments.
 */
import { ArdsiteError } from '../util/errors.js';
import type { PublishedJwk, SigningAlgorithm } from './jwk.js';

/** The `@context` of the DID documents ardsite writes (DID Core v1 and the JsonWebKey2020 suite). */
export const DID_CONTEXT = [
  'https://www.w3.org/ns/did/v1',
  'https://w3id.org/security/suites/jws-2020/v1',
] as const;

/** Members that only a private or symmetric JWK carries (RFC 7517/7518: EC/OKP `d`, RSA, `oct`). */
export const PRIVATE_JWK_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'] as const;

/**
 * A JWK read from somewhere (a DID document, a JWK Set): at least `kty`, other members as found.
 * Guaranteed by the functions here to hold none of {@link PRIVATE_JWK_MEMBERS}.
 */
export interface PublicJwk {
  kty: string;
  crv?: string;
  x?: string;
  y?: string;
  kid?: string;
  alg?: string;
  use?: string;
  [member: string]: unknown;
}

/** One verification method of a DID document as ardsite writes it (DID Core §5.2, JsonWebKey2020). */
export interface VerificationMethod {
  /** The full DID URL `did:web:<domain>#<thumbprint>`. */
  id: string;
  type: 'JsonWebKey2020';
  /** The DID, `did:web:<domain>`. */
  controller: string;
  /** Only the key members: `kty`, `crv`, `x` and (EC) `y`. */
  publicKeyJwk: { kty: string; crv: string; x: string; y?: string };
}

/** A DID document as ardsite writes it to `/.well-known/did.json` (DID Core §5). */
export interface DidDocument {
  '@context': string[];
  id: string;
  verificationMethod: VerificationMethod[];
  /** The `id`s of the verification methods that may sign assertions (DID Core §5.3.2). */
  assertionMethod: string[];
}

/** A JWK Set (RFC 7517 §5) as written to `/.well-known/jwks.json`. */
export interface JwkSet {
  keys: PublishedJwk[];
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** Domains found to be host names, so a verification checks each of its few domains once, not per entry. */
const hostNames = new Set<string>();
const MAX_HOST_NAMES = 1_024;

function isDomain(domain: string): boolean {
  if (hostNames.has(domain)) return true;
  if (domain.length === 0 || domain.length > 253) return false;
  const valid = domain.split('.').every((label) => LABEL.test(label));
  if (valid && hostNames.size < MAX_HOST_NAMES) hostNames.add(domain);
  return valid;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function fail(message: string): never {
  throw new ArdsiteError('DID_RESOLUTION_FAILED', message);
}

/**
 * The did:web DID of a domain (did:web method spec §3.1), lowercased.
 *
 * @param domain a DNS host name such as `agents.example.com` (letters, digits, `-`, dots; no port, no
 *   path, no trailing dot). Case is folded.
 * @returns `did:web:<domain>`.
 * @throws ArdsiteError `SCHEMA_INVALID_VALUE` when `domain` is not a host name.
 */
export function didWebFromDomain(domain: string): string {
  const d = typeof domain === 'string' ? domain.toLowerCase() : '';
  if (!isDomain(d)) {
    throw new ArdsiteError(
      'SCHEMA_INVALID_VALUE',
      `"${String(domain)}" is not a domain name (e.g. agents.example.com).`,
    );
  }
  return `did:web:${d}`;
}

/**
 * The domain of a bare did:web DID (did:web method spec §3.2, first step), lowercased.
 *
 * @param did e.g. `did:web:agents.example.com`. A DID URL with `#fragment`, `?query` or `/path`, the
 *   path form `did:web:host:seg` and the port form `did:web:host%3A8443` are refused.
 * @returns the domain, e.g. `agents.example.com`.
 * @throws ArdsiteError `DID_RESOLUTION_FAILED` for anything but a bare-domain did:web DID.
 */
export function domainFromDidWeb(did: string): string {
  if (typeof did !== 'string' || !did.startsWith('did:web:')) {
    fail(`"${String(did)}" is not a did:web DID.`);
  }
  const rest = did.slice('did:web:'.length).toLowerCase();
  if (rest.includes(':')) fail(`"${did}" is a path-form did:web DID; only did:web:<domain> is supported.`);
  if (rest.includes('%'))
    fail(`"${did}" has an encoded port or character; only did:web:<domain> is supported.`);
  if (!isDomain(rest)) fail(`"${did}" does not name a domain.`);
  return rest;
}

/**
 * The DID part of a DID URL key id (DID Core §3.2): everything before the first `#`.
 *
 * @param kid e.g. `did:web:agents.example.com#NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs`.
 * @returns e.g. `did:web:agents.example.com`.
 * @throws ArdsiteError `DID_RESOLUTION_FAILED` when `kid` does not start with `did:` or has no
 *   non-empty `#fragment`.
 */
export function didFromKid(kid: string): string {
  if (typeof kid !== 'string') fail('A kid must be a string DID URL.');
  const hash = kid.indexOf('#');
  if (!kid.startsWith('did:') || hash < 0 || hash === kid.length - 1) {
    fail(`kid "${kid}" is not a DID URL of the form did:…#fragment.`);
  }
  return kid.slice(0, hash);
}

/**
 * Guards anything about to be published (did.json, jwks.json) or trusted from a fetched document: a JWK
 * (RFC 7517) must not hold any of {@link PRIVATE_JWK_MEMBERS} (RFC 7518 §6.2.2, §6.3.2, §6.4; RFC 8037
 * §2).
 *
 * @param jwk the JWK object to check.
 * @param where how the message names the key, e.g. `The retired key 2 in publisher.yaml`.
 * @throws ArdsiteError `KEY_PRIVATE_PUBLISHED` naming the members found, never their values.
 */
export function assertNoPrivateMembers(jwk: Record<string, unknown>, where: string): void {
  const found = PRIVATE_JWK_MEMBERS.filter((m) => m in jwk);
  if (found.length > 0) {
    // Name the members, never their values.
    throw new ArdsiteError(
      'KEY_PRIVATE_PUBLISHED',
      `${where} contains private key member(s) ${found.map((m) => `"${m}"`).join(', ')}; only public keys may be published.`,
    );
  }
}

function algFor(jwk: PublishedJwk | PublicJwk): SigningAlgorithm {
  if (jwk.kty === 'EC' && jwk.crv === 'P-256') return 'ES256';
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519') return 'EdDSA';
  throw new ArdsiteError(
    'KEY_WRONG_TYPE',
    `A ${jwk.kty}/${String(jwk.crv)} key cannot be published; ES256 (P-256) or Ed25519 keys are accepted.`,
  );
}

function keyMembers(jwk: PublishedJwk): VerificationMethod['publicKeyJwk'] {
  return jwk.kty === 'EC'
    ? { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y }
    : { kty: jwk.kty, crv: jwk.crv, x: jwk.x };
}

function checkPublishable(jwks: readonly PublishedJwk[], did: string): PublishedJwk[] {
  const seen = new Set<string>();
  const out: PublishedJwk[] = [];
  for (const [i, jwk] of jwks.entries()) {
    assertNoPrivateMembers(jwk as unknown as Record<string, unknown>, `Public key ${i + 1}`);
    algFor(jwk);
    if (typeof jwk.kid !== 'string' || !jwk.kid.startsWith(`${did}#`) || jwk.kid.length === did.length + 1) {
      throw new ArdsiteError(
        'KEY_INVALID',
        `Public key ${i + 1} has kid "${String(jwk.kid)}", which is not a key id under ${did}.`,
      );
    }
    if (seen.has(jwk.kid)) continue;
    seen.add(jwk.kid);
    out.push(jwk);
  }
  return out;
}

/**
 * The DID document of `did:web:<domain>` (DID Core §5, did:web §3.1), listing each key as a
 * `JsonWebKey2020` verification method and under `assertionMethod`, in the given order (the active key
 * first), duplicates (same `kid`) dropped.
 *
 * Decision: `publicKeyJwk` keeps only `kty`, `crv`, `x` and (EC) `y`. `kid` would repeat the method
 * `id`, and `alg`/`use` are JWK Set concerns (they stay in jwks.json, see {@link buildJwks}).
 *
 * @param domain the site's domain.
 * @param publicJwks public keys with `kid` = `did:web:<domain>#<thumbprint>` (as made by keys.ts).
 * @returns the document object, ready for JSON serialisation.
 * @throws ArdsiteError `SCHEMA_INVALID_VALUE` (bad domain), `KEY_PRIVATE_PUBLISHED` (a key has a
 *   private member), `KEY_WRONG_TYPE` (not P-256 / Ed25519), `KEY_INVALID` (kid not under this DID).
 */
export function buildDidDocument(domain: string, publicJwks: readonly PublishedJwk[]): DidDocument {
  const did = didWebFromDomain(domain);
  const keys = checkPublishable(publicJwks, did);
  return {
    '@context': [...DID_CONTEXT],
    id: did,
    verificationMethod: keys.map((jwk) => ({
      id: jwk.kid,
      type: 'JsonWebKey2020' as const,
      controller: did,
      publicKeyJwk: keyMembers(jwk),
    })),
    assertionMethod: keys.map((jwk) => jwk.kid),
  };
}

/**
 * A JWK Set (RFC 7517 §5) of the public keys: each entry has the key members plus `kid` (the full DID
 * URL), `alg` (`ES256` or `EdDSA`, RFC 7518 §3.4 / RFC 8037 §3.1) and `use: "sig"`. Order is kept,
 * duplicates (same `kid`) dropped. The kid's DID is taken from the first key.
 *
 * @param publicJwks public keys with a DID URL `kid`, all under one DID.
 * @returns `{ keys: [...] }`.
 * @throws ArdsiteError `KEY_PRIVATE_PUBLISHED`, `KEY_WRONG_TYPE`, `KEY_INVALID` (kid not a DID URL, or
 *   keys under different DIDs), `DID_RESOLUTION_FAILED` (kid not of the form did:…#fragment).
 */
export function buildJwks(publicJwks: readonly PublishedJwk[]): JwkSet {
  const first = publicJwks[0];
  if (first === undefined) return { keys: [] };
  const did = didFromKid(first.kid);
  const keys = checkPublishable(publicJwks, did);
  return {
    keys: keys.map(
      (jwk) => ({ ...keyMembers(jwk), kid: jwk.kid, alg: algFor(jwk), use: 'sig' }) as PublishedJwk,
    ),
  };
}

function resolveRef(ref: string, docId: string): string {
  return ref.startsWith('#') ? `${docId}${ref}` : ref;
}

/**
 * Finds the public key that `kid` names in a DID document and checks that the DID subject authorises it
 * to sign assertions (DID Core §5.3.2 `assertionMethod`), the check a verifier makes before trusting a
 * trustManifest signature.
 *
 * The method is found by `id === kid`, where relative ids (`#frag`) are resolved against the document
 * `id`, either referenced from `assertionMethod` (a string) and defined in `verificationMethod`, or
 * embedded as an object in `assertionMethod`. A key that is only in `verificationMethod` is refused.
 *
 * @param didDocument the parsed did.json (untrusted input).
 * @param kid the JWS `kid`, a DID URL `did:…#fragment` whose DID equals the document `id`.
 * @returns a copy of the method's `publicKeyJwk`.
 * @throws ArdsiteError `DID_RESOLUTION_FAILED` (document malformed, kid under another DID, method
 *   absent, ambiguous, not under assertionMethod, or without `publicKeyJwk`), `KEY_PRIVATE_PUBLISHED`
 *   (the JWK holds `d`, `p`, `q`, `dp`, `dq`, `qi`, `oth` or `k`).
 */
export function findAssertionKey(didDocument: unknown, kid: string): PublicJwk {
  if (!isRecord(didDocument)) fail('The DID document is not a JSON object.');
  const docId = didDocument.id;
  if (typeof docId !== 'string' || !docId.startsWith('did:')) fail('The DID document has no DID "id".');
  const kidDid = didFromKid(kid);
  if (kidDid !== docId) fail(`kid "${kid}" belongs to ${kidDid}, but the DID document is ${docId}.`);

  const vmList = didDocument.verificationMethod ?? [];
  const amList = didDocument.assertionMethod ?? [];
  if (!Array.isArray(vmList)) fail('The DID document\'s "verificationMethod" is not a list.');
  if (!Array.isArray(amList)) fail('The DID document\'s "assertionMethod" is not a list.');

  const matches = (vm: unknown): vm is Record<string, unknown> =>
    isRecord(vm) && typeof vm.id === 'string' && resolveRef(vm.id, docId) === kid;

  const embedded = amList.filter(matches);
  const referenced = amList.some((ref) => typeof ref === 'string' && resolveRef(ref, docId) === kid);
  const defined = vmList.filter(matches);

  let method: Record<string, unknown>;
  if (embedded.length > 0) {
    if (embedded.length > 1 || defined.length > 0) fail(`The DID document defines "${kid}" more than once.`);
    method = embedded[0] as Record<string, unknown>;
  } else if (referenced) {
    if (defined.length === 0)
      fail(`"${kid}" is listed under assertionMethod but not defined in verificationMethod.`);
    if (defined.length > 1) fail(`The DID document defines "${kid}" more than once.`);
    method = defined[0] as Record<string, unknown>;
  } else if (defined.length > 0) {
    fail(`"${kid}" is in the DID document but not under assertionMethod, so it may not sign.`);
  } else {
    fail(`The DID document does not list the key "${kid}".`);
  }

  const jwk = method.publicKeyJwk;
  if (!isRecord(jwk) || typeof jwk.kty !== 'string')
    fail(`The verification method "${kid}" has no publicKeyJwk.`);
  assertNoPrivateMembers(jwk, `The DID document key "${kid}"`);
  return { ...jwk } as PublicJwk;
}
