/**
 * The RAM an agent emits (DESIGN.md §1, the RAM proposal): snake_case and camelCase input normalise to the
 * same RAM; the JSON example of test/fixtures/seed/ loads unchanged; the RAM closure holds exactly what the
 * accesses use; and one resource or operation defined in two files merges when the definitions are
 * deep-equal.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAndCheck, type CheckedContent } from '../../../src/core/content/index.js';
import { ramClosure } from '../../../src/core/content/ram-closure.js';
import type { Diagnostic } from '../../../src/core/util/errors.js';
import { sharedTestdata } from '../../helpers/shared-testdata.js';
import { agentMd, EXAMPLE_LIKE, fixture, lineOf, makeSite, removeSites } from '../../helpers/site.js';

afterAll(removeSites);

async function load(files: Record<string, string>): Promise<CheckedContent> {
  return loadAndCheck({ root: await makeSite(files) });
}

/**
 * Without the warnings about specs (a user's own REST resource with no spec, or a spec URL not stored):
 * these tests are about the RAM itself; test/unit/ram/permissions-*.test.ts test those warnings.
 */
function withoutSpecWarnings(diagnostics: Diagnostic[]): Diagnostic[] {
  return diagnostics.filter((d) => d.code !== 'SPEC_MISSING' && d.code !== 'SPEC_NOT_STORED');
}

/** Errors only: the warnings (unused items, …) are not what these tests are about. */
function errors(diagnostics: Diagnostic[]): Diagnostic[] {
  return diagnostics.filter((d) => d.severity === 'error');
}

/**
 * The proto3 JSON name of every key, written here independently of src/core: `identity_used` →
 * `identityUsed`, recursively through objects and arrays; values untouched.
 */
function camelizeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelizeKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const parts = key.split('_');
    const camel =
      parts[0] +
      parts
        .slice(1)
        .map((p) => p.charAt(0).toUpperCase() + p.slice(1))
        .join('');
    out[camel] = camelizeKeys(child);
  }
  return out;
}

describe('snake_case and camelCase input give the same RAM', () => {
  // One agent, two spellings: a seed-format ramFile in snake_case, and inline camelCase front matter.
  const snakeRam = {
    resources: [
      {
        id: 'notes',
        interaction_protocol: 'REST',
        owner: 'CONSUMER',
        display_name: 'Notes',
        description: "The user's notes.",
        developer_documentation_url: 'https://docs.example.test/notes',
        spec: { spec_url: 'https://docs.example.test/notes/openapi.json', resource_path: '/notes' },
      },
      {
        id: 'search',
        interaction_protocol: 'MCP',
        owner: 'THIRD_PARTY',
        display_name: 'Search',
        description: 'A search tool.',
      },
    ],
    operations: [
      {
        id: 'notes-create',
        resource: 'notes',
        description: 'Creates a note.',
        developer_documentation_url: ['https://docs.example.test/notes/create'],
        api_operation_spec: {
          operation_id: 'notes.create',
          http_method: 'POST',
          spec_url: 'https://docs.example.test/notes/openapi.json',
        },
      },
      { id: 'search-call', resource: 'search', description: 'Searches.' },
    ],
    resource_accesses: [
      {
        id: 'search',
        operation: 'search-call',
        identity_used: 'AGENT',
        confirmation_required: false,
        access_justification: 'To search.',
        necessity: 'OPTIONAL',
      },
      {
        id: 'save',
        operation: 'notes-create',
        identity_used: 'END_USER',
        confirmation_required: true,
        access_justification: 'To save.',
        necessity: 'REQUIRED',
      },
    ],
  };
  const camelFront = {
    resources: [
      {
        id: 'notes',
        interactionProtocol: 'REST',
        owner: 'CONSUMER',
        displayName: 'Notes',
        description: "The user's notes.",
        developerDocumentationUrl: 'https://docs.example.test/notes',
        spec: { specUrl: 'https://docs.example.test/notes/openapi.json', resourcePath: '/notes' },
        operations: [
          {
            id: 'notes-create',
            description: 'Creates a note.',
            developerDocumentationUrl: ['https://docs.example.test/notes/create'],
            apiOperationSpec: {
              operationId: 'notes.create',
              httpMethod: 'POST',
              specUrl: 'https://docs.example.test/notes/openapi.json',
            },
          },
        ],
      },
      {
        id: 'search',
        interactionProtocol: 'MCP',
        owner: 'THIRD_PARTY',
        displayName: 'Search',
        description: 'A search tool.',
        operations: [{ id: 'search-call', description: 'Searches.' }],
      },
    ],
    resourceAccesses: [
      {
        id: 'search',
        operation: 'search-call',
        identityUsed: 'AGENT',
        confirmationRequired: false,
        accessJustification: 'To search.',
        necessity: 'OPTIONAL',
      },
      {
        id: 'save',
        operation: 'notes-create',
        identityUsed: 'END_USER',
        confirmationRequired: true,
        accessJustification: 'To save.',
        necessity: 'REQUIRED',
      },
    ],
  };

  let snake: CheckedContent;
  let camel: CheckedContent;
  beforeAll(async () => {
    // Two separate sites, so the two agents cannot share catalog objects.
    snake = await load({
      'content/agents/a.md': agentMd({ ramFile: './a.ram.json' }),
      'content/agents/a.ram.json': JSON.stringify(snakeRam, null, 2),
    });
    camel = await load({ 'content/agents/a.md': agentMd(camelFront) });
  });

  it('both load without a finding', () => {
    expect(withoutSpecWarnings(snake.diagnostics)).toEqual([]);
    expect(withoutSpecWarnings(camel.diagnostics)).toEqual([]);
  });

  it('gives deep-equal agent.ram', () => {
    expect(snake.model!.agents[0]!.ram).toStrictEqual(camel.model!.agents[0]!.ram);
  });

  it('is the RAM the camelCase input spells, nested fields included', () => {
    const ram = snake.model!.agents[0]!.ram;
    expect(ram.resources.map((r) => r.id)).toEqual(['search', 'notes']);
    expect(ram.resources[1]!.spec).toStrictEqual({
      specUrl: 'https://docs.example.test/notes/openapi.json',
      resourcePath: '/notes',
    });
    expect(ram.operations[1]!.apiOperationSpec).toStrictEqual({
      operationId: 'notes.create',
      httpMethod: 'POST',
      specUrl: 'https://docs.example.test/notes/openapi.json',
    });
    expect(ram.resourceAccesses[1]).toStrictEqual(camelFront.resourceAccesses[1]);
  });
});

