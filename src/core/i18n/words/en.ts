/**
 * The page words in English: every sentence a page shows (DESIGN.md §6: "no enum names, only
 * meanings"). Its shape is {@link PageWords}: every other language's table has exactly this shape, so a
 * missing word is a TypeScript error (and `npm run check` / the build report PAGE_WORDS_MISSING).
 * Numbers, dates and plural forms go through `Intl` (./locale.ts).
 */
import { capitalize, localeTools } from './locale.js';
import type { ChangeWordsInput } from './change-input.js';

const L = localeTools('en', 'en-GB');

const ACTION = { one: 'action', other: 'actions' };
const OUTSIDE_SERVICE = { one: 'outside service', other: 'outside services' };
const YOUR_SERVICE = { one: 'of your services', other: 'of your services' };

/**
 * A sign-in kind inside a sentence: a first word that is an ordinary capitalised word ("Access token",
 * "Sign-in") is lower-cased; a name or an acronym ("API key", "OAuth 2.0", "OpenID Connect") is kept.
 */
function inSentence(text: string): string {
  const first = /^\S+/.exec(text)?.[0] ?? '';
  return /^[A-Z][a-z]+(-[a-z]+)*$/.test(first) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
}

function quoted(text: string | undefined): string {
  const t = (text ?? '').replace(/\.$/, '');
  return t === '' ? 'an action' : `“${t}”`;
}

function howItActs(label: NonNullable<ChangeWordsInput['label']>): string {
  const who = label.actsAsYou ? 'as you' : 'as itself';
  const ask = label.withoutAsking ? 'without asking you first' : 'asking you first every time';
  return `${who}, ${ask}`;
}

function where(label: NonNullable<ChangeWordsInput['label']>): string {
  const name = label.resource ? ` in ${label.resource}` : '';
  return label.owner === 'THIRD_PARTY' ? `${name} (an outside service)` : name;
}

const NECESSITY_WORD: Readonly<Record<string, string>> = {
  REQUIRED: 'required',
  RECOMMENDED: 'recommended',
  OPTIONAL: 'optional',
};

const NECESSITY_MEANING = {
  required: 'the agent cannot do its job without it.',
  recommended: 'the agent works without it, but important features will be missing or work much less well.',
  optional: 'only for an extra feature; the agent works fully without it.',
};

/** One change between two versions in words (DESIGN.md §9 "Releases"). */
function changeSentence(change: ChangeWordsInput): string {
  const label = change.label ?? {};
  const action = `${quoted(label.whatItDoes)}${where(label)}`;
  if (change.item === 'resource') {
    const name = label.resource ?? change.id;
    if (change.kind === 'added')
      return label.owner === 'THIRD_PARTY'
        ? `New outside service: ${name} now gets data from the agent.`
        : `New: it now reaches ${name}, one of your services.`;
    if (change.kind === 'removed') return `Removed: it no longer reaches ${name}.`;
    if (change.field === 'owner')
      return change.to === 'THIRD_PARTY'
        ? `${name} is now an outside service, not one of yours: your data goes out to it.`
        : `${name} is now one of your own services, not an outside one.`;
    return `Reworded: the ${change.field ?? 'text'} of ${name}.`;
  }
  if (change.item === 'operation') {
    if (change.kind === 'added') return `New action defined: ${change.id}.`;
    if (change.kind === 'removed') return `Action no longer defined: ${change.id}.`;
    return `Reworded: the ${change.field ?? 'text'} of the action ${change.id}.`;
  }
  const changes = label.changesData ? 'may change your data' : 'only reads data';
  switch (change.kind) {
    case 'added':
      return `New permission: ${action}. It ${changes}; it acts ${howItActs(label)}.`;
    case 'removed':
      return `Removed: it no longer does ${action}.`;
    case 'reworded':
      return `Reworded: why it does ${action}.`;
    default:
      break;
  }
  const wider = change.kind === 'widened';
  switch (change.field) {
    case 'identityUsed':
      return wider
        ? `The action ${action} now acts as you, with your account (before: as itself).`
        : `The action ${action} now acts as itself, no longer with your account.`;
    case 'confirmationRequired':
      return wider
        ? `The action ${action} is now done without asking you first (before: it asked you every time).`
        : `The action ${action} now asks you first every time.`;
    case 'necessity':
      return `The action ${action} is now ${NECESSITY_WORD[String(change.to)] ?? String(change.to)} (before: ${NECESSITY_WORD[String(change.from)] ?? String(change.from)}).`;
    case 'effect':
      return wider
        ? `The action ${action} may now change your data (before: it only read data).`
        : `The action ${action} now only reads data.`;
    case 'operation':
      return `The action ${action} now does another action than before.`;
    case 'owner':
      return wider
        ? `The action ${action} now sends your data to an outside service.`
        : `The action ${action} now stays with one of your own services.`;
    case 'scope': {
      const list = (v: unknown) => (Array.isArray(v) ? v.join(', ') : String(v));
      return wider
        ? `The action ${action} now asks for broader permission: ${list(change.to)} (before: ${list(change.from)}).`
        : `The action ${action} now asks for narrower permission: ${list(change.to)}.`;
    }
    default:
      return `The action ${action}: ${change.field ?? 'changed'}.`;
  }
}

