/**
 * The content checks of DESIGN.md §5 (errors, and the warnings marked W), each on a tiny site built in a
 * temporary folder: one fault per site, asserting code, severity, file, field path and line, and a
 * near-miss that must stay quiet so that a check that fires on everything fails too.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { loadAndCheck } from '../../../src/core/content/index.js';
import { normalizeRamKeys } from '../../../src/core/content/normalize.js';
import { SourceDoc } from '../../../src/core/model/source.js';
import type { Diagnostic, ErrorCode } from '../../../src/core/util/errors.js';
import { agentMd, DEFAULT_PUBLISHER, lineOf, makeSite, removeSites } from '../../helpers/site.js';
import { NOTES_OPENAPI, storedSpec } from '../../helpers/specs.js';

afterAll(removeSites);

/** Loads and checks a site made of `files`; returns every diagnostic. */
async function check(files: Record<string, string>): Promise<Diagnostic[]> {
  const { diagnostics } = await loadAndCheck({ root: await makeSite(files) });
  return diagnostics;
}

function withCode(diagnostics: Diagnostic[], code: ErrorCode): Diagnostic[] {
  return diagnostics.filter((d) => d.code === code);
}

/** A REST resource of the user's (CONSUMER) with a GET and a POST operation. */
const NOTES = `id: notes
interactionProtocol: REST
owner: CONSUMER
displayName: Notes
description: The user's notes.
operations:
  - id: notes-list
    description: Lists notes.
    apiOperationSpec: { httpMethod: GET }
  - id: notes-create
    description: Creates a note.
    apiOperationSpec: { httpMethod: POST }
`;

/** An MCP resource of an outside service with one tool. */
const SEARCH = `id: search
interactionProtocol: MCP
owner: THIRD_PARTY
displayName: Search
description: A web search tool.
operations:
  - id: search-call
    description: Searches the web.
`;

function access(id: string, operation: string, fields: Record<string, unknown> = {}) {
  return {
    id,
    operation,
    identityUsed: 'END_USER',
    accessJustification: `Because of ${id}.`,
    necessity: 'REQUIRED',
    ...fields,
  };
}

/** An agent using both test resources fully, with no finding at all. */
const CLEAN_ACCESSES = [
  access('list', 'notes-list'),
  access('create', 'notes-create', { confirmationRequired: true }),
  access('search', 'search-call', { identityUsed: 'AGENT' }),
];

/** NOTES with its stored OpenAPI spec (a user's own REST service is expected to have one). */
const NOTES_SPEC = storedSpec('notes.json', NOTES_OPENAPI);
const NOTES_WITH_SPEC = NOTES.replace(
  'operations:\n',
  `spec: { resourcePath: /notes }\n${NOTES_SPEC.pin}operations:\n`,
);

describe('the baseline', () => {
  it('a site using every operation, as the right identity, with 2 queries, is clean', async () => {
    const diagnostics = await check({
      'content/resources/notes.yaml': NOTES_WITH_SPEC,
      [NOTES_SPEC.file]: NOTES_SPEC.text,
      'content/resources/search.yaml': SEARCH,
      'content/agents/a.md': agentMd({ resourceAccesses: CLEAN_ACCESSES }),
    });
    expect(diagnostics).toEqual([]);
  });
});

describe("W SPEC_MISSING: a user's own REST service without a spec", () => {
  it('warns at the resource, and is quiet once the spec is stored and for outside services', async () => {
    const agent = agentMd({ resourceAccesses: CLEAN_ACCESSES });
    const without = await check({
      'content/resources/notes.yaml': NOTES,
      'content/resources/search.yaml': SEARCH,
      'content/agents/a.md': agent,
    });
    expect(without).toMatchObject([
      { code: 'SPEC_MISSING', severity: 'warning', file: 'content/resources/notes.yaml', line: 1 },
    ]);
    const outside = await check({
      'content/resources/notes.yaml': NOTES.replace('owner: CONSUMER', 'owner: THIRD_PARTY'),
      'content/resources/search.yaml': SEARCH,
      'content/agents/a.md': agentMd({
        resourceAccesses: CLEAN_ACCESSES.map((a) => ({ ...a, identityUsed: 'AGENT' })),
      }),
    });
    expect(withCode(outside, 'SPEC_MISSING')).toEqual([]);
  });
});