describe("the seed's JSON example", () => {
  const shared = sharedTestdata('seed/travel-agent-ram.json');
  const copy = path.join(fixture('seed'), 'travel-agent-ram.json');
  const seedBytes = readFileSync(copy);
  const seed: unknown = JSON.parse(seedBytes.toString('utf8'));

  it('is what the example-like travel-reservation.ram.json holds, byte for byte', () => {
    expect(
      readFileSync(path.join(EXAMPLE_LIKE, 'content/agents/travel-reservation.ram.json')).equals(seedBytes),
    ).toBe(true);
  });

  it.skipIf(shared === undefined)('has an exact copy in test/fixtures/seed/', () => {
    expect(readFileSync(copy).equals(readFileSync(shared!))).toBe(true);
  });

  it('is emitted by the example-like travel-reservation agent, key by key in camelCase', async () => {
    const { model, diagnostics } = await loadAndCheck({ root: EXAMPLE_LIKE });
    expect(errors(diagnostics)).toEqual([]);
    const agent = model!.agents.find((a) => a.slug === 'travel-reservation')!;
    expect(agent.ram).toStrictEqual(camelizeKeys(seed));
    // Its shared calendar resource merged with content/resources/ and kept the authoring-only link.
    expect(model!.resources.get('google-calendar-events-v3')!.manageAccessUrl).toBe(
      'https://myaccount.google.com/connections',
    );
  });

  it('loads as written when it is the only RAM of a site', async () => {
    const { model, diagnostics } = await load({
      'content/agents/travel.md': agentMd({ ramFile: './travel.ram.json' }),
      'content/agents/travel.ram.json': seedBytes.toString('utf8'),
    });
    expect(errors(diagnostics)).toEqual([]);
    // The seed reaches a CONSUMER MCP tool as AGENT: the one warning it draws.
    // The seed names the specs of the user's calendar and weather tool but stores none of them.
    expect(diagnostics.map((d) => d.code).sort()).toEqual([
      'RAM_CONSUMER_AS_AGENT',
      'SPEC_NOT_STORED',
      'SPEC_NOT_STORED',
    ]);
    expect(model!.agents[0]!.ram).toStrictEqual(camelizeKeys(seed));
  });
});

