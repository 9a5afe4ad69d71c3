/**
 * The view-model of an agent's page (DESIGN.md §2): what it does (skills with examples), how to reach
 * it (its A2A interfaces: url, transport, protocol version), how callers authenticate (its security
 * schemes, in words), its footprint, and the machine-readable links (card, manifest, permission page)
 * with the card's digest and the signing key id.
 */
import type { AgentInterfaceInput, SecurityRequirementInput, SecuritySchemeInput } from '../schema/agent.js';
import { newPermissionsNoticeView, type NewPermissionsNoticeView } from './changes-view.js';
import type { AgentBuild, SiteBuild } from '../site-build.js';
import { MANIFEST_PATH } from '../site.js';
import { footprintLine } from './footprint-line.js';
import { agentPagePath, fragmentId, permissionsPagePath } from './paths.js';
import { agentLanguage, agentWords, type PageWords } from './words/index.js';

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
  /** The scheme's name in the card (its key in `securitySchemes`): an id, never shown to people. */
  name: string;
  /** The scheme's heading: its kind, numbered when the agent has two of one kind ("API key (2)"). */
  heading: string;
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
  /** The BCP 47 tag of the page's words (`<html lang>`). */
  language: string;
  /** The page's words (src/core/pages/words/). */
  words: PageWords;
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

