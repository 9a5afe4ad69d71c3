/**
 * The site key's two deterministic signers, with the costly arithmetic done by Node (OpenSSL), not in
 * JavaScript: EdDSA (RFC 8032 PureEdDSA over Ed25519, deterministic by definition: Node's `sign`) and
 * ES256 (RFC 7518 §3.4: ECDSA over P-256 with SHA-256; the nonce of RFC 6979 §3.2, low-S).
 *
 * Node's own ECDSA signs with a random nonce, and reproducible builds need the same bytes every time, so
 * ardsite signs with @noble/curves' RFC 6979 signer. Most of its time (about 0.5 ms a signature) is the
 * multiplication `k·G` in JavaScript BigInts; OpenSSL does the same multiplication, in constant time,
 * about ten times faster, as the public key of an ECDH key whose private key is `k`. This module runs
 * noble's steps of `sign` with that one step replaced:
 *
 *   h = SHA-256(input) mod n; k = RFC 6979 HMAC-DRBG(d, h) (noble's `createHmacDrbg`, Node's HMAC);
 *   r = x(k·G) mod n; s = k⁻¹(h + r·d) mod n; s = n − s when s > n/2 (low-S); signature = r ‖ s.
 *
 * The inversion is blinded with a random factor as noble does it (`(b·k)⁻¹ · b`), so its timing says
 * nothing about `k`; the result does not depend on the factor. The bytes are those of noble's
 * `p256.sign(sha256(input), d, { prehash: false, lowS: true })`: a unit test compares the two over
 * thousands of inputs and keys, and the RFC 6979 §A.2.5 vector.
 */
import { createECDH, createHash, createHmac, createPrivateKey, randomBytes, sign } from 'node:crypto';
import { p256 } from '@noble/curves/nist.js';
import { bytesToNumberBE, createHmacDrbg, numberToBytesBE } from '@noble/curves/utils.js';

/** The scalar field of P-256 (integers modulo the group order n). */
const Fn = p256.Point.Fn;
const N = Fn.ORDER;
const HALF_N = N >> 1n;
/** Scalars and coordinates of P-256 are 32 bytes. */
const BYTES = 32;

/** Node's HMAC-SHA-256 in noble's HMAC-DRBG (same bytes as noble's own HMAC, less time). */
const hmac = (key: Uint8Array, message: Uint8Array): Uint8Array =>
  new Uint8Array(createHmac('sha256', key).update(message).digest());

/** A random scalar in [1, n − 1] (48 random bytes reduced mod n − 1, plus one: negligible bias). */
function blindingFactor(): bigint {
  return (bytesToNumberBE(randomBytes(48)) % (N - 1n)) + 1n;
}

/**
 * Makes a deterministic ES256 signer for the private scalar `secret` (32 bytes, big-endian, as a JWK's
 * `d`). The signer takes the JWS signing input (it hashes it with SHA-256 itself) and returns the
 * 64-byte `R ‖ S` signature of RFC 7518 §3.4, `S` in low-S form.
 * @throws RangeError when `secret` is not 32 bytes or not a valid P-256 private scalar (0 < d < n).
 */
export function es256Signer(secret: Uint8Array): (signingInput: Uint8Array) => Uint8Array {
  if (secret.length !== BYTES) throw new RangeError('an ES256 private key is 32 bytes');
  const d = bytesToNumberBE(secret);
  if (d <= 0n || d >= N) throw new RangeError('the ES256 private key is not a P-256 scalar');
  const dBytes = numberToBytesBE(d, BYTES);
  const ecdh = createECDH('prime256v1');
  return (signingInput: Uint8Array): Uint8Array => {
    // bits2int_modN of RFC 6979 §2.3.2: a 256-bit hash needs no shift, only the reduction mod n.
    const h = Fn.create(bytesToNumberBE(createHash('sha256').update(signingInput).digest()));
    const seed = new Uint8Array(2 * BYTES);
    seed.set(dBytes, 0);
    seed.set(numberToBytesBE(h, BYTES), BYTES);
    const drbg = createHmacDrbg<Uint8Array>(BYTES, BYTES, hmac);
    // Steps B–H of RFC 6979 §3.2: candidates until one gives a valid signature (almost always the first).
    return drbg(seed, (kBytes: Uint8Array): Uint8Array | undefined => {
      const k = bytesToNumberBE(kBytes);
      if (k <= 0n || k >= N) return undefined;
      // k·G by OpenSSL: the public key (0x04 ‖ x ‖ y) of the ECDH key whose private key is k.
      ecdh.setPrivateKey(kBytes);
      const point = ecdh.getPublicKey();
      const r = Fn.create(bytesToNumberBE(point.subarray(1, 1 + BYTES)));
      if (r === 0n) return undefined;
      const b = blindingFactor();
      const s = Fn.mul(Fn.inv(Fn.mul(b, k)), Fn.add(Fn.mul(b, h), Fn.mul(Fn.mul(b, d), r)));
      if (s === 0n) return undefined;
      const signature = new Uint8Array(2 * BYTES);
      signature.set(numberToBytesBE(r, BYTES), 0);
      signature.set(numberToBytesBE(s > HALF_N ? N - s : s, BYTES), BYTES);
      return signature;
    });
  };
}

/**
 * Makes an Ed25519 signer (RFC 8032 §5.1.6, PureEdDSA) for the private JWK `jwk` (RFC 8037: `kty` "OKP",
 * `crv` "Ed25519", `d` the 32-byte seed, `x` the public key, base64url). Ed25519 signatures are
 * deterministic, so Node's gives the bytes `ed25519.sign(input, seed)` of @noble/curves gives (a unit test
 * compares them). Returns the 64-byte signature of the signing input.
 * @throws Error (Node's) when the JWK is not an Ed25519 private key.
 */
export function ed25519Signer(jwk: { d: string; x: string }): (signingInput: Uint8Array) => Uint8Array {
  const key = createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', d: jwk.d, x: jwk.x }, format: 'jwk' });
  return (signingInput: Uint8Array): Uint8Array => new Uint8Array(sign(null, signingInput, key));
}
