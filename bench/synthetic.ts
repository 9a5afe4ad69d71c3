/**
 * A synthetic publisher for benchmarks and load tests: `agents` agents, each with 3 skills and a RAM of
 * 5 resources and 8 accesses, over a shared catalog of resources (one resource file per 10 agents, at
 * least 12). Deterministic for a given size: the same call writes the same files.
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Options of {@link writeSyntheticPublisher}. */
export interface SyntheticOptions {
  /** Number of agents (≥ 1). */
  agents: number;
  /** The publisher's domain (default `bench.example.com`). */
  domain?: string;
  /**
   * Give each REST and MCP resource a stored spec (an OpenAPI 3.0 document of 40 operations with OAuth
   * scopes, or a tools/list result), pinned by digest, so a build resolves every operation and derives
   * permission sets (DESIGN.md §9). Default true; false measures a build without them.
   */
  specs?: boolean;
}

/** What was written. */
export interface SyntheticSummary {
  agents: number;
  resources: number;
  operations: number;
  files: number;
}

/** Mulberry32: a tiny seeded PRNG, so the catalog and choices are the same on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PROTOCOLS = ['REST', 'REST', 'MCP', 'A2A'] as const;

/** Every third service is the user's own (2P); the others are outside services (3P). */
function ownerOf(i: number): 'CONSUMER' | 'THIRD_PARTY' {
  return i % 3 === 0 ? 'CONSUMER' : 'THIRD_PARTY';
}
const WORDS = [
  'travel',
  'calendar',
  'mail',
  'files',
  'billing',
  'weather',
  'maps',
  'crm',
  'tickets',
  'notes',
  'photos',
  'music',
];

