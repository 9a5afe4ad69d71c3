/**
 * A fast way to accept the JWS signatures a verification checks by the thousand (one trustManifest and one
 * A2A card signature per entry): the signature is checked with node:crypto's synchronous one-shot
 * `verify` (OpenSSL, the same ECDSA and Ed25519 code WebCrypto runs in Node) on a KeyObject made once per
 * key. Through jose's `flattenedVerify` and WebCrypto a signature cost several times more
 * (promises, a thread-pool job per signature, the payload re-encoded and copied; BENCHMARKS.md).
 *
 * It only ever **accepts**. It answers `true` only for a JWS whose every part jose would read the same way
 * and accept (see {@link simpleProtectedHeader} and {@link canonicalBase64url}); for anything else, and for
 * every signature that does not verify, the caller runs the library path (src/core/trust/jws.ts
 * `verifyCompactDetached`, @a2a-js/sdk `verifyAgentCardSignature`), which decides and words the failure.
 * A failing site therefore gets exactly the findings it got before; a passing one gets the same pass.
 *
 * Follows RFC 7515 §5.2 (validation), RFC 7518 §3.4 (ES256: SHA-256, 64-byte `R || S`), RFC 8037 §3.1
 * (EdDSA over Ed25519) and RFC 4648 §5 (base64url, unpadded as JWS asks in RFC 7515 §2).
 */
import { isUtf8 } from 'node:buffer';
import { verify, type KeyObject } from 'node:crypto';

const B64URL = /^[A-Za-z0-9_-]*$/;

/**
 * The bytes of `value` when it is unpadded base64url in its one canonical spelling (RFC 4648 §5, RFC 7515
 * §2: no padding, no whitespace, unused trailing bits zero), else `undefined`. Every base64url decoder
 * (jose's, Node's) reads a canonical string to the same bytes; lenient decoders differ on the rest.
 *
 * @param value the candidate string (anything else gives `undefined`).
 * @returns the decoded bytes, or `undefined`.
 */
export function canonicalBase64url(value: unknown): Buffer | undefined {
  if (typeof value !== 'string' || value.length % 4 === 1 || !B64URL.test(value)) return undefined;
  const bytes = Buffer.from(value, 'base64url');
  return bytes.toString('base64url') === value ? bytes : undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The JWS protected header encoded in `encoded` (RFC 7515 §4), when it is one the fast path may use: the
 * canonical base64url of UTF-8 JSON without a byte order mark (so jose's strict decoding, which drops a
 * BOM and refuses bad UTF-8, reads exactly this object), a JSON object, with no `crit` (RFC 7515 §4.1.11)
 * and no `b64` (RFC 7797) member, whose handling is left to jose.
 *
 * @param encoded BASE64URL(UTF8(header)), e.g. the first part of a compact JWS.
 * @returns the header, or `undefined` when the library path must decide.
 */
export function simpleProtectedHeader(encoded: unknown): Record<string, unknown> | undefined {
  const bytes = canonicalBase64url(encoded);
  if (!bytes || bytes.length === 0 || !isUtf8(bytes)) return undefined;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return undefined;
  let header: unknown;
  try {
    header = JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
  if (!isPlainObject(header) || Object.hasOwn(header, 'crit') || Object.hasOwn(header, 'b64'))
    return undefined;
  return header;
}

/** One signature to check with node:crypto's `verify(digest, input, { key, dsaEncoding }, signature)`. */
export interface SignatureCheck {
  /** The hash: `sha256` for ES256, `null` for Ed25519 (which hashes inside). */
  digest: 'sha256' | null;
  /** `ieee-p1363` (`R || S`, RFC 7518 §3.4) for ECDSA; absent for Ed25519. */
  dsaEncoding?: 'ieee-p1363';
  /** The public key. */
  key: KeyObject;
  /** The decoded signature bytes. */
  signature: Uint8Array;
}

/**
 * How to check a JWS signature of `alg` by `key` (RFC 7518 §3.4, RFC 8037 §3.1, RFC 9864): ES256 needs an
 * EC P-256 key and a 64-byte `R || S`; `EdDSA` / `Ed25519` need an Ed25519 key and a 64-byte signature.
 *
 * @param alg the header's `alg`.
 * @param key the public key (e.g. `KeyObject.from` of a CryptoKey jose imported for that `alg`).
 * @param signature the decoded signature.
 * @returns the check, or `undefined` for any other `alg`, key type or signature length (left to the
 *   library path).
 */
export function signatureCheck(
  alg: unknown,
  key: KeyObject,
  signature: Uint8Array,
): SignatureCheck | undefined {
  if (signature.length !== 64) return undefined;
  if (alg === 'ES256') {
    if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1')
      return undefined;
    return { digest: 'sha256', dsaEncoding: 'ieee-p1363', key, signature };
  }
  if (alg === 'EdDSA' || alg === 'Ed25519') {
    return key.asymmetricKeyType === 'ed25519' ? { digest: null, key, signature } : undefined;
  }
  return undefined;
}

/**
 * The JWS signing input `ASCII(BASE64URL(header) '.' BASE64URL(payload))` (RFC 7515 §5.2 step 8).
 *
 * @param encodedHeader the protected header as it appears in the JWS (base64url, ASCII).
 * @param payload the payload bytes (base64url-encoded here).
 * @returns the bytes that were signed.
 */
export function signingInput(encodedHeader: string, payload: Uint8Array): Buffer {
  const encodedPayload = Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength).toString(
    'base64url',
  );
  // The bytes of `${encodedHeader}.${encodedPayload}` (latin1), written without joining the strings first.
  const input = Buffer.allocUnsafe(encodedHeader.length + 1 + encodedPayload.length);
  input.write(encodedHeader, 0, 'latin1');
  input[encodedHeader.length] = 0x2e;
  input.write(encodedPayload, encodedHeader.length + 1, 'latin1');
  return input;
}

/**
 * Whether `check` holds over `input`, computed synchronously with node:crypto `verify`. Synchronous on
 * purpose (measured, see docs/benchmarks-archive.md): the callback form runs in libuv's thread pool, but Node
 * serialises the uses of one key behind a lock and the machine's second core is needed by V8's own
 * compiler and collector threads during a verification, so the thread pool made a run slower, not faster.
 *
 * @param check from {@link signatureCheck}.
 * @param input from {@link signingInput}.
 * @returns `true` when the signature verifies; never throws (an error is `false`).
 */
export function signatureHolds(check: SignatureCheck, input: Uint8Array): boolean {
  const { digest, dsaEncoding, key, signature } = check;
  try {
    return verify(digest, input, dsaEncoding ? { key, dsaEncoding } : key, signature);
  } catch {
    return false;
  }
}
