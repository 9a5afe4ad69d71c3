/**
 * The view-model of an agent's page (DESIGN.md §2): what it does (skills with examples), how to reach
 * it (its A2A interfaces: url, transport, protocol version), how callers authenticate (its security
 * schemes, in words), its footprint, and the machine-readable links (card, manifest, permission page)
 * with the card's digest and the signing key id.
 */
import { pagesBase } from '../i18n/languages.js';
import type { AgentInterfaceInput } from '../schema/agent.js';
import type { SecurityRequirementInput, SecuritySchemeInput } from '../schema/security.js';
import { newPermissionsNoticeView, type NewPermissionsNoticeView } from './changes-view.js';
import type { AgentBuild, SiteBuild } from '../site/site-build.js';
import { MANIFEST_PATH } from '../ard/well-known.js';
import { footprintLine } from './footprint-line.js';
import { agentLabel, type PermissionLabel } from './permission-label.js';
import { signInFacts } from '../ram/sign-in.js';
import { langField, PageTexts, type SchemeTexts } from './page-texts.js';
import {
  agentPagePath,
  fragmentId,
  indexPagePath,
  permissionsPagePath,
  type PageTree,
} from '../site/page-paths.js';
import { agentLanguage, wordsFor, type PageWords } from '../i18n/words/index.js';

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
  /** The language of `description` when it is not the page's (a text the publisher did not translate). */
  descriptionLang?: string;
  /** Sentences on how it works. */
  details: string[];
  /** The permissions (OAuth scopes) it can grant, with their meaning (and its language when not the page's). */
  scopes: Array<{ scope: string; meaning: string; meaningLang?: string }>;
}

/** One skill of the agent. */
export interface SkillView {
  id: string;
  /** HTML id of the skill on the page. */
  anchor: string;
  name: string;
  /** The language of `name` when it is not the page's (a text the publisher did not translate). */
  nameLang?: string;
  description: string;
  /** The language of `description` when it is not the page's. */
  descriptionLang?: string;
  tags: string[];
  examples: string[];
  /** The language of `examples` when it is not the page's. */
  examplesLang?: string;
  /** What a caller needs to use this skill, when it has its own security requirements. */
  needs?: string;
}

/** Everything the agent page shows besides the rendered Markdown body. */
export interface AgentPageView {
  /** The BCP 47 tag of the page's words (`<html lang>`). */
  language: string;
  /** The page's words (src/core/i18n/words/). */
  words: PageWords;
  /** The index of the page's language (`/`, `/pt-br/`). */
  homePath: string;
  /** The page's path in the default language's pages (`/agents/<slug>/`): the key of its language versions. */
  pagePath: string;
  name: string;
  /** The language of `name` when it is not the page's (a text the publisher did not translate). */
  nameLang?: string;
  /** The "new permissions" notice while a version that gained access is new (DESIGN.md §9). */
  newPermissions?: NewPermissionsNoticeView;
  description: string;
  /** The language of `description` when it is not the page's. */
  descriptionLang?: string;
  /** The Markdown body (the long description) in the page's language, else the agent file's own. */
  body: string;
  /** The language of `body` when it is not the page's. */
  bodyLang?: string;
  version: string;
  provider: { organization: string; url: string };
  documentationUrl?: string;
  footprint: string;
  /** One line per service the agent acts on (src/core/pages/permission-label.ts); absent when it acts on none. */
  label?: PermissionLabel;
  skills: SkillView[];
  interfaces: InterfaceView[];
  /** Optional A2A capabilities the agent declares, in words. */
  features: string[];
  inputModes: string[];
  outputModes: string[];
  securitySchemes: SecuritySchemeView[];
  /**
   * The sentence for a card without security schemes: "declares no sign-in" only when no access acts as
   * the visitor either; absent when the card declares some.
   */
  noSignInText?: string;
  /**
   * What the RAM adds to the card's sign-in (src/core/ram/sign-in.ts): the services it reaches as
   * the visitor, or that the card signs the visitor in with nothing declared as done with it.
   */
  signInNotes: string[];
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

/** Scope → what it grants, from every OAuth flow of `scheme`: the publisher's text in the page's language when `texts` gives it. */
function allScopes(
  scheme: SecuritySchemeInput,
  texts?: SchemeTexts,
): Map<string, { text: string; lang?: string }> {
  const scopes = new Map<string, { text: string; lang?: string }>();
  for (const flow of Object.values(scheme.oauth2SecurityScheme?.flows ?? {})) {
    for (const [scope, meaning] of Object.entries(flow?.scopes ?? {}))
      scopes.set(scope, texts?.scopes.get(scope) ?? { text: meaning });
  }
  return scopes;
}

/**
 * One security scheme in words (A2A v1.0 `SecurityScheme`, proto oneof form of the A2A v0.3 AgentCard reference). Never names
 * a proto field; the scheme's own name and scope names are shown as they are written, its description
 * and scope meanings in the page's language when `texts` (src/core/pages/page-texts.ts) gives them.
 */
export function securitySchemeView(
  name: string,
  scheme: SecuritySchemeInput,
  w: PageWords,
  texts?: SchemeTexts,
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
    scopes: [...allScopes(scheme, texts)].map(([scope, meaning]) => ({
      scope,
      meaning: meaning.text,
      ...(meaning.lang === undefined ? {} : { meaningLang: meaning.lang }),
    })),
  };
  if (description) {
    const text = texts?.description ?? { text: description };
    view.description = text.text;
    Object.assign(view, langField('description', text));
  }
  return view;
}

