/**
 * ARD entries, trustManifests and the manifest container, as the CDDL of ARD draft §5 gives them
 * (`ard-manifest`, `ard-entry`, `trust-manifest`, …), and the publisher's other entries
 * (`content/entries/<slug>.yaml`, DESIGN.md §1).
 *
 * The CDDL leaves every map open (`* tstr => any`), so these schemas are loose objects: they check the
 * fields the draft names and keep the rest.
 */
import { z } from 'zod';
import { isoDate, mediaType, nonEmptyObject, nonEmptyString } from './common.js';
import { AttestationInput } from './agent.js';

const tstr = z.string();
const nonEmptyList = z.array(tstr).min(1);

/** `trust-subject` (ARD draft §5). */
export const TrustSubject = z.looseObject({
  identifier: tstr,
  type: tstr,
  version: tstr.optional(),
  digest: tstr.optional(),
  url: tstr.optional(),
});

/** `trust-schema` (ARD draft §5). */
export const TrustSchema = z.looseObject({
  identifier: tstr.optional(),
  version: tstr.optional(),
  governanceUri: tstr.optional(),
  verificationMethods: z.array(tstr).optional(),
});

/** `attestation` (ARD draft §5). */
export const Attestation = z.looseObject({
  type: tstr,
  uri: tstr,
  mediaType: tstr.optional(),
  digest: tstr.optional(),
});

/** `provenance-link` (ARD draft §5). */
export const ProvenanceLink = z.looseObject({
  relation: tstr,
  sourceId: tstr,
  sourceDigest: tstr.optional(),
});

/** `trust-manifest` (ARD draft §3.5, §5). */
export const TrustManifest = z.looseObject({
  identity: tstr,
  issuedAt: tstr.optional(),
  expiresAt: tstr.optional(),
  subject: TrustSubject.optional(),
  identityType: tstr.optional(),
  trustSchema: TrustSchema.optional(),
  attestations: z.array(Attestation).optional(),
  provenance: z.array(ProvenanceLink).optional(),
  signature: tstr.optional(),
});

/** `ard-entry` (ARD draft §3.2, §5); exactly one of `url` and `data` is checked separately. */
export const ArdEntry = z.looseObject({
  '@context': z.unknown().optional(),
  '@id': tstr.optional(),
  identifier: tstr,
  displayName: tstr,
  type: tstr,
  url: tstr.optional(),
  data: z.record(z.string(), z.unknown()).optional(),
  description: tstr.optional(),
  tags: nonEmptyList.optional(),
  capabilities: nonEmptyList.optional(),
  representativeQueries: z.array(tstr).optional(),
  version: tstr.optional(),
  digest: tstr.optional(),
  updatedAt: tstr.optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  trustManifest: TrustManifest.optional(),
  trustManifests: z.array(TrustManifest).min(1).optional(),
});

/** `ard-manifest` (ARD draft §3.6, §5). */
export const ArdManifest = z.looseObject({ entries: z.array(z.unknown()) });

/**
 * A `content/entries/<slug>.yaml` file: an ARD entry the publisher lists beside its agents. `url` is an
 * absolute https URL or a site path (`/mcp/card.json`) of a file under `public/`; or `data` inline.
 * Own entries (URN domain = site domain) are signed; foreign ones are listed verbatim (DESIGN.md §1).
 */
export const OtherEntryFile = z.strictObject({
  identifier: nonEmptyString,
  displayName: nonEmptyString,
  type: mediaType,
  url: nonEmptyString.optional(),
  data: nonEmptyObject.optional(),
  digest: z
    .string()
    .regex(/^sha(256|384|512):[0-9a-f]+$/, 'must be <alg>:<lowercase hex>, e.g. sha256:…')
    .optional(),
  description: nonEmptyString.optional(),
  tags: z.array(nonEmptyString).min(1).optional(),
  capabilities: z.array(nonEmptyString).min(1).optional(),
  representativeQueries: z.array(nonEmptyString).min(1).optional(),
  version: nonEmptyString.optional(),
  updatedAt: isoDate.optional(),
  metadata: nonEmptyObject.optional(),
  /** Foreign entries only: the other publisher's own signed manifest(s), kept verbatim. */
  trustManifest: TrustManifest.optional(),
  trustManifests: z.array(TrustManifest).min(1).optional(),
  /** Own entries only: attestations sealed into our trustManifest. */
  attestations: z.array(AttestationInput).optional(),
});

/** A validated `content/entries/<slug>.yaml` file. */
export type OtherEntryInput = z.infer<typeof OtherEntryFile>;
