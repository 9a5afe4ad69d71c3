/**
 * An agent file, `content/agents/<slug>.md`: YAML front matter with the A2A AgentCard fields (A2A v1.0
 * as DESIGN.md §3 lists them; the A2A v0.3 AgentCard reference for v0.3), the ARD discovery signals (ARD draft §3.2.2) and the
 * RAM accesses (the RAM proposal); the Markdown body is the long description shown on the agent's page. The
 * security schemes and requirements it names are in ./security.ts, its attestations in ./attestation.ts.
 */
import { z } from 'zod';
import { httpsUrl, isoDate, mediaType, nonEmptyObject, nonEmptyString, PER_LANGUAGE } from './common.js';
import { AttestationInput } from './attestation.js';
import { ResourceAccess, ResourceFile } from './ram.js';
import { SecurityRequirement, SecurityScheme } from './security.js';

/** The A2A protocol versions ardsite emits cards for. YAML `1.0` (a number) is read as "1.0". */
export const ProtocolVersion = z.preprocess(
  (v) => (v === 1 ? '1.0' : v === 0.3 ? '0.3' : v),
  z.enum(['1.0', '0.3']),
);

/** Transport bindings named by A2A (v1.0 `protocolBinding`, v0.3 `transport`). */
export const ProtocolBinding = z.enum(['JSONRPC', 'GRPC', 'HTTP+JSON']);

/**
 * `AgentInterface` (A2A v1.0): the url must be `https:` except for GRPC, whose url is `host:port`
 * (DESIGN.md §3; checked by the loader).
 */
export const AgentInterface = z
  .strictObject({
    url: nonEmptyString.meta({
      description: 'Where the agent answers: an https URL, or host:port for GRPC.',
      examples: ['https://api.example.com/a2a/trip-helper'],
    }),
    protocolBinding: ProtocolBinding.meta({
      description: 'The transport (A2A v0.3 calls it `transport` or `preferredTransport`).',
    }),
    protocolVersion: ProtocolVersion.meta({
      description:
        "The A2A version spoken at this url. Quote it ('1.0'); a '0.3' interface also makes a v0.3 card.",
      examples: ['1.0'],
    }),
    tenant: nonEmptyString.optional().meta({
      description: 'A tenant id sent with each request, for a server shared by several agents.',
      examples: ['trip-helper'],
    }),
  })
  .meta({ spec: 'A2A v1.0 AgentInterface' });

/** `AgentSkill` (A2A v1.0; the A2A v0.3 AgentCard reference calls `securityRequirements` `security`). */
export const AgentSkill = z
  .strictObject({
    id: nonEmptyString.meta({
      description: 'The skill id, unique in the agent; RAM accesses name it in `skills`.',
      examples: ['plan-trip'],
    }),
    name: nonEmptyString.meta({
      ...PER_LANGUAGE,
      description: 'The skill name shown to people.',
      examples: ['Plan a trip'],
    }),
    description: nonEmptyString.meta({
      ...PER_LANGUAGE,
      description: 'What the skill does, in a sentence or two.',
      examples: ['Plans a trip around the free days of your calendar.'],
    }),
    tags: z
      .array(nonEmptyString)
      .min(1)
      .meta({ description: 'Keywords of the skill.', examples: [['travel', 'calendar']] }),
    examples: z
      .array(nonEmptyString)
      .min(1)
      .optional()
      .meta({
        ...PER_LANGUAGE,
        description: 'Requests the skill answers, as a user would ask.',
        examples: [['Plan my May trip']],
      }),
    inputModes: z
      .array(mediaType)
      .min(1)
      .optional()
      .meta({
        description: 'Media types the skill accepts, when not the agent’s defaults.',
        examples: [['text/plain']],
      }),
    outputModes: z
      .array(mediaType)
      .min(1)
      .optional()
      .meta({
        description: 'Media types the skill returns, when not the agent’s defaults.',
        examples: [['text/plain']],
      }),
    securityRequirements: z.array(SecurityRequirement).min(1).optional().meta({
      description: 'Security the skill needs beyond the agent’s (A2A v0.3 `security`: write this instead).',
    }),
  })
  .meta({ spec: 'A2A v1.0 AgentSkill' });

