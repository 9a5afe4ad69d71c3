/**
 * Signing keys (DESIGN.md §4): signing with a private key deterministically, naming it (`kid` =
 * `did:web:<domain>#<RFC 7638 thumbprint>`), and making a new one. Reading and checking a key is
 * ./key-checks.ts, finding or creating the site's key file ./key-file.ts, the rotated-out keys still
 * published ./retired-keys.ts.
 *
 * Accepted keys: ES256 (ECDSA P-256 with SHA-256, RFC 7518 §3.4) and EdDSA over Ed25519 (RFC 8037).
 * ES256 is signed with RFC 6979 deterministic nonces (./es256-signer.ts: the bytes of @noble/curves'
 * `p256.sign`), because Node's OpenSSL (which jose uses) signs ECDSA with a random nonce and reproducible
 * builds need identical bytes.
 *
 * The private key material of a key made here stays in a closure: never in a message, a log line,
 * `JSON.stringify` or `util.inspect`.
 */
import { inspect } from 'node:util';
import { ed25519Signer } from './ed25519-signer.js';
import { es256Signer } from './es256-signer.js';
import { exportJWK, generateKeyPair } from 'jose';
import { didWebFromDomain } from './did.js';
import { ArdsiteError } from '../util/errors.js';
import {
  publicJwkThumbprint,
  type PrivateSigningJwk,
  type PublicKeyMembers,
  type PublishedJwk,
  type SigningAlgorithm,
} from './jwk.js';
import { checkPrivateJwk } from './key-checks.js';

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

/** `did:web:<domain>#<thumbprint>` for a public key. */
function kidFor(members: PublicKeyMembers, domain: string): string {
  return `${didWebFromDomain(domain)}#${publicJwkThumbprint(members)}`;
}

/** The public JWK of a key as published (jwks.json, did.json): its members, `kid`, `alg`, `use: "sig"`. */
export function published(members: PublicKeyMembers, alg: SigningAlgorithm, domain: string): PublishedJwk {
  return Object.freeze({ ...members, kid: kidFor(members, domain), alg, use: 'sig' as const });
}

/**
 * Makes a {@link SigningKey} for a site from a private JWK.
 *
 * ES256 signs P-256 ECDSA with ./es256-signer.ts: SHA-256 of the input, RFC 6979 deterministic nonce,
 * low-S, 64-byte compact `R||S` (RFC 7518 §3.4), the bytes of @noble/curves' `p256.sign`, with k·G
 * computed by Node's OpenSSL. EdDSA
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
  const kid = publicJwk.kid;

  const signRaw =
    alg === 'ES256' ? es256Signer(new Uint8Array(Buffer.from(jwk.d, 'base64url'))) : ed25519Signer(jwk);

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