describe('the RAM closure of an agent', () => {
  const alpha = `id: alpha
interactionProtocol: REST
owner: THIRD_PARTY
displayName: Alpha
description: The first service.
operations:
  - { id: a1, description: One., apiOperationSpec: { httpMethod: GET } }
  - { id: a2, description: Two., apiOperationSpec: { httpMethod: GET } }
  - { id: a3, description: Three (never used)., apiOperationSpec: { httpMethod: GET } }
`;
  const beta = `id: beta
interactionProtocol: MCP
owner: THIRD_PARTY
displayName: Beta
description: The second service.
operations:
  - { id: b1, description: A tool. }
`;
  const gamma = `id: gamma
interactionProtocol: MCP
owner: THIRD_PARTY
displayName: Gamma
description: A service no access uses.
operations:
  - { id: c1, description: A tool. }
`;
  const access = (id: string, operation: string) => ({
    id,
    operation,
    identityUsed: 'AGENT',
    accessJustification: `For ${id}.`,
    necessity: 'OPTIONAL',
  });
  const accesses = [
    access('first', 'b1'),
    access('second', 'a2'),
    access('third', 'b1'),
    access('fourth', 'a1'),
  ];

  let result: CheckedContent;
  beforeAll(async () => {
    result = await load({
      'content/resources/alpha.yaml': alpha,
      'content/resources/beta.yaml': beta,
      'content/resources/gamma.yaml': gamma,
      'content/agents/a.md': agentMd({ resourceAccesses: accesses }),
      'content/agents/other.md': agentMd({ resourceAccesses: [access('other', 'c1')] }),
    });
  });

  it('holds the used operations and resources, each once, in order of first use', () => {
    expect(errors(result.diagnostics)).toEqual([]);
    const ram = result.model!.agents.find((a) => a.slug === 'a')!.ram;
    expect(ram.resourceAccesses.map((a) => a.id)).toEqual(['first', 'second', 'third', 'fourth']);
    expect(ram.operations.map((o) => o.id)).toEqual(['b1', 'a2', 'a1']);
    expect(ram.resources.map((r) => r.id)).toEqual(['beta', 'alpha']);
  });

  it('holds nothing else the catalog holds', () => {
    expect([...result.model!.operations.keys()].sort()).toEqual(['a1', 'a2', 'a3', 'b1', 'c1']);
    const ram = result.model!.agents.find((a) => a.slug === 'other')!.ram;
    expect(ram.operations.map((o) => o.id)).toEqual(['c1']);
    expect(ram.resources.map((r) => r.id)).toEqual(['gamma']);
  });

  it('is what ramClosure computes, with the files it draws on', () => {
    const model = result.model!;
    const agent = model.agents.find((a) => a.slug === 'a')!;
    const diagnostics: Diagnostic[] = [];
    const { ram, files } = ramClosure(agent.accesses, model.resources, model.operations, diagnostics);
    expect(withoutSpecWarnings(diagnostics)).toEqual([]);
    expect(ram).toStrictEqual(agent.ram);
    expect([...files].sort()).toEqual(['content/resources/alpha.yaml', 'content/resources/beta.yaml']);
    expect(agent.files).toEqual([
      'content/agents/a.md',
      'content/resources/alpha.yaml',
      'content/resources/beta.yaml',
    ]);
  });

  it('reports an access to an undefined operation and emits no operation or resource for it', () => {
    const model = result.model!;
    const agent = model.agents.find((a) => a.slug === 'a')!;
    const dangling = {
      ...agent.accesses[0]!,
      access: { ...agent.accesses[0]!.access, id: 'fifth', operation: 'zz' },
      origin: { ...agent.accesses[0]!.origin, path: ['resourceAccesses', 4] },
    };
    const diagnostics: Diagnostic[] = [];
    const { ram } = ramClosure([dangling, ...agent.accesses], model.resources, model.operations, diagnostics);
    expect(withoutSpecWarnings(diagnostics)).toMatchObject([
      { code: 'RAM_DANGLING_OPERATION', file: 'content/agents/a.md', path: 'resourceAccesses[4].operation' },
    ]);
    expect(ram.operations.map((o) => o.id)).toEqual(['b1', 'a2', 'a1']);
    expect(ram.resources.map((r) => r.id)).toEqual(['beta', 'alpha']);
  });
});

