/**
 * Zod 4 schemas of a release history file, `content/releases/<slug>.json` (DESIGN.md §9 "Releases";
 * docs/releases.md): written by `npm run release`, kept by the publisher in git, read by the build.
 */
import { z } from 'zod';
import { ResourceAccessManifest } from './ram.js';

/** The `format` value of a release history file. */
export const RELEASE_HISTORY_FORMAT = 1;

/** One recorded release. */
export const ReleaseRecordSchema = z
  .strictObject({
    version: z
      .string()
      .min(1)
      .meta({
        description: "The agent's `version` (its card's and its ARD entry's) when it was released.",
        examples: ['1.1.0'],
      }),
    releasedAt: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/, 'must be an ISO 8601 UTC time to the second')
      .meta({
        description:
          'When the release was recorded: SOURCE_DATE_EPOCH or the time `npm run release` ran, ISO 8601 UTC to the second.',
        examples: ['2026-03-03T09:00:00Z'],
        spec: 'RFC 3339 §5.6',
      }),
    ram: ResourceAccessManifest.meta({
      description: 'The Resource Access Manifest the card of this version published (camelCase JSON).',
      spec: 'RAM proposal ResourceAccessManifest',
    }),
    readOnlyOperations: z
      .array(z.string().min(1))
      .optional()
      .meta({
        description:
          'Ids of MCP or A2A operations of this RAM that the author marked `readOnly: true` (they only read data).',
        examples: [['dining-search-call']],
        spec: 'DESIGN.md §6 (may change data)',
      }),
    scopes: z
      .record(z.string(), z.array(z.string().min(1)))
      .optional()
      .meta({
        description:
          "The agent's permission set when it has one: ResourceAccess id → the scopes that access needs.",
        examples: [{ 'create-trip-event': ['https://www.googleapis.com/auth/calendar.events'] }],
        spec: 'DESIGN.md §9 (Permissions from specs)',
      }),
  })
  .meta({ spec: 'DESIGN.md §9 (Releases)' });

/** A release history file. */
export const ReleaseHistorySchema = z
  .strictObject({
    format: z.literal(RELEASE_HISTORY_FORMAT).meta({
      description: 'The format version of this file.',
      examples: [1],
    }),
    identifier: z
      .string()
      .min(1)
      .meta({
        description: "The agent's ARD identifier, for a reader of this file alone.",
        examples: ['urn:air:travel.example.com:travel:travel-reservation'],
        spec: 'ARD draft §3.4',
      }),
    releases: z.array(ReleaseRecordSchema).min(1).meta({
      description: 'The recorded releases, oldest first; `npm run release` appends, nothing rewrites.',
    }),
  })
  .meta({ spec: 'DESIGN.md §9 (Releases), docs/releases.md' });
