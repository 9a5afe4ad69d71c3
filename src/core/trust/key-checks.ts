/**
 * Reading and checking signing keys (DESIGN.md §4): a private key given as a JWK (RFC 7517; EC per
 * RFC 7518 §6.2, OKP per RFC 8037 §2) or a PEM (PKCS#8, SEC1), with `d` checked to be the private half
 * of `x`/`y`, and the JWK member checks (key type, curve, `alg`, `use`, `key_ops`, strict base64url) that
 * rotated-out public keys (./retired-keys.ts) go through too. Accepted keys: ES256 (ECDSA P-256,
 * RFC 7518 §3.4) and EdDSA over Ed25519 (RFC 8037).
 *
 * Private key material never leaves this module in a message, a log line, `JSON.stringify` or
 * `util.inspect`: errors name the key's *source* (an env var name or a file path) and member names only.
 */
import { createECDH, createPrivateKey, type KeyObject } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { p256 } from '@noble/curves/nist.js';
import { ArdsiteError } from '../util/errors.js';
import type { PrivateSigningJwk, PublicKeyMembers, SigningAlgorithm } from './jwk.js';

/** A private key as parsed by {@link parsePrivateKey}. */
export interface ParsedPrivateKey {
  alg: SigningAlgorithm;
  /** Only `kty`, `crv`, `x`, (`y`), `d`; the other JWK members of the input (`kid`, `alg`) are dropped. */
  privateJwk: PrivateSigningJwk;
}

const ACCEPTED = 'ardsite signs with ES256 (an EC P-256 key) or Ed25519 (an OKP Ed25519 key)';

/** True for a JSON object (not null, not a list). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** How messages name a private key: only by where it came from. */
function labelOf(source: string): string {
  return `The signing key from ${source}`;
}

/** What a private signing key may be, appended to every "malformed" message about one. */
const ACCEPTED_FORMS =
  'Give a private JWK or an unencrypted PKCS#8 PEM of an ES256 (EC P-256) or Ed25519 key';

/** A malformed *private* key: says what is wrong and which keys are accepted. */
function malformed(label: string, what: string): never {
  throw new ArdsiteError('KEY_INVALID', `${label} is malformed: ${what}. ${ACCEPTED_FORMS}.`);
}

function wrongType(label: string, what: string): never {
  throw new ArdsiteError('KEY_WRONG_TYPE', `${label} ${what}; ${ACCEPTED}.`);
}

