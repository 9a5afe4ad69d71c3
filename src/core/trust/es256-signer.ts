/**
 * The site key's ES256 signer (ECDSA over P-256 with SHA-256, RFC 7518 §3.4) with deterministic nonces
 * (RFC 6979 §3.2), so that two builds sign the same bytes. Node's own ECDSA (OpenSSL 3.0) draws a
 * random nonce, and @noble/curves, which signs deterministically, multiplies the base point in
 * JavaScript, most of a signature's cost. Here the steps of RFC 6979 §3.2 and of the ECDSA signing
 * equation (SEC 1 v2 §4.1.3) are those of @noble/curves' `ecdsa().sign`, with its own HMAC-DRBG
 * (`createHmacDrbg`) and scalar arithmetic (`p256.Point.Fn`); only k·G is computed by OpenSSL, in
 * constant time, through `crypto.createECDH('prime256v1').setPrivateKey(k)`, whose public key is k·G.
 * The bytes are those of `p256.sign(input, secret)` (low-S, 64-byte `r‖s`): a unit test compares them
 * over many keys and inputs.
 *
 * As in @noble/curves, the inversion of the nonce is blinded (s = (b·k)⁻¹·(b·m + b·d·r) with a random b),
 * so that its data-dependent timing says nothing about k; b changes no byte of the signature.
 */
import { createECDH, createHash, createHmac, randomFillSync } from 'node:crypto';
import { p256 } from '@noble/curves/nist.js';
import { bytesToNumberBE, concatBytes, createHmacDrbg, numberToBytesBE } from '@noble/curves/utils.js';

/** The scalar field of P-256 (integers modulo the group order n). */
const Fn = p256.Point.Fn;
/** Bytes of a scalar, of a field element and of the SHA-256 hash: 32. */
const SIZE = 32;
/** Bytes of random data mapped to a blinding factor: 1.5 times a scalar's, for a negligible bias. */
const BLIND_BYTES = 48;

/** HMAC-SHA-256 with Node's OpenSSL, the HMAC of the RFC 6979 HMAC-DRBG (RFC 6979 §3.1.1). */
const hmacSha256 = (key: Uint8Array, message: Uint8Array): Uint8Array =>
  new Uint8Array(createHmac('sha256', key).update(message).digest());

/**
 * Makes an ES256 signer for the 32-byte private scalar `secret` (a P-256 JWK's `d`, decoded). Returns
 * the 64-byte `r‖s` signature (RFC 7518 §3.4) of the SHA-256 of the signing input, deterministic
 * (RFC 6979 §3.2) and low-S: the bytes of @noble/curves' `p256.sign(signingInput, secret)`.
 * @throws Error when `secret` is not a scalar in [1, n−1].
 */
export function es256Signer(secret: Uint8Array): (signingInput: Uint8Array) => Uint8Array {
  if (secret.length !== SIZE) throw new Error('invalid private key');
  const d = bytesToNumberBE(secret);
  if (!Fn.isValidNot0(d)) throw new Error('invalid private key');
  const dOctets = Fn.toBytes(d);
  const halfOrder = Fn.ORDER >> 1n;
  const nonceTimesG = createECDH('prime256v1');
  const blindBytes = new Uint8Array(BLIND_BYTES);
  return (signingInput: Uint8Array): Uint8Array => {
    // RFC 6979 §3.2 step a, and bits2int(H(m)) mod n (a 256-bit hash for a 256-bit n: no shift).
    const m = Fn.create(bytesToNumberBE(createHash('sha256').update(signingInput).digest()));
    // Steps b–h: the HMAC-DRBG seeded with int2octets(d) ‖ bits2octets(H(m)), drawn until k works.
    const drbg = createHmacDrbg<Uint8Array>(SIZE, SIZE, hmacSha256);
    return drbg(concatBytes(dOctets, Fn.toBytes(m)), (kOctets) => {
      const k = bytesToNumberBE(kOctets);
      if (!Fn.isValidNot0(k)) return undefined;
      // (x, y) = k·G: the uncompressed public key of the private key k (SEC 1 v2 §2.3.3, 04 ‖ x ‖ y).
      nonceTimesG.setPrivateKey(kOctets);
      const r = Fn.create(bytesToNumberBE(nonceTimesG.getPublicKey().subarray(1, 1 + SIZE)));
      if (r === 0n) return undefined;
      // s = k⁻¹(m + r·d) mod n, as (b·k)⁻¹(b·m + b·d·r) with a random b in [1, n−1].
      randomFillSync(blindBytes);
      const b = Fn.create(bytesToNumberBE(blindBytes)) || 1n;
      const s = Fn.mul(Fn.inv(Fn.mul(b, k)), Fn.add(Fn.mul(b, m), Fn.mul(Fn.mul(b, d), r)));
      if (s === 0n) return undefined;
      // Low-S (the form @noble/curves and most verifiers expect): s and n − s both verify.
      return concatBytes(numberToBytesBE(r, SIZE), numberToBytesBE(s > halfOrder ? Fn.neg(s) : s, SIZE));
    });
  };
}
