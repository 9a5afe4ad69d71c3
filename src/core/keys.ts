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
import { execFileSync } from 'node:child_process';
import { createHash, createHmac, createPrivateKey, type KeyObject } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { inspect } from 'node:util';
import { ed25519 } from '@noble/curves/ed25519.js';
import { ecdsa } from '@noble/curves/abstract/weierstrass.js';
import { p256 } from '@noble/curves/nist.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { exportJWK, generateKeyPair } from 'jose';
import { assertNoPrivateMembers, didWebFromDomain } from './did.js';
import { ArdsiteError } from './errors.js';
import { canonicalJson } from './jcs.js';
import { outsideMessage, placeInJail } from './project-jail.js';

/**
 * P-256 ECDSA as `p256` of @noble/curves, with Node's HMAC-SHA-256 in the RFC 6979 DRBG (noble's
 * `hmac` option). Signatures are byte-identical to `p256.sign` (a unit test pins it).
 */
export const es256 = ecdsa(p256.Point, sha256, {
  hmac: (key: Uint8Array, message: Uint8Array) =>
    new Uint8Array(createHmac('sha256', key).update(message).digest()),
});

/** The JWS `alg` values ardsite signs with: ES256 (RFC 7518 §3.4) or EdDSA/Ed25519 (RFC 8037 §3.1). */
export type SigningAlgorithm = 'ES256' | 'EdDSA';

/** Public members of a P-256 key (RFC 7518 §6.2.1): base64url, 32 bytes each for `x` and `y`. */
export type EcPublicJwk = {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
};

/** Public members of an Ed25519 key (RFC 8037 §2): `x` is the base64url 32-byte public key. */
export type OkpPublicJwk = {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
};

/** The key members of a public signing key, without `kid`/`alg`/`use`. */
export type PublicKeyMembers = EcPublicJwk | OkpPublicJwk;

/**
 * A private signing JWK as ardsite stores it (`.ardsite/keys/signing.jwk.json`): the public members plus
 * `d` (base64url, 32 bytes: the P-256 scalar, RFC 7518 §6.2.2.1, or the Ed25519 seed, RFC 8037 §2).
 */
export type PrivateSigningJwk = (EcPublicJwk & { d: string }) | (OkpPublicJwk & { d: string });

/**
 * A public key as published in jwks.json: key members plus `kid` (full DID URL
 * `did:web:<domain>#<thumbprint>`), `alg` and `use: "sig"`. Never carries `d`.
 */
export type PublishedJwk = PublicKeyMembers & { kid: string; alg: SigningAlgorithm; use: 'sig' };

/**
 * What signs a JWS: a {@link SigningKey} (in this thread), or a pool of worker threads holding one
 * (src/core/signer-pool.ts). `sign` takes the JWS signing input (RFC 7515 §5.1 step 5) and gives the raw
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

/**
 * RFC 7638 JWK thumbprint with SHA-256, base64url without padding: the hash of the RFC 8785 / RFC 7638
 * §3.2 JSON of the required members only (EC: `crv,kty,x,y`; OKP: `crv,kty,x` per RFC 8037 §2; RSA:
 * `e,kty,n`). Other members (`kid`, `alg`, `use`, `d`) do not count. Gives the same value as jose's
 * `calculateJwkThumbprint(jwk, 'sha256')` (checked in the tests), computed synchronously.
 *
 * @param jwk a JWK with string `kty` and the required members of its type.
 * @returns 43 base64url characters.
 * @throws ArdsiteError `KEY_INVALID` when a required member is missing or not a string,
 *   `KEY_WRONG_TYPE` for `oct` or an unknown `kty`.
 */