describe('W ARD_QUERIES_COUNT: representativeQueries not 2 to 5', () => {
  const queries = (n: number) => Array.from({ length: n }, (_, i) => `query number ${i + 1}`);

  it.each([1, 6])('warns for %i authored queries, at the field', async (n) => {
    const md = agentMd({ discovery: { representativeQueries: queries(n) } });
    const [d, ...rest] = withCode(await check({ 'content/agents/a.md': md }), 'ARD_QUERIES_COUNT');
    expect(rest).toEqual([]);
    expect(d).toMatchObject({
      severity: 'warning',
      file: 'content/agents/a.md',
      path: 'discovery.representativeQueries',
      line: lineOf(md, 'representativeQueries:'),
    });
    expect(d!.message).toContain(`will carry ${n} representative ${n === 1 ? 'query;' : 'queries;'}`);
  });

  it.each([2, 5])('is quiet for %i queries', async (n) => {
    const diagnostics = await check({
      'content/agents/a.md': agentMd({ discovery: { representativeQueries: queries(n) } }),
    });
    expect(withCode(diagnostics, 'ARD_QUERIES_COUNT')).toEqual([]);
  });

  it('counts the skills examples when no query is authored', async () => {
    const skills = [
      { id: 's', name: 'S', description: 'A skill.', tags: ['t'], examples: ['only one example'] },
    ];
    const diagnostics = await check({ 'content/agents/a.md': agentMd({ skills }) });
    expect(withCode(diagnostics, 'ARD_QUERIES_COUNT')).toMatchObject([
      { severity: 'warning', path: 'discovery.representativeQueries' },
    ]);
  });

  it('warns on an entry with one query', async () => {
    const entry = `identifier: urn:air:partner.example.org:agents:one
displayName: One
type: application/a2a-agent-card+json
url: https://partner.example.org/one.json
representativeQueries:
  - just one
`;
    const [d] = withCode(await check({ 'content/entries/one.yaml': entry }), 'ARD_QUERIES_COUNT');
    expect(d).toMatchObject({
      severity: 'warning',
      file: 'content/entries/one.yaml',
      path: 'representativeQueries',
      line: 5,
      message: 'the entry carries 1 representative query; ARD asks for 2 to 5',
    });
  });
});

describe('an agent whose front matter has errors (every error in one run)', () => {
  it('still has its RAM references checked, and what it names does not look unused', async () => {
    const text = agentMd({
      name: undefined,
      resourceAccesses: [
        access('list', 'notes-list', { necessity: 'optional' }),
        access('write', 'notes-create'),
        access('cancel', 'notes-lsit'),
      ],
    });
    const diagnostics = await check({
      'content/resources/notes.yaml': NOTES,
      'content/agents/a.md': text,
    });
    const at = (d: Diagnostic) => `${d.severity} ${d.code} ${d.file}:${d.line} ${d.path ?? ''}`;
    expect(diagnostics.map(at)).toEqual([
      'error SCHEMA_REQUIRED content/agents/a.md:2 name',
      `error SCHEMA_INVALID_ENUM content/agents/a.md:${lineOf(text, 'necessity: optional')} resourceAccesses[0].necessity`,
      `error RAM_DANGLING_OPERATION content/agents/a.md:${lineOf(text, 'operation: notes-lsit')} resourceAccesses[2].operation`,
    ]);
    expect(diagnostics[2]!.message).toContain('(did you mean "notes-list"?)');
  });

  it("a ramFile that does not exist is reported at the agent's ramFile line", async () => {
    const text = agentMd({ ramFile: './missing.ram.json' });
    const diagnostics = await check({ 'content/agents/a.md': text });
    expect(diagnostics).toEqual([
      expect.objectContaining({
        code: 'FILE_MISSING',
        severity: 'error',
        file: 'content/agents/a.md',
        path: 'ramFile',
        line: lineOf(text, 'ramFile:'),
        message: expect.stringContaining('content/agents/missing.ram.json, which does not exist'),
      }),
    ]);
  });
});

