/**
 * ARD entries, trustManifests and the manifest container, as the CDDL of ARD draft §5 gives them
 * (`ard-manifest`, `ard-entry`, `trust-manifest`, …), and the publisher's other entries
 * (`content/entries/<slug>.yaml`, DESIGN.md §1).
 *
 * The CDDL leaves every map open (`* tstr => any`), so these schemas are loose objects: they check the
 * fields the draft names and keep the rest.
 */
import { z } from 'zod';
import { isoDate, mediaType, nonEmptyObject, nonEmptyString, PER_LANGUAGE } from './common.js';
import { AttestationInput } from './attestation.js';

const tstr = z.string();
const nonEmptyList = z.array(tstr).min(1);

/** `.meta()` of a field of the draft's CDDL: its description and one example. */
function doc(description: string, example: unknown): { description: string; examples: unknown[] } {
  return { description, examples: [example] };
}

/** `trust-subject` (ARD draft §5). */
export const TrustSubject = z
  .looseObject({
    identifier: tstr.meta(
      doc('The identifier of what the manifest vouches for.', 'urn:air:other.example:agents:booker'),
    ),
    type: tstr.meta(doc('The media type of the subject.', 'application/a2a-agent-card+json')),
    version: tstr.optional().meta(doc('The subject’s version.', '2.1.0')),
    digest: tstr
      .optional()
      .meta(
        doc(
          'The digest of the subject’s document.',
          'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
        ),
      ),
    url: tstr
      .optional()
      .meta(doc('Where the subject’s document is.', 'https://other.example/.well-known/agent-card.json')),
  })
  .meta({ spec: 'ARD draft §3.5.2, §5 trust-subject' });

/** `trust-schema` (ARD draft §5). */
export const TrustSchema = z
  .looseObject({
    identifier: tstr.optional().meta(doc('The trust framework the manifest follows.', 'ard-trust-basic')),
    version: tstr.optional().meta(doc('Its version.', '1.0')),
    governanceUri: tstr.optional().meta(doc('Where its rules are published.', 'https://other.example/trust')),
    verificationMethods: z
      .array(tstr)
      .optional()
      .meta(doc('How the manifest may be verified.', ['did:web'])),
  })
  .meta({ spec: 'ARD draft §5 trust-schema' });

/** `attestation` (ARD draft §5). */
export const Attestation = z
  .looseObject({
    type: tstr.meta(doc('The kind of attestation.', 'SOC2-Type2')),
    uri: tstr.meta(doc('Where the attestation document is.', 'https://other.example/soc2.pdf')),
    mediaType: tstr.optional().meta(doc('Its media type.', 'application/pdf')),
    digest: tstr
      .optional()
      .meta(doc('Its digest.', 'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08')),
  })
  .meta({ spec: 'ARD draft §3.5, §5 attestation' });

/** `provenance-link` (ARD draft §5). */
export const ProvenanceLink = z
  .looseObject({
    relation: tstr.meta(doc('How the subject relates to the source.', 'derivedFrom')),
    sourceId: tstr.meta(doc('The identifier of the source.', 'urn:air:other.example:agents:base')),
    sourceDigest: tstr
      .optional()
      .meta(
        doc(
          'The digest of the source.',
          'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
        ),
      ),
  })
  .meta({ spec: 'ARD draft §5 provenance-link' });

