/**
 * `content/publisher.yaml`: who publishes the site and how it is signed (DESIGN.md §1, §4).
 */
import { z } from 'zod';
import { isFqdn } from '../urn.js';
import { httpsUrl, isoDate, nonEmptyString, urnSegment } from './common.js';

/** Default URI of the RAM data-only extension: it names the RAM proposal (DESIGN.md §3). */
export const DEFAULT_RAM_EXTENSION_URI = 'https://github.com/a2aproject/A2A/issues/1426';

/** A public key that was rotated out: published until `retireAt`, dropped at once when `revoked`. */
export const RetiredKey = z.strictObject({
  jwk: z.record(z.string(), z.unknown()),
  retireAt: isoDate.optional(),
  revoked: z.boolean().optional(),
});

/** `signing:` settings (DESIGN.md §4). */
export const SigningSettings = z.strictObject({
  /** Type of a key created here (default ES256); when set, a supplied key of another type is refused. */
  algorithm: z.enum(['ES256', 'EdDSA']).optional(),
  keyFile: nonEmptyString.optional(),
  requireKey: z.boolean().default(false),
  /** Days after `issuedAt` at which trustManifests expire; none when absent. */
  expiresInDays: z.number().int().positive().optional(),
  retiredKeys: z.array(RetiredKey).optional(),
});

/** `hosting:` options (DESIGN.md §2). */
export const HostingSettings = z.strictObject({
  /** Also write the primary card at `/.well-known/agent.json` (pre-0.3 clients). */
  legacyAgentJson: z.boolean().default(false),
});

/** `ram:` options (DESIGN.md §3). */
export const RamSettings = z.strictObject({
  extensionUri: httpsUrl.default(DEFAULT_RAM_EXTENSION_URI),
  topLevel: z.boolean().default(true),
});

/** The publisher file. `siteUrl` must be exactly `https://<domain>/` (checked by the loader). */
export const Publisher = z.strictObject({
  domain: nonEmptyString.refine(isFqdn, 'must be a lower-case domain name without port or trailing dot'),
  siteUrl: httpsUrl,
  organization: nonEmptyString,
  organizationUrl: httpsUrl,
  namespace: urnSegment.default('agents'),
  siteName: nonEmptyString.optional(),
  description: nonEmptyString.optional(),
  language: nonEmptyString.default('en'),
  contactEmail: z.email().optional(),
  contactUrl: httpsUrl.optional(),
  privacyPolicyUrl: httpsUrl.optional(),
  termsUrl: httpsUrl.optional(),
  primaryAgent: urnSegment.optional(),
  signing: SigningSettings.default({ requireKey: false }),
  hosting: HostingSettings.default({ legacyAgentJson: false }),
  ram: RamSettings.default({ extensionUri: DEFAULT_RAM_EXTENSION_URI, topLevel: true }),
});

/** The validated publisher, defaults applied. */
export type PublisherConfig = z.infer<typeof Publisher>;