describe('an agent file name outside [a-z0-9._-]', () => {
  it('is one error, at its cause (not also ARD_URN_INVALID for the URN it makes)', async () => {
    const diagnostics = await check({ 'content/agents/Appointment-Assistant.md': agentMd() });
    expect(diagnostics.map((d) => [d.code, d.file])).toEqual([
      ['SCHEMA_INVALID_VALUE', 'content/agents/Appointment-Assistant.md'],
    ]);
    expect(diagnostics[0]!.message).toMatch(/must match \[a-z0-9._-\]\+/);
  });
});

describe('W CONTENT_IGNORED: a content file in a subfolder', () => {
  it('is named, since it would otherwise vanish without a word; other files there are left alone', async () => {
    const diagnostics = await check({
      'content/agents/a.md': agentMd(),
      'content/agents/more/b.md': agentMd(),
      'content/agents/more/b.ram.json': '{}',
      'content/resources/old/notes.yaml': NOTES,
      'content/entries/x/y/e.yml': 'identifier: urn:air:x.example:a:b\n',
    });
    expect(withCode(diagnostics, 'CONTENT_IGNORED').map((d) => [d.severity, d.file])).toEqual([
      ['warning', 'content/agents/more/b.md'],
      ['warning', 'content/entries/x/y/e.yml'],
      ['warning', 'content/resources/old/notes.yaml'],
    ]);
    expect(diagnostics.filter((d) => d.code !== 'CONTENT_IGNORED')).toEqual([]);
  });
});

describe('W RAM_UNUSED: a resource or operation no access uses', () => {
  it('warns for the unused operation of a used resource, and for an unused resource', async () => {
    const diagnostics = await check({
      'content/resources/notes.yaml': NOTES,
      'content/resources/search.yaml': SEARCH,
      'content/agents/a.md': agentMd({ resourceAccesses: [access('list', 'notes-list')] }),
    });
    expect(withCode(diagnostics, 'RAM_UNUSED')).toEqual([
      expect.objectContaining({
        severity: 'warning',
        file: 'content/resources/notes.yaml',
        path: 'operations[1]',
        line: lineOf(NOTES, '- id: notes-create'),
        message: expect.stringContaining('"notes-create"'),
      }),
      expect.objectContaining({
        severity: 'warning',
        file: 'content/resources/search.yaml',
        path: '(document)',
        line: 1,
        message: expect.stringContaining('"search"'),
      }),
    ]);
    // The operations of an unused resource are covered by the resource's warning.
    expect(diagnostics.filter((d) => d.message.includes('"search-call"'))).toEqual([]);
  });
});

describe("W RAM_CONSUMER_AS_AGENT: a user's service reached as the agent", () => {
  it('warns at identityUsed', async () => {
    const md = agentMd({ resourceAccesses: [access('list', 'notes-list', { identityUsed: 'AGENT' })] });
    const diagnostics = await check({ 'content/resources/notes.yaml': NOTES, 'content/agents/a.md': md });
    expect(withCode(diagnostics, 'RAM_CONSUMER_AS_AGENT')).toEqual([
      expect.objectContaining({
        severity: 'warning',
        file: 'content/agents/a.md',
        path: 'resourceAccesses[0].identityUsed',
        line: lineOf(md, 'identityUsed: AGENT'),
      }),
    ]);
  });

  it('is quiet for an outside service reached as the agent', async () => {
    const md = agentMd({ resourceAccesses: [access('search', 'search-call', { identityUsed: 'AGENT' })] });
    expect(
      withCode(
        await check({ 'content/resources/search.yaml': SEARCH, 'content/agents/a.md': md }),
        'RAM_CONSUMER_AS_AGENT',
      ),
    ).toEqual([]);
  });
});