describe('one resource defined in two files', () => {
  const resource = (extra = '', description = "The user's notes.") => `id: notes
interactionProtocol: REST
owner: CONSUMER
displayName: Notes
description: ${description}
${extra}operations:
  - id: notes-list
    description: Lists notes.
    apiOperationSpec: { httpMethod: GET }
`;
  const user = agentMd({
    resourceAccesses: [
      {
        id: 'list',
        operation: 'notes-list',
        identityUsed: 'END_USER',
        accessJustification: 'To list.',
        necessity: 'REQUIRED',
      },
    ],
  });
  const manage = (host: string) => `manageAccessUrl: https://${host}/connections\n`;

  it('merges deep-equal definitions without a finding', async () => {
    const { model, diagnostics } = await load({
      'content/resources/a.yaml': resource(),
      // The same definition in other key order and flow style is still deep-equal.
      'content/resources/b.yaml': `{ displayName: Notes, owner: CONSUMER, interactionProtocol: REST, id: notes, description: "The user's notes.", operations: [{ apiOperationSpec: { httpMethod: GET }, description: Lists notes., id: notes-list }] }\n`,
      'content/agents/a.md': user,
    });
    expect(withoutSpecWarnings(diagnostics)).toEqual([]);
    expect(model!.agents[0]!.ram.resources).toHaveLength(1);
  });

  it('merges a ramFile in snake_case with a camelCase resource file', async () => {
    const ram = {
      resources: [
        {
          id: 'notes',
          interaction_protocol: 'REST',
          owner: 'CONSUMER',
          display_name: 'Notes',
          description: "The user's notes.",
        },
      ],
    };
    const { diagnostics } = await load({
      'content/resources/notes.yaml': resource(manage('a.example.test')),
      'content/agents/a.md': user.replace('---\n', '---\nramFile: ./a.ram.json\n'),
      'content/agents/a.ram.json': JSON.stringify(ram),
    });
    expect(withoutSpecWarnings(diagnostics)).toEqual([]);
  });

  it.each([
    ['the first file', 'content/resources/a.yaml'],
    ['the second file', 'content/resources/b.yaml'],
  ])('keeps manageAccessUrl given in %s only', async (_, withUrl) => {
    const files = {
      'content/resources/a.yaml': resource(),
      'content/resources/b.yaml': resource(),
      'content/agents/a.md': user,
    };
    files[withUrl as keyof typeof files] = resource(manage('a.example.test'));
    const { model, diagnostics } = await load(files);
    expect(withoutSpecWarnings(diagnostics)).toEqual([]);
    expect(model!.resources.get('notes')!.manageAccessUrl).toBe('https://a.example.test/connections');
    expect(JSON.stringify(model!.agents[0]!.ram)).not.toContain('manageAccessUrl');
  });

  it('keeps the stored spec (specFile, specDigest) given in one file only, out of the emitted RAM', async () => {
    const digest = `sha256:${'ab'.repeat(32)}`;
    const { model } = await load({
      'content/resources/a.yaml': resource(),
      'content/resources/b.yaml': resource(`specFile: content/specs/notes.json\nspecDigest: ${digest}\n`),
      'content/agents/a.md': user,
    });
    expect(model!.resources.get('notes')).toMatchObject({
      specFile: 'content/specs/notes.json',
      specDigest: digest,
    });
    expect(JSON.stringify(model!.agents[0]!.ram)).not.toMatch(/specFile|specDigest/);
  });

  it('refuses two different manageAccessUrl values', async () => {
    const { diagnostics } = await load({
      'content/resources/a.yaml': resource(manage('a.example.test')),
      'content/resources/b.yaml': resource(manage('b.example.test')),
      'content/agents/a.md': user,
    });
    expect(withoutSpecWarnings(diagnostics)).toMatchObject([
      { code: 'RAM_CONFLICTING_DEFINITION', file: 'content/resources/b.yaml', path: '(document)' },
    ]);
  });

  it('refuses different definitions, naming both files and both lines', async () => {
    const ram = {
      resources: [
        {
          id: 'notes',
          interaction_protocol: 'REST',
          owner: 'CONSUMER',
          display_name: 'Notes',
          description: "The user's notes.",
        },
      ],
      operations: [
        {
          id: 'notes-list',
          resource: 'notes',
          description: 'Lists every note.',
          api_operation_spec: { http_method: 'GET' },
        },
      ],
    };
    const ramText = JSON.stringify(ram, null, 2);
    const { diagnostics } = await load({
      'content/resources/notes.yaml': resource(),
      'content/agents/a.md': user.replace('---\n', '---\nramFile: ./a.ram.json\n'),
      'content/agents/a.ram.json': ramText,
    });
    // The resources are equal and merge; the operations differ in their description.
    expect(withoutSpecWarnings(diagnostics)).toEqual([
      expect.objectContaining({
        code: 'RAM_CONFLICTING_DEFINITION',
        severity: 'error',
        file: 'content/agents/a.ram.json',
        path: 'operations[0]',
        line: lineOf(ramText, '"operations"') + 1,
        message: expect.stringContaining(
          `content/resources/notes.yaml:${lineOf(resource(), '- id: notes-list')}`,
        ),
      }),
    ]);
  });
});
