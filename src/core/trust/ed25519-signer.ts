/**
 * The site key's Ed25519 signer (RFC 8032 §5.1.6, PureEdDSA; RFC 8037 for the JWK) with Node's
 * node:crypto. Ed25519 signatures are deterministic by definition, so Node's are the bytes
 * `ed25519.sign(input, seed)` of @noble/curves gives, in native code (a unit test compares them).
 */
import { createPrivateKey, sign } from 'node:crypto';

/**
 * Makes an Ed25519 signer for the private JWK `jwk` (`d` the 32-byte seed, `x` the public key,
 * base64url). Returns the 64-byte signature of the signing input.
 * @throws Error (Node's) when the members are not an Ed25519 private key.
 */
export function ed25519Signer(jwk: { d: string; x: string }): (signingInput: Uint8Array) => Uint8Array {
  const key = createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', d: jwk.d, x: jwk.x }, format: 'jwk' });
  return (signingInput: Uint8Array): Uint8Array => new Uint8Array(sign(null, signingInput, key));
}