describe('W RAM_WRITE_WITHOUT_CONFIRMATION: a write as the user that does not ask first', () => {
  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])(
    'warns for %s as END_USER without confirmationRequired',
    async (method) => {
      const resource = NOTES.replace('httpMethod: POST', `httpMethod: ${method}`);
      const md = agentMd({
        resourceAccesses: [access('list', 'notes-list'), access('create', 'notes-create')],
      });
      const diagnostics = await check({
        'content/resources/notes.yaml': resource,
        'content/agents/a.md': md,
      });
      expect(withCode(diagnostics, 'RAM_WRITE_WITHOUT_CONFIRMATION')).toEqual([
        expect.objectContaining({
          severity: 'warning',
          file: 'content/agents/a.md',
          path: 'resourceAccesses[1].confirmationRequired',
          // The field is absent: the access item itself is named.
          line: lineOf(md, '- id: create'),
          message: expect.stringContaining(method),
        }),
      ]);
    },
  );

  it.each([
    ['asks first', { confirmationRequired: true }],
    ['acts as the agent', { identityUsed: 'AGENT' }],
  ])('is quiet when the write %s', async (_, fields) => {
    const md = agentMd({
      resourceAccesses: [access('list', 'notes-list'), access('create', 'notes-create', fields)],
    });
    expect(
      withCode(
        await check({ 'content/resources/notes.yaml': NOTES, 'content/agents/a.md': md }),
        'RAM_WRITE_WITHOUT_CONFIRMATION',
      ),
    ).toEqual([]);
  });
});

describe('W RAM_READ_ONLY_WRITE_METHOD: readOnly: true on a method that is not safe', () => {
  const agent = agentMd({
    resourceAccesses: [
      access('list', 'notes-list'),
      access('create', 'notes-create', { confirmationRequired: true }),
    ],
  });
  /** NOTES (or `base`) with `notes-create` on `method` and marked `readOnly: true`. */
  const readOnlyCreate = (method: string, base = NOTES) =>
    base.replace('httpMethod: POST }\n', `httpMethod: ${method} }\n    readOnly: true\n`);

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])(
    'warns for %s at the operation’s readOnly, with no stored spec',
    async (method) => {
      const resource = readOnlyCreate(method);
      const diagnostics = await check({
        'content/resources/notes.yaml': resource,
        'content/agents/a.md': agent,
      });
      expect(withCode(diagnostics, 'RAM_READ_ONLY_WRITE_METHOD')).toEqual([
        expect.objectContaining({
          severity: 'warning',
          file: 'content/resources/notes.yaml',
          path: 'operations[1].readOnly',
          line: lineOf(resource, 'readOnly: true'),
          message: expect.stringContaining(`readOnly: true, but its httpMethod ${method}`),
        }),
      ]);
    },
  );

  it.each(['GET', 'HEAD', 'OPTIONS'])('is quiet for the safe method %s', async (method) => {
    const resource = NOTES.replace('httpMethod: GET }\n', `httpMethod: ${method} }\n    readOnly: true\n`);
    const diagnostics = await check({
      'content/resources/notes.yaml': resource,
      'content/agents/a.md': agent,
    });
    expect(withCode(diagnostics, 'RAM_READ_ONLY_WRITE_METHOD')).toEqual([]);
  });

  it('is reported once when the stored spec says the same (not also SPEC_READ_WRITE_MISMATCH)', async () => {
    const resource = readOnlyCreate('POST', NOTES_WITH_SPEC);
    const diagnostics = await check({
      'content/resources/notes.yaml': resource,
      [NOTES_SPEC.file]: NOTES_SPEC.text,
      'content/agents/a.md': agent,
    });
    expect(diagnostics).toEqual([
      expect.objectContaining({
        code: 'RAM_READ_ONLY_WRITE_METHOD',
        path: 'operations[1].readOnly',
        line: lineOf(resource, 'readOnly: true'),
      }),
    ]);
  });

  it('warns for an operation of a resource defined in the agent file', async () => {
    const md = agentMd({
      resources: [
        {
          id: 'tickets',
          interactionProtocol: 'REST',
          owner: 'THIRD_PARTY',
          displayName: 'Tickets',
          description: 'A ticket service.',
          operations: [
            {
              id: 'tickets-close',
              description: 'Closes a ticket.',
              apiOperationSpec: { httpMethod: 'DELETE' },
              readOnly: true,
            },
          ],
        },
      ],
      resourceAccesses: [access('close', 'tickets-close', { identityUsed: 'AGENT' })],
    });
    expect(withCode(await check({ 'content/agents/a.md': md }), 'RAM_READ_ONLY_WRITE_METHOD')).toEqual([
      expect.objectContaining({
        file: 'content/agents/a.md',
        path: 'resources[0].operations[0].readOnly',
        line: lineOf(md, 'readOnly: true'),
      }),
    ]);
  });
});

