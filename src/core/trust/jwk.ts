/**
 * The JSON Web Keys ardsite signs with and publishes (RFC 7517, RFC 7518 §6.2 for P-256, RFC 8037 §2 for
 * Ed25519), and their RFC 7638 thumbprint: the shapes that keys.ts, did.ts and the verifier share. No
 * private key is read or made here.
 */
import { createHash } from 'node:crypto';
import { ArdsiteError } from '../util/errors.js';
import { canonicalJson } from './jcs.js';

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

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
