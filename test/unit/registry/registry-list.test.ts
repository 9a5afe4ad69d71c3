/**
 * `GET /agents` as ard-spec's OpenAPI (`listAgents`) and the ARD conformance tool read it (ARD draft
 * §4.2.4): the `items` array beside `entries`, paging, the `filter` expression, `orderBy`, and
 * `GET /agents/{identifier}`, checked directly on the service over a hand-written catalog. The conformance
 * tool itself (test/vendor/ard-conformance/) probes the served API in test/registry/api.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../../src/core/registry/catalog.js';
import { parseFilterExpression, parseOrderBy } from '../../../src/core/registry/list-filter.js';
import type { RegistryProblem } from '../../../src/core/registry/problems.js';
import { readListQuery } from '../../../src/core/registry/query.js';
import { createRegistryService, type RegistryService } from '../../../src/core/registry/service.js';
import { RegistrySettings } from '../../../src/core/schema/registry-settings.js';

const A2A = 'application/a2a-agent-card+json';
const MCP = 'application/mcp-server-card+json';

function entry(domain: string, name: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    identifier: `urn:air:${domain}:agents:${name}`,
    displayName: `${name[0]!.toUpperCase()}${name.slice(1)} Agent`,
    type: A2A,
    url: `https://${domain}/agents/${name}.json`,
    version: '1.0.0',
    ...fields,
  };
}

const ENTRIES = [
  entry('a.example.com', 'flights', { updatedAt: '2026-03-01T00:00:00Z', tags: ['travel'] }),
  entry('a.example.com', 'hotels', { updatedAt: '2025-12-01T00:00:00Z', tags: ['travel'] }),
  entry('a.example.com', 'notes', { type: MCP, updatedAt: '2026-06-01T00:00:00Z' }),
  entry('b.example.org', 'weather', { type: MCP, displayName: 'weather agent' }),
  entry('a.example.com', 'zeta', { version: '1.9.0' }),
  entry('a.example.com', 'zeta', { version: '1.10.0', displayName: 'Zeta Agent (new)' }),
];

async function service(): Promise<RegistryService> {
  const catalog = await buildCatalog(ENTRIES.map((e) => ({ entry: e, verified: true })));
  return createRegistryService({
    catalog,
    settings: RegistrySettings.parse({}),
    self: { identifier: 'urn:air:a.example.com:registry:main', url: 'https://a.example.com/ard/v1' },
    secret: new Uint8Array(32).fill(7),
    indexFingerprint: 'sha256:0123456789abcdef',
  });
}

type ListBody = {
  items: Array<Record<string, string>>;
  entries: Array<Record<string, string>>;
  total: number;
  pageToken?: string;
  nextPageToken?: string;
};

const get = async (s: RegistryService, query: string, endpoint: 'agents' | 'agent' = 'agents') => {
  const response = await s.handle(endpoint, new Request(`https://a.example.com/ard/v1/${query}`));
  return { status: response.status, headers: response.headers, body: (await response.json()) as never };
};
const names = (body: ListBody) => body.items.map((e) => `${e.identifier!.split(':').pop()}@${e.version}`);

describe('GET /agents: items, paging (ard-spec ListResponse; the conformance tool)', () => {
  it('answers items (and entries, the same list), total, pageToken (and nextPageToken, the same token)', async () => {
    const s = await service();
    const first = await get(s, 'agents?pageSize=4');
    const body = first.body as ListBody;
    expect(first.status).toBe(200);
    expect(Array.isArray(body.items)).toBe(true);
    expect(body.items).toHaveLength(4);
    expect(body.entries).toEqual(body.items);
    expect(body.total).toBe(ENTRIES.length);
    expect(body.pageToken).toBeTruthy();
    expect(body.nextPageToken).toBe(body.pageToken);
    const second = (await get(s, `agents?pageSize=4&pageToken=${encodeURIComponent(body.pageToken!)}`))
      .body as ListBody;
    expect(second.pageToken).toBeUndefined();
    expect([...names(body), ...names(second)]).toEqual([
      'flights@1.0.0',
      'hotels@1.0.0',
      'notes@1.0.0',
      'zeta@1.10.0',
      'zeta@1.9.0',
      'weather@1.0.0',
    ]);
    // The default page: 20, as ard-spec's OpenAPI says.
    expect(((await get(s, 'agents')).body as ListBody).items).toHaveLength(ENTRIES.length);
  });
});

describe('GET /agents?filter=<expression> (ard-spec Appendix A)', () => {
  it('was refused with `did you mean "filter"?`; now reads the expression', async () => {
    const s = await service();
    const answer = await get(s, `agents?filter=${encodeURIComponent(`type = '${MCP}'`)}`);
    expect(answer.status).toBe(200);
    expect(names(answer.body)).toEqual(['notes@1.0.0', 'weather@1.0.0']);
  });

  it.each([
    [`type = '${MCP}' AND publisherId = 'a.example.com'`, ['notes@1.0.0']],
    [`type = '${A2A},${MCP}' AND tags = travel`, ['flights@1.0.0', 'hotels@1.0.0']],
    [`publisherId = "b.example.org", 'nowhere.example'`, ['weather@1.0.0']],
    [`displayName = 'WEATHER AGENT'`, ['weather@1.0.0']],
    [`updatedAfter > '2026-01-01'`, ['flights@1.0.0', 'notes@1.0.0']],
    [`updatedAfter > '2026-01-01' and type = '${A2A}'`, ['flights@1.0.0']],
    [`version = '1.9.0'`, ['zeta@1.9.0']],
  ])('%s', async (expression, expected) => {
    const s = await service();
    const answer = await get(s, `agents?filter=${encodeURIComponent(expression)}`);
    expect(answer.status).toBe(200);
    expect(names(answer.body)).toEqual(expected);
    expect((answer.body as ListBody).total).toBe(expected.length);
  });

  it.each([
    ['type', /expected = after the field type/],
    ["type = 'x' OR tags = 'y'", /OR between conditions is not supported/],
    ["type = 'x", /never closed/],
    ["type = 'x' AND", /expected a condition after AND/],
    ["createdAfter > '2026-01-01'", /no creation time/],
    ["updatedAfter > 'last week'", /ISO 8601/],
    ["tags > 'x'", /compares with = only/],
    ["nosuchterm = 'x'", /unsupported filter term/],
  ])('400 for %s, saying what is wrong', async (expression, message) => {
    const s = await service();
    const answer = await get(s, `agents?filter=${encodeURIComponent(expression)}`);
    expect(answer.status).toBe(400);
    const body = answer.body as { error: string; detail: string };
    expect(body.error).toBe('INVALID_ARGUMENT');
    expect(body.detail).toMatch(message);
    expect(body.detail).not.toMatch(/did you mean "filter"/);
  });

  it('a misspelt parameter gets a hint, never one naming itself', () => {
    const problem = (q: string) => {
      try {
        readListQuery(new URLSearchParams(q));
      } catch (error) {
        return (error as RegistryProblem).message;
      }
      return undefined;
    };
    expect(problem('filtr=x')).toMatch(/did you mean "filter"/);
    expect(problem('orderby=x')).toMatch(/did you mean "orderBy"/);
    expect(problem('filter=tags')).not.toMatch(/did you mean/);
  });

  it('parses values quoted either way, with doubled single quotes', () => {
    expect(parseFilterExpression(`tags = 'it''s', "a b", bare`).clauses).toEqual([
      { key: 'tags', values: ['a b', 'bare', "it's"] },
    ]);
  });
});

describe('GET /agents?orderBy=', () => {
  it('sorts by the keys given, versions as numbers, missing values last, then identifier order', async () => {
    const s = await service();
    const order = async (orderBy: string) =>
      names((await get(s, `agents?orderBy=${encodeURIComponent(orderBy)}`)).body);
    expect(await order('updatedAt DESC')).toEqual([
      'notes@1.0.0',
      'flights@1.0.0',
      'hotels@1.0.0',
      'zeta@1.10.0',
      'zeta@1.9.0',
      'weather@1.0.0',
    ]);
    expect(await order('displayName')).toEqual([
      'flights@1.0.0',
      'hotels@1.0.0',
      'notes@1.0.0',
      'weather@1.0.0',
      'zeta@1.9.0',
      'zeta@1.10.0',
    ]);
    expect((await order('version desc, identifier')).slice(0, 2)).toEqual(['zeta@1.10.0', 'zeta@1.9.0']);
    expect(parseOrderBy('name, updated_at DESC')).toEqual([
      { key: 'displayName', descending: false },
      { key: 'updatedAt', descending: true },
    ]);
  });

  it('pages an ordered list with tokens bound to the order', async () => {
    const s = await service();
    const first = (await get(s, 'agents?orderBy=updatedAt%20DESC&pageSize=2')).body as ListBody;
    expect(names(first)).toEqual(['notes@1.0.0', 'flights@1.0.0']);
    const token = encodeURIComponent(first.pageToken!);
    const second = await get(s, `agents?orderBy=updatedAt%20DESC&pageSize=2&pageToken=${token}`);
    expect(names(second.body)).toEqual(['hotels@1.0.0', 'zeta@1.10.0']);
    expect((await get(s, `agents?orderBy=displayName&pageSize=2&pageToken=${token}`)).status).toBe(400);
  });

  it.each(['popularity', 'displayName sideways', 'displayName, displayName'])('400 for %s', async (o) => {
    const s = await service();
    expect((await get(s, `agents?orderBy=${encodeURIComponent(o)}`)).status).toBe(400);
  });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty DESC', 'displayName, valueOf'])(
    '400 for %s, a name every object inherits, not a sort key',
    async (o) => {
      const s = await service();
      const answer = await get(s, `agents?orderBy=${encodeURIComponent(o)}`);
      expect(answer.status).toBe(400);
      expect((answer.body as { error: string }).error).toBe('INVALID_ARGUMENT');
    },
  );
});

describe('GET /agents/{identifier} (ard-spec ADR)', () => {
  it('answers the entry verbatim: the latest version, or the one asked for, the others linked', async () => {
    const s = await service();
    const id = 'urn:air:a.example.com:agents:zeta';
    const latest = await get(s, `agents/${encodeURIComponent(id)}`, 'agent');
    expect(latest.status).toBe(200);
    expect(latest.body).toEqual(ENTRIES[5]);
    expect(latest.headers.get('link')).toBe(
      `</ard/v1/agents/${encodeURIComponent(id)}?version=1.9.0>; rel="alternate"`,
    );
    const older = await get(s, `agents/${id}?version=1.9.0`, 'agent');
    expect(older.body).toEqual(ENTRIES[4]);
    expect(older.headers.get('cache-control')).toMatch(/max-age=300/);
  });

  it.each([
    ['agents/urn:air:a.example.com:agents:nobody', 404, 'NOT_FOUND'],
    ['agents/urn:air:a.example.com:agents:zeta?version=9', 404, 'NOT_FOUND'],
    ['agents/urn:air:a.example.com:agents:zeta?pageSize=1', 400, 'INVALID_ARGUMENT'],
    ['agents/%E0%A4%A', 400, 'INVALID_ARGUMENT'],
  ])('%s: %i', async (path, status, code) => {
    const s = await service();
    const answer = await get(s, path, 'agent');
    expect(answer.status).toBe(status);
    expect((answer.body as { error: string }).error).toBe(code);
  });

  it('takes GET and HEAD only', async () => {
    const s = await service();
    const response = await s.handle(
      'agent',
      new Request('https://a.example.com/ard/v1/agents/x', { method: 'POST', body: '{}' }),
    );
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});
