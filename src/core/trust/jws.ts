/**
 * JSON Web Signatures with a detached payload (RFC 7515, Appendix F), as ardsite uses them:
 * - trustManifest `signature` (ARD draft §3.5): compact serialisation `BASE64URL(header)..BASE64URL(sig)`;
 * - A2A agent card `signatures[]` (A2A spec §8.4): the flattened members `protected` and `signature`.
 *
 * Both sign the RFC 7515 §5.1 signing input `ASCII(BASE64URL(UTF8(header)) '.' BASE64URL(payload))`.
 * The protected header is serialised with RFC 8785 (JCS) so the same header always gives the same
 * bytes. Signing is done by {@link SigningKey.sign} (deterministic); verification by jose.
 */
import { errors, flattenedVerify, importJWK } from 'jose';
import { ArdsiteError } from '../util/errors.js';
import { canonicalJson } from './jcs.js';
import type { SigningKey } from './keys.js';

/** `alg` values accepted by {@link verifyCompactDetached} unless narrowed: ES256 and EdDSA (RFC 8037) / Ed25519 (RFC 9864). */
export const DEFAULT_VERIFY_ALGORITHMS: readonly string[] = ['ES256', 'EdDSA', 'Ed25519'];

/** The two members of a flattened JWS JSON serialisation (RFC 7515 §7.2.2) with a detached payload. */
export interface FlattenedDetachedJws {
  /** BASE64URL(UTF8(JCS(protected header))). */
  protected: string;
  /** BASE64URL(signature bytes). */
  signature: string;
}

/**
 * A public JWK to verify with (EC P-256: `kty`,`crv`,`x`,`y`; OKP Ed25519: `kty`,`crv`,`x`). Other
 * members (`kid`, `alg`, `use`, a stray `d`) may be present and are ignored.
 */
export interface VerificationJwk {
  readonly kty: string;
  readonly crv?: string;
  readonly x?: string;
  readonly y?: string;
}

const B64URL = /^[A-Za-z0-9_-]*$/;

function b64u(bytes: Uint8Array | string): string {
  return (typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : Buffer.from(bytes)).toString('base64url');
}

/** Imported public keys by alg and members: a site verifies thousands of JWS with a handful of keys. */
const importedKeys = new Map<string, ReturnType<typeof importJWK>>();

function importVerificationKey(members: Record<string, unknown>, alg: string): ReturnType<typeof importJWK> {
  const cacheKey = `${alg}|${String(members.kty)}|${String(members.crv)}|${String(members.x)}|${String(members.y)}`;
  let key = importedKeys.get(cacheKey);
  if (!key) {
    key = importJWK(members, alg);
    key.catch(() => importedKeys.delete(cacheKey));
    if (importedKeys.size > 1000) importedKeys.clear();
    importedKeys.set(cacheKey, key);
  }
  return key;
}

