/**
 * In-memory data of the benchmark floor: for N agents, plain objects of the same sizes as ardsite's
 * (3 skills with examples, 8 access sentences over 5 services, a Markdown body, a card JSON of similar
 * size), made without loading, checks, signing or verification. N comes from `FLOOR_AGENTS`.
 */

/** One agent of the floor. */
export interface FloorAgent {
  slug: string;
  name: string;
  description: string;
  body: string;
  skills: Array<{ id: string; name: string; description: string; examples: string[] }>;
  interfaces: Array<{ url: string; transport: string; protocol: string }>;
  services: Array<{ name: string; description: string; docs: string; accesses: FloorAccess[] }>;
  card: string;
  /** Entry-sized JSON-LD text, as agent pages embed. */
  jsonLd: string;
}

/** One access sentence group, as a permission page shows it. */
export interface FloorAccess {
  what: string;
  why: string;
  asWhom: string;
  asksFirst: string;
  necessity: string;
  risk: boolean;
}

const SLOT = Symbol.for('ardsite.floorAgents');

function makeAgent(n: number): FloorAgent {
  const slug = `agent-${n}`;
  const skills = ['plan', 'search', 'summarise'].map((verb) => ({
    id: `${verb}-${n}`,
    name: `${verb[0]!.toUpperCase()}${verb.slice(1)} for agent ${n}`,
    description: `${verb} things on your behalf, the synthetic way.`,
    examples: [`Please ${verb} my week number ${n}`, `Can you ${verb} everything about topic ${n % 97}?`],
  }));
  const services = Array.from({ length: 5 }, (_, s) => ({
    name: `Synthetic service ${(n + s) % 100}`,
    description: 'A synthetic service used to measure ardsite at scale.',
    docs: `https://docs.service${(n + s) % 100}.example/synthetic`,
    accesses: [] as FloorAccess[],
  }));
  for (let a = 0; a < 8; a++) {
    services[a % 5]!.accesses.push({
      what: 'Lists the synthetic items of an account, with their titles, dates and owners.',
      why: `To ${skills[a % 3]!.id} with the data this service holds for you (access ${a}).`,
      asWhom:
        a % 2
          ? 'As you: it uses the access you grant it to your own account.'
          : 'As itself: it uses its own account at this service, not yours.',
      asksFirst:
        a % 3 ? 'It does this without asking you each time.' : 'It asks you before it does this, every time.',
      necessity: [
        'Required: the agent cannot do its main job without it.',
        'Recommended: without it, the agent still works, but less well.',
        'Optional: it only enables extra features.',
      ][a % 3]!,
      risk: a % 4 === 1,
    });
  }
  const interfaces = [
    { url: `https://api.bench.example.com/a2a/agent-${n}`, transport: 'JSON-RPC', protocol: 'A2A 1.0' },
  ];
  const ram = {
    resources: services.map((sv, i) => ({
      id: `svc-${i}`,
      interactionProtocol: 'REST',
      owner: 'CONSUMER',
      displayName: sv.name,
      description: sv.description,
      developerDocumentationUrl: sv.docs,
      spec: { specUrl: `${sv.docs}/openapi.json`, resourcePath: '/items' },
    })),
    operations: services.map((sv, i) => ({
      id: `svc-${i}-list`,
      resource: `svc-${i}`,
      description: 'Lists the items of an account.',
      developerDocumentationUrl: [`${sv.docs}/list`],
      apiOperationSpec: { operationId: 'items.list', httpMethod: 'GET' },
    })),
    resourceAccesses: Array.from({ length: 8 }, (_, a) => ({
      id: `access-${a}`,
      operation: `svc-${a % 5}-list`,
      identityUsed: 'END_USER',
      confirmationRequired: false,
      accessJustification: `To ${skills[a % 3]!.id} with the data this service holds for you (access ${a}).`,
      necessity: 'RECOMMENDED',
    })),
  };
  const card = {
    name: `Synthetic Agent ${n}`,
    description: `Synthetic agent number ${n}, with three skills and eight accesses to five services.`,
    supportedInterfaces: interfaces,
    skills,
    capabilities: { extensions: [{ uri: 'https://example.com/ram', params: ram }] },
    resourceAccessManifest: ram,
    signatures: [{ protected: 'x'.repeat(200), signature: 'y'.repeat(86) }],
  };
  return {
    slug,
    name: `Synthetic Agent ${n}`,
    description: card.description,
    body: `Synthetic agent **${n}** exists to measure how ardsite behaves with many agents.\n\n- It has three skills.\n- It reaches five services through eight accesses.\n`,
    skills,
    interfaces,
    services,
    card: `${JSON.stringify(card, null, 2)}\n`,
    jsonLd: JSON.stringify({
      '@context': ['https://agenticresourcediscovery.org/context/v1'],
      identifier: `urn:air:bench.example.com:bench:${slug}`,
      displayName: card.name,
      description: card.description,
      signature: 'z'.repeat(1900),
    }),
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