/**
 * One `SecurityRequirement` in words of `w`: each scheme it names (all are needed) by its kind, never by
 * its key in `securitySchemes` (an id people do not read), with the scopes asked for, by their meaning
 * when the scheme defines one (in the page's language when `texts`, scheme name → its texts, gives it).
 * E.g. `OAuth 2.0 sign-in, with permission to: See your trips (trips.read)`.
 */
export function requirementText(
  requirement: SecurityRequirementInput,
  schemes: Readonly<Record<string, SecuritySchemeInput>> | undefined,
  w: PageWords,
  texts?: ReadonlyMap<string, SchemeTexts>,
): string {
  return w.agent.requirementAnd(
    Object.entries(requirement.schemes).map(([name, { list }]) => {
      const scheme = schemes?.[name];
      const kind = scheme ? securitySchemeView(name, scheme, w).kind : w.agent.schemeKind.other;
      const meanings = scheme ? allScopes(scheme, texts?.get(name)) : new Map<string, { text: string }>();
      const scopes = list.map((scope) => {
        const meaning = meanings.get(scope);
        return meaning ? `${meaning.text} (${scope})` : scope;
      });
      return w.agent.requirement(kind, scopes);
    }),
  );
}

function requirementsText(
  requirements: readonly SecurityRequirementInput[] | undefined,
  schemes: Readonly<Record<string, SecuritySchemeInput>> | undefined,
  w: PageWords,
  texts: ReadonlyMap<string, SchemeTexts>,
): string[] {
  return (requirements ?? []).map((r) => requirementText(r, schemes, w, texts));
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
 * Computes the agent page of `build` (DESIGN.md §2, §3) in the language of `tree` (DESIGN.md §9
 * "Languages"), or, without one, in the agent's language (its `language`, else the publisher's), with the
 * publisher's texts in that language (src/core/pages/page-texts.ts). Pure; throws only for a language
 * without page words, which the checks refuse first.
 */