function jwsInvalid(message: string): never {
  throw new ArdsiteError('JWS_INVALID', message);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Encoded protected headers by their members: a site signs with a handful of headers, thousands of times. */
const encodedHeaders = new Map<string, string>();
/** Headers kept in {@link encodedHeaders} at most (it starts again when full). */
const MAX_ENCODED_HEADERS = 64;

/**
 * BASE64URL(UTF8(JCS(header))): canonicalised once per distinct header of string members (the cache key
 * is their plain `JSON.stringify`, which tells apart every two such headers); any other header each time.
 */
function encodeHeader(header: Record<string, unknown>): string {
  if (!Object.values(header).every((v) => typeof v === 'string')) return b64u(canonicalJson(header));
  const key = JSON.stringify(header);
  let encoded = encodedHeaders.get(key);
  if (encoded === undefined) {
    encoded = b64u(canonicalJson(header));
    if (encodedHeaders.size >= MAX_ENCODED_HEADERS) encodedHeaders.clear();
    encodedHeaders.set(key, encoded);
  }
  return encoded;
}

/**
 * The first half of signing a detached JWS: the encoded protected header (RFC 8785, `alg` defaulted from
 * the signer and checked to match it) and the signing input (RFC 7515 §5.1 step 5), for a signer that
 * answers later (a pool of worker threads, src/core/trust/signer-pool.ts). {@link detachedJws} is the second half.
 * @returns `{ protected, signingInput }`: base64url header, and the bytes to sign.
 * @throws ArdsiteError `JWS_INVALID` (`alg` does not match, payload not bytes), `SCHEMA_INVALID_VALUE`.
 */
export function detachedSigningInput(
  payload: Uint8Array,
  protectedHeader: Record<string, unknown>,
  alg: string,
): { protected: string; signingInput: Uint8Array } {
  if (!(payload instanceof Uint8Array)) jwsInvalid('The JWS payload must be bytes (a Uint8Array).');
  if (!isRecord(protectedHeader)) jwsInvalid('The JWS protected header must be an object.');
  if (protectedHeader.alg !== undefined && protectedHeader.alg !== alg) {
    jwsInvalid(`The header says alg ${JSON.stringify(protectedHeader.alg)}, but the key signs ${alg}.`);
  }
  const encodedHeader = encodeHeader({ ...protectedHeader, alg });
  return {
    protected: encodedHeader,
    signingInput: new TextEncoder().encode(`${encodedHeader}.${b64u(payload)}`),
  };
}

/**
 * The flattened members of a detached JWS (RFC 7515 §7.2.2, without `payload`) from the encoded header
 * of {@link detachedSigningInput} and the raw signature bytes (64 bytes for ES256 and EdDSA).
 * @returns `{ protected, signature }`, both base64url. Never throws.
 */
export function detachedJws(encodedHeader: string, signature: Uint8Array): FlattenedDetachedJws {
  return { protected: encodedHeader, signature: b64u(signature) };
}

/** Encodes the header (alg defaulted from the key, checked to match it) and signs. */
function signDetached(
  payload: Uint8Array,
  protectedHeader: Record<string, unknown>,
  key: SigningKey,
): FlattenedDetachedJws {
  const prepared = detachedSigningInput(payload, protectedHeader, key.alg);
  return detachedJws(prepared.protected, key.sign(prepared.signingInput));
}

/**
 * Signs `payload` and returns a compact JWS with the payload detached (RFC 7515 §7.1 and Appendix F):
 * `BASE64URL(UTF8(JCS(header))) + '..' + BASE64URL(signature)`. Deterministic: the same inputs give the
 * same string.
 *
 * @param payload the exact payload bytes (for a trustManifest: RFC 8785 JCS of it without `signature`).
 * @param protectedHeader e.g. `{ alg, kid }`; `alg` may be left out (the key's is used) and must equal
 *   `key.alg` when given. Serialised with RFC 8785 (members sorted).
 * @param key the signing key.
 * @returns the compact detached JWS.
 * @throws ArdsiteError `JWS_INVALID` (`alg` does not match the key, payload not bytes),
 *   `SCHEMA_INVALID_VALUE` (header not JSON-representable).
 */
export function signCompactDetached(
  payload: Uint8Array,
  protectedHeader: Record<string, unknown>,
  key: SigningKey,
): string {
  const { protected: header, signature } = signDetached(payload, protectedHeader, key);
  return `${header}..${signature}`;
}

/**
 * Signs `payload` and returns the flattened JWS members (RFC 7515 §7.2.2) without `payload`, the shape
 * of an A2A `AgentCardSignature` (A2A spec §8.4.2) minus its optional unprotected `header`. Same signing
 * input and determinism as {@link signCompactDetached}.
 *
 * @param payload the exact payload bytes (for an A2A card: its canonical JSON, A2A spec §8.4.1).
 * @param protectedHeader e.g. `{ alg, kid, typ: 'JOSE', jku }`; `alg` as in {@link signCompactDetached}.
 * @param key the signing key.
 * @returns `{ protected, signature }`, both base64url.
 * @throws ArdsiteError as {@link signCompactDetached}.
 */
export function signFlattenedDetached(
  payload: Uint8Array,
  protectedHeader: Record<string, unknown>,
  key: SigningKey,
): FlattenedDetachedJws {
  return signDetached(payload, protectedHeader, key);
}

/**
 * Decodes the protected header of a compact JWS (RFC 7515 §7.1), attached or detached, without
 * verifying anything.
 *
 * @param jws `header.payload.signature` (payload may be empty).
 * @returns the header object.
 * @throws ArdsiteError `JWS_INVALID` when the string does not have three dot-separated base64url parts
 *   or the header is not a base64url-encoded JSON object.
 */
export function decodeProtectedHeader(jws: string): Record<string, unknown> {
  if (typeof jws !== 'string') jwsInvalid('A JWS must be a string.');
  const parts = jws.split('.');
  if (parts.length !== 3 || !parts.every((p) => B64URL.test(p))) {
    jwsInvalid('The JWS is not in compact form (three base64url parts separated by dots).');
  }
  const headerPart = parts[0] ?? '';
  if (headerPart === '') jwsInvalid('The JWS has an empty protected header.');
  let header: unknown;
  try {
    header = JSON.parse(Buffer.from(headerPart, 'base64url').toString('utf8'));
  } catch {
    jwsInvalid('The JWS protected header is not valid JSON.');
  }
  if (!isRecord(header)) jwsInvalid('The JWS protected header is not a JSON object.');
  return header;
}

/** Which key types each accepted `alg` needs (RFC 7518 §3.4, RFC 8037 §3.1). */
function keyFitsAlg(alg: string, jwk: VerificationJwk): boolean {
  if (alg === 'ES256') return jwk.kty === 'EC' && jwk.crv === 'P-256';
  if (alg === 'EdDSA' || alg === 'Ed25519') return jwk.kty === 'OKP' && jwk.crv === 'Ed25519';
  return false;
}

/**
 * Verifies a compact JWS with a detached payload (RFC 7515 Appendix F) against a public key, with jose's
 * `flattenedVerify` after re-attaching `BASE64URL(payload)`.
 *
 * Refused with `JWS_INVALID`: a malformed JWS; a non-empty payload part (the payload must be detached);
 * `alg` `none`, missing, or not in `options.algorithms`; `b64: false` (RFC 7797 is not used here);
 * a key whose type does not fit `alg`; unknown `crit` parameters (jose).
 * Only `kty`, `crv`, `x`, `y` of `publicJwk` are used, so a stray `d` is never used.
 *
 * @param jws `BASE64URL(header)..BASE64URL(signature)`.
 * @param payload the detached payload bytes.
 * @param publicJwk the signer's public key (EC P-256 or OKP Ed25519).
 * @param options.algorithms the `alg` values to accept (default {@link DEFAULT_VERIFY_ALGORITHMS}).
 * @returns the decoded protected header (the caller checks `kid` etc.).
 * @throws ArdsiteError `JWS_INVALID` as above, `TRUST_SIGNATURE_INVALID` when the signature does not
 *   verify.
 */
export async function verifyCompactDetached(
  jws: string,
  payload: Uint8Array,
  publicJwk: VerificationJwk,
  options: { algorithms?: readonly string[] } = {},
): Promise<Record<string, unknown>> {
  const header = decodeProtectedHeader(jws);
  const [encodedHeader, attached, signature] = jws.split('.') as [string, string, string];
  if (attached !== '')
    jwsInvalid('The JWS carries its payload; a detached payload (header..signature) is required.');
  if (signature === '') jwsInvalid('The JWS has an empty signature.');
  if (!(payload instanceof Uint8Array)) jwsInvalid('The detached payload must be bytes (a Uint8Array).');

  const algorithms = (options.algorithms ?? DEFAULT_VERIFY_ALGORITHMS).filter((a) => a !== 'none');
  const alg = header.alg;
  if (typeof alg !== 'string') jwsInvalid('The JWS protected header has no "alg".');
  if (alg === 'none') jwsInvalid('The JWS uses alg "none", which is never accepted.');
  if (!algorithms.includes(alg)) jwsInvalid(`The JWS uses alg "${alg}"; accepted: ${algorithms.join(', ')}.`);
  if (header.b64 !== undefined)
    jwsInvalid('The JWS uses the "b64" header (RFC 7797), which is not accepted.');
  if (!isRecord(publicJwk) || !keyFitsAlg(alg, publicJwk)) {
    jwsInvalid(`The key (${String(publicJwk?.kty)}/${String(publicJwk?.crv)}) does not fit alg "${alg}".`);
  }

  const keyMembers: Record<string, unknown> = { kty: publicJwk.kty, crv: publicJwk.crv, x: publicJwk.x };
  if (publicJwk.kty === 'EC') keyMembers.y = publicJwk.y;
  let key: Awaited<ReturnType<typeof importJWK>>;
  try {
    key = await importVerificationKey(keyMembers, alg);
  } catch {
    jwsInvalid('The verification key cannot be imported.');
  }
  try {
    await flattenedVerify({ protected: encodedHeader, payload: b64u(payload), signature }, key, {
      algorithms: [...algorithms],
    });
  } catch (err) {
    if (err instanceof errors.JWSSignatureVerificationFailed) {
      throw new ArdsiteError(
        'TRUST_SIGNATURE_INVALID',
        'The JWS signature does not verify with the given key.',
      );
    }
    const reason = err instanceof Error ? err.message : 'unknown reason';
    jwsInvalid(`The JWS was refused: ${reason}`);
  }
  return header;
}
