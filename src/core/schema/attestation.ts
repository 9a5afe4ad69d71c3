/**
 * An attestation an author lists for an own entry (ARD draft §3.5 `attestation`): in an agent file
 * (./agent.ts) and in an entry file (./entry.ts); the build seals it into the entry's trustManifest with
 * the digest of its local file (DESIGN.md §1).
 */
import { z } from 'zod';
import { httpsUrl, mediaType, nonEmptyString } from './common.js';

/** An author-listed attestation (ARD draft §3.5): the build computes the digest of a local `file`. */
export const AttestationInput = z
  .strictObject({
    type: nonEmptyString.meta({
      description: 'The kind of attestation (a report, a certification, …).',
      examples: ['SOC2-Type2'],
    }),
    uri: httpsUrl.meta({
      description: 'Where the attestation document is published.',
      examples: ['https://agents.example.com/attestations/soc2.pdf'],
    }),
    mediaType: mediaType.optional().meta({
      description: 'The media type of the document.',
      examples: ['application/pdf'],
    }),
    /** A file under the project root whose sha256 becomes the attestation's `digest`. */
    file: nonEmptyString.optional().meta({
      description:
        'A file of the project (relative to its root) whose sha256 the build writes as `digest`; usually the file under public/ that `uri` serves.',
      examples: ['public/attestations/soc2.pdf'],
      spec: 'DESIGN.md §1',
    }),
    digest: nonEmptyString.optional().meta({
      description: 'The digest of the document (`sha256:<hex>`), when no `file` gives it.',
      examples: ['sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'],
    }),
  })
  .meta({ spec: 'ARD draft §3.5 attestation' });

/** A validated author-listed attestation. */
export type AttestationInputType = z.infer<typeof AttestationInput>;
