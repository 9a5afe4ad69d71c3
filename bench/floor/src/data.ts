/**
 * In-memory data of the benchmark floor: for N agents, the page views ardsite's page components take
 * (src/components/AgentPage.astro, PermissionPage.astro, IndexPage.astro), with the shapes and sizes the
 * synthetic publisher's agents have (bench/synthetic.ts: 3 skills with examples, 8 accesses over 5
 * outside services, a Markdown body), a card JSON and an entry JSON-LD of similar size; all made by
 * plain templating, without loading, checks, signing, verification or ardsite's view code. N comes from
 * `FLOOR_AGENTS`.
 */
import type { AgentPageView } from '../../../src/core/pages/agent-page';
import type { IndexView } from '../../../src/core/pages/index-page';
import { ENGLISH_WORDS } from '../../../src/core/i18n/words';
import type { AccessView, PermissionView, ResourceView } from '../../../src/core/pages/permissions';

/** One agent of the floor. */
export interface FloorAgent {
  slug: string;
  body: string;
  view: AgentPageView;
  permissions: PermissionView;
  card: string;
  /** The `<script>` text of an entry-sized JSON-LD document, as agent pages embed. */
  jsonLd: string;
}

const SLOT = Symbol.for('ardsite.floorAgents');
const KINDS = ['weather', 'crm', 'music', 'billing'] as const;
const NECESSITY = [
  ['REQUIRED', 'Required: the agent cannot do its job without it.'],
  ['RECOMMENDED', 'Recommended: the agent works without it, but some answers will be less complete.'],
  ['OPTIONAL', 'Optional: only for an extra feature; the agent works fully without it.'],
] as const;

