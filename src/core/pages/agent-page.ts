/**
 * The view-model of an agent's page (DESIGN.md §2): what it does (skills with examples), how to reach
 * it (its A2A interfaces: url, transport, protocol version), how callers authenticate (its security
 * schemes, in words), its footprint, and the machine-readable links (card, manifest, permission page)
 * with the card's digest and the signing key id.
 */
import type { AgentInterfaceInput, SecurityRequirementInput, SecuritySchemeInput } from '../schema/agent.js';
import { newPermissionsNoticeView, type NewPermissionsNoticeView } from './changes-view.js';
import type { AgentBuild, SiteBuild } from '../site.js';
import { MANIFEST_PATH } from '../site.js';
import { footprintLine } from './footprint-line.js';
import { agentPagePath, fragmentId, permissionsPagePath } from './paths.js';

/** One endpoint of the agent (A2A `AgentInterface`). */
export interface InterfaceView {
  url: string;
  /** True when `url` is a web address (gRPC endpoints are `host:port`). */
  isWebUrl: boolean;
  /** The transport, in words ("JSON-RPC 2.0", "gRPC", "HTTP with JSON"). */
  transport: string;
  /** "A2A protocol version 1.0". */
  protocol: string;
}

/** One security scheme of the card, in words. */
export interface SecuritySchemeView {
  /** The scheme's name in the card (its key in `securitySchemes`). */
  name: string;
  /** HTML id of the scheme on the page. */
  anchor: string;
  /** What kind of sign-in it is ("OAuth 2.0 sign-in", "API key", …). */
  kind: string;
  /** The author's description, when given. */
  description?: string;
  /** Sentences on how it works. */
  details: string[];
  /** The permissions (OAuth scopes) it can grant, with their meaning. */
  scopes: Array<{ scope: string; meaning: string }>;
}

/** One skill of the agent. */
export interface SkillView {
  id: string;
  /** HTML id of the skill on the page. */
  anchor: string;
  name: string;
  description: string;
  tags: string[];
  examples: string[];
  /** What a caller needs to use this skill, when it has its own security requirements. */
  needs?: string;
}

/** Everything the agent page shows besides the rendered Markdown body. */
export interface AgentPageView {
  name: string;
  /** The "new permissions" notice while a version that gained access is new (DESIGN.md §9). */
  newPermissions?: NewPermissionsNoticeView;
  description: string;
  version: string;
  provider: { organization: string; url: string };
  documentationUrl?: string;
  footprint: string;
  skills: SkillView[];
  interfaces: InterfaceView[];
  /** Optional A2A capabilities the agent declares, in words. */
  features: string[];
  inputModes: string[];
  outputModes: string[];
  securitySchemes: SecuritySchemeView[];
  /** What a caller needs to use the agent at all, one item per alternative; empty when none is declared. */
  requirements: string[];
  /** {@link AgentPageView.requirements} as one sentence; absent when none is declared. */
  requirementSentence?: string;
  identifier: string;
  digest: string;
  kid: string;
  updatedAt?: string;
  cardPath: string;
  cardUrl: string;
  manifestPath: string;
  permissionsPath: string;
  /** The words of the link to the permission page (they promise details only when there are some). */
  permissionsLinkText: string;
}

const TRANSPORT_WORDS: Readonly<Record<AgentInterfaceInput['protocolBinding'], string>> = {
  JSONRPC: 'JSON-RPC 2.0 over HTTPS',
  GRPC: 'gRPC',
  'HTTP+JSON': 'HTTP with JSON',
};

const API_KEY_PLACE: Readonly<Record<string, string>> = {
  header: 'a request header',
  query: 'the query string',
  cookie: 'a cookie',
};

