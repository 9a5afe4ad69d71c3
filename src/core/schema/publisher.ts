/**
 * `content/publisher.yaml`: who publishes the site and how it is signed (DESIGN.md §1, §4).
 */
import { z } from 'zod';
import { isFqdn, parseAirUrn } from '../urn.js';
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

/** Federation modes of a search request (ARD draft §4.2.2.1, §4.3). */
export const FEDERATION_MODES = ['auto', 'referrals', 'none'] as const;
/** One federation mode. */
export type FederationMode = (typeof FEDERATION_MODES)[number];

/** Default base path of the lookup API (ARD draft §4.2: the paths are relative to the registry's base URI). */
export const DEFAULT_REGISTRY_BASE_PATH = '/ard/v1';
/** Default name of the environment variable that holds the pageToken HMAC secret. */
export const DEFAULT_PAGE_TOKEN_SECRET_ENV = 'ARDSITE_REGISTRY_SECRET';

/** A `urn:air:<domain>:<namespace>:<name>` identifier (ARD draft §3.4). */
const airUrn = nonEmptyString.superRefine((value, ctx) => {
  const parsed = parseAirUrn(value);
  if (typeof parsed === 'string')
    ctx.addIssue({ code: 'custom', message: parsed, params: { code: 'ARD_URN_INVALID' } });
});

/**
 * A peer registry (ARD draft §4.3): its base URI (`https:`; `http:` for loopback hosts only, as in
 * tests), the identifier of its `application/ai-registry+json` entry (used in the visited-registries
 * trail), and the name returned in referrals.
 */
export const RegistryPeer = z.strictObject({
  url: httpsUrl.transform((u) => u.replace(/\/+$/, '')),
  identifier: airUrn,
  displayName: nonEmptyString,
});

/** `registry.federation:` (ARD draft §4.3, §6.6). */
export const FederationSettings = z.strictObject({
  /** The mode of a request that names none (the draft's default is `auto`). */
  defaultMode: z.enum(FEDERATION_MODES).default('auto'),
  /** The modes this registry answers; another mode is a 501 NOT_IMPLEMENTED. */
  modes: z
    .array(z.enum(FEDERATION_MODES))
    .min(1)
    .default([...FEDERATION_MODES]),
  peers: z.array(RegistryPeer).default([]),
  /** How long a peer may take to answer a forwarded query, in milliseconds. */
  timeoutMs: z.number().int().min(50).max(30_000).default(2_000),
  /** The Hop-Count a query starts with here when it has none (ARD draft §6.6: at most 3). */
  maxHops: z.number().int().min(0).max(3).default(3),
});

/** `registry.pageToken:` the HMAC secret is read from this environment variable, never from the file. */
export const PageTokenSettings = z.strictObject({
  secretEnv: z
    .string()
    .regex(/^[A-Z_][A-Z0-9_]*$/, 'must be an environment variable name (A-Z, 0-9, _)')
    .default(DEFAULT_PAGE_TOKEN_SECRET_ENV),
});

/** `registry.rateLimit:` a token bucket per client address (ARD draft §6.6). */
export const RateLimitSettings = z.strictObject({
  /** Requests a client may send in a burst. */
  capacity: z.number().int().min(1).max(1_000_000).default(60),
  /** Tokens added back per second. */
  refillPerSecond: z.number().positive().max(1_000_000).default(10),
  /** Loopback clients (127.0.0.0/8, ::1) are not limited: for benchmarks and local tools. */
  exemptLoopback: z.boolean().default(false),
});

/**
 * `registry:` the dynamic half of the site (ARD draft §4.2–§4.3): the lookup API served beside the static
 * files by `npm run serve`. Enabled here or with `npm run build -- --registry`.
 */
export const RegistrySettings = z.strictObject({
  enabled: z.boolean().default(false),
  /** Path of the registry's base URI on the site's origin: `https://<domain><basePath>`. */
  basePath: z
    .string()
    .regex(
      /^(\/[A-Za-z0-9._~-]+)+$/,
      'must be a path such as /ard/v1 (segments of A-Z a-z 0-9 . _ ~ -, no trailing slash)',
    )
    .refine(
      (p) => !['/.well-known', '/agents', '/_astro'].some((own) => p === own || p.startsWith(`${own}/`)),
      {
        message: 'must not lie under /.well-known, /agents or /_astro, which the static site uses',
        params: { code: 'SCHEMA_INVALID_VALUE' },
      },
    )
    .default(DEFAULT_REGISTRY_BASE_PATH),
  /** Last segment of the registry entry's URN: `urn:air:<domain>:<namespace>:<name>`. */
  name: urnSegment.default('registry'),
  displayName: nonEmptyString.optional(),
  description: nonEmptyString.optional(),
  federation: FederationSettings.default({
    defaultMode: 'auto',
    modes: [...FEDERATION_MODES],
    peers: [],
    timeoutMs: 2_000,
    maxHops: 3,
  }),
  pageToken: PageTokenSettings.default({ secretEnv: DEFAULT_PAGE_TOKEN_SECRET_ENV }),
  rateLimit: RateLimitSettings.default({ capacity: 60, refillPerSecond: 10, exemptLoopback: false }),
  /** Largest request body accepted, in bytes; a larger one is refused before it is read. */
  maxBodyBytes: z.number().int().min(256).max(1_048_576).default(16_384),
  /**
   * Bound of each server process's answer cache (src/core/registry/answer-cache.ts), in bytes: answers
   * it has given, served again to the same request without a render. 0 turns it off.
   */
  answerCacheBytes: z
    .number()
    .int()
    .min(0)
    .max(4 * 1024 ** 3)
    .default(64 * 1024 ** 2),
});

/** The validated `registry:` settings, defaults applied. */
export type RegistryConfig = z.infer<typeof RegistrySettings>;
/** One configured peer registry. */
export type RegistryPeerConfig = z.infer<typeof RegistryPeer>;

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
  registry: RegistrySettings.default(() => RegistrySettings.parse({})),
});

/** The validated publisher, defaults applied. */
export type PublisherConfig = z.infer<typeof Publisher>;