describe('W RAM_API_SPEC_NOT_REST: apiOperationSpec on an MCP operation', () => {
  it("warns at the operation's apiOperationSpec", async () => {
    const resource = `${SEARCH}    apiOperationSpec:\n      operationId: search\n`;
    const md = agentMd({ resourceAccesses: [access('search', 'search-call', { identityUsed: 'AGENT' })] });
    const diagnostics = await check({ 'content/resources/search.yaml': resource, 'content/agents/a.md': md });
    expect(diagnostics).toEqual([
      expect.objectContaining({
        code: 'RAM_API_SPEC_NOT_REST',
        severity: 'warning',
        file: 'content/resources/search.yaml',
        path: 'operations[0].apiOperationSpec',
        line: lineOf(resource, 'apiOperationSpec:'),
      }),
    ]);
  });
});

describe('RAM_UNKNOWN_SKILL: an access mapped to a skill the agent lacks', () => {
  it('is an error at the skills item', async () => {
    const md = agentMd({
      resourceAccesses: [access('list', 'notes-list', { skills: ['answer', 'summarise'] })],
    });
    const diagnostics = await check({ 'content/resources/notes.yaml': NOTES, 'content/agents/a.md': md });
    expect(withCode(diagnostics, 'RAM_UNKNOWN_SKILL')).toEqual([
      expect.objectContaining({
        severity: 'error',
        file: 'content/agents/a.md',
        path: 'resourceAccesses[0].skills[1]',
        line: lineOf(md, '- summarise'),
        message: expect.stringContaining('"summarise"'),
      }),
    ]);
  });
});

describe('CARD_UNKNOWN_SECURITY_SCHEME: a requirement naming an undeclared scheme', () => {
  const securitySchemes = { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } };

  it('is an error at the scheme name, on the card and on a skill', async () => {
    const skills = [
      {
        id: 'answer',
        name: 'Answer',
        description: 'Answers.',
        tags: ['t'],
        examples: ['a question', 'another question'],
        securityRequirements: [{ schemes: { apikey: { list: ['read'] } } }],
      },
    ];
    const md = agentMd({
      securitySchemes,
      securityRequirements: [{ schemes: { bearer: { list: ['x'] }, oauth: { list: ['read'] } } }],
      skills,
    });
    const diagnostics = await check({ 'content/agents/a.md': md });
    expect(withCode(diagnostics, 'CARD_UNKNOWN_SECURITY_SCHEME')).toEqual([
      // Sorted by line: the skills come first in this file.
      expect.objectContaining({
        severity: 'error',
        file: 'content/agents/a.md',
        path: 'skills[0].securityRequirements[0].schemes.apikey',
        line: lineOf(md, 'apikey:'),
      }),
      expect.objectContaining({
        severity: 'error',
        file: 'content/agents/a.md',
        path: 'securityRequirements[0].schemes.oauth',
        line: lineOf(md, 'oauth:'),
      }),
    ]);
  });

  it('is quiet for a declared scheme', async () => {
    const md = agentMd({ securitySchemes, securityRequirements: [{ schemes: { bearer: { list: ['x'] } } }] });
    expect(await check({ 'content/agents/a.md': md })).toEqual([]);
  });
});