/** The interfaces of an agent, in words (A2A v1.0 `supportedInterfaces`). */
export function interfaceViews(interfaces: readonly AgentInterfaceInput[]): InterfaceView[] {
  return interfaces.map((i) => ({
    url: i.url,
    isWebUrl: /^https?:\/\//.test(i.url),
    transport: TRANSPORT_WORDS[i.protocolBinding],
    protocol: `A2A protocol version ${i.protocolVersion}`,
  }));
}

function allScopes(scheme: SecuritySchemeInput): Map<string, string> {
  const scopes = new Map<string, string>();
  for (const flow of Object.values(scheme.oauth2SecurityScheme?.flows ?? {})) {
    for (const [scope, meaning] of Object.entries(flow?.scopes ?? {})) scopes.set(scope, meaning);
  }
  return scopes;
}

/**
 * One security scheme in words (A2A v1.0 `SecurityScheme`, proto oneof form of seed 001). Never names
 * a proto field; the scheme's own name and scope names are shown as they are written.
 */
export function securitySchemeView(name: string, scheme: SecuritySchemeInput): SecuritySchemeView {
  const details: string[] = [];
  let kind = 'Sign-in';
  let description: string | undefined;
  if (scheme.oauth2SecurityScheme) {
    const s = scheme.oauth2SecurityScheme;
    kind = 'OAuth 2.0 sign-in';
    description = s.description;
    const { authorizationCode, clientCredentials, deviceCode, implicit, password } = s.flows;
    if (authorizationCode) {
      details.push(
        `You sign in at ${authorizationCode.authorizationUrl} and approve what it may do${authorizationCode.pkceRequired ? ' (protected with PKCE)' : ''}.`,
      );
    }
    if (deviceCode)
      details.push(`You approve it on another device, at ${deviceCode.deviceAuthorizationUrl}.`);
    if (implicit) details.push(`You sign in at ${implicit.authorizationUrl} (older, implicit flow).`);
    if (password)
      details.push(`Your user name and password are exchanged for a token at ${password.tokenUrl}.`);
    if (clientCredentials) {
      details.push(`Other software can sign in with its own credentials at ${clientCredentials.tokenUrl}.`);
    }
    if (s.oauth2MetadataUrl) details.push(`Details of the sign-in server: ${s.oauth2MetadataUrl}.`);
  } else if (scheme.apiKeySecurityScheme) {
    const s = scheme.apiKeySecurityScheme;
    kind = 'API key';
    description = s.description;
    details.push(`A key named “${s.name}”, sent in ${API_KEY_PLACE[s.location] ?? s.location}.`);
  } else if (scheme.httpAuthSecurityScheme) {
    const s = scheme.httpAuthSecurityScheme;
    description = s.description;
    const httpScheme = s.scheme.toLowerCase();
    if (httpScheme === 'bearer') {
      kind = 'Access token';
      details.push(`A bearer token${s.bearerFormat ? ` (${s.bearerFormat})` : ''} sent with each request.`);
    } else if (httpScheme === 'basic') {
      kind = 'User name and password';
      details.push('A user name and password sent with each request (HTTP Basic authentication).');
    } else {
      kind = 'HTTP authentication';
      details.push(`HTTP authentication with the “${s.scheme}” scheme.`);
    }
  } else if (scheme.openIdConnectSecurityScheme) {
    const s = scheme.openIdConnectSecurityScheme;
    kind = 'OpenID Connect sign-in';
    description = s.description;
    details.push(`You sign in with an OpenID Connect provider described at ${s.openIdConnectUrl}.`);
  } else if (scheme.mtlsSecurityScheme) {
    kind = 'Client certificate';
    description = scheme.mtlsSecurityScheme.description;
    details.push('The caller presents its own TLS certificate (mutual TLS).');
  }
  const view: SecuritySchemeView = {
    name,
    anchor: fragmentId('scheme', name),
    kind,
    details,
    scopes: [...allScopes(scheme)].map(([scope, meaning]) => ({ scope, meaning })),
  };
  if (description) view.description = description;
  return view;
}

