/**
 * An agent file, `content/agents/<slug>.md`: YAML front matter with the A2A AgentCard fields (A2A v1.0
 * as DESIGN.md §3 lists them; seed 001 for v0.3), the ARD discovery signals (ARD draft §3.2.2) and the
 * RAM accesses (seed 000); the Markdown body is the long description shown on the agent's page.
 */
import { z } from 'zod';
import { httpsUrl, isoDate, mediaType, nonEmptyObject, nonEmptyString, nonEmptyStringMap } from './common.js';
import { ResourceAccess, ResourceFile } from './ram.js';

const scopes = nonEmptyStringMap;

/** OAuth 2.0 flows in the proto `oneof` form of seed 001 / A2A v1.0 (`OAuthFlows`). */
export const OAuthFlows = z.strictObject({
  authorizationCode: z
    .strictObject({
      authorizationUrl: httpsUrl,
      tokenUrl: httpsUrl,
      refreshUrl: httpsUrl.optional(),
      scopes,
      pkceRequired: z.boolean().optional(),
    })
    .optional(),
  clientCredentials: z
    .strictObject({ tokenUrl: httpsUrl, refreshUrl: httpsUrl.optional(), scopes })
    .optional(),
  deviceCode: z
    .strictObject({
      deviceAuthorizationUrl: httpsUrl,
      tokenUrl: httpsUrl,
      refreshUrl: httpsUrl.optional(),
      scopes,
    })
    .optional(),
  implicit: z
    .strictObject({ authorizationUrl: httpsUrl, refreshUrl: httpsUrl.optional(), scopes })
    .optional(),
  password: z.strictObject({ tokenUrl: httpsUrl, refreshUrl: httpsUrl.optional(), scopes }).optional(),
});

/**
 * `SecurityScheme` (seed 001 and A2A v1.0): exactly one of the five scheme members (proto `oneof`).
 */
export const SecurityScheme = z
  .strictObject({
    apiKeySecurityScheme: z
      .strictObject({
        description: nonEmptyString.optional(),
        location: z.enum(['query', 'header', 'cookie']),
        name: nonEmptyString,
      })
      .optional(),
    httpAuthSecurityScheme: z
      .strictObject({
        description: nonEmptyString.optional(),
        scheme: nonEmptyString,
        bearerFormat: nonEmptyString.optional(),
      })
      .optional(),
    oauth2SecurityScheme: z
      .strictObject({
        description: nonEmptyString.optional(),
        flows: OAuthFlows,
        oauth2MetadataUrl: httpsUrl.optional(),
      })
      .optional(),
    openIdConnectSecurityScheme: z
      .strictObject({ description: nonEmptyString.optional(), openIdConnectUrl: httpsUrl })
      .optional(),
    mtlsSecurityScheme: z.strictObject({ description: nonEmptyString.optional() }).optional(),
  })
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
  .strictObject({ list: z.array(nonEmptyString).optional() })
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
export const SecurityRequirement = z.strictObject({
  schemes: z.record(nonEmptyString, ScopeList).refine((m) => Object.keys(m).length > 0, {
    message: 'must name at least one scheme',
    params: { code: 'SCHEMA_EMPTY' },
  }),
});

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
export const AgentInterface = z.strictObject({
  url: nonEmptyString,
  protocolBinding: ProtocolBinding,
  protocolVersion: ProtocolVersion,
  tenant: nonEmptyString.optional(),
});

/** `AgentSkill` (A2A v1.0; seed 001 calls `securityRequirements` `security`). */
export const AgentSkill = z.strictObject({
  id: nonEmptyString,
  name: nonEmptyString,
  description: nonEmptyString,
  tags: z.array(nonEmptyString).min(1),
  examples: z.array(nonEmptyString).min(1).optional(),
  inputModes: z.array(mediaType).min(1).optional(),
  outputModes: z.array(mediaType).min(1).optional(),
  securityRequirements: z.array(SecurityRequirement).min(1).optional(),
});

/** An author-listed attestation (ARD draft §3.5): the build computes the digest of a local `file`. */
export const AttestationInput = z.strictObject({
  type: nonEmptyString,
  uri: httpsUrl,
  mediaType: mediaType.optional(),
  /** A file under the project root whose sha256 becomes the attestation's `digest`. */
  file: nonEmptyString.optional(),
  digest: nonEmptyString.optional(),
});

/** ARD discovery signals of the agent's entry (ARD draft §3.2.2, §3.2.3). */
export const DiscoverySignals = z.strictObject({
  tags: z.array(nonEmptyString).min(1).optional(),
  capabilities: z.array(nonEmptyString).min(1).optional(),
  representativeQueries: z.array(nonEmptyString).min(1).optional(),
  metadata: nonEmptyObject.optional(),
});

/** The front matter of an agent file. */
export const AgentFrontMatter = z.strictObject({
  name: nonEmptyString,
  description: nonEmptyString,
  version: nonEmptyString,
  namespace: z
    .string()
    .regex(/^[a-z0-9._-]+$/, 'must match [a-z0-9._-]+')
    .optional(),
  documentationUrl: httpsUrl.optional(),
  iconUrl: httpsUrl.optional(),
  provider: z.strictObject({ organization: nonEmptyString, url: httpsUrl }).optional(),
  interfaces: z.array(AgentInterface).min(1),
  capabilities: z
    .strictObject({
      streaming: z.boolean().optional(),
      pushNotifications: z.boolean().optional(),
      extendedAgentCard: z.boolean().optional(),
    })
    .optional(),
  securitySchemes: z.record(nonEmptyString, SecurityScheme).optional(),
  securityRequirements: z.array(SecurityRequirement).min(1).optional(),
  defaultInputModes: z.array(mediaType).min(1),
  defaultOutputModes: z.array(mediaType).min(1),
  skills: z.array(AgentSkill).min(1),
  discovery: DiscoverySignals.optional(),
  /** A RAM JSON file in the seed's format, relative to this agent file. */
  ramFile: nonEmptyString.optional(),
  /** One-off resources of this agent, each with its operations. */
  resources: z.array(ResourceFile).min(1).optional(),
  resourceAccesses: z.array(ResourceAccess).min(1).optional(),
  ram: z.strictObject({ topLevel: z.boolean().optional() }).optional(),
  attestations: z.array(AttestationInput).min(1).optional(),
  /** Overrides the git-derived `updatedAt` (ISO 8601). */
  updatedAt: isoDate.optional(),
});

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
