/**
 * The A2A AgentCard signature (A2A spec §8.4): a JWS over the card canonicalised the way
 * `@a2a-js/sdk` does it (proto fields only, empty values dropped, `signatures` removed, RFC 8785), with
 * the protected header `{alg, kid, typ: "JOSE", jku}`. The SDK's own `canonicalizeAgentCard` is used,
 * not a copy of its rules, so a verifier using the SDK computes the same payload.
 */
import { canonicalizeAgentCard } from '@a2a-js/sdk';
import type { JsonObject } from './card.js';
import { detachedJws, detachedSigningInput } from './jws.js';
import type { JwsSigner } from './keys.js';

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
 * signed deterministically by `signer` (the key itself, or a pool of worker threads holding it).
 * @throws ArdsiteError `JWS_INVALID` when the signer and header disagree; the signer's errors.
 */
export async function signAgentCard(
  card: JsonObject,
  signer: JwsSigner,
  domain: string,
): Promise<JsonObject> {
  const { signatures: _ignored, ...unsigned } = card;
  const prepared = detachedSigningInput(
    agentCardSigningPayload(unsigned),
    { alg: signer.alg, kid: signer.kid, typ: 'JOSE', jku: jwksUrl(domain) },
    signer.alg,
  );
  const signature = detachedJws(prepared.protected, await signer.sign(prepared.signingInput));
  return { ...unsigned, signatures: [{ protected: signature.protected, signature: signature.signature }] };
}