/** The stored spec of resource `i` (REST: OpenAPI 3.0 with 40 operations; MCP: tools/list), as text. */
function specText(i: number): string | undefined {
  const protocol = PROTOCOLS[i % PROTOCOLS.length]!;
  const word = WORDS[i % WORDS.length]!;
  if (protocol === 'MCP') {
    const tools = [`${word}_lookup`, `${word}_update`, `${word}_delete`].map((name, k) => ({
      name,
      description: `Tool ${k} of the ${word} service.`,
      inputSchema: { type: 'object' },
      annotations: { readOnlyHint: k === 0 },
    }));
    return `${JSON.stringify({ tools }, null, 2)}\n`;
  }
  if (protocol !== 'REST') return undefined;
  const scopes = {
    [`${word}.read`]: `See your ${word}`,
    [`${word}.write`]: `Change your ${word}`,
    [`${word}.admin`]: `Manage all of ${word}`,
  };
  const paths: Record<string, Record<string, unknown>> = {
    [`/${word}`]: {
      get: {
        operationId: `${word}.get`,
        summary: `Lists ${word}.`,
        security: [{ oauth: [`${word}.read`] }, { oauth: [`${word}.admin`] }],
      },
      post: {
        operationId: `${word}.post`,
        summary: `Creates ${word}.`,
        security: [{ oauth: [`${word}.write`] }, { oauth: [`${word}.admin`] }],
      },
    },
  };
  for (let k = 0; k < 19; k++) {
    paths[`/${word}/part${k}/{id}`] = {
      get: {
        operationId: `${word}.part${k}.get`,
        security: [{ oauth: [`${word}.read`] }, { oauth: [`${word}.admin`] }],
      },
      delete: { operationId: `${word}.part${k}.delete`, security: [{ oauth: [`${word}.admin`] }] },
    };
  }
  const doc = {
    openapi: '3.0.3',
    info: { title: `Synthetic ${word} service ${i}`, version: '1' },
    paths,
    components: {
      securitySchemes: {
        oauth: {
          type: 'oauth2',
          flows: {
            authorizationCode: {
              authorizationUrl: `https://id.service${i}.example/authorize`,
              tokenUrl: `https://id.service${i}.example/token`,
              scopes,
            },
          },
        },
      },
    },
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

function resourceYaml(i: number, spec?: string): string {
  const protocol = PROTOCOLS[i % PROTOCOLS.length]!;
  const owner = ownerOf(i);
  const word = WORDS[i % WORDS.length]!;
  const id = `svc-${word}-${i}`;
  const ops =
    protocol === 'REST'
      ? [
          { id: `${id}-list`, description: `Lists the ${word} items of an account.`, method: 'GET' },
          { id: `${id}-create`, description: `Creates a ${word} item.`, method: 'POST' },
        ]
      : [
          {
            id: `${id}-call`,
            description: `Calls the ${word} ${protocol === 'MCP' ? 'tool' : 'agent'}.`,
            method: undefined,
          },
        ];
  const lines = [
    `id: ${id}`,
    `interactionProtocol: ${protocol}`,
    `owner: ${owner}`,
    `displayName: Synthetic ${word} service ${i}`,
    `description: A synthetic ${word} service used to measure ardsite at scale.`,
    `developerDocumentationUrl: https://docs.service${i}.example/${word}`,
    'spec:',
    `  specUrl: https://api.service${i}.example/openapi.json`,
    `  resourcePath: ${protocol === 'MCP' ? `${word}_lookup` : `/${word}`}`,
    ...(spec
      ? [
          `specFile: content/specs/svc-${i}.json`,
          `specDigest: sha256:${createHash('sha256').update(spec).digest('hex')}`,
        ]
      : []),
    'operations:',
  ];
  for (const op of ops) {
    lines.push(
      `  - id: ${op.id}`,
      `    description: ${op.description}`,
      '    developerDocumentationUrl:',
      `      - https://docs.service${i}.example/${word}/${op.id}`,
    );
    if (op.method)
      lines.push(
        '    apiOperationSpec:',
        `      operationId: ${word}.${op.method === 'GET' ? 'get' : 'post'}`,
        `      httpMethod: ${op.method}`,
      );
    else lines.push('    readOnly: true');
  }
  return `${lines.join('\n')}\n`;
}

function operationIds(i: number): string[] {
  const protocol = PROTOCOLS[i % PROTOCOLS.length]!;
  const id = `svc-${WORDS[i % WORDS.length]!}-${i}`;
  return protocol === 'REST' ? [`${id}-list`, `${id}-create`] : [`${id}-call`];
}

/** One synthetic resource: what its resource file declares (see `resourceYaml`). */
export interface SyntheticResource {
  /** Its number in the catalog (the file `content/resources/svc-<i>.yaml`). */
  i: number;
  id: string;
  protocol: (typeof PROTOCOLS)[number];
  owner: 'CONSUMER' | 'THIRD_PARTY';
  /** The word its names are made of (`svc-<word>-<i>`, the scopes `<word>.read`, …). */
  word: string;
  /** Its operations' ids: `-list` and `-create` for REST, `-call` otherwise. */
  operations: string[];
}

/** One access of a synthetic agent, as its agent file declares it. */
export interface SyntheticAccess {
  /** `access-<a>-<operation>`. */
  id: string;
  operation: string;
  /** The resource's number in the catalog. */
  resource: number;
  asUser: boolean;
  /** A `-create` operation: confirmation required. */
  write: boolean;
  necessity: 'REQUIRED' | 'RECOMMENDED' | 'OPTIONAL';
  /** The skill's verb (`plan`, `search`, `summarise`); its id is `<verb>-<n>`. */
  skill: string;
  /** The reason given (`accessJustification`). */
  why: string;
}

/** One synthetic agent: the resources it picked (in the order picked) and its 8 accesses. */
export interface SyntheticAgent {
  n: number;
  picks: number[];
  accesses: SyntheticAccess[];
}

/** The resource `i` of the catalog. */
export function syntheticResource(i: number): SyntheticResource {
  const word = WORDS[i % WORDS.length]!;
  return {
    i,
    id: `svc-${word}-${i}`,
    protocol: PROTOCOLS[i % PROTOCOLS.length]!,
    owner: ownerOf(i),
    word,
    operations: operationIds(i),
  };
}

/** The number of resources of a publisher of `agents` agents: one per 10 agents, at least 12. */
export function syntheticResourceCount(agents: number): number {
  return Math.max(12, Math.ceil(agents / 10));
}

const SKILL_VERBS = ['plan', 'search', 'summarise'] as const;

/** Agent `n`'s picks and accesses, drawing from `rand` (the publisher's one generator, agent after agent). */
function planAgent(n: number, resourceCount: number, rand: () => number): SyntheticAgent {
  const picks = new Set<number>();
  while (picks.size < Math.min(5, resourceCount)) picks.add(Math.floor(rand() * resourceCount));
  const ops = [...picks].flatMap((i) => operationIds(i).map((id) => ({ id, owner: ownerOf(i), i })));
  const accesses: SyntheticAccess[] = [];
  for (let a = 0; a < 8; a++) {
    const { id: op, owner, i } = ops[a % ops.length]!;
    const write = op.endsWith('-create');
    // As a checked publisher writes it: the user's own services as the user, writes as the user and
    // confirmed; outside read-only services either way.
    const asUser = owner === 'CONSUMER' || write || rand() < 0.5;
    const verb = SKILL_VERBS[a % 3]!;
    accesses.push({
      id: `access-${a}-${op}`,
      operation: op,
      resource: i,
      asUser,
      write,
      necessity: (['REQUIRED', 'RECOMMENDED', 'OPTIONAL'] as const)[a % 3]!,
      skill: verb,
      why: `To ${verb} with the data this service holds for you (access ${a}).`,
    });
  }
  return { n, picks: [...picks], accesses };
}

/**
 * The agents of a publisher of `agents` agents, as `writeSyntheticPublisher` writes them (the same
 * generator, seeded with the number of agents, drawn in the same order): for callers that need the same
 * agents in memory, such as the benchmark floor.
 */
export function syntheticAgents(agents: number): SyntheticAgent[] {
  const rand = prng(agents);
  const resourceCount = syntheticResourceCount(agents);
  return Array.from({ length: agents }, (_, n) => planAgent(n, resourceCount, rand));
}

function agentMarkdown(plan: SyntheticAgent): string {
  const { n } = plan;
  const skills = SKILL_VERBS.map((verb, k) => ({ id: `${verb}-${n}`, verb, k }));
  const accesses: string[] = [];
  for (const a of plan.accesses) {
    accesses.push(
      `  - id: ${a.id}`,
      `    operation: ${a.operation}`,
      `    identityUsed: ${a.asUser ? 'END_USER' : 'AGENT'}`,
      `    confirmationRequired: ${a.write ? 'true' : 'false'}`,
      `    accessJustification: ${a.why}`,
      `    necessity: ${a.necessity}`,
      `    skills: [${a.skill}-${n}]`,
    );
  }
  const front = [
    '---',
    `name: Synthetic Agent ${n}`,
    `description: Synthetic agent number ${n}, with three skills and eight accesses to five services.`,
    `version: 1.${n % 10}.0`,
    'interfaces:',
    `  - url: https://api.bench.example.com/a2a/agent-${n}`,
    '    protocolBinding: JSONRPC',
    "    protocolVersion: '1.0'",
    'defaultInputModes: [text/plain]',
    'defaultOutputModes: [text/plain, application/json]',
    'skills:',
    ...skills.flatMap((s) => [
      `  - id: ${s.id}`,
      `    name: ${s.verb[0]!.toUpperCase()}${s.verb.slice(1)} for agent ${n}`,
      `    description: ${s.verb} things on your behalf, the synthetic way.`,
      `    tags: [synthetic, ${s.verb}]`,
      '    examples:',
      `      - Please ${s.verb} my week number ${n}`,
      `      - Can you ${s.verb} everything about topic ${(n * 7 + s.k) % 97}?`,
    ]),
    'resourceAccesses:',
    ...accesses,
    '---',
    '',
    `Synthetic agent **${n}** exists to measure how ardsite behaves with many agents.`,
    '',
    '- It has three skills.',
    '- It reaches five services through eight accesses.',
    '',
  ];
  return front.join('\n');
}

/**
 * Writes a publisher project (`content/`, `public/`, `.gitignore`) into `dir`.
 * @throws Error when `agents` is not a positive integer, or on a file system error.
 */
export async function writeSyntheticPublisher(
  dir: string,
  options: SyntheticOptions,
): Promise<SyntheticSummary> {
  const { agents } = options;
  if (!Number.isInteger(agents) || agents < 1)
    throw new Error(`agents must be a positive whole number, got ${agents}`);
  const domain = options.domain ?? 'bench.example.com';
  const resourceCount = syntheticResourceCount(agents);
  await mkdir(path.join(dir, 'content/agents'), { recursive: true });
  await mkdir(path.join(dir, 'content/resources'), { recursive: true });
  if (options.specs !== false) await mkdir(path.join(dir, 'content/specs'), { recursive: true });
  await mkdir(path.join(dir, 'public'), { recursive: true });
  await writeFile(path.join(dir, '.gitignore'), '.ardsite/\ndist/\ndist.old/\n.ardsite-tmp-*/\n');
  await writeFile(
    path.join(dir, 'content/publisher.yaml'),
    [
      `domain: ${domain}`,
      `siteUrl: https://${domain}/`,
      'organization: Bench Example Org',
      'organizationUrl: https://www.example.com/',
      'namespace: bench',
      'privacyPolicyUrl: https://www.example.com/privacy',
      '',
    ].join('\n'),
  );
  let operations = 0;
  for (let i = 0; i < resourceCount; i++) {
    operations += operationIds(i).length;
    const spec = options.specs === false ? undefined : specText(i);
    if (spec) await writeFile(path.join(dir, `content/specs/svc-${i}.json`), spec);
    await writeFile(path.join(dir, `content/resources/svc-${i}.yaml`), resourceYaml(i, spec));
  }
  const width = String(agents).length;
  for (const plan of syntheticAgents(agents)) {
    await writeFile(
      path.join(dir, `content/agents/agent-${String(plan.n).padStart(width, '0')}.md`),
      agentMarkdown(plan),
    );
  }
  return { agents, resources: resourceCount, operations, files: resourceCount + agents + 2 };
}

/**
 * The words every synthetic agent's ARD entry holds (name, description, skills, tags, examples): a query
 * of all of them matches the whole index in every text member, the worst case of the registry's
 * full-text step (`npm run load:registry -- --only worst-case`).
 */
export const WORST_CASE_WORDS = [
  'synthetic',
  'agent',
  'number',
  'three',
  'skills',
  'eight',
  'accesses',
  'five',
  'services',
  'plan',
  'search',
  'summarise',
  'please',
  'week',
  'everything',
  'topic',
] as const;
