/**
 * `registry:` of `content/publisher.yaml` (ARD draft §4.2–§4.3, §6.6): registry mode, the lookup API
 * served beside the static site by `npm run serve`, with its base path, its entry's name, federation with
 * peer registries, page tokens, rate limits, body and answer-cache bounds. Part of the publisher file
 * (./publisher.ts).
 */
import { z } from 'zod';
import { isPrivateHost } from '../util/net-address.js';
import { parseAirUrn } from '../ard/urn.js';
import { httpsUrl, nonEmptyString, urnSegment } from './common.js';

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
 * A peer registry (ARD draft §4.3): its base URI (`https:`, never at a loopback, private or link-local
 * host: `REGISTRY_PEER_PRIVATE`), the identifier of its `application/ai-registry+json` entry (used in the visited-registries
 * trail), and the name returned in referrals.
 */
export const RegistryPeer = z
  .strictObject({
    url: httpsUrl
      .superRefine((value, ctx) => {
        // Content may not point the registry at this machine or a private network (ARD draft §6.5; the
        // client refuses names that resolve there unless the operator runs serve with --allow-private).
        let host: string | undefined;
        try {
          host = new URL(value).hostname;
        } catch {
          return;
        }
        if (isPrivateHost(host))
          ctx.addIssue({
            code: 'custom',
            message: `"${value}" is on this machine or a private network (a loopback, private or link-local address): a peer must be a public registry, named by its https name`,
            params: { code: 'REGISTRY_PEER_PRIVATE' },
          });
      })
      .transform((u) => u.replace(/\/+$/, ''))
      .meta({
        description: 'The peer’s lookup API base URI.',
        examples: ['https://registry.example.org/ard/v1'],
      }),
    identifier: airUrn.meta({
      description: 'The URN of the peer’s registry entry.',
      examples: ['urn:air:registry.example.org:agents:registry'],
    }),
    displayName: nonEmptyString.meta({
      description: 'The peer’s name, returned in referrals.',
      examples: ['Example Registry'],
    }),
  })
  .meta({ spec: 'ARD draft §4.3' });

/** `registry.federation:` (ARD draft §4.3, §6.6). */
export const FederationSettings = z
  .strictObject({
    /** The mode of a request that names none (the draft's default is `auto`). */
    defaultMode: z
      .enum(FEDERATION_MODES)
      .default('auto')
      .meta({ description: 'The federation mode of a request that names none.' }),
    /** The modes this registry answers; another mode is a 501 NOT_IMPLEMENTED. */
    modes: z
      .array(z.enum(FEDERATION_MODES))
      .min(1)
      .default([...FEDERATION_MODES])
      .meta({ description: 'The modes this registry answers; another mode gets 501 NOT_IMPLEMENTED.' }),
    peers: z
      .array(RegistryPeer)
      .default([])
      .meta({ description: 'The registries queries are forwarded to.' }),
    /** How long a peer may take to answer a forwarded query, in milliseconds. */
    timeoutMs: z
      .number()
      .int()
      .min(50)
      .max(30_000)
      .default(2_000)
      .meta({
        description: 'How long a peer may take to answer a forwarded query, in milliseconds (50 to 30000).',
        examples: [2000],
      }),
    /** The Hop-Count a query starts with here when it has none (ARD draft §6.6: at most 3). */
    maxHops: z
      .number()
      .int()
      .min(0)
      .max(3)
      .default(3)
      .meta({
        description: 'The Hop-Count a query starts with here when it has none (0 to 3).',
        examples: [3],
        spec: 'ARD draft §6.6',
      }),
  })
  .meta({ spec: 'ARD draft §4.2.2.1, §4.3' });

/**
 * `registry.pageToken:` the HMAC secret is read from this environment variable, never from the file. The
 * name is content, which a pull request may change, so it can only name a variable of ardsite's registry
 * (`ARDSITE_REGISTRY_…`): content naming a variable of known value (`PATH`, `HOME`) would make page tokens
 * forgeable, and naming another secret of the operator would put it to a use it was not given for.
 */
export const PageTokenSettings = z
  .strictObject({
    secretEnv: z
      .string()
      .regex(
        /^ARDSITE_REGISTRY_[A-Z0-9_]+$/,
        'must be an environment variable of the registry: ARDSITE_REGISTRY_ followed by A-Z, 0-9 or _',
      )
      .default(DEFAULT_PAGE_TOKEN_SECRET_ENV)
      .meta({
        description:
          'The environment variable holding the HMAC secret of page tokens (never the secret itself).',
        examples: [DEFAULT_PAGE_TOKEN_SECRET_ENV],
      }),
  })
  .meta({ spec: 'ARD draft §4.2' });