/** ARD discovery signals of the agent's entry (ARD draft §3.2.2, §3.2.3). */
export const DiscoverySignals = z
  .strictObject({
    tags: z
      .array(nonEmptyString)
      .min(1)
      .optional()
      .meta({
        description: 'Keywords of the entry; default: the tags of the skills.',
        examples: [['travel']],
      }),
    capabilities: z
      .array(nonEmptyString)
      .min(1)
      .optional()
      .meta({
        description: 'What the agent can do, as short phrases crawlers match; default: the skill names.',
        examples: [['trip planning']],
      }),
    representativeQueries: z
      .array(nonEmptyString)
      .min(1)
      .optional()
      .meta({
        description: 'Requests a registry should route to this agent; default: the skills’ examples.',
        examples: [['plan a weekend in Lisbon']],
      }),
    metadata: nonEmptyObject.optional().meta({
      description: 'Free-form members copied into the entry’s `metadata`.',
      examples: [{ region: 'EU' }],
    }),
  })
  .meta({ spec: 'ARD draft §3.2.2' });

/** The front matter of an agent file. */
export const AgentFrontMatter = z
  .strictObject({
    name: nonEmptyString.meta({
      ...PER_LANGUAGE,
      description: 'The agent’s name, shown to people.',
      examples: ['Trip Helper'],
    }),
    description: nonEmptyString.meta({
      ...PER_LANGUAGE,
      description:
        'What the agent does, in a sentence or two (the Markdown body holds the long version; in another language of the site, `content/agents/<slug>.<tag>.md` holds it).',
      examples: ['Plans trips around your calendar.'],
    }),
    version: nonEmptyString.meta({
      description: 'The agent’s own version; raise it when its card or RAM changes.',
      examples: ['1.0.0'],
    }),
    language: nonEmptyString.optional().meta({
      description:
        'The language of this agent’s pages (its page and permission page), when not the publisher’s `language`: `en` or `pt-BR`; another is PAGE_LANGUAGE_UNSUPPORTED. The card and ard.json do not change. Refused on a site with `languages` (AGENT_LANGUAGE_WITH_LANGUAGES): there every agent is published in each language of the site.',
      examples: ['pt-BR'],
      spec: 'BCP 47 (RFC 5646)',
    }),
    namespace: z
      .string()
      .regex(/^[a-z0-9._-]+$/, 'must match [a-z0-9._-]+')
      .optional()
      .meta({
        description: 'The URN namespace of this agent, when not the publisher’s `namespace`.',
        examples: ['travel'],
        spec: 'ARD draft §3.4',
      }),
    documentationUrl: httpsUrl.optional().meta({
      description: 'The agent’s documentation for people.',
      examples: ['https://www.example.com/docs/trip-helper'],
    }),
    iconUrl: httpsUrl.optional().meta({
      description: 'The agent’s icon.',
      examples: ['https://agents.example.com/icons/trip-helper.png'],
    }),
    provider: z
      .strictObject({
        organization: nonEmptyString.meta({
          description: 'Who runs the agent.',
          examples: ['Example Travel Co.'],
        }),
        url: httpsUrl.meta({
          description: 'The provider’s web site.',
          examples: ['https://www.example.com/'],
        }),
      })
      .optional()
      .meta({ description: 'Who runs the agent, when not the publisher itself (the default).' }),
    interfaces: z.array(AgentInterface).min(1).meta({
      description:
        'Where and how the agent answers (A2A v1.0 `supportedInterfaces`; A2A v0.3 `url`, `preferredTransport` and `additionalInterfaces`: write this instead). The first is the preferred one.',
    }),
    capabilities: z
      .strictObject({
        streaming: z
          .boolean()
          .optional()
          .meta({ description: 'The agent streams its answers (server-sent events).' }),
        pushNotifications: z
          .boolean()
          .optional()
          .meta({ description: 'The agent can notify a client by webhook.' }),
        extendedAgentCard: z.boolean().optional().meta({
          description:
            'An authenticated client can fetch a fuller card (A2A v0.3 `supportsAuthenticatedExtendedCard`).',
        }),
      })
      .optional()
      .meta({ description: 'Optional A2A features the agent supports.', spec: 'A2A v1.0 AgentCapabilities' }),
    securitySchemes: z
      .record(nonEmptyString, SecurityScheme)
      .optional()
      .meta({
        description:
          'The ways a client can authenticate, by name; each holds exactly one scheme member (the proto form: `oauth2SecurityScheme:`, not A2A v0.3’s `type: oauth2`).',
        examples: [
          {
            google: {
              oauth2SecurityScheme: {
                flows: {
                  authorizationCode: {
                    authorizationUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
                    tokenUrl: 'https://oauth2.googleapis.com/token',
                    scopes: { 'https://www.googleapis.com/auth/calendar.events': 'See and edit your events' },
                  },
                },
              },
            },
          },
        ],
      }),
    securityRequirements: z.array(SecurityRequirement).min(1).optional().meta({
      description:
        'The security every request needs; one item is enough to satisfy (A2A v0.3 `security`: write this instead).',
    }),
    defaultInputModes: z
      .array(mediaType)
      .min(1)
      .meta({
        description: 'Media types the agent accepts.',
        examples: [['text/plain']],
      }),
    defaultOutputModes: z
      .array(mediaType)
      .min(1)
      .meta({
        description: 'Media types the agent returns.',
        examples: [['text/plain', 'application/json']],
      }),
    skills: z.array(AgentSkill).min(1).meta({ description: 'What the agent can do, one item per skill.' }),
    discovery: DiscoverySignals.optional().meta({
      description:
        'The ARD discovery signals of the agent’s entry, when the defaults drawn from the skills do not fit.',
    }),
    /** A RAM JSON file in the seed's format, relative to this agent file. */
    ramFile: nonEmptyString.optional().meta({
      description:
        'A RAM JSON file (the RAM proposal’s form, see "RAM file" below), relative to this agent file, instead of `resources`/`resourceAccesses` here.',
      examples: ['trip-helper.ram.json'],
      spec: 'DESIGN.md §1',
    }),
    /** One-off resources of this agent, each with its operations. */
    resources: z.array(ResourceFile).min(1).optional().meta({
      description:
        'Resources only this agent uses, each with its operations (same fields as a content/resources file).',
      spec: 'RAM proposal Resource',
    }),
    resourceAccesses: z.array(ResourceAccess).min(1).optional().meta({
      description:
        'The RAM: each operation the agent may perform on a user’s behalf, as whom, why and how much it needs it.',
      spec: 'RAM proposal ResourceAccess',
    }),
    ram: z
      .strictObject({
        topLevel: z.boolean().optional().meta({
          description:
            'false: this agent’s card carries its RAM only in the extension, not also as a top-level `resourceAccessManifest` (overrides the publisher’s `ram.topLevel`).',
        }),
      })
      .optional()
      .meta({ description: 'Per-agent RAM placement.', spec: 'DESIGN.md §3' }),
    attestations: z.array(AttestationInput).min(1).optional().meta({
      description: 'Audits and certifications sealed into the agent entry’s trustManifest.',
    }),
    /** Overrides the git-derived `updatedAt` (ISO 8601). */
    updatedAt: isoDate.optional().meta({
      description: 'The entry’s `updatedAt`; default: the last git commit of the file (or the build time).',
      examples: ['2026-03-01T09:00:00Z'],
      spec: 'ARD draft §3.2.3',
    }),
  })
  .meta({ spec: 'A2A v1.0 AgentCard' });

/** The validated front matter of an agent file. */
export type AgentFrontMatterInput = z.infer<typeof AgentFrontMatter>;
/** A validated interface (A2A v1.0 `AgentInterface`). */
export type AgentInterfaceInput = z.infer<typeof AgentInterface>;