/** Strict base64url (RFC 7515 §2, no padding) of exactly `length` bytes; messages name the member only. */
function decodeMember(
  jwk: Record<string, unknown>,
  member: string,
  length: number,
  fault: (w: string) => never,
): Uint8Array {
  const v = jwk[member];
  if (typeof v !== 'string' || !/^[A-Za-z0-9_-]+$/.test(v)) fault(`"${member}" is missing or not base64url`);
  const bytes = Buffer.from(v, 'base64url');
  if (bytes.length !== length || bytes.toString('base64url') !== v) {
    fault(`"${member}" must encode exactly ${length} bytes`);
  }
  return new Uint8Array(bytes);
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

function b64u(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64url');
}

/**
 * The members a signing JWK may have: those RFC 7517 §4 registers for every key (`kty`, `use`,
 * `key_ops`, `alg`, `kid`, `x5u`, `x5c`, `x5t`, `x5t#S256`), the key's own (`crv`, `x`, `y`, `d`:
 * RFC 7518 §6.2 for EC, RFC 8037 §2 for OKP) and `ext` (W3C Web Cryptography API, JsonWebKey dictionary,
 * which browsers export).
 */
const JWK_MEMBERS = new Set([
  'kty',
  'use',
  'key_ops',
  'alg',
  'kid',
  'x5u',
  'x5c',
  'x5t',
  'x5t#S256',
  'crv',
  'x',
  'y',
  'd',
  'ext',
]);

/**
 * Refuses a JWK with a member that is not a JWK member ({@link JWK_MEMBERS}), so that one document cannot
 * be both a key and something else (an OpenAPI document with `openapi` and `paths` beside `kty` and `d`):
 * a file written as another kind of document is never read as the site's key. Messages name the first
 * such member only, never a value.
 */
export function assertOnlyJwkMembers(jwk: Record<string, unknown>, fault: (w: string) => never): void {
  const other = Object.keys(jwk).find((member) => !JWK_MEMBERS.has(member));
  if (other !== undefined)
    fault(
      `it has the member ${JSON.stringify(other.slice(0, 40))}, which is not a JSON Web Key member (RFC 7517 §4, RFC 7518 §6.2, RFC 8037 §2); a key file holds the key only`,
    );
}

/** Checks kty/crv and the optional `alg`, `use`, `key_ops` of a JWK; returns the signing algorithm. */
export function signingAlgOf(
  jwk: Record<string, unknown>,
  label: string,
  fault: (w: string) => never,
): SigningAlgorithm {
  const { kty, crv } = jwk;
  if (typeof kty !== 'string') fault('"kty" is missing');
  let alg: SigningAlgorithm;
  if (kty === 'EC') {
    if (crv !== 'P-256')
      wrongType(label, `is an EC key on curve ${typeof crv === 'string' ? crv : '(none)'}`);
    alg = 'ES256';
  } else if (kty === 'OKP') {
    if (crv !== 'Ed25519')
      wrongType(label, `is an OKP key on curve ${typeof crv === 'string' ? crv : '(none)'}`);
    alg = 'EdDSA';
  } else if (kty === 'oct') {
    wrongType(label, 'is a symmetric ("oct") key');
  } else {
    wrongType(label, `has key type "${kty}"`);
  }
  const allowedAlgs = alg === 'ES256' ? ['ES256'] : ['EdDSA', 'Ed25519'];
  if (jwk.alg !== undefined && !allowedAlgs.includes(jwk.alg as string)) {
    wrongType(label, `declares "alg" ${JSON.stringify(jwk.alg)}`);
  }
  if (jwk.use !== undefined && jwk.use !== 'sig')
    wrongType(label, `declares "use" ${JSON.stringify(jwk.use)}, not "sig"`);
  if (jwk.key_ops !== undefined) {
    const ops = jwk.key_ops;
    if (!Array.isArray(ops) || !ops.every((o) => typeof o === 'string'))
      fault('"key_ops" is not a list of strings');
    if (!ops.includes('sign')) wrongType(label, 'declares "key_ops" without "sign"');
  }
  return alg;
}

/** Decodes and checks the public members; returns them and the raw public key bytes. */
export function publicMembers(
  jwk: Record<string, unknown>,
  alg: SigningAlgorithm,
  fault: (w: string) => never,
): { members: PublicKeyMembers; raw: Uint8Array } {
  if (alg === 'ES256') {
    const x = decodeMember(jwk, 'x', 32, fault);
    const y = decodeMember(jwk, 'y', 32, fault);
    const raw = new Uint8Array(65);
    raw[0] = 4;
    raw.set(x, 1);
    raw.set(y, 33);
    return { members: { kty: 'EC', crv: 'P-256', x: b64u(x), y: b64u(y) }, raw };
  }
  const x = decodeMember(jwk, 'x', 32, fault);
  return { members: { kty: 'OKP', crv: 'Ed25519', x: b64u(x) }, raw: x };
}

/**
 * The uncompressed P-256 public key (SEC 1 v2 §2.3.3: 04 ‖ x ‖ y) of the private scalar `d` (already
 * checked to be in [1, n−1]), d·G computed by Node's OpenSSL: the bytes of @noble/curves'
 * `p256.getPublicKey(d, false)` without building its table of base-point multiples (tens of
 * milliseconds, in every thread that makes the key).
 */
function p256PublicKey(d: Uint8Array): Uint8Array {
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(d);
  return new Uint8Array(ecdh.getPublicKey());
}

/**
 * Checks a private JWK (RFC 7517; EC per RFC 7518 §6.2, OKP per RFC 8037 §2) and that `d` really is the
 * private half of `x`/`y` (the public key is derived from `d` and compared: P-256 with Node's OpenSSL,
 * Ed25519 with @noble/curves).
 * A member that is not a JWK member is refused ({@link assertOnlyJwkMembers}).
 */
export function checkPrivateJwk(value: unknown, source: string): ParsedPrivateKey {
  const label = labelOf(source);
  const fault: (w: string) => never = (w) => malformed(label, w);
  if (!isRecord(value)) fault('a JSON object (a private JWK) was expected');
  if ('keys' in value) fault('this is a JWK Set; give one private JWK');
  const alg = signingAlgOf(value, label, fault);
  assertOnlyJwkMembers(value, fault);
  if (value.d === undefined)
    wrongType(label, 'is a public key only (no "d"); a private key is needed to sign');
  const d = decodeMember(value, 'd', 32, fault);
  const { members, raw } = publicMembers(value, alg, fault);
  if (alg === 'ES256') {
    if (!p256.utils.isValidSecretKey(d)) fault('"d" is not a valid P-256 private scalar');
    if (!bytesEqual(p256PublicKey(d), raw)) fault('"d" does not belong to the public key "x"/"y"');
  } else if (!bytesEqual(ed25519.getPublicKey(d), raw)) {
    fault('"d" does not belong to the public key "x"');
  }
  return { alg, privateJwk: { ...members, d: b64u(d) } };
}

function fromPem(text: string, source: string): ParsedPrivateKey {
  const label = labelOf(source);
  const pemLabel = /-----BEGIN ([A-Z0-9 ]+)-----/.exec(text)?.[1];
  if (pemLabel === 'PUBLIC KEY' || pemLabel === 'RSA PUBLIC KEY' || pemLabel === 'CERTIFICATE') {
    wrongType(label, `is a PEM "${pemLabel}", which holds no private key`);
  }
  if (pemLabel === 'RSA PRIVATE KEY' || pemLabel === 'DSA PRIVATE KEY')
    wrongType(label, `is a PEM "${pemLabel}"`);
  if (pemLabel === 'ENCRYPTED PRIVATE KEY') {
    malformed(label, 'the PEM is encrypted; give an unencrypted PKCS#8 key (openssl pkcs8 -topk8 -nocrypt)');
  }
  if (pemLabel !== 'PRIVATE KEY' && pemLabel !== 'EC PRIVATE KEY')
    malformed(label, 'no PKCS#8 "PRIVATE KEY" PEM block found');
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: text, format: 'pem' });
  } catch {
    // OpenSSL's reason is not passed on: only the source is named, never the content.
    malformed(label, 'the PEM private key cannot be decoded');
  }
  const type = key.asymmetricKeyType;
  if (type === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    if (curve !== 'prime256v1') wrongType(label, `is an EC key on curve ${curve ?? '(unknown)'}`);
  } else if (type !== 'ed25519') {
    wrongType(label, `has key type "${type ?? 'unknown'}"`);
  }
  return checkPrivateJwk(key.export({ format: 'jwk' }), source);
}

