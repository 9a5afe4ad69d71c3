/**
 * An agent file, `content/agents/<slug>.md`: YAML front matter with the A2A AgentCard fields (A2A v1.0
 * as DESIGN.md §3 lists them; seed 001 for v0.3), the ARD discovery signals (ARD draft §3.2.2) and the
 * RAM accesses (seed 000); the Markdown body is the long description shown on the agent's page.
 */
import { z } from 'zod';
import { httpsUrl, isoDate, mediaType, nonEmptyObject, nonEmptyString, PER_LANGUAGE } from './common.js';
import { ResourceAccess, ResourceFile } from './ram.js';

const scopes = z
  .record(
    z.string().min(1),
    nonEmptyString.meta({
      ...PER_LANGUAGE,
      description: 'What the scope grants, in words a user understands (the agent page lists it).',
      examples: ['Read your calendar'],
    }),
  )
  .refine((m) => Object.keys(m).length > 0, {
    message: 'must hold at least one entry',
    params: { code: 'SCHEMA_EMPTY' },
  })
  .meta({
    description: 'The scopes of this flow: scope name → what it grants, in words.',
    examples: [{ 'calendar.read': 'Read your calendar' }],
  });
const refreshUrl = httpsUrl.optional().meta({
  description: 'Where a refresh token is exchanged for a new access token.',
  examples: ['https://auth.example.com/oauth2/token'],
});
const tokenUrl = httpsUrl.meta({
  description: 'The token endpoint of the flow.',
  examples: ['https://auth.example.com/oauth2/token'],
});
const authorizationUrl = httpsUrl.meta({
  description: 'The authorization endpoint the user is sent to.',
  examples: ['https://auth.example.com/oauth2/authorize'],
});
const schemeDescription = nonEmptyString.optional().meta({
  ...PER_LANGUAGE,
  description: 'What the scheme is for, in words.',
  examples: ['OAuth 2.0 with the calendar scopes'],
});

/** OAuth 2.0 flows in the proto `oneof` form of seed 001 / A2A v1.0 (`OAuthFlows`). */
export const OAuthFlows = z
  .strictObject({
    authorizationCode: z
      .strictObject({
        authorizationUrl,
        tokenUrl,
        refreshUrl,
        scopes,
        pkceRequired: z
          .boolean()
          .optional()
          .meta({ description: 'True when clients must use PKCE (RFC 7636) in this flow.' }),
      })
      .optional()
      .meta({ description: 'The authorization-code flow (RFC 6749 §4.1), the usual one for a user.' }),
    clientCredentials: z
      .strictObject({ tokenUrl, refreshUrl, scopes })
      .optional()
      .meta({ description: 'The client-credentials flow (RFC 6749 §4.4): the agent acts as itself.' }),
    deviceCode: z
      .strictObject({
        deviceAuthorizationUrl: httpsUrl.meta({
          description: 'The device authorization endpoint (RFC 8628 §3.1).',
          examples: ['https://auth.example.com/oauth2/device'],
        }),
        tokenUrl,
        refreshUrl,
        scopes,
      })
      .optional()
      .meta({ description: 'The device-code flow (RFC 8628), for devices without a browser.' }),
    implicit: z
      .strictObject({ authorizationUrl, refreshUrl, scopes })
      .optional()
      .meta({ description: 'The implicit flow (RFC 6749 §4.2; deprecated by OAuth 2.1).' }),
    password: z
      .strictObject({ tokenUrl, refreshUrl, scopes })
      .optional()
      .meta({ description: 'The resource-owner password flow (RFC 6749 §4.3; deprecated by OAuth 2.1).' }),
  })
  .meta({ spec: 'A2A v1.0 OAuthFlows (seed 001)' });

/**
 * `SecurityScheme` (seed 001 and A2A v1.0): exactly one of the five scheme members (proto `oneof`).
 */