function makeAgent(n: number): FloorAgent {
  const slug = `agent-${String(n).padStart(4, '0')}`;
  const name = `Synthetic Agent ${n}`;
  const description = `Synthetic agent number ${n}, with three skills and eight accesses to five services.`;
  const skills = ['plan', 'search', 'summarise'].map((verb, k) => ({
    id: `${verb}-${n}`,
    anchor: `skill-${verb}-${n}`,
    name: `${verb[0]!.toUpperCase()}${verb.slice(1)} for agent ${n}`,
    description: `${verb} things on your behalf, the synthetic way.`,
    tags: ['synthetic', verb],
    examples: [
      `Please ${verb} my week number ${n}`,
      `Can you ${verb} everything about topic ${(n + k) % 97}?`,
    ],
  }));
  const resources: ResourceView[] = Array.from({ length: 5 }, (_, s) => {
    const kind = KINDS[(n + s) % KINDS.length]!;
    const id = `svc-${kind}-${(n * 7 + s * 31) % 200}`;
    const docs = `https://docs.service${(n * 7 + s * 31) % 200}.example/${kind}`;
    return {
      id,
      anchor: `resource-${id}`,
      displayName: `Synthetic ${kind} service ${(n * 7 + s * 31) % 200}`,
      description: `A synthetic ${kind} service used to measure ardsite at scale.`,
      kindText:
        s % 2
          ? 'Another AI agent, reached through the Agent2Agent protocol.'
          : 'A web service, reached through its web API.',
      documentationUrl: docs,
      accesses: [],
    };
  });
  const accesses: AccessView[] = Array.from({ length: 8 }, (_, a) => {
    const r = resources[a % 5]!;
    const op = `${r.id}-${a % 2 ? 'create' : 'list'}`;
    const [necessity, necessityText] = NECESSITY[a % 3]!;
    const access: AccessView = {
      id: `access-${a}-${op}`,
      anchor: `access-access-${a}-${op}`,
      whatItDoes: a % 2 ? `Creates a ${r.id} item.` : `Lists the ${r.id} items of an account.`,
      heading: a % 2 ? `Creates a ${r.id} item (${a}).` : `Lists the ${r.id} items of an account (${a}).`,
      why: `To ${skills[a % 3]!.id} with the data this service holds for you (access ${a}).`,
      actsAsYou: a % 4 !== 2,
      asWhom:
        a % 4 !== 2
          ? 'As you: it uses your own account, with your permissions.'
          : 'As itself (its own account): it does not use your account.',
      asksFirst: a % 4 === 1,
      asksFirstText:
        a % 4 === 1
          ? 'Yes: it asks you every time before it does this.'
          : 'No: it does this without asking you first.',
      mayChangeData: a % 2 === 1,
      effectText: a % 2 ? 'It may change data.' : 'It only reads data.',
      mayDelete: false,
      reachesOutside: false,
      moreEffects: [],
      necessity,
      necessityText,
      higherRisk: false,
      documentationUrls: [`${r.documentationUrl}/${op}`],
      skills: [{ id: skills[a % 3]!.id, name: skills[a % 3]!.name }],
      usedByText: `The skill “${skills[a % 3]!.name}”.`,
    };
    r.accesses.push(access);
    return access;
  });
  const cardPath = `/agents/${slug}/agent-card.json`;
  const digest = `sha256:${(n.toString(16) + 'ce2248aff5ea744cc59304d5ff80882b').repeat(3).slice(0, 64)}`;
  const identifier = `urn:air:bench.example.com:bench:${slug}`;
  const view: AgentPageView = {
    language: 'en',
    words: ENGLISH_WORDS,
    homePath: '/',
    pagePath: `/agents/${slug}/`,
    name,
    body: `Synthetic agent **${n}** exists to measure how ardsite behaves with many agents.\n\n- It has three skills.\n- It reaches five services through eight accesses.\n`,
    description,
    version: '1.0.0',
    provider: { organization: 'Bench Example Org', url: 'https://www.example.com/' },
    footprint: 'Shares data with 5 outside services',
    skills,
    interfaces: [
      {
        url: `https://api.bench.example.com/a2a/agent-${n}`,
        isWebUrl: true,
        transport: 'JSON-RPC 2.0 over HTTPS',
        protocol: 'A2A protocol version 1.0',
      },
    ],
    features: [],
    inputModes: ['text/plain'],
    outputModes: ['text/plain', 'application/json'],
    securitySchemes: [],
    noSignInText: ENGLISH_WORDS.agent.noSignIn,
    signInNotes: [],
    requirements: [],
    identifier,
    digest,
    kid: 'did:web:bench.example.com#ZbVq3W2k1m7QnRt5Yx8Cv0PaLs4DfGh6JkUoEi9Nw2M',
    updatedAt: '2025-11-24T16:00:00Z',
    cardPath,
    cardUrl: `https://bench.example.com${cardPath}`,
    manifestPath: '/.well-known/ard.json',
    permissionsPath: `/agents/${slug}/permissions/`,
    permissionsLinkText: ENGLISH_WORDS.agent.permissionsLink(name),
  };
  const permissions: PermissionView = {
    language: 'en',
    words: ENGLISH_WORDS,
    agentName: name,
    homePath: '/',
    agentPath: `/agents/${slug}/`,
    pagePath: `/agents/${slug}/permissions/`,
    hasAccess: true,
    noAccessText: '',
    counts: {
      yourServices: 0,
      yourServicesAsYou: 0,
      yourServicesAsItself: 0,
      outsideServices: 5,
      accesses: 8,
      asksFirst: 2,
      required: 3,
      recommended: 3,
      optional: 2,
      higherRisk: 0,
    },
    summary: [
      { key: 'yours', text: 'It does not act on any of your own accounts or services.' },
      { key: 'outside', text: 'It shares data with 5 outside services.' },
      { key: 'asks-first', text: 'It asks you first before 2 of its 8 actions.' },
      { key: 'necessity', text: 'How much it needs them: 3 required, 3 recommended, 2 optional.' },
      { key: 'higher-risk', text: 'No action is marked higher risk.' },
    ],
    groups: [
      {
        key: 'yours',
        heading: 'Your accounts and data',
        intro: 'It does not use any of your own accounts or data.',
        resources: [],
      },
      {
        key: 'outside',
        heading: 'Outside services',
        intro: 'Services run by others. The agent sends them some of your data to get an answer.',
        resources,
      },
    ],
    necessityLegend: NECESSITY.map(([level, text]) => ({
      label: `${level[0]}${level.slice(1).toLowerCase()}`,
      text: text.slice(text.indexOf(': ') + 2).replace(/^./, (c) => c.toUpperCase()),
    })),
    skills: skills.map((s, k) => ({
      id: s.id,
      name: s.name,
      anchor: `uses-${s.anchor}`,
      footprint: 'Shares data with 3 outside services',
      accesses: accesses
        .filter((_, a) => a % 3 === k)
        .map((a) => ({
          id: a.id,
          anchor: a.anchor,
          resourceName: resources[Number(a.id.split('-')[1]) % 5]!.displayName,
          whatItDoes: a.whatItDoes,
          higherRisk: false,
        })),
    })),
    declaration: "This is the publisher's own declaration, not an independent audit.",
  };
  const entry = {
    '@context': [
      'https://agenticresourcediscovery.org/context/v1',
      { ram: 'https://github.com/a2aproject/A2A/issues/1426#' },
    ],
    identifier,
    displayName: name,
    type: 'application/a2a-agent-card+json',
    url: view.cardUrl,
    version: '1.0.0',
    description,
    tags: ['synthetic', 'plan', 'search', 'summarise'],
    capabilities: skills.map((s) => s.name),
    representativeQueries: skills.flatMap((s) => s.examples).slice(0, 5),
    updatedAt: view.updatedAt,
    digest,
    'ram:resourceIds': resources.map((r) => r.id),
    'ram:operationIds': accesses.map((a) => a.id),
    'ram:accessCount': 8,
    trustManifest: {
      identity: 'did:web:bench.example.com',
      identityType: 'did',
      issuedAt: '2025-11-24T16:00:00Z',
      subject: { identifier, type: 'application/a2a-agent-card+json', version: '1.0.0', digest },
      trustSchema: {
        identifier: 'urn:ardsite:trust-profile:did-web-jcs-jws',
        version: '1',
        verificationMethods: ['did:web'],
      },
      signature: `${'e'.repeat(120)}..${'s'.repeat(86)}`,
    },
  };
  const card = {
    name,
    description,
    supportedInterfaces: view.interfaces,
    skills,
    resources: resources.map((r) => ({ ...r, accesses: undefined })),
    accesses: accesses.map((a) => ({ id: a.id, why: a.why, necessity: a.necessity, actsAsYou: a.actsAsYou })),
    signatures: [{ protected: 'x'.repeat(300), signature: 'y'.repeat(86) }],
    padding: 'p'.repeat(13200),
  };
  return {
    slug,
    body: view.body,
    view,
    permissions,
    card: `${JSON.stringify(card, null, 2)}\n`,
    jsonLd: JSON.stringify(entry, null, 2).replace(/</g, '\\u003c'),
  };
}