export function publicJwkThumbprint(jwk: {
  readonly kty: string;
  readonly [member: string]: unknown;
}): string {
  const required: Record<string, readonly string[]> = {
    EC: ['crv', 'kty', 'x', 'y'],
    OKP: ['crv', 'kty', 'x'],
    RSA: ['e', 'kty', 'n'],
  };
  const rec: unknown = jwk;
  if (!isRecord(rec) || typeof rec.kty !== 'string')
    throw new ArdsiteError('KEY_INVALID', 'A JWK needs a "kty".');
  const names = required[rec.kty];
  if (names === undefined)
    throw new ArdsiteError('KEY_WRONG_TYPE', `No thumbprint for a JWK of kty "${rec.kty}".`);
  const members: Record<string, string> = {};
  for (const name of names) {
    const v = rec[name];
    if (typeof v !== 'string')
      throw new ArdsiteError('KEY_INVALID', `The JWK has no string "${name}" member.`);
    members[name] = v;
  }
  return createHash('sha256').update(canonicalJson(members), 'utf8').digest('base64url');
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
 * RFC 6979 HMAC-DRBG are Node's (OpenSSL), through noble's own `hmac` option: same bytes, less time. EdDSA signs with `ed25519.sign(input, seed)` (RFC 8032 PureEdDSA, deterministic).
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
      : (input: Uint8Array): Uint8Array => ed25519.sign(input, secret);

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
 * process (src/core/signer-pool.ts), and to search a built site for its bytes (src/core/key-guards.ts):
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

/** Options of {@link resolveSigningKey}. */
export interface ResolveSigningKeyOptions {
  /** The project root (folder of `content/`); relative paths are resolved against it. */
  root: string;
  /** The site's domain, for the kid. */
  domain: string;
  /** Environment to read (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** `signing.keyFile` from publisher.yaml, relative to `root`. */
  keyFile?: string;
  /** `signing.requireKey`: a missing key is an error, never created. */
  requireKey?: boolean;
  /** Algorithm of a key created here (default ES256). When given, a found key of another algorithm is refused. */
  algorithm?: SigningAlgorithm;
}

/** Result of {@link resolveSigningKey}. */
export interface ResolvedSigningKey {
  key: SigningKey;
  /** Where the key came from, for messages: `"ARDSITE_SIGNING_KEY"`, a file path, or the throw-away note. */
  source: string;
  /** True when the key file was created by this call (the caller should say so loudly). */
  created: boolean;
  /** True for an in-memory throw-away key (CI with `ARDSITE_DEV_KEY=1`), written nowhere. */
  ephemeral: boolean;
  /** The absolute path of the key file, when the key came from one (checked by the build against public/). */
  file?: string;
}

/** Path of the default key file, relative to the project root. */
export const DEFAULT_KEY_FILE = '.ardsite/keys/signing.jwk.json';

function flagSet(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

function display(root: string, file: string): string {
  const rel = path.relative(root, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file;
}

function readKeyFile(file: string, shown: string, configuredBy: string | undefined): ParsedPrivateKey {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && configuredBy !== undefined) {
      throw new ArdsiteError(
        'KEY_MISSING',
        `${configuredBy} names the key file ${shown}, which does not exist.`,
      );
    }
    throw new ArdsiteError('FILE_UNREADABLE', `The key file ${shown} cannot be read (${code ?? 'error'}).`);
  }
  return parsePrivateKey(text, shown);
}

type IgnoreStatus = 'ignored' | 'not-ignored' | 'no-repo';

function gitIgnoreStatus(root: string, rel: string): IgnoreStatus {
  try {
    execFileSync('git', ['check-ignore', '-q', '--', rel], { cwd: root, stdio: 'ignore' });
    return 'ignored';
  } catch (err) {
    return (err as { status?: number | null }).status === 1 ? 'not-ignored' : 'no-repo';
  }
}

function missingKeyHelp(): string {
  return (
    'Provide the site key as ARDSITE_SIGNING_KEY (the private JWK or PKCS#8 PEM text, e.g. from a CI secret) ' +
    'or ARDSITE_SIGNING_KEY_FILE (a path), or signing.keyFile in content/publisher.yaml. ' +
    'Create one on your machine with `npm run keygen`. ' +
    'For a throw-away test build only, set ARDSITE_DEV_KEY=1 (its signatures are worthless to anyone else).'
  );
}

function checkAlgorithm(
  parsed: ParsedPrivateKey,
  wanted: SigningAlgorithm | undefined,
  source: string,
): void {
  if (wanted !== undefined && parsed.alg !== wanted) {
    throw new ArdsiteError(
      'KEY_WRONG_TYPE',
      `The signing key from ${source} is ${parsed.alg}, but ${wanted} is configured.`,
    );
  }
}

/**
 * Finds the site's private signing key, in the order of DESIGN.md §4:
 * 1. `env.ARDSITE_SIGNING_KEY` (JWK or PEM text);
 * 2. `env.ARDSITE_SIGNING_KEY_FILE` (a path, relative to `root` unless absolute);
 * 3. `options.keyFile` (publisher.yaml `signing.keyFile`, relative to `root`);
 * 4. `<root>/.ardsite/keys/signing.jwk.json`.
 * A file named by 2 or 3 must exist. When 4 does not exist either:
 * - `requireKey` → `KEY_MISSING`;
 * - `CI` set (any value but empty, `0`, `false`) without `ARDSITE_DEV_KEY=1` → `KEY_MISSING` with how
 *   to provide a key;
 * - `CI` set with `ARDSITE_DEV_KEY=1` → an in-memory throw-away key (`ephemeral: true`), written nowhere;
 * - otherwise a new key is generated and written to `.ardsite/keys/signing.jwk.json` (file mode 0600,
 *   created folders 0700, `created: true`), but only after `git check-ignore -q` run in `root` confirms
 *   git ignores that path.
 *
 * @returns `{ key, source, created, ephemeral }`.
 * @throws ArdsiteError `KEY_MISSING`, `KEY_NOT_IGNORED` (path not ignored, `root` not in a git
 *   repository, or git not installed), `KEY_INVALID` / `KEY_WRONG_TYPE` (as {@link parsePrivateKey},
 *   naming the env var or file; also when `algorithm` is given and the key has another one),
 *   `FILE_UNREADABLE`, `SCHEMA_INVALID_VALUE` (bad domain).
 */
export async function resolveSigningKey(options: ResolveSigningKeyOptions): Promise<ResolvedSigningKey> {
  const env = options.env ?? process.env;
  const root = path.resolve(options.root);
  const found = (parsed: ParsedPrivateKey, source: string, file?: string): ResolvedSigningKey => {
    checkAlgorithm(parsed, options.algorithm, source);
    return {
      key: createSigningKey(parsed.privateJwk, options.domain),
      source,
      created: false,
      ephemeral: false,
      ...(file === undefined ? {} : { file }),
    };
  };

  const inline = env.ARDSITE_SIGNING_KEY;
  if (inline !== undefined && inline.trim() !== '') {
    return found(parsePrivateKey(inline, 'ARDSITE_SIGNING_KEY'), 'ARDSITE_SIGNING_KEY');
  }
  const configured: Array<[string | undefined, string]> = [
    [env.ARDSITE_SIGNING_KEY_FILE, 'ARDSITE_SIGNING_KEY_FILE'],
    [options.keyFile, 'signing.keyFile in content/publisher.yaml'],
  ];
  for (const [file, by] of configured) {
    if (file === undefined || file.trim() === '') continue;
    const abs = path.resolve(root, file);
    const shown = display(root, abs);
    // publisher.yaml is content, which a contributor's pull request may change: its keyFile must stay in
    // the project (DESIGN.md §9). ARDSITE_SIGNING_KEY_FILE is set by whoever runs the build (a CI secret
    // file lives outside the checkout, in $RUNNER_TEMP or /run/secrets), so it may point anywhere.
    if (by !== 'ARDSITE_SIGNING_KEY_FILE') {
      const place = placeInJail(abs, { root });
      if (place.state === 'outside') {
        throw new ArdsiteError(
          'FILE_OUTSIDE_PROJECT',
          `signing.keyFile in content/publisher.yaml: ${outsideMessage(shown, place.real)}. Give a key kept outside the project with ARDSITE_SIGNING_KEY_FILE instead.`,
        );
      }
    }
    return found(readKeyFile(abs, shown, by), shown, abs);
  }

  const defaultFile = path.join(root, DEFAULT_KEY_FILE);
  if (existsSync(defaultFile))
    return found(readKeyFile(defaultFile, DEFAULT_KEY_FILE, undefined), DEFAULT_KEY_FILE, defaultFile);

  if (options.requireKey) {
    throw new ArdsiteError(
      'KEY_MISSING',
      `No signing key found and signing.requireKey is set. ${missingKeyHelp()}`,
    );
  }
  const alg = options.algorithm ?? 'ES256';
  if (flagSet(env.CI)) {
    if (env.ARDSITE_DEV_KEY !== '1') {
      throw new ArdsiteError(
        'KEY_MISSING',
        'No signing key found, and none is created when CI is set (a new key on every deploy would change the ' +
          `publisher's identity each time). ${missingKeyHelp()}`,
      );
    }
    const key = createSigningKey(await generatePrivateJwk(alg), options.domain);
    return { key, source: 'throw-away key (ARDSITE_DEV_KEY=1)', created: false, ephemeral: true };
  }

  const written = await writeNewKeyFile(root, DEFAULT_KEY_FILE, alg, missingKeyHelp());
  if (written === 'exists') {
    // Another process created it meanwhile: use that one.
    return found(readKeyFile(defaultFile, DEFAULT_KEY_FILE, undefined), DEFAULT_KEY_FILE, defaultFile);
  }
  return {
    key: createSigningKey(written, options.domain),
    source: DEFAULT_KEY_FILE,
    created: true,
    ephemeral: false,
    file: defaultFile,
  };
}

/**
 * Generates a private key and writes it to `relPath` under `root` (file mode 0600, created folders
 * 0700), only after `git check-ignore -q` confirms git ignores that path, and never over an existing
 * file. Used by the build (DESIGN.md §4) and by `npm run keygen`.
 *
 * @param root the project root (a git work tree).
 * @param relPath the key file, relative to `root`.
 * @param alg the key type.
 * @param help a sentence appended to the `KEY_NOT_IGNORED` message (how else to provide a key).
 * @returns the private JWK written, or `'exists'` when the file already exists (it is left untouched).
 * @throws ArdsiteError `KEY_NOT_IGNORED` (not ignored, not a git repository, or no git),
 *   `FILE_UNREADABLE` (the file cannot be written).
 */
export async function writeNewKeyFile(
  root: string,
  relPath: string,
  alg: SigningAlgorithm,
  help = '',
): Promise<PrivateSigningJwk | 'exists'> {
  const file = path.resolve(root, relPath);
  if (existsSync(file)) return 'exists';
  const status = gitIgnoreStatus(root, relPath);
  if (status !== 'ignored') {
    const why =
      status === 'not-ignored'
        ? `git does not ignore ${relPath}`
        : `${root} is not inside a git repository (or git is not installed), so it cannot be checked that git ignores ${relPath}`;
    throw new ArdsiteError(
      'KEY_NOT_IGNORED',
      `A new key is not written because ${why}. Add the line "${relPath.split('/')[0]}/" to .gitignore ` +
        `(and run git init if needed)${help ? `, or provide a key (${help})` : ''}.`,
    );
  }
  const dirs: string[] = [];
  for (let dir = path.dirname(file); !existsSync(dir); dir = path.dirname(dir)) dirs.unshift(dir);
  for (const dir of dirs) {
    mkdirSync(dir, { mode: 0o700 });
    chmodSync(dir, 0o700);
  }
  const privateJwk = await generatePrivateJwk(alg);
  try {
    writeFileSync(file, `${JSON.stringify(privateJwk, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return 'exists';
    throw new ArdsiteError(
      'FILE_UNREADABLE',
      `The key file ${relPath} cannot be written (${(err as NodeJS.ErrnoException).code ?? 'error'}).`,
    );
  }
  chmodSync(file, 0o600);
  return privateJwk;
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