/** The English page words; its type is the shape of every language's table. */
export const EN = {
  /** The `Intl` helpers of the language (numbers, dates, plurals). */
  locale: L,

  // --- every page (src/layouts/Base.astro) -------------------------------------------------------
  layout: {
    skipLink: 'Skip to main content',
    breadcrumb: 'Breadcrumb',
    agentsCrumb: 'Agents',
    publishedBy: 'Published by',
    manifestLink: 'Machine-readable manifest (ard.json)',
    writeTo: (email: string) => `Write to ${email}`,
    contact: 'Contact the publisher',
    privacy: 'Privacy policy',
    terms: 'Terms',
    /** The language switcher's label (a `<nav aria-label>`), on a site in several languages. */
    languages: 'Language',
    /** This language's own name, as its speakers write it: the switcher's link to its pages. */
    languageName: 'English',
  },
  notFound: {
    title: 'Page not found',
    text: 'There is no page at this address. It may have moved, or the link may be wrong.',
    seeAll: 'See all agents',
  },

  // --- the index (src/components/IndexPage.astro) -------------------------------------------------
  index: {
    agentsHeading: 'Agents',
    mayAccess: 'What it may access:',
    detailsLink: (name: string) => `Details on what ${name} may access`,
    alsoListed: 'Also listed',
    alsoListedIntro: 'Other resources in this site’s discovery manifest.',
    version: (v: string) => `version ${v}`,
    foreignNote: 'Listed, not published by us',
    publishedByDomain: (domain: string) => `It is published by ${domain}.`,
    machineDescription: (name: string) => `Machine-readable description of ${name}`,
    forMachines: 'For machines',
    manifestItem: 'Discovery manifest (ard.json)',
    manifestItemRest: ': every agent and entry above; the site signs its own.',
    didItem: 'Public keys as a DID document (did.json)',
    jwksItem: 'Public keys as a JSON Web Key Set (jwks.json)',
    entryKinds: {
      'application/a2a-agent-card+json': 'AI agent',
      'application/mcp-server-card+json': 'Model Context Protocol server',
      'application/ai-registry+json': 'Registry of agents',
    } as Readonly<Record<string, string>>,
    otherKind: (type: string) => `Resource described as ${type}`,
  },

  // --- footprint line (index, agent page, skills) ------------------------------------------------
  footprint: {
    noAccess: 'This agent does not access any of your accounts or outside services.',
    noAccessShort: 'does not access any of your accounts or outside services',
    /** Instead of `noAccess` when the card asks the visitor to sign in but no access acts as them. */
    signInUndeclared:
      'Its card asks you to sign in with your own account, but its publisher does not declare what the agent then does with your accounts and data, so that is not known here.',
    /** Instead of `noAccessShort` in the same case. */
    signInUndeclaredShort: 'asks you to sign in with your account, but does not declare what it does there',
    yours: (n: number) => `acts on ${L.number(n)} ${L.form(n, YOUR_SERVICE)}`,
    outside: (n: number) => `shares data with ${L.count(n, OUTSIDE_SERVICE)}`,
    join: (parts: readonly string[]) => parts.join(' · '),
  },

  // --- the agent page (src/components/AgentPage.astro, src/core/pages/agent-page.ts) -------------
  agent: {
    version: (v: string) => `Version ${v}`,
    by: 'by',
    updated: 'updated',
    accessHeading: 'What it may access',
    permissionsLink: (name: string) => `See everything ${name} may access, as whom and why`,
    permissionsLinkEmpty: (name: string) => `The permission page of ${name}`,
    aboutHeading: 'About this agent',
    documentation: 'Documentation',
    skillsHeading: 'What it can do',
    askExamples: 'You can ask, for example:',
    toUseSkill: (needs: string) => `To use this skill: ${needs}.`,
    connectHeading: 'How to connect',
    connectIntro: 'Software that speaks the Agent2Agent (A2A) protocol reaches this agent at:',
    accepts: 'It accepts',
    answersWith: 'It answers with',
    signInHeading: 'Sign-in',
    noSignIn: 'The agent declares no sign-in.',
    /** Instead of `noSignIn` when the agent acts as the visitor on some service (`signInAsYou` follows). */
    noSignInDescribed: 'Its card does not describe how you sign in.',
    /** The services it reaches as the visitor, with their own account. */
    signInAsYou: (services: readonly string[]) =>
      `It acts as you, with your own account, on ${L.and(services)}: you will be asked to let it use your account there.`,
    /** The card signs the visitor in, but no access of its RAM acts as them. */
    signInNothingDeclared:
      'Its card asks you to sign in with your own account, but its publisher does not declare what the agent does with it.',
    scopesIntro: 'Permissions it can ask you for:',
    transport: {
      JSONRPC: 'JSON-RPC 2.0 over HTTPS',
      GRPC: 'gRPC',
      'HTTP+JSON': 'HTTP with JSON',
    },
    protocol: (version: string) => `A2A protocol version ${version}`,
    streaming: 'Streams its answers as it writes them.',
    pushNotifications: 'Can notify your app when a long task is done.',
    extendedCard: 'Shows signed-in callers a more detailed description.',
    schemeKind: {
      other: 'Sign-in',
      oauth2: 'OAuth 2.0 sign-in',
      apiKey: 'API key',
      bearer: 'Access token',
      basic: 'User name and password',
      http: 'HTTP authentication',
      openIdConnect: 'OpenID Connect sign-in',
      mtls: 'Client certificate',
    },
    authorizationCode: (url: string, pkce: boolean) =>
      `You sign in at ${url} and approve what it may do${pkce ? ' (protected with PKCE)' : ''}.`,
    deviceCode: (url: string) => `You approve it on another device, at ${url}.`,
    implicit: (url: string) => `You sign in at ${url} (older, implicit flow).`,
    password: (url: string) => `Your user name and password are exchanged for a token at ${url}.`,
    clientCredentials: (url: string) => `Other software can sign in with its own credentials at ${url}.`,
    metadataUrl: (url: string) => `Details of the sign-in server: ${url}.`,
    apiKeyPlace: {
      header: 'a request header',
      query: 'the query string',
      cookie: 'a cookie',
    } as Readonly<Record<string, string>>,
    apiKey: (name: string, place: string) => `A key named “${name}”, sent in ${place}.`,
    bearer: (format: string | undefined) =>
      `A bearer token${format ? ` (${format})` : ''} sent with each request.`,
    basic: 'A user name and password sent with each request (HTTP Basic authentication).',
    http: (scheme: string) => `HTTP authentication with the “${scheme}” scheme.`,
    openIdConnect: (url: string) => `You sign in with an OpenID Connect provider described at ${url}.`,
    mtls: 'The caller presents its own TLS certificate (mutual TLS).',
    /** One scheme of a requirement: its kind (never its internal key) and the permissions asked for. */
    requirement: (kind: string, scopes: readonly string[]) =>
      scopes.length === 0 ? kind : `${kind}, with permission to: ${scopes.join('; ')}`,
    requirementAnd: (parts: readonly string[]) => parts.join(', and '),
    needsOr: (alternatives: readonly string[]) =>
      alternatives.map((a, i) => (i === 0 ? a : inSentence(a))).join('; or '),
    requirementOne: (r: string) => `To use the agent, a caller needs ${r}.`,
    requirementMany: (rs: readonly string[]) =>
      `To use the agent, a caller needs one of: ${rs.join('; or ')}.`,
  },

  // --- machine-readable links (src/components/MachineLinks.astro) --------------------------------
  machine: {
    heading: 'Machine-readable',
    card: 'Agent card (JSON)',
    manifest: 'Discovery manifest of this site (ard.json)',
    permissionPage: 'What it may access (permission page)',
    aboutAgent: 'About this agent',
    identifier: 'Identifier',
    digest: 'Digest of the agent card',
    kid: 'Signing key id',
    pinnedBefore:
      'The manifest pins the card by this digest and is signed with this key; the key is published in',
    and: 'and',
  },

  // --- the permission page (src/components/PermissionPage.astro, src/core/pages/permissions.ts) ----
  permissions: {
    title: (name: string) => `What ${name} may access`,
    description: (name: string) =>
      `The accounts, services and data ${name} may access, as whom, why, and whether it asks first.`,
    declaration: "This is the publisher's own declaration, not an independent audit.",
    summaryHeading: 'Summary',
    legendIntro: 'What the words mean:',
    higherRiskLabel: 'Higher risk',
    higherRiskReason: 'It acts as you, may change your data, and does not ask you first.',
    manageAccess: (name: string) => `Manage or revoke access to ${name}`,
    documentationOf: (name: string) => `Documentation of ${name}`,
    whatItDoesHeading: 'What it does with it',
    skillsHeading: 'By skill',
    skillsIntro: 'What each of the agent’s skills uses.',
    contactHeading: 'Questions about this agent',
    publishedBy: (name: string) => `${name} is published by`,
    machineIntro: 'The same information, as the publisher signed it:',
    facts: {
      why: 'Why',
      asWhom: 'As whom',
      asksFirst: 'Asks first',
      changesData: 'Changes data',
      necessity: 'How much it needs it',
      usedBy: 'Used by',
      technical: 'Technical details',
    },
    /** "Used by" as a sentence: the skills that use an access. */
    usedBy: (skills: readonly string[]) =>
      `${skills.length === 1 ? 'The skill' : 'The skills'} ${L.and(skills.map((s) => `“${s}”`))}.`,
    /** Distinguishes two accesses of one action in their headings. */
    sameActionAs: (whatItDoes: string, asWhom: 'you' | 'itself') =>
      `${whatItDoes} (${asWhom === 'you' ? 'as you' : 'with its own account'})`,
    asYou: 'As you: it uses your own account, with your permissions.',
    asItselfOnYours:
      'As itself: this is one of your services, but the agent reaches it with its own account, not yours.',
    asItself: 'As itself (its own account): it does not use your account.',
    asksFirstYes: 'Yes: it asks you every time before it does this.',
    asksFirstNo: 'No: it does this without asking you first.',
    mayChange: 'It may change data.',
    mayChangeUnsaid: 'It may change data: the publisher has not said that it only reads.',
    mayChangeServiceSays:
      'It may change data: the publisher says it only reads, but the service’s own description says it may change data.',
    onlyReads: 'It only reads data.',
    mayDelete: 'It may delete or overwrite data, which may not be undone.',
    reachesOutside:
      'It may also reach other services or sites beyond this one: the tool’s own description says so.',
    publisherGroupHeading: (organization: string) => `Services of ${organization}`,
    publisherGroupIntro: (organization: string) =>
      `Run by ${organization}, who publishes this agent, not by others. The agent sends them some of your data to get an answer.`,
    necessityLabel: { required: 'Required', recommended: 'Recommended', optional: 'Optional' },
    necessityMeaning: NECESSITY_MEANING,
    necessityExplanation: {
      required: `Required: ${NECESSITY_MEANING.required}`,
      recommended: `Recommended: ${NECESSITY_MEANING.recommended}`,
      optional: `Optional: ${NECESSITY_MEANING.optional}`,
    },
    groupHeading: { yours: 'Your accounts and data', outside: 'Outside services' },
    groupIntro: {
      yours: 'Services where you have your own account. The agent reaches them to work with your data.',
      yoursEmpty: 'It does not use any of your own accounts or data.',
      /** Instead of `yoursEmpty` when it acts as you on an outside service (your own account there). */
      yoursEmptyAsYouOutside:
        'It uses none of your own services. But where an outside service below says “As you”, it uses your own account on that service.',
      outside: 'Services run by others. The agent sends them some of your data to get an answer.',
      outsideEmpty: 'It does not send data to any outside service.',
    },
    kind: {
      MCP: 'A tool made for AI agents (an MCP server).',
      A2A: 'Another AI agent, which this agent talks to (over A2A).',
      REST: 'A web service (reached through its web API).',
    },
    /**
     * Your own services it acts on (`total`; on `asYou` of them as you, on `asItself` with its own account),
     * and the outside services where it acts as you (`outsideAsYou`), which is your own account there: never
     * "not any of your own accounts" while an access says "As you".
     */
    summaryYours: (total: number, asYou: number, asItself: number, outsideAsYou: number) => {
      const accounts = `your own ${L.form(outsideAsYou, { one: 'account', other: 'accounts' })} at ${L.count(outsideAsYou, OUTSIDE_SERVICE)}, as you`;
      if (total === 0)
        return outsideAsYou === 0
          ? 'It does not act on any of your own accounts or services.'
          : `It acts on none of your own services, but it uses ${accounts}.`;
      const services = `It acts on ${L.number(total)} ${L.form(total, { one: 'of your own services', other: 'of your own services' })}`;
      const own =
        asItself === 0
          ? `${services}, as you.`
          : asYou === 0
            ? `${services}, with its own account, not yours.`
            : `${services}: on ${L.number(asYou)} as you, on ${L.number(asItself)} with its own account.`;
      return outsideAsYou === 0 ? own : `${own} It also uses ${accounts}.`;
    },
    /** A summary line when the card asks the visitor to sign in, but no access acts as them. */
    summarySignInUndeclared:
      'Its card asks you to sign in with your own account, but no action below is declared as done with it: what it does with your account is not declared.',
    summaryOutside: (n: number) =>
      n === 0
        ? 'It does not share data with any outside service.'
        : `It shares data with ${L.count(n, OUTSIDE_SERVICE)}.`,
    summaryAsksFirst: (asksFirst: number, accesses: number) => {
      if (accesses === 0) return 'It takes no action on your accounts or outside services.';
      if (accesses === 1)
        return asksFirst === 1
          ? 'It asks you first before its one action.'
          : 'It does not ask you first before its one action.';
      if (asksFirst === 0) return `It does not ask you first before any of its ${L.count(accesses, ACTION)}.`;
      if (asksFirst === accesses) return `It asks you first before each of its ${L.count(accesses, ACTION)}.`;
      return `It asks you first before ${L.number(asksFirst)} of its ${L.count(accesses, ACTION)}.`;
    },
    summaryNecessity: (required: number, recommended: number, optional: number) => {
      if (required + recommended + optional === 1)
        return `How much it needs its one action: ${required === 1 ? 'required' : recommended === 1 ? 'recommended' : 'optional'}.`;
      const some = (n: number) => (n === 0 ? 'none' : L.number(n));
      return `How much it needs its actions: ${some(required)} required, ${some(recommended)} recommended, ${some(optional)} optional.`;
    },
    summaryHigherRisk: (n: number) => {
      if (n === 0) return 'No action is marked higher risk.';
      if (n === 1)
        return 'One action is marked higher risk: it acts as you, may change your data and does not ask you first.';
      return `${capitalize(L.count(n, ACTION))} are marked higher risk: they act as you, may change your data and do not ask you first.`;
    },
  },

  // --- the label atop the permission page, and its lines on the index and agent pages ------------
  // (src/core/pages/permission-label.ts, src/components/PermissionLabel.astro)
  label: {
    heading: 'At a glance',
    /** Whose account it is: one of the visitor's own services, an outside one, or the publisher's. */
    yours: 'your service',
    outside: 'outside service',
    publisher: (organization: string) => `run by ${organization}`,
    asYou: 'as you',
    asItself: 'with its own account',
    asBoth: 'as you and with its own account',
    onlyReads: 'only reads',
    changesData: 'changes data',
    mayDelete: 'may delete or overwrite: may not be undone',
    asksFirst: 'asks you first',
    withoutAsking: 'without asking you first',
    optional: 'optional',
    higherRisk: 'higher risk',
    reachesOutside: 'may reach other services',
    /** One action and its facts: "Creates an event: changes data, asks you first". */
    action: (text: string, notes: readonly string[]) =>
      notes.length === 0 ? text : `${text}: ${notes.join(', ')}`,
    /** The outside services that get data from the agent, named. */
    sendsTo: (names: readonly string[]) => `Some of your data goes to ${L.and(names)}.`,
    details: 'Every detail, with the reasons, is below.',
  },

  // --- what the visitor will be asked to allow (src/core/pages/permission-grants.ts) -------------
  grants: {
    heading: 'You will be asked to allow:',
    // The card names none of the service's permissions: what it asks for is unknown, but includes these.
    atLeastHeading: 'You will be asked to allow at least:',
    // When the card asks for more than the actions need: what it asks for first, then the least privilege.
    askedHeading: 'What the agent asks you to allow:',
    neededHeading: 'The narrowest permissions the service lists for its declared actions:',
    nothingToAllow: 'Nothing: the agent does not use your account on this service.',
    scopesNotNamed:
      'This service does not say which permissions it asks for, so they are not known here. The agent uses your account on it, as below.',
    unknown:
      'The publisher has not given the description of this service’s API, so the exact permission you will be asked for is not known here.',
    scopeWithoutDescription: 'The service gives no description of this permission.',
    alsoAllows: (n: number) =>
      n === 0
        ? 'This permission allows nothing more than what the agent says it does.'
        : `This permission also allows ${L.count(n, { one: 'other action', other: 'other actions' })} on this service.`,
    alsoAllowsSummary: 'Show what else it allows',
    broaderLabel: 'Asks for more than it needs',
    broader: (asked: string, needed: readonly string[]) => {
      const need =
        needed.length === 0
          ? 'its declared actions need no permission of yours here'
          : `the narrowest the service lists for its declared actions is “${needed.join('”, “')}”, and the publisher does not say why it needs more`;
      return `The agent asks for “${asked}”, which allows more: ${need}.`;
    },
    /** Beside a permission the spec gives as the narrowest for the actions, with no word from the publisher. */
    narrowest: 'The narrowest permission the service lists for these actions.',
    /** Before the publisher's reason for a permission it names as needed (the reason follows, in its words). */
    neededBecause: 'The publisher says the agent needs this permission:',
    /** When the publisher names a permission broader than the narrowest the service lists. */
    narrowerListed: (narrower: string) =>
      `The service lists a narrower permission for these actions, “${narrower}”, which the publisher says is not enough.`,
    /** A limit the service's own description of a permission states (“but not the email body”). */
    leavesOut: (clause: string) => `The service’s own description limits it: “${clause}”.`,
    /** The actions a permission is for. */
    scopeFor: (actions: readonly string[]) => `For: ${L.and(actions.map((a) => `“${a}”`))}.`,
  },

  // --- what changed between versions (src/core/pages/changes-view.ts) ----------------------------
  changes: {
    heading: (version: string) => `What changed in ${version}`,
    intro: (previousVersion: string, previousDate: string) =>
      `Compared with version ${previousVersion} of ${L.date(previousDate)}, this version:`,
    historyHeading: 'Earlier changes',
    historyVersion: (version: string, date: string, previousVersion: string) =>
      `Version ${version} (${L.date(date)}), compared with ${previousVersion}:`,
    notice: (version: string, date: string) => `New permissions in version ${version} (${L.date(date)}).`,
    noticeLink: 'See what changed',
    sentence: changeSentence,
  },
};

/** The shape of every language's page words (the English table's type). */
export type PageWords = typeof EN;
