/**
 * The trustManifest of an own entry (ARD draft §3.5, DESIGN.md §4 step 5): `identity` did:web of the
 * site, `subject` equal to the entry's coordinates, signed with a compact JWS whose payload is detached
 * (RFC 7515 Appendix F) and is the RFC 8785 JCS of the trustManifest without `signature`.
 */
import { canonicalBytes } from './jcs.js';
import { detachedJws, detachedSigningInput } from './jws.js';
import type { JwsSigner } from './keys.js';

/** Identifier of ardsite's trust profile, named in every `trustSchema` (docs/trust-profile.md). */
export const TRUST_PROFILE_IDENTIFIER = 'urn:ardsite:trust-profile:did-web-jcs-jws';
/** Version of the trust profile. */
export const TRUST_PROFILE_VERSION = '1';

/** `trust-subject` (ARD draft §5). */
export interface TrustSubject {
  identifier: string;
  type: string;
  version?: string;
  digest?: string;
}

/** An attestation as sealed in a trustManifest (ARD draft §3.5, §6.4). */
export interface SealedAttestation {
  type: string;
  uri: string;
  mediaType?: string;
  digest?: string;
}

/** A signed trustManifest (ARD draft §3.5). Member order is the order ardsite writes. */
export interface SignedTrustManifest {
  identity: string;
  identityType: 'did';
  issuedAt: string;
  expiresAt?: string;
  subject: TrustSubject;
  trustSchema: { identifier: string; version: string; verificationMethods: string[] };
  attestations?: SealedAttestation[];
  signature: string;
}

/** What {@link signTrustManifest} needs besides the key. */
export interface TrustManifestInput {
  did: string;
  subject: TrustSubject;
  /** ISO 8601 UTC. */
  issuedAt: string;
  /** ISO 8601 UTC, when configured. */
  expiresAt?: string;
  attestations?: SealedAttestation[];
}

/** The JWS payload of a trustManifest: RFC 8785 JCS of it without `signature` (ARD draft §3.5). */
export function trustManifestPayload(
  manifest: Omit<SignedTrustManifest, 'signature'> | Record<string, unknown>,
): Uint8Array {
  const { signature: _ignored, ...unsigned } = manifest as Record<string, unknown>;
  return canonicalBytes(unsigned);
}

/**
 * Builds and signs a trustManifest. The protected header is `{alg, kid}` (ARD draft §3.5); `signer` is the
 * key itself or a pool of worker threads holding it (src/core/trust/signer-pool.ts): the same bytes either way.
 * @throws ArdsiteError `JWS_INVALID` or `SCHEMA_INVALID_VALUE` from the signer.
 */
export async function signTrustManifest(
  input: TrustManifestInput,
  signer: JwsSigner,
): Promise<SignedTrustManifest> {
  const unsigned: Omit<SignedTrustManifest, 'signature'> = {
    identity: input.did,
    identityType: 'did',
    issuedAt: input.issuedAt,
    ...(input.expiresAt ? { expiresAt: input.expiresAt } : {}),
    subject: input.subject,
    trustSchema: {
      identifier: TRUST_PROFILE_IDENTIFIER,
      version: TRUST_PROFILE_VERSION,
      verificationMethods: ['did:web'],
    },
    ...(input.attestations && input.attestations.length > 0 ? { attestations: input.attestations } : {}),
  };
  const prepared = detachedSigningInput(
    trustManifestPayload(unsigned),
    { alg: signer.alg, kid: signer.kid },
    signer.alg,
  );
  const jws = detachedJws(prepared.protected, await signer.sign(prepared.signingInput));
  // Compact serialisation with the payload detached (RFC 7515 Appendix F): `header..signature`.
  return { ...unsigned, signature: `${jws.protected}..${jws.signature}` };
}
