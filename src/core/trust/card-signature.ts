/**
 * The A2A AgentCard signatures (A2A spec §8.4; DESIGN.md §9 "Card signatures amended"; A2A#2122;
 * docs/trust-profile.md). A2A §8.4 is read two ways, and every card carries one signature per reading,
 * both detached JWS with the protected header `{alg, kid, typ: "JOSE", jku}`:
 *
 * 1. the SDK reading: the payload is the card canonicalised the way `@a2a-js/sdk` does it (proto fields
 *    only, defaults and empty values dropped, `signatures` removed, RFC 8785). The SDK's own
 *    `canonicalizeAgentCard` is used, not a copy of its rules, so a verifier using the SDK computes the
 *    same payload. It leaves out what the v1.0 proto does not define: the v0.3 fields, the top-level
 *    `resourceAccessManifest`, the v0.3 members of the security schemes.
 * 2. the whole-card reading: the payload is RFC 8785 JCS of the card exactly as served, minus
 *    `signatures` (the A2A v0.3 reading, the one test kits use), so every served member is covered. Its
 *    protected header also carries {@link CARD_CANONICALIZATION_PARAM}` = `{@link WHOLE_CARD_CANONICALIZATION}
 *    so that a verifier knows which reading applies without trying both.
 */
import { canonicalizeAgentCard } from '@a2a-js/sdk';
import { serializeJsonDocument, type JsonObject } from '../a2a/card.js';
import { utf8Bytes } from '../util/json.js';
import { sha256Digest } from '../ard/digest.js';
import { canonicalBytes } from './jcs.js';
import { detachedJws, detachedSigningInput } from './jws.js';
import type { JwsSigner } from './keys.js';

/** The protected-header parameter naming a card signature's reading (docs/trust-profile.md). */
export const CARD_CANONICALIZATION_PARAM = 'canonicalization';

/** Its value on the whole-card signature: RFC 8785 JCS of the served card minus `signatures`. */
export const WHOLE_CARD_CANONICALIZATION = 'jcs-served-card';

/** The `jku` of the site: `https://<domain>/.well-known/jwks.json` (A2A spec §8.4.2). */
export function jwksUrl(domain: string): string {
  return `https://${domain}/.well-known/jwks.json`;
}

/** The exact payload bytes the SDK-reading signature covers (A2A spec §8.4.1, via @a2a-js/sdk). */
export function agentCardSigningPayload(card: JsonObject): Uint8Array {
  return utf8Bytes(canonicalizeAgentCard(card as never));
}

/** The exact payload bytes the whole-card signature covers: RFC 8785 JCS of the card minus `signatures`. */
export function wholeCardSigningPayload(card: JsonObject): Uint8Array {
  const { signatures: _ignored, ...served } = card;
  return canonicalBytes(served);
}

/** Whether a decoded protected header marks the whole-card reading. */
export function isWholeCardHeader(header: Record<string, unknown>): boolean {
  return header[CARD_CANONICALIZATION_PARAM] === WHOLE_CARD_CANONICALIZATION;
}

/**
 * Returns a copy of `card` with `signatures: [sdkReading, wholeCard]` (A2A `AgentCardSignature`,
 * `{protected, signature}` each), signed deterministically by `signer` (the key itself, or a pool of
 * worker threads holding it). The card must be final: any later change breaks the whole-card signature.
 * @throws ArdsiteError `JWS_INVALID` when the signer and header disagree; the signer's errors.
 */
export async function signAgentCard(
  card: JsonObject,
  signer: JwsSigner,
  domain: string,
): Promise<JsonObject> {
  const { signatures: _ignored, ...unsigned } = card;
  const header = { alg: signer.alg, kid: signer.kid, typ: 'JOSE', jku: jwksUrl(domain) };
  const sign = async (payload: Uint8Array, protectedHeader: Record<string, unknown>) => {
    const prepared = detachedSigningInput(payload, protectedHeader, signer.alg);
    const jws = detachedJws(prepared.protected, await signer.sign(prepared.signingInput));
    return { protected: jws.protected, signature: jws.signature };
  };
  const [sdk, whole] = await Promise.all([
    sign(agentCardSigningPayload(unsigned), header),
    sign(wholeCardSigningPayload(unsigned), {
      ...header,
      [CARD_CANONICALIZATION_PARAM]: WHOLE_CARD_CANONICALIZATION,
    }),
  ]);
  return { ...unsigned, signatures: [sdk, whole] };
}

/** A signed card as it is served: the bytes of its one serialisation and their `sha256:<hex>` digest. */
export interface SealedCard {
  bytes: Uint8Array;
  digest: string;
}

/**
 * A signer that can also seal whole cards ({@link sealAgentCard}) where it signs: a pool of worker threads
 * (src/core/trust/signer-pool.ts), so that canonicalising, signing and serialising a card leave the
 * thread that builds the cards.
 */
export interface CardSealer {
  sealCard(card: JsonObject, domain: string): Promise<SealedCard>;
}

/**
 * Signs `card` ({@link signAgentCard}) and serialises the signed card the one way ardsite writes JSON
 * (`serializeJsonDocument`, DESIGN.md §4 step 3), with the sha256 digest of those bytes (step 4). When
 * `signer` is a {@link CardSealer}, the whole step runs where it signs: the same functions, so the same
 * bytes.
 * @throws the errors of {@link signAgentCard}.
 */
export async function sealAgentCard(
  card: JsonObject,
  signer: JwsSigner & Partial<CardSealer>,
  domain: string,
): Promise<SealedCard> {
  if (signer.sealCard) return signer.sealCard(card, domain);
  const bytes = serializeJsonDocument(await signAgentCard(card, signer, domain));
  return { bytes, digest: sha256Digest(bytes) };
}
