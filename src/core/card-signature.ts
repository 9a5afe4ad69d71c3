/**
 * The A2A AgentCard signature (A2A spec §8.4): a JWS over the card canonicalised the way
 * `@a2a-js/sdk` does it (proto fields only, empty values dropped, `signatures` removed, RFC 8785), with
 * the protected header `{alg, kid, typ: "JOSE", jku}`. The SDK's own `canonicalizeAgentCard` is used,
 * not a copy of its rules, so a verifier using the SDK computes the same payload.
 */
import { canonicalizeAgentCard } from '@a2a-js/sdk';
import type { JsonObject } from './card.js';
import { signFlattenedDetached } from './jws.js';
import type { SigningKey } from './keys.js';

/** The `jku` of the site: `https://<domain>/.well-known/jwks.json` (A2A spec §8.4.2). */
export function jwksUrl(domain: string): string {
  return `https://${domain}/.well-known/jwks.json`;
}

/** The exact payload bytes an A2A card signature covers (A2A spec §8.4.1, via @a2a-js/sdk). */
export function agentCardSigningPayload(card: JsonObject): Uint8Array {
  return new TextEncoder().encode(canonicalizeAgentCard(card as never));
}

/**
 * Returns a copy of `card` with `signatures: [{protected, signature}]` (A2A `AgentCardSignature`),
 * signed deterministically with `key`.
 * @throws ArdsiteError `JWS_INVALID` when the key and header disagree.
 */
export function signAgentCard(card: JsonObject, key: SigningKey, domain: string): JsonObject {
  const { signatures: _ignored, ...unsigned } = card;
  const signature = signFlattenedDetached(
    agentCardSigningPayload(unsigned),
    { alg: key.alg, kid: key.kid, typ: 'JOSE', jku: jwksUrl(domain) },
    key,
  );
  return { ...unsigned, signatures: [{ protected: signature.protected, signature: signature.signature }] };
}
