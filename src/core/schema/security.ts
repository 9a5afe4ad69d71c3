/**
 * How a client authenticates to an agent, as its agent file declares it (A2A v1.0 `SecurityScheme`,
 * `OAuthFlows` and `SecurityRequirement` in the proto `oneof` form of the A2A v0.3 AgentCard reference; DESIGN.md §3): the
 * `securitySchemes` and `securityRequirements` of the front matter (./agent.ts) and of its skills.
 */
import { z } from 'zod';
import { httpsUrl, nonEmptyString, PER_LANGUAGE } from './common.js';

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

/** OAuth 2.0 flows in the proto `oneof` form of A2A v1.0 (`OAuthFlows`). */
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
  .meta({ spec: 'A2A v1.0 OAuthFlows' });

/**
 * `SecurityScheme` (A2A v1.0): exactly one of the five scheme members (proto `oneof`).
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
  .meta({ spec: 'A2A v1.0 SecurityScheme' })
  .refine((s) => Object.values(s).filter((v) => v !== undefined).length === 1, {
    message:
      'a security scheme holds exactly one of apiKeySecurityScheme, httpAuthSecurityScheme, oauth2SecurityScheme, openIdConnectSecurityScheme, mtlsSecurityScheme',
  });

/**
 * The scopes a requirement asks of one scheme (A2A v0.3 `StringList`), never empty: the A2A SDKs drop an
 * empty list when they canonicalise a card for its signature, so a requirement without scopes would go
 * unsigned (DESIGN.md §3, "no field is ever empty"). The A2A v0.3 AgentCard reference's own example requires an API key and
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

/** `SecurityRequirement` (A2A v1.0; `security` in A2A v0.3): scheme name → `{ list: [scope, …] }`. */
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
  .meta({ spec: 'A2A v1.0 SecurityRequirement (`security` in A2A v0.3)' });

/** A validated security scheme in the proto `oneof` form. */
export type SecuritySchemeInput = z.infer<typeof SecurityScheme>;
/** A validated security requirement (scheme name → scopes). */
export type SecurityRequirementInput = z.infer<typeof SecurityRequirement>;