describe('SCHEMA_EMPTY: a required scheme without scopes (an API key, as the A2A v0.3 AgentCard reference writes it)', () => {
  const securitySchemes = { apiKey: { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key' } } };

  it.each([
    ['{}', {}, 'apiKey: {}'],
    ['an empty list', { list: [] }, 'list: []'],
  ])('%s: the error says why, and how to declare the scheme instead', async (_, value, at) => {
    const md = agentMd({ securitySchemes, securityRequirements: [{ schemes: { apiKey: value } }] });
    const diagnostics = await check({ 'content/agents/a.md': md });
    expect(diagnostics).toEqual([
      expect.objectContaining({
        code: 'SCHEMA_EMPTY',
        path: 'securityRequirements[0].schemes.apiKey.list',
        line: lineOf(md, at),
        message: expect.stringMatching(/would go unsigned\. Declare such a scheme in securitySchemes only$/),
      }),
    ]);
  });

  it('a misspelt "lists" gets its did-you-mean, not this explanation', async () => {
    const md = agentMd({
      securitySchemes,
      securityRequirements: [{ schemes: { apiKey: { lists: ['read'] } } }],
    });
    const diagnostics = await check({ 'content/agents/a.md': md });
    expect(diagnostics.map((d) => [d.code, d.message])).toEqual([
      ['SCHEMA_UNKNOWN_KEY', 'unknown key "lists" (did you mean "list"?)'],
    ]);
  });

  it('the scheme declared alone is quiet', async () => {
    expect(await check({ 'content/agents/a.md': agentMd({ securitySchemes }) })).toEqual([]);
  });
});

describe('interface urls: https, or host:port for GRPC', () => {
  const iface = (url: string, protocolBinding = 'GRPC') => ({ url, protocolBinding, protocolVersion: '1.0' });

  it.each(['https://grpc.example.test:443', 'grpc.example.test', 'grpc.example.test:port'])(
    'refuses the GRPC url %s',
    async (url) => {
      const md = agentMd({ interfaces: [iface('https://api.example.test/a2a', 'JSONRPC'), iface(url)] });
      const diagnostics = await check({ 'content/agents/a.md': md });
      expect(diagnostics).toEqual([
        expect.objectContaining({
          code: 'SCHEMA_INVALID_VALUE',
          severity: 'error',
          path: 'interfaces[1].url',
          line: lineOf(md, `url: ${url}`),
          message: expect.stringContaining('host:port'),
        }),
      ]);
    },
  );

  it('accepts the GRPC url grpc.example.test:443', async () => {
    const md = agentMd({ interfaces: [iface('grpc.example.test:443')] });
    expect(await check({ 'content/agents/a.md': md })).toEqual([]);
  });

  it('refuses http: on a public host and accepts it on localhost, with a warning that only this machine reaches it', async () => {
    const md = agentMd({
      interfaces: [
        iface('http://api.example.test/a2a', 'JSONRPC'),
        iface('http://localhost:8080/a2a', 'JSONRPC'),
        iface('https://127.0.0.1:8443/a2a', 'HTTP+JSON'),
        iface('[::1]:50051'),
      ],
    });
    expect(await check({ 'content/agents/a.md': md })).toEqual([
      expect.objectContaining({
        code: 'URL_NOT_HTTPS',
        path: 'interfaces[0].url',
        line: lineOf(md, 'http://api.example.test'),
      }),
      ...['http://localhost:8080/a2a', 'https://127.0.0.1:8443/a2a', '[::1]:50051'].map((url, i) =>
        expect.objectContaining({
          code: 'URL_LOOPBACK',
          severity: 'warning',
          path: `interfaces[${i + 1}].url`,
          line: lineOf(md, url),
          message: expect.stringContaining(`${url} is on this machine`),
        }),
      ),
    ]);
  });
});

describe('RAM_CASE_CONFLICT: one field written in camelCase and snake_case', () => {
  it('is an error at the snake_case spelling, in an access of the front matter', async () => {
    const md = agentMd({ resourceAccesses: [access('list', 'notes-list', { identity_used: 'AGENT' })] });
    const diagnostics = await check({
      'content/resources/notes.yaml': NOTES.replace('notes-create', 'notes-list-2'),
      'content/agents/a.md': md,
    });
    expect(withCode(diagnostics, 'RAM_CASE_CONFLICT')).toEqual([
      expect.objectContaining({
        severity: 'error',
        file: 'content/agents/a.md',
        path: 'resourceAccesses[0].identity_used',
        line: lineOf(md, 'identity_used:'),
      }),
    ]);
  });

  it('keeps a __proto__ member of the input a member of the copy, never its prototype', () => {
    const text = '{"display_name":"Notes","__proto__":{"owner":"THIRD_PARTY"}}';
    const value = JSON.parse(text) as unknown;
    const diagnostics: Diagnostic[] = [];
    const copy = normalizeRamKeys(
      value,
      SourceDoc.fromJson('x.json', text, value),
      [],
      diagnostics,
    ) as Record<string, unknown>;
    expect(diagnostics).toEqual([]);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(copy.owner).toBeUndefined();
    expect(Object.keys(copy)).toEqual(['displayName', '__proto__']);
  });

  it('is an error in a resource file', async () => {
    const resource = NOTES.replace('displayName: Notes\n', 'displayName: Notes\ndisplay_name: My notes\n');
    const diagnostics = await check({ 'content/resources/notes.yaml': resource });
    expect(withCode(diagnostics, 'RAM_CASE_CONFLICT')).toEqual([
      expect.objectContaining({
        severity: 'error',
        file: 'content/resources/notes.yaml',
        path: 'display_name',
        line: 5,
      }),
    ]);
  });

  it('is an error for resource_accesses beside resourceAccesses', async () => {
    const md = agentMd({
      resourceAccesses: [access('list', 'notes-list')],
      resource_accesses: [access('list', 'notes-list')],
    });
    const diagnostics = await check({ 'content/resources/notes.yaml': NOTES, 'content/agents/a.md': md });
    expect(withCode(diagnostics, 'RAM_CASE_CONFLICT')).toEqual([
      expect.objectContaining({
        severity: 'error',
        path: 'resource_accesses',
        line: lineOf(md, 'resource_accesses:'),
      }),
    ]);
  });
});

describe('RAM_DUPLICATE_ID within one kind', () => {
  it('reports an operation id used twice in one resource file, at the second id', async () => {
    const resource = NOTES.replace('id: notes-create', 'id: notes-list');
    const diagnostics = await check({ 'content/resources/notes.yaml': resource });
    expect(withCode(diagnostics, 'RAM_DUPLICATE_ID')).toEqual([
      expect.objectContaining({
        severity: 'error',
        path: 'operations[1].id',
        line: lineOf(resource, '- id: notes-list', 2),
      }),
    ]);
  });

  it('reports a skill id used twice in one agent', async () => {
    const skill = {
      id: 'same',
      name: 'Same',
      description: 'Twice.',
      tags: ['t'],
      examples: ['one query', 'two queries'],
    };
    const md = agentMd({ skills: [skill, { ...skill, name: 'Again' }] });
    const diagnostics = await check({ 'content/agents/a.md': md });
    expect(withCode(diagnostics, 'RAM_DUPLICATE_ID')).toEqual([
      expect.objectContaining({ severity: 'error', path: 'skills[1].id', line: lineOf(md, '- id: same', 2) }),
    ]);
  });
});

describe('entries', () => {
  const own = (fields: string) => `identifier: urn:air:agents.example.test:tools:notes
displayName: Notes MCP
type: application/mcp-server-card+json
representativeQueries: [search my notes, list my notes]
${fields}`;

  it('FILE_MISSING: an own entry url pointing at a file public/ does not hold', async () => {
    const entry = own('url: /mcp/notes.json\n');
    const diagnostics = await check({ 'content/entries/notes.yaml': entry });
    expect(diagnostics).toEqual([
      expect.objectContaining({
        code: 'FILE_MISSING',
        severity: 'error',
        file: 'content/entries/notes.yaml',
        path: 'url',
        line: 5,
        message: expect.stringContaining('public/mcp/notes.json'),
      }),
    ]);
  });

  it('is quiet when public/ holds the file', async () => {
    const diagnostics = await check({
      'content/entries/notes.yaml': own('url: /mcp/notes.json\n'),
      'public/mcp/notes.json': '{}',
    });
    expect(diagnostics).toEqual([]);
  });

  it.each([
    ['both url and data', 'url: https://mcp.example.test/notes.json\ndata: { name: notes }\n'],
    ['neither url nor data', 'digest: sha256:00\n'],
  ])('ARD_URL_XOR_DATA: %s', async (_, fields) => {
    const diagnostics = await check({ 'content/entries/notes.yaml': own(fields) });
    expect(withCode(diagnostics, 'ARD_URL_XOR_DATA')).toEqual([
      expect.objectContaining({
        severity: 'error',
        file: 'content/entries/notes.yaml',
        path: '(document)',
        line: 1,
      }),
    ]);
  });

  it('W ARD_UNPINNED: an own entry pointing outside the site without a digest', async () => {
    const diagnostics = await check({
      'content/entries/notes.yaml': own('url: https://mcp.example.test/notes.json\n'),
    });
    expect(diagnostics).toEqual([
      expect.objectContaining({
        code: 'ARD_UNPINNED',
        severity: 'warning',
        file: 'content/entries/notes.yaml',
        path: 'url',
        line: 5,
      }),
    ]);
  });

  it('is quiet for an own external entry with a digest, and for a foreign entry without one', async () => {
    const pinned = own(`url: https://mcp.example.test/notes.json\ndigest: sha256:${'ab'.repeat(32)}\n`);
    const foreign = pinned
      .replace('agents.example.test', 'partner.example.org')
      .replace(/digest: .*\n/, '')
      .replace(/displayName: (.*)\n/, 'displayName: Partner $1\n');
    expect(
      await check({ 'content/entries/pinned.yaml': pinned, 'content/entries/foreign.yaml': foreign }),
    ).toEqual([]);
  });

  it('URL_NOT_HTTPS: an entry url on http:', async () => {
    const diagnostics = await check({
      'content/entries/notes.yaml': own('url: http://mcp.example.test/notes.json\n'),
    });
    expect(diagnostics).toEqual([
      expect.objectContaining({ code: 'URL_NOT_HTTPS', severity: 'error', path: 'url', line: 5 }),
    ]);
  });
});

describe('publisher', () => {
  it.each([
    ['another host', 'https://www.example.test/', /sub-path/],
    ['a sub-path', 'https://agents.example.test/site/', /sub-path/],
    // The right origin spelt another way: the message asks for the spelling only.
    ['no trailing slash', 'https://agents.example.test', /written exactly .*ending with "\/"/],
    ['capitals', 'https://Agents.Example.test/', /written exactly .*lower case/],
  ])('SITE_URL_NOT_ROOT: siteUrl on %s, while the rest still loads', async (_, siteUrl, says) => {
    const publisher = DEFAULT_PUBLISHER.replace(
      'siteUrl: https://agents.example.test/',
      `siteUrl: ${siteUrl}`,
    );
    const root = await makeSite({ 'content/publisher.yaml': publisher, 'content/agents/a.md': agentMd() });
    const { model, diagnostics } = await loadAndCheck({ root });
    expect(diagnostics).toEqual([
      expect.objectContaining({
        code: 'SITE_URL_NOT_ROOT',
        file: 'content/publisher.yaml',
        path: 'siteUrl',
        line: 2,
        message: expect.stringContaining('"https://agents.example.test/"'),
      }),
    ]);
    expect(diagnostics[0]!.message).toMatch(says);
    expect(model?.agents).toHaveLength(1);
  });

  it('FILE_MISSING: no publisher.yaml, and the other files are still checked', async () => {
    const root = await makeSite({
      'content/publisher.yaml': null,
      'content/agents/a.md': agentMd({ description: '' }),
    });
    const { model, diagnostics } = await loadAndCheck({ root });
    expect(model).toBeUndefined();
    expect(diagnostics.map((d) => [d.code, d.file])).toEqual([
      ['SCHEMA_EMPTY', 'content/agents/a.md'],
      ['FILE_MISSING', 'content/publisher.yaml'],
    ]);
  });
});

describe('lines name the field, not its block value', () => {
  it("an unknown key holding a mapping is reported on the key's line, with a suggestion", async () => {
    const md = agentMd({ capabilitiez: { streaming: true } });
    const diagnostics = await check({ 'content/agents/a.md': md });
    expect(diagnostics).toEqual([
      expect.objectContaining({
        code: 'SCHEMA_UNKNOWN_KEY',
        path: 'capabilitiez',
        line: lineOf(md, 'capabilitiez:'),
        message: expect.stringContaining('did you mean "capabilities"'),
      }),
    ]);
  });

  it("a field with a folded scalar is reported on the key's line", async () => {
    const resource = NOTES.replace(
      "description: The user's notes.\n",
      "description: >-\n  The user's\n  notes.\nmanageAccessUrl: >-\n  http://example.test/manage\n",
    );
    const diagnostics = await check({ 'content/resources/notes.yaml': resource });
    expect(withCode(diagnostics, 'URL_NOT_HTTPS')).toEqual([
      expect.objectContaining({ path: 'manageAccessUrl', line: lineOf(resource, 'manageAccessUrl:') }),
    ]);
  });
});