/** The interfaces of an agent, in words (A2A v1.0 `supportedInterfaces`). */
export function interfaceViews(interfaces: readonly AgentInterfaceInput[], w: PageWords): InterfaceView[] {
  return interfaces.map((i) => ({
    url: i.url,
    isWebUrl: /^https?:\/\//.test(i.url),
    transport: w.agent.transport[i.protocolBinding],
    protocol: w.agent.protocol(i.protocolVersion),
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
export function securitySchemeView(
  name: string,
  scheme: SecuritySchemeInput,
  w: PageWords,
): SecuritySchemeView {
  const a = w.agent;
  const details: string[] = [];
  let kind = a.schemeKind.other;
  let description: string | undefined;
  if (scheme.oauth2SecurityScheme) {
    const s = scheme.oauth2SecurityScheme;
    kind = a.schemeKind.oauth2;
    description = s.description;
    const { authorizationCode, clientCredentials, deviceCode, implicit, password } = s.flows;
    if (authorizationCode) {
      details.push(
        a.authorizationCode(authorizationCode.authorizationUrl, authorizationCode.pkceRequired === true),
      );
    }
    if (deviceCode) details.push(a.deviceCode(deviceCode.deviceAuthorizationUrl));
    if (implicit) details.push(a.implicit(implicit.authorizationUrl));
    if (password) details.push(a.password(password.tokenUrl));
    if (clientCredentials) details.push(a.clientCredentials(clientCredentials.tokenUrl));
    if (s.oauth2MetadataUrl) details.push(a.metadataUrl(s.oauth2MetadataUrl));
  } else if (scheme.apiKeySecurityScheme) {
    const s = scheme.apiKeySecurityScheme;
    kind = a.schemeKind.apiKey;
    description = s.description;
    details.push(a.apiKey(s.name, a.apiKeyPlace[s.location] ?? s.location));
  } else if (scheme.httpAuthSecurityScheme) {
    const s = scheme.httpAuthSecurityScheme;
    description = s.description;
    const httpScheme = s.scheme.toLowerCase();
    if (httpScheme === 'bearer') {
      kind = a.schemeKind.bearer;
      details.push(a.bearer(s.bearerFormat));
    } else if (httpScheme === 'basic') {
      kind = a.schemeKind.basic;
      details.push(a.basic);
    } else {
      kind = a.schemeKind.http;
      details.push(a.http(s.scheme));
    }
  } else if (scheme.openIdConnectSecurityScheme) {
    const s = scheme.openIdConnectSecurityScheme;
    kind = a.schemeKind.openIdConnect;
    description = s.description;
    details.push(a.openIdConnect(s.openIdConnectUrl));
  } else if (scheme.mtlsSecurityScheme) {
    kind = a.schemeKind.mtls;
    description = scheme.mtlsSecurityScheme.description;
    details.push(a.mtls);
  }
  const view: SecuritySchemeView = {
    name,
    heading: kind,
    anchor: fragmentId('scheme', name),
    kind,
    details,
    scopes: [...allScopes(scheme)].map(([scope, meaning]) => ({ scope, meaning })),
  };
  if (description) view.description = description;
  return view;
}

/**
 * One `SecurityRequirement` in words of `w`: each scheme it names (all are needed) by its kind, never by
 * its key in `securitySchemes` (an id people do not read), with the scopes asked for, by their meaning
 * when the scheme defines one. E.g. `OAuth 2.0 sign-in, with permission to: See your trips (trips.read)`.
 */
export function requirementText(
  requirement: SecurityRequirementInput,
  schemes: Readonly<Record<string, SecuritySchemeInput>> | undefined,
  w: PageWords,
): string {
  return w.agent.requirementAnd(
    Object.entries(requirement.schemes).map(([name, { list }]) => {
      const scheme = schemes?.[name];
      const kind = scheme ? securitySchemeView(name, scheme, w).kind : w.agent.schemeKind.other;
      const meanings = scheme ? allScopes(scheme) : new Map<string, string>();
      const scopes = list.map((scope) => (meanings.has(scope) ? `${meanings.get(scope)} (${scope})` : scope));
      return w.agent.requirement(kind, scopes);
    }),
  );
}

function requirementsText(
  requirements: readonly SecurityRequirementInput[] | undefined,
  schemes: Readonly<Record<string, SecuritySchemeInput>> | undefined,
  w: PageWords,
): string[] {
  return (requirements ?? []).map((r) => requirementText(r, schemes, w));
}

/** Numbers the headings of schemes of one kind ("API key (1)", "API key (2)"), so no two are the same. */
function distinctHeadings(views: SecuritySchemeView[], w: PageWords): SecuritySchemeView[] {
  const total = new Map<string, number>();
  for (const v of views) total.set(v.kind, (total.get(v.kind) ?? 0) + 1);
  const seen = new Map<string, number>();
  for (const v of views) {
    if ((total.get(v.kind) ?? 0) < 2) continue;
    const n = (seen.get(v.kind) ?? 0) + 1;
    seen.set(v.kind, n);
    v.heading = `${v.kind} (${w.locale.number(n)})`;
  }
  return views;
}

/**
 * Computes the agent page of `build` (DESIGN.md §2, §3) in its language (the agent's `language`, else
 * the publisher's). Pure; throws only for a language without page words, which the checks refuse first.
 */
export function agentPageView(build: AgentBuild, site: Pick<SiteBuild, 'kid' | 'model'>): AgentPageView {
  const { agent } = build;
  const { front } = agent;
  const w = agentWords(agent, site.model.publisher);
  const schemes = front.securitySchemes;
  const features: string[] = [];
  if (front.capabilities?.streaming) features.push(w.agent.streaming);
  if (front.capabilities?.pushNotifications) features.push(w.agent.pushNotifications);
  if (front.capabilities?.extendedAgentCard) features.push(w.agent.extendedCard);
  const provider = build.provider;
  const view: AgentPageView = {
    language: agentLanguage(agent, site.model.publisher),
    words: w,
    name: front.name,
    description: front.description,
    version: front.version,
    provider,
    footprint: footprintLine(agent.ram, w),
    skills: front.skills.map((s) => {
      const skill: SkillView = {
        id: s.id,
        anchor: fragmentId('skill', s.id),
        name: s.name,
        description: s.description,
        tags: s.tags,
        examples: s.examples ?? [],
      };
      const needs = requirementsText(s.securityRequirements, schemes, w);
      if (needs.length > 0) skill.needs = w.agent.needsOr(needs);
      return skill;
    }),
    interfaces: interfaceViews(front.interfaces, w),
    features,
    inputModes: front.defaultInputModes,
    outputModes: front.defaultOutputModes,
    securitySchemes: distinctHeadings(
      Object.entries(schemes ?? {}).map(([name, scheme]) => securitySchemeView(name, scheme, w)),
      w,
    ),
    requirements: requirementsText(front.securityRequirements, schemes, w),
    identifier: agent.identifier,
    digest: build.digest,
    kid: site.kid,
    cardPath: build.cardPath,
    cardUrl: build.cardUrl,
    manifestPath: MANIFEST_PATH,
    permissionsPath: permissionsPagePath(agent.slug),
    permissionsLinkText:
      agent.ram.resourceAccesses.length > 0
        ? w.agent.permissionsLink(front.name)
        : w.agent.permissionsLinkEmpty(front.name),
  };
  // The card's default documentationUrl is this very page: only an author's other address is shown.
  const ownPage = new URL(agentPagePath(agent.slug), build.cardUrl).href;
  if (front.documentationUrl && front.documentationUrl !== ownPage)
    view.documentationUrl = front.documentationUrl;
  if (view.requirements.length === 1)
    view.requirementSentence = w.agent.requirementOne(view.requirements[0]!);
  if (view.requirements.length > 1) view.requirementSentence = w.agent.requirementMany(view.requirements);
  if (typeof build.entry.updatedAt === 'string') view.updatedAt = build.entry.updatedAt;
  const notice = newPermissionsNoticeView(build, w);
  if (notice) view.newPermissions = notice;
  return view;
}