/** `trust-manifest` (ARD draft §3.5, §5). */
export const TrustManifest = z
  .looseObject({
    identity: tstr.meta(doc('Who vouches: the signer’s identity (a did:web).', 'did:web:other.example')),
    issuedAt: tstr.optional().meta(doc('When it was signed.', '2026-03-01T09:00:00Z')),
    expiresAt: tstr.optional().meta(doc('When it stops being valid.', '2026-06-01T09:00:00Z')),
    subject: TrustSubject.optional().meta({ description: 'What the manifest vouches for.' }),
    identityType: tstr.optional().meta(doc('The kind of identity.', 'did')),
    trustSchema: TrustSchema.optional().meta({ description: 'The trust framework followed.' }),
    attestations: z.array(Attestation).optional().meta({ description: 'Audits and certifications.' }),
    provenance: z.array(ProvenanceLink).optional().meta({ description: 'Where the subject comes from.' }),
    signature: tstr.optional().meta(doc('The JWS over the manifest.', 'eyJhbGciOiJFUzI1NiJ9..c2ln')),
  })
  .meta({ spec: 'ARD draft §3.5, §5 trust-manifest' });

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
export const OtherEntryFile = z
  .strictObject({
    identifier: nonEmptyString.meta({
      description:
        'The entry’s URN, urn:air:<domain>:<namespace>:<name>. Your domain: the entry is signed by this site; another domain: it is listed as given.',
      examples: ['urn:air:agents.example.com:travel:trip-tools-mcp'],
      spec: 'ARD draft §3.2.1, §3.4',
    }),
    displayName: nonEmptyString.meta({
      ...PER_LANGUAGE,
      description: 'The entry’s name, shown to people.',
      examples: ['Trip tools'],
    }),
    type: mediaType.meta({
      description:
        'The media type of what the entry points at, an IANA media type string (ARD draft §3.2.1): application/mcp-server-card+json for an MCP server card, application/a2a-agent-card+json for an AgentCard, …',
      examples: ['application/mcp-server-card+json'],
    }),
    url: nonEmptyString.optional().meta({
      description:
        'Where the entry’s document is: an https URL, or a site path of a file under public/. Give `url` or `data`.',
      examples: ['/mcp/trip-tools.json'],
    }),
    data: nonEmptyObject.optional().meta({
      description: 'The entry’s document inline, instead of `url`.',
      examples: [{ name: 'trip-tools', version: '1.0.0' }],
    }),
    digest: z
      .string()
      .regex(/^sha(256|384|512):[0-9a-f]+$/, 'must be <alg>:<lowercase hex>, e.g. sha256:…')
      .optional()
      .meta({
        description:
          'The digest of the document at an outside `url` (`npm run pin` writes it); computed by the build for a file of the site.',
        examples: ['sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'],
      }),
    description: nonEmptyString.optional().meta({
      ...PER_LANGUAGE,
      description: 'What the entry is, in a sentence or two.',
      examples: ['MCP tools for searching flights and hotels.'],
      spec: 'ARD draft §3.2.3',
    }),
    tags: z
      .array(nonEmptyString)
      .min(1)
      .optional()
      .meta({
        description: 'Keywords of the entry.',
        examples: [['travel', 'mcp']],
        spec: 'ARD draft §3.2.2',
      }),
    capabilities: z
      .array(nonEmptyString)
      .min(1)
      .optional()
      .meta({
        description: 'What it can do, as short phrases.',
        examples: [['flight search']],
        spec: 'ARD draft §3.2.2',
      }),
    representativeQueries: z
      .array(nonEmptyString)
      .min(1)
      .optional()
      .meta({
        description: 'Requests a registry should route to it (2 to 5).',
        examples: [['find a flight to Lisbon', 'hotels near the venue']],
        spec: 'ARD draft §3.2.2',
      }),
    version: nonEmptyString.optional().meta({
      description: 'The version of what the entry points at.',
      examples: ['1.2.0'],
      spec: 'ARD draft §3.2.3',
    }),
    updatedAt: isoDate.optional().meta({
      description: 'When it last changed; default: the last git commit of the file.',
      examples: ['2026-03-01'],
      spec: 'ARD draft §3.2.3',
    }),
    metadata: nonEmptyObject.optional().meta({
      description: 'Free-form members of the entry.',
      examples: [{ region: 'EU' }],
      spec: 'ARD draft §3.2.3',
    }),
    /** Foreign entries only: the other publisher's own signed manifest(s), kept verbatim. */
    trustManifest: TrustManifest.optional().meta({
      description: 'Another publisher’s entry only: its own signed trustManifest, kept as it is.',
    }),
    trustManifests: z.array(TrustManifest).min(1).optional().meta({
      description: 'Another publisher’s entry only: its signed trustManifests, kept as they are.',
    }),
    /** Own entries only: attestations sealed into our trustManifest. */
    attestations: z.array(AttestationInput).optional().meta({
      description: 'Your entry only: attestations sealed into the trustManifest this site signs.',
      spec: 'ARD draft §3.5',
    }),
  })
  .meta({ spec: 'ARD draft §3.2' });

/** A validated `content/entries/<slug>.yaml` file. */
export type OtherEntryInput = z.infer<typeof OtherEntryFile>;