/**
 * Parses a private signing key given as text.
 *
 * Accepted forms:
 * - a private JWK (RFC 7517) as JSON: `{"kty":"EC","crv":"P-256","x","y","d"}` or
 *   `{"kty":"OKP","crv":"Ed25519","x","d"}`; a member that is not a JWK member (`comment`, `openapi`)
 *   is refused; `kid` and the other registered members are read and recomputed; optional
 *   `alg` must fit (`ES256`; `EdDSA`/`Ed25519`), `use` must be `sig`;
 * - a PEM private key: PKCS#8 (RFC 5208, `-----BEGIN PRIVATE KEY-----`) or SEC1
 *   (`-----BEGIN EC PRIVATE KEY-----`), unencrypted, read with node:crypto.
 * In both cases `d` is checked to be the private half of `x`/`y`.
 *
 * @param text the key text (surrounding whitespace and a BOM are ignored).
 * @param source what to call the key in messages: `"ARDSITE_SIGNING_KEY"` or a file path. The key
 *   text itself never appears in a message.
 * @returns `{ alg, privateJwk }` with only the members ardsite uses.
 * @throws ArdsiteError `KEY_INVALID` (not JSON/PEM, bad base64url or lengths, `d` not matching the
 *   public key, encrypted PEM), `KEY_WRONG_TYPE` (RSA, P-384, secp256k1, `oct`, Ed448, a public-only
 *   key, an `alg`/`use` that does not fit).
 */
export function parsePrivateKey(text: string, source: string): ParsedPrivateKey {
  const label = labelOf(source);
  if (typeof text !== 'string') malformed(label, 'the key is not text');
  const t = text.replace(/^\uFEFF/, '').trim();
  if (t === '') malformed(label, 'it is empty');
  if (t.startsWith('{')) {
    let value: unknown;
    try {
      value = JSON.parse(t);
    } catch {
      // JSON.parse messages quote the input, so they are not passed on.
      malformed(label, 'it is not valid JSON (a private JWK was expected)');
    }
    return checkPrivateJwk(value, source);
  }
  if (t.includes('-----BEGIN ')) return fromPem(t, source);
  return malformed(label, 'it is neither a JSON Web Key nor a PEM private key');
}
