/**
 * Signing keys (DESIGN.md §4): reading a private key (JWK or PEM), checking it, signing with it
 * deterministically, naming it (`kid` = `did:web:<domain>#<RFC 7638 thumbprint>`), finding or creating
 * the site's key, and listing rotated-out public keys that must stay published.
 *
 * Accepted keys: ES256 (ECDSA P-256 with SHA-256, RFC 7518 §3.4) and EdDSA over Ed25519 (RFC 8037).
 * ES256 is signed with @noble/curves using RFC 6979 deterministic nonces, because Node's OpenSSL (which
 * jose uses) signs ECDSA with a random nonce and reproducible builds need identical bytes.
 *
 * Private key material never leaves this module in a message, a log line, `JSON.stringify` or
 * `util.inspect`: errors name the key's *source* (an env var name or a file path) and member names only.
 */
import { createHash, createHmac, createPrivateKey, type KeyObject } from 'node:crypto';
import { inspect } from 'node:util';
import { ed25519 } from '@noble/curves/ed25519.js';
import { ecdsa } from '@noble/curves/abstract/weierstrass.js';
import { p256 } from '@noble/curves/nist.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { ed25519Signer } from './ed25519-signer.js';
import { exportJWK, generateKeyPair } from 'jose';
import { assertNoPrivateMembers, didWebFromDomain } from './did.js';
import { ArdsiteError } from '../errors.js';
import {
  publicJwkThumbprint,
  type PrivateSigningJwk,
  type PublicKeyMembers,
  type PublishedJwk,
  type SigningAlgorithm,
} from './jwk.js';

/**
 * P-256 ECDSA as `p256` of @noble/curves, with Node's HMAC-SHA-256 in the RFC 6979 DRBG (noble's
 * `hmac` option). Signatures are byte-identical to `p256.sign` (a unit test pins it).
 */
export const es256 = ecdsa(p256.Point, sha256, {
  hmac: (key: Uint8Array, message: Uint8Array) =>
    new Uint8Array(createHmac('sha256', key).update(message).digest()),
});

/**
 * Readies this thread to sign many ES256 signatures: builds @noble/curves' table of multiples of the
 * P-256 base point with an 8-bit window instead of the default 6 (`Point.BASE.precompute(8, false)`),
 * which makes each signature about 20% faster (0.37 ms against 0.47 ms here) for about 65 ms once. Worth
 * it for a thread that signs a thousand signatures (src/core/trust/signer-worker.ts), not for a handful.
 * The signatures are the same bytes: the table only speeds up k·G.
 */
export function precomputeSigningTables(): void {
  p256.Point.BASE.precompute(8, false);
}

/**
 * What signs a JWS: a {@link SigningKey} (in this thread), or a pool of worker threads holding one
 * (src/core/trust/signer-pool.ts). `sign` takes the JWS signing input (RFC 7515 §5.1 step 5) and gives the raw
 * signature bytes, now or later; the same input always gives the same bytes.
 */
export interface JwsSigner {
  readonly alg: SigningAlgorithm;
  /** `did:web:<domain>#<thumbprint>`. */
  readonly kid: string;
  sign(signingInput: Uint8Array): Uint8Array | Promise<Uint8Array>;
}

/**
 * A ready-to-use signing key. The private key lives in a closure: it is not a property, so neither
 * `JSON.stringify(key)` (see `toJSON`) nor `util.inspect(key)` nor `Object.keys(key)` can reveal it.
 */
export interface SigningKey extends JwsSigner {
  readonly alg: SigningAlgorithm;
  /** `did:web:<domain>#<RFC 7638 SHA-256 thumbprint of the public key>`. */
  readonly kid: string;
  /** The public key with `kid`, `alg`, `use: "sig"`; never `d`. */
  readonly publicJwk: PublishedJwk;
  /**
   * Signs the JWS signing input (RFC 7515 §5.1 step 5: `ASCII(BASE64URL(header) || '.' ||
   * BASE64URL(payload))`) and returns the raw JWS signature bytes: for ES256 the 64-byte `R || S`
   * (RFC 7518 §3.4, deterministic RFC 6979 nonce, low-S), for EdDSA the 64-byte Ed25519 signature
   * (RFC 8032 §5.1.6). The same input always gives the same bytes.
   */
  sign(signingInput: Uint8Array): Uint8Array;
  /** `{ alg, kid, publicJwk }`, no private material. */
  toJSON(): { alg: SigningAlgorithm; kid: string; publicJwk: PublishedJwk };
}

/** A private key as parsed by {@link parsePrivateKey}. */
export interface ParsedPrivateKey {
  alg: SigningAlgorithm;
  /** Only `kty`, `crv`, `x`, (`y`), `d`; other members of the input (e.g. `comment`) are dropped. */
  privateJwk: PrivateSigningJwk;
}