/** The floor's agents (made once per process). */
export function floorAgents(): FloorAgent[] {
  const slot = globalThis as { [SLOT]?: FloorAgent[] };
  if (!slot[SLOT]) {
    const n = Number(process.env.FLOOR_AGENTS ?? '10');
    slot[SLOT] = Array.from({ length: n }, (_, i) => makeAgent(i));
  }
  return slot[SLOT];
}

/** `getStaticPaths` of the floor's per-agent routes: one path per agent, the agent as its prop. */
export function floorStaticPaths(): Array<{ params: { slug: string }; props: { agent: FloorAgent } }> {
  return floorAgents().map((agent) => ({ params: { slug: agent.slug }, props: { agent } }));
}

/** The floor's home page view. */
export function floorIndex(): IndexView {
  return {
    language: 'en',
    words: ENGLISH_WORDS,
    homePath: '/',
    pagePath: '/',
    title: 'Bench Example Org',
    organization: 'Bench Example Org',
    organizationUrl: 'https://www.example.com/',
    agents: floorAgents().map((a) => ({
      name: a.view.name,
      description: a.view.description,
      version: a.view.version,
      footprint: a.view.footprint,
      pagePath: `/agents/${a.slug}/`,
      permissionsPath: a.view.permissionsPath,
    })),
    entries: [],
  };
}