/** `registry.rateLimit:` a token bucket per client address (ARD draft §6.6). */
export const RateLimitSettings = z
  .strictObject({
    /** Requests a client may send in a burst. */
    capacity: z
      .number()
      .int()
      .min(1)
      .max(1_000_000)
      .default(60)
      .meta({ description: 'Requests a client address may send in a burst.', examples: [60] }),
    /** Tokens added back per second. */
    refillPerSecond: z
      .number()
      .positive()
      .max(1_000_000)
      .default(10)
      .meta({ description: 'Requests added back to each bucket per second.', examples: [10] }),
    /** Loopback clients (127.0.0.0/8, ::1) are not limited: for benchmarks and local tools. */
    exemptLoopback: z.boolean().default(false).meta({
      description: 'true: loopback clients (127.0.0.0/8, ::1) are not limited (benchmarks, local tools).',
    }),
  })
  .meta({ spec: 'ARD draft §6.6' });

/**
 * `registry:` the dynamic half of the site (ARD draft §4.2–§4.3): the lookup API served beside the static
 * files by `npm run serve`. Enabled here or with `npm run build -- --registry`.
 */
export const RegistrySettings = z
  .strictObject({
    enabled: z.boolean().default(false).meta({
      description:
        'true: `npm run build` builds in registry mode and `npm run serve` answers the lookup API.',
    }),
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
      .default(DEFAULT_REGISTRY_BASE_PATH)
      .meta({
        description: 'Path of the lookup API on the site: https://<domain><basePath>.',
        examples: ['/ard/v1'],
      }),
    /** Last segment of the registry entry's URN: `urn:air:<domain>:<namespace>:<name>`. */
    name: urnSegment.default('registry').meta({
      description: 'Last segment of the registry entry’s URN: urn:air:<domain>:<namespace>:<name>.',
      examples: ['registry'],
      spec: 'ARD draft §3.4',
    }),
    displayName: nonEmptyString.optional().meta({
      description: 'The registry entry’s displayName; default: "<organization> agent registry".',
      examples: ['Example Travel Co. agent registry'],
    }),
    description: nonEmptyString.optional().meta({
      description: 'The registry entry’s description.',
      examples: ['Finds the travel agents of Example Travel Co. and its partners.'],
    }),
    federation: FederationSettings.default({
      defaultMode: 'auto',
      modes: [...FEDERATION_MODES],
      peers: [],
      timeoutMs: 2_000,
      maxHops: 3,
    }).meta({ description: 'How queries are forwarded to other registries.' }),
    pageToken: PageTokenSettings.default({ secretEnv: DEFAULT_PAGE_TOKEN_SECRET_ENV }).meta({
      description: 'The signed pageToken of paged answers.',
    }),
    rateLimit: RateLimitSettings.default({ capacity: 60, refillPerSecond: 10, exemptLoopback: false }).meta({
      description: 'A token bucket per client address.',
    }),
    /** Largest request body accepted, in bytes; a larger one is refused before it is read. */
    maxBodyBytes: z
      .number()
      .int()
      .min(256)
      .max(1_048_576)
      .default(16_384)
      .meta({
        description:
          'Largest request body accepted, in bytes (256 to 1048576); a larger one is refused unread.',
        examples: [16384],
      }),
    /**
     * Bound of each server process's answer cache (src/core/registry/answer-cache.ts), in bytes: answers
     * it has given, served again to the same request without a render. 0 turns it off.
     */
    answerCacheBytes: z
      .number()
      .int()
      .min(0)
      .max(4 * 1024 ** 3)
      .default(64 * 1024 ** 2)
      .meta({
        description:
          'Bytes of answers each server process keeps to serve a repeated request again; 0 turns it off.',
        examples: [67108864],
      }),
  })
  .meta({ spec: 'ARD draft §4.2–§4.3' });

/** The validated `registry:` settings, defaults applied. */
export type RegistryConfig = z.infer<typeof RegistrySettings>;
/** One configured peer registry. */
export type RegistryPeerConfig = z.infer<typeof RegistryPeer>;