export const SecurityScheme = z
  .strictObject({
    apiKeySecurityScheme: z
      .strictObject({
        description: schemeDescription,
        location: z
          .enum(['query', 'header', 'cookie'])
          .meta({ description: 'Where the key is sent (A2A v0.3 calls this `in`).' }),
        name: nonEmptyString.meta({
          description: 'The name of the header, query parameter or cookie.',
          examples: ['X-API-Key'],
        }),
      })
      .optional()
      .meta({ description: 'An API key sent in a header, query parameter or cookie.' }),
    httpAuthSecurityScheme: z
      .strictObject({
        description: schemeDescription,
        scheme: nonEmptyString.meta({
          description: 'The HTTP authentication scheme (RFC 9110 §11), e.g. Bearer or Basic.',
          examples: ['Bearer'],
        }),
        bearerFormat: nonEmptyString.optional().meta({
          description: 'A hint of the bearer token format.',
          examples: ['JWT'],
        }),
      })
      .optional()
      .meta({ description: 'HTTP authentication (A2A v0.3 `type: http`).' }),
    oauth2SecurityScheme: z
      .strictObject({
        description: schemeDescription,
        flows: OAuthFlows.meta({ description: 'The OAuth 2.0 flows offered; name one or more.' }),
        oauth2MetadataUrl: httpsUrl.optional().meta({
          description: 'The authorization server metadata (RFC 8414).',
          examples: ['https://auth.example.com/.well-known/oauth-authorization-server'],
        }),
      })
      .optional()
      .meta({
        description:
          'OAuth 2.0 (A2A v0.3 `type: oauth2`: write this member instead of `type`, with the flows inside).',
      }),
    openIdConnectSecurityScheme: z
      .strictObject({
        description: schemeDescription,
        openIdConnectUrl: httpsUrl.meta({
          description: 'The OpenID Connect discovery document.',
          examples: ['https://auth.example.com/.well-known/openid-configuration'],
        }),
      })
      .optional()
      .meta({ description: 'OpenID Connect (A2A v0.3 `type: openIdConnect`).' }),
    mtlsSecurityScheme: z
      .strictObject({ description: schemeDescription })
      .optional()
      .meta({ description: 'Mutual TLS (A2A v0.3 `type: mutualTLS`).' }),
  })
  .meta({ spec: 'A2A v1.0 SecurityScheme (seed 001)' })
  .refine((s) => Object.values(s).filter((v) => v !== undefined).length === 1, {
    message:
      'a security scheme holds exactly one of apiKeySecurityScheme, httpAuthSecurityScheme, oauth2SecurityScheme, openIdConnectSecurityScheme, mtlsSecurityScheme',
  });

/**
 * The scopes a requirement asks of one scheme (seed 001 `StringList`), never empty: the A2A SDKs drop an
 * empty list when they canonicalise a card for its signature, so a requirement without scopes would go
 * unsigned (DESIGN.md §3, "no field is ever empty"). Seed 001's own example requires an API key and
 * mTLS with no scopes; here such schemes are declared in `securitySchemes` only, and the error says so.
 */
const ScopeList = z
  .strictObject({
    list: z
      .array(nonEmptyString)
      .optional()
      .meta({
        description: 'The scopes required of this scheme (never empty).',
        examples: [['calendar.read']],
      }),
  })
  .refine((value) => value.list !== undefined && value.list.length > 0, {
    path: ['list'],
    params: { code: 'SCHEMA_EMPTY' },
    message:
      'a required scheme lists the scopes it needs. One without scopes (an API key, HTTP auth, mTLS) cannot be required in a signed card: the A2A SDKs drop an empty list when they canonicalise a card for its signature, so the requirement would go unsigned. Declare such a scheme in securitySchemes only',
    // Only when the object is otherwise sound: a misspelt `lists` gets its "did you mean", not this.
    when: (payload) => payload.issues.length === 0,
  })
  .transform((value) => ({ list: value.list ?? [] }));

/** `SecurityRequirement` (seed 001 `Security`, A2A v1.0): scheme name → `{ list: [scope, …] }`. */
export const SecurityRequirement = z
  .strictObject({
    schemes: z
      .record(nonEmptyString, ScopeList)
      .refine((m) => Object.keys(m).length > 0, {
        message: 'must name at least one scheme',
        params: { code: 'SCHEMA_EMPTY' },
      })
      .meta({
        description:
          'Scheme name (a key of `securitySchemes`) → the scopes it needs. All schemes of one requirement apply together (A2A v0.3 writes `security: [{ name: [scopes] }]`; write this instead).',
        examples: [{ google: { list: ['https://www.googleapis.com/auth/calendar.events'] } }],
      }),
  })
  .meta({ spec: 'A2A v1.0 SecurityRequirement (seed 001 `Security`)' });

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

/** `AgentSkill` (A2A v1.0; seed 001 calls `securityRequirements` `security`). */
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
        'A RAM JSON file (the seed 000 form, see "RAM file" below), relative to this agent file, instead of `resources`/`resourceAccesses` here.',
      examples: ['trip-helper.ram.json'],
      spec: 'DESIGN.md §1',
    }),
    /** One-off resources of this agent, each with its operations. */
    resources: z.array(ResourceFile).min(1).optional().meta({
      description:
        'Resources only this agent uses, each with its operations (same fields as a content/resources file).',
      spec: 'seed 000 Resource',
    }),
    resourceAccesses: z.array(ResourceAccess).min(1).optional().meta({
      description:
        'The RAM: each operation the agent may perform on a user’s behalf, as whom, why and how much it needs it.',
      spec: 'seed 000 ResourceAccess',
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
/** A validated security scheme in the proto `oneof` form. */
export type SecuritySchemeInput = z.infer<typeof SecurityScheme>;
/** A validated security requirement (scheme name → scopes). */
export type SecurityRequirementInput = z.infer<typeof SecurityRequirement>;
/** A validated author-listed attestation. */
export type AttestationInputType = z.infer<typeof AttestationInput>;