const ACCEPTED = 'ardsite signs with ES256 (an EC P-256 key) or Ed25519 (an OKP Ed25519 key)';

function isRecord(v: unknown): v is Record<string, unknown> {
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

function invalid(label: string, what: string): never {
  throw new ArdsiteError('KEY_INVALID', `${label} is malformed: ${what}.`);
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

/** Checks kty/crv and the optional `alg`, `use`, `key_ops` of a JWK; returns the signing algorithm. */
function signingAlgOf(
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
function publicMembers(
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
 * Checks a private JWK (RFC 7517; EC per RFC 7518 §6.2, OKP per RFC 8037 §2) and that `d` really is the
 * private half of `x`/`y` (the public key is derived from `d` with @noble/curves and compared).
 * Unknown members are ignored.
 */
function checkPrivateJwk(value: unknown, source: string): ParsedPrivateKey {
  const label = labelOf(source);
  const fault: (w: string) => never = (w) => malformed(label, w);
  if (!isRecord(value)) fault('a JSON object (a private JWK) was expected');
  if ('keys' in value) fault('this is a JWK Set; give one private JWK');
  const alg = signingAlgOf(value, label, fault);
  if (value.d === undefined)
    wrongType(label, 'is a public key only (no "d"); a private key is needed to sign');
  const d = decodeMember(value, 'd', 32, fault);
  const { members, raw } = publicMembers(value, alg, fault);
  if (alg === 'ES256') {
    if (!p256.utils.isValidSecretKey(d)) fault('"d" is not a valid P-256 private scalar');
    if (!bytesEqual(p256.getPublicKey(d, false), raw)) fault('"d" does not belong to the public key "x"/"y"');
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
 *   `{"kty":"OKP","crv":"Ed25519","x","d"}`; unknown members such as `comment` are ignored; optional
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

/** `did:web:<domain>#<thumbprint>` for a public key. */
function kidFor(members: PublicKeyMembers, domain: string): string {
  return `${didWebFromDomain(domain)}#${publicJwkThumbprint(members)}`;
}

function published(members: PublicKeyMembers, alg: SigningAlgorithm, domain: string): PublishedJwk {
  return Object.freeze({ ...members, kid: kidFor(members, domain), alg, use: 'sig' as const });
}

/**
 * Makes a {@link SigningKey} for a site from a private JWK.
 *
 * ES256 signs with @noble/curves' P-256 ECDSA (`@noble/curves/nist.js`): SHA-256 of the input, RFC 6979
 * deterministic nonce, low-S, 64-byte compact `R||S` (RFC 7518 §3.4). The SHA-256 and the HMAC of the
 * RFC 6979 HMAC-DRBG are Node's (OpenSSL), through noble's own `hmac` option: same bytes, less time. EdDSA
 * signs with Node's Ed25519 (./ed25519-signer.ts; RFC 8032 PureEdDSA is deterministic, so these are the bytes
 * of `ed25519.sign(input, seed)` of @noble/curves, which a test compares).
 *
 * @param privateJwk a private JWK as from {@link parsePrivateKey} or {@link generatePrivateJwk} (it is
 *   checked again, so any object is accepted; unknown members are ignored).
 * @param domain the site's domain; the kid is `did:web:<domain>#<RFC 7638 thumbprint>`.
 * @returns the key; the private bytes stay in a closure.
 * @throws ArdsiteError `KEY_INVALID` / `KEY_WRONG_TYPE` as {@link parsePrivateKey},
 *   `SCHEMA_INVALID_VALUE` when `domain` is not a domain name.
 */
export function createSigningKey(privateJwk: PrivateSigningJwk, domain: string): SigningKey {
  const { alg, privateJwk: jwk } = checkPrivateJwk(privateJwk, 'the private JWK');
  const { d: _d, ...members } = jwk;
  const publicJwk = published(members as PublicKeyMembers, alg, domain);
  const secret = new Uint8Array(Buffer.from(jwk.d, 'base64url'));
  const kid = publicJwk.kid;

  const signRaw =
    alg === 'ES256'
      ? (input: Uint8Array): Uint8Array =>
          es256.sign(createHash('sha256').update(input).digest(), secret, {
            prehash: false,
            lowS: true,
            extraEntropy: false,
            format: 'compact',
          })
      : ed25519Signer(jwk);

  const key = {
    alg,
    kid,
    publicJwk,
    sign(signingInput: Uint8Array): Uint8Array {
      if (!(signingInput instanceof Uint8Array)) {
        throw new ArdsiteError('JWS_INVALID', 'The JWS signing input must be bytes (a Uint8Array).');
      }
      return signRaw(signingInput);
    },
  };
  Object.defineProperties(key, {
    toJSON: { value: () => ({ alg, kid, publicJwk }), enumerable: false },
    [inspect.custom]: { value: () => `SigningKey { alg: '${alg}', kid: '${kid}' }`, enumerable: false },
  });
  const frozen = Object.freeze(key) as SigningKey;
  keyMaterial.set(frozen, { privateJwk: jwk, domain });
  return frozen;
}

/** What made each key of {@link createSigningKey}: kept beside the key, never on it. */
const keyMaterial = new WeakMap<SigningKey, { privateJwk: PrivateSigningJwk; domain: string }>();

/**
 * The private JWK and domain `key` was made from, to make the same key again in a worker thread of this
 * process (src/core/trust/signer-pool.ts), and to search a built site for its bytes (src/core/trust/key-guards.ts):
 * the only way out of the closure. Never log, print or write it.
 * @throws Error when `key` was not made by {@link createSigningKey}.
 */
export function keyMaterialForWorkers(key: SigningKey): { privateJwk: PrivateSigningJwk; domain: string } {
  const material = keyMaterial.get(key);
  if (!material) throw new Error('this signing key was not made by createSigningKey');
  return material;
}

/**
 * Generates a fresh private JWK with jose's `generateKeyPair` (Web Crypto, extractable) and
 * `exportJWK`.
 *
 * @param alg `'ES256'` (default; P-256) or `'EdDSA'` (Ed25519).
 * @returns `{kty:'EC',crv:'P-256',x,y,d}` or `{kty:'OKP',crv:'Ed25519',x,d}`.
 */
export async function generatePrivateJwk(alg: SigningAlgorithm = 'ES256'): Promise<PrivateSigningJwk> {
  const { privateKey } = await generateKeyPair(alg === 'ES256' ? 'ES256' : 'Ed25519', { extractable: true });
  return checkPrivateJwk(await exportJWK(privateKey), 'a generated key').privateJwk;
}

/** A rotated-out public key as listed in publisher.yaml. */
export interface RetiredKey {
  /** The public JWK (EC P-256 or OKP Ed25519); any `kid`/`alg`/`use` in it are recomputed. */
  jwk: unknown;
  /** ISO 8601 date or date-time (a date alone means 00:00 UTC); the key is published until then. */
  retireAt?: string;
  /** When true the key is dropped at once. */
  revoked?: boolean;
}

/**
 * The rotated-out public keys that must stay in did.json and jwks.json (DESIGN.md §4): those not
 * `revoked` whose `retireAt` is after `now`. A key without `retireAt` stays published (no end date set
 * yet). Each gets the `kid` it had as the active key (`did:web:<domain>#<RFC 7638 thumbprint>`),
 * `alg` and `use: "sig"`. Order is kept; duplicates (same kid) are dropped.
 *
 * @param retired entries from publisher.yaml.
 * @param now the build time (from `SOURCE_DATE_EPOCH` for reproducible builds).
 * @param domain the site's domain.
 * @returns the public JWKs to publish, never with private members.
 * @throws ArdsiteError `KEY_PRIVATE_PUBLISHED` (a listed JWK holds `d` or other private members),
 *   `KEY_WRONG_TYPE`, `KEY_INVALID` (bad members or not a point on the curve), `SCHEMA_INVALID_VALUE`
 *   (`retireAt` not an ISO date, bad domain).
 */
export function loadPublicKeysForRotation(
  retired: readonly RetiredKey[],
  now: Date,
  domain: string,
): PublishedJwk[] {
  const out: PublishedJwk[] = [];
  const seen = new Set<string>();
  for (const [i, entry] of retired.entries()) {
    const label = `The retired key ${i + 1} in publisher.yaml`;
    const jwk = entry.jwk;
    if (!isRecord(jwk)) invalid(label, 'a public JWK object was expected');
    assertNoPrivateMembers(jwk, label);
    if (entry.retireAt !== undefined) {
      const t =
        typeof entry.retireAt === 'string' && /^\d{4}-\d{2}-\d{2}([T ].*)?$/.test(entry.retireAt)
          ? Date.parse(entry.retireAt)
          : NaN;
      if (Number.isNaN(t)) {
        throw new ArdsiteError(
          'SCHEMA_INVALID_VALUE',
          `${label} has retireAt "${String(entry.retireAt)}", which is not an ISO 8601 date.`,
        );
      }
      if (t <= now.getTime()) continue;
    }
    if (entry.revoked === true) continue;
    const fault: (w: string) => never = (w) => invalid(label, w);
    const alg = signingAlgOf(jwk, label, fault);
    const { members, raw } = publicMembers(jwk, alg, fault);
    const onCurve =
      alg === 'ES256' ? p256.utils.isValidPublicKey(raw, false) : ed25519.utils.isValidPublicKey(raw);
    if (!onCurve) fault('the public key is not a point on the curve');
    const pub = published(members, alg, domain);
    if (seen.has(pub.kid)) continue;
    seen.add(pub.kid);
    out.push(pub);
  }
  return out;
}