export function agentPageView(
  build: AgentBuild,
  site: Pick<SiteBuild, 'kid' | 'model'>,
  tree?: PageTree,
): AgentPageView {
  const { agent } = build;
  const { front } = agent;
  const language = tree?.language ?? agentLanguage(agent, site.model.publisher);
  const prefix = tree?.prefix ?? pagesBase(site.model.publisher);
  const w = wordsFor(language);
  const texts = new PageTexts(site.model, language);
  const name = texts.agentName(agent);
  const description = texts.agentDescription(agent);
  const body = texts.body(agent);
  const schemeTexts = new Map(
    Object.entries(front.securitySchemes ?? {}).map(([n, scheme]) => [
      n,
      texts.securityScheme(agent, n, scheme),
    ]),
  );
  const schemes = front.securitySchemes;
  const features: string[] = [];
  if (front.capabilities?.streaming) features.push(w.agent.streaming);
  if (front.capabilities?.pushNotifications) features.push(w.agent.pushNotifications);
  if (front.capabilities?.extendedAgentCard) features.push(w.agent.extendedCard);
  const provider = build.provider;
  const label = agentLabel(build, site.model, w, tree);
  const signIn = signInFacts(agent);
  const view: AgentPageView = {
    language,
    words: w,
    homePath: indexPagePath(prefix),
    pagePath: agentPagePath(agent.slug),
    name: name.text,
    ...langField('name', name),
    description: description.text,
    ...langField('description', description),
    body: body.text,
    ...langField('body', body),
    version: front.version,
    provider,
    footprint: footprintLine(agent.ram, w, 'alone', signIn.userSchemes.length > 0),
    ...(label ? { label } : {}),
    skills: front.skills.map((s, i) => {
      const skillName = texts.skill(agent, i, 'name');
      const skillDescription = texts.skill(agent, i, 'description');
      const examples = texts.skillExamples(agent, i);
      const skill: SkillView = {
        id: s.id,
        anchor: fragmentId('skill', s.id),
        name: skillName.text,
        ...langField('name', skillName),
        description: skillDescription.text,
        ...langField('description', skillDescription),
        tags: s.tags,
        examples: [...examples.text],
        ...(examples.text.length > 0 ? langField('examples', examples) : {}),
      };
      const needs = requirementsText(s.securityRequirements, schemes, w, schemeTexts);
      if (needs.length > 0) skill.needs = w.agent.needsOr(needs);
      return skill;
    }),
    interfaces: interfaceViews(front.interfaces, w),
    features,
    inputModes: front.defaultInputModes,
    outputModes: front.defaultOutputModes,
    securitySchemes: distinctHeadings(
      Object.entries(schemes ?? {}).map(([n, scheme]) =>
        securitySchemeView(n, scheme, w, schemeTexts.get(n)),
      ),
      w,
    ),
    signInNotes: [],
    requirements: requirementsText(front.securityRequirements, schemes, w, schemeTexts),
    identifier: agent.identifier,
    digest: build.digest,
    kid: site.kid,
    cardPath: build.cardPath,
    cardUrl: build.cardUrl,
    manifestPath: MANIFEST_PATH,
    permissionsPath: permissionsPagePath(agent.slug, prefix),
    permissionsLinkText:
      agent.ram.resourceAccesses.length > 0
        ? w.agent.permissionsLink(name.text)
        : w.agent.permissionsLinkEmpty(name.text),
  };
  // The card's default documentationUrl is this very page: only an author's other address is shown.
  const ownPage = new URL(agentPagePath(agent.slug), build.cardUrl).href;
  if (front.documentationUrl && front.documentationUrl !== ownPage)
    view.documentationUrl = front.documentationUrl;
  if (view.requirements.length === 1)
    view.requirementSentence = w.agent.requirementOne(view.requirements[0]!);
  if (view.requirements.length > 1) view.requirementSentence = w.agent.requirementMany(view.requirements);
  // Sign-in from the card and the RAM together: never "no sign-in" for an agent that acts as the visitor.
  const asYou = signIn.asUserResources.flatMap((id) => {
    const resource = agent.ram.resources.find((r) => r.id === id);
    return resource ? [texts.resource(resource, 'displayName').text] : [];
  });
  if (!signIn.cardDeclaresSecurity)
    view.noSignInText = asYou.length > 0 ? w.agent.noSignInDescribed : w.agent.noSignIn;
  if (asYou.length > 0) view.signInNotes.push(w.agent.signInAsYou(asYou));
  else if (signIn.userSchemes.length > 0) view.signInNotes.push(w.agent.signInNothingDeclared);
  if (typeof build.entry.updatedAt === 'string') view.updatedAt = build.entry.updatedAt;
  const notice = newPermissionsNoticeView(build, w, prefix);
  if (notice) view.newPermissions = notice;
  return view;
}