/**
 * One `SecurityRequirement` in words: each scheme it names (all are needed) with the scopes asked for,
 * by their meaning when the scheme defines one. E.g. `example_oauth (OAuth 2.0 sign-in), with
 * permission to: See your trips (trips.read)`.
 */
export function requirementText(
  requirement: SecurityRequirementInput,
  schemes: Readonly<Record<string, SecuritySchemeInput>> | undefined,
): string {
  return Object.entries(requirement.schemes)
    .map(([name, { list }]) => {
      const scheme = schemes?.[name];
      const kind = scheme ? ` (${securitySchemeView(name, scheme).kind})` : '';
      const meanings = scheme ? allScopes(scheme) : new Map<string, string>();
      const scopes = list.map((scope) => (meanings.has(scope) ? `${meanings.get(scope)} (${scope})` : scope));
      return `${name}${kind}, with permission to: ${scopes.join('; ')}`;
    })
    .join(', and ');
}

function requirementsText(
  requirements: readonly SecurityRequirementInput[] | undefined,
  schemes: Readonly<Record<string, SecuritySchemeInput>> | undefined,
): string[] {
  return (requirements ?? []).map((r) => requirementText(r, schemes));
}

/** Computes the agent page of `build` (DESIGN.md §2, §3). Pure; never throws. */
export function agentPageView(build: AgentBuild, site: Pick<SiteBuild, 'kid'>): AgentPageView {
  const { agent } = build;
  const { front } = agent;
  const schemes = front.securitySchemes;
  const features: string[] = [];
  if (front.capabilities?.streaming) features.push('Streams its answers as it writes them.');
  if (front.capabilities?.pushNotifications) features.push('Can notify your app when a long task is done.');
  if (front.capabilities?.extendedAgentCard)
    features.push('Shows signed-in callers a more detailed description.');
  const provider = build.provider;
  const view: AgentPageView = {
    name: front.name,
    description: front.description,
    version: front.version,
    provider,
    footprint: footprintLine(agent.ram),
    skills: front.skills.map((s) => {
      const skill: SkillView = {
        id: s.id,
        anchor: fragmentId('skill', s.id),
        name: s.name,
        description: s.description,
        tags: s.tags,
        examples: s.examples ?? [],
      };
      const needs = requirementsText(s.securityRequirements, schemes);
      if (needs.length > 0) skill.needs = needs.join(' Or: ');
      return skill;
    }),
    interfaces: interfaceViews(front.interfaces),
    features,
    inputModes: front.defaultInputModes,
    outputModes: front.defaultOutputModes,
    securitySchemes: Object.entries(schemes ?? {}).map(([name, scheme]) => securitySchemeView(name, scheme)),
    requirements: requirementsText(front.securityRequirements, schemes),
    identifier: agent.identifier,
    digest: build.digest,
    kid: site.kid,
    cardPath: build.cardPath,
    cardUrl: build.cardUrl,
    manifestPath: MANIFEST_PATH,
    permissionsPath: permissionsPagePath(agent.slug),
    permissionsLinkText:
      agent.ram.resourceAccesses.length > 0
        ? `See everything ${front.name} may access, as whom and why`
        : `The permission page of ${front.name}`,
  };
  // The card's default documentationUrl is this very page: only an author's other address is shown.
  const ownPage = new URL(agentPagePath(agent.slug), build.cardUrl).href;
  if (front.documentationUrl && front.documentationUrl !== ownPage)
    view.documentationUrl = front.documentationUrl;
  if (view.requirements.length === 1)
    view.requirementSentence = `To use the agent, a caller needs ${view.requirements[0]}.`;
  if (view.requirements.length > 1) {
    view.requirementSentence = `To use the agent, a caller needs one of: ${view.requirements.join('; or ')}.`;
  }
  if (typeof build.entry.updatedAt === 'string') view.updatedAt = build.entry.updatedAt;
  const notice = newPermissionsNoticeView(build);
  if (notice) view.newPermissions = notice;
  return view;
}
