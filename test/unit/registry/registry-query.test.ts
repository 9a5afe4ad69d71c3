/**
 * src/core/registry/query.ts: the requests of ARD draft §4.2 and §5 read and checked: defaults,
 * closed maps, types, the federation mode (501 for an unknown one), the GET /agents grammar, and the
 * query fingerprint page tokens bind to.
 */
import { describe, expect, it } from 'vitest';
import { RegistryProblem } from '../../../src/core/registry/problems.js';
import {
  queryFingerprint,
  readExploreRequest,
  readListQuery,
  readSearchRequest,
} from '../../../src/core/registry/query.js';

const modes = { defaultMode: 'auto' as const, modes: ['auto', 'referrals', 'none'] as const };

/** The problem `fn` throws: `[status, code, detail]`. */
function problemOf(fn: () => unknown): [number, string, string] | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof RegistryProblem) return [error.status, error.code, error.message];
    throw error;
  }
  return undefined;
}

describe('readSearchRequest (ARD draft §4.2.2.1, §5 search-request)', () => {
  it('applies the defaults: pageSize 10, the configured federation mode, no token', () => {
    const req = readSearchRequest({ query: { text: '  book a flight ' } }, modes);
    expect(req).toEqual({
      query: { context: new Map(), text: 'book a flight', filter: [] },
      federation: 'auto',
      pageSize: 10,
    });
    expect(readSearchRequest({ query: { text: 'x' } }, { ...modes, defaultMode: 'none' }).federation).toBe(
      'none',
    );
  });

  it('reads @context, filter (a string or a list; sorted, unique), pageSize and pageToken', () => {
    const req = readSearchRequest(
      {
        query: {
          '@context': { okf: 'https://openknowledgeformat.org/ns#', ram: { '@id': 'https://r.example/#' } },
          text: 'x',
          filter: { tags: ['b', 'a', 'b'], 'okf:zone': 'JP' },
        },
        federation: 'referrals',
        pageSize: 100,
        pageToken: 'abc.def',
      },
      modes,
    );
    expect(req.query.context).toEqual(
      new Map([
        ['okf', 'https://openknowledgeformat.org/ns#'],
        ['ram', 'https://r.example/#'],
      ]),
    );
    expect(req.query.filter).toEqual([
      { key: 'okf:zone', values: ['JP'] },
      { key: 'tags', values: ['a', 'b'] },
    ]);
    expect(req).toMatchObject({ federation: 'referrals', pageSize: 100, pageToken: 'abc.def' });
  });

  it.each([
    ['a body that is not an object', 'x'],
    ['no query', {}],
    ['an unknown member (with a suggestion)', { query: { text: 'x' }, pageSise: 3 }],
    ['an unknown query member', { query: { text: 'x', filters: {} } }],
    ['no text', { query: {} }],
    ['a blank text', { query: { text: ' ' } }],
    ['a text over 1000 characters', { query: { text: 'x'.repeat(1001) } }],
    ['a filter that is a list', { query: { text: 'x', filter: [] } }],
    ['a filter value that is a number', { query: { text: 'x', filter: { a: [1] } } }],
    ['an empty value list', { query: { text: 'x', filter: { tags: [] } } }],
    ['an empty path segment', { query: { text: 'x', filter: { '.tags': ['a'] } } }],
    ['a remote context', { query: { text: 'x', '@context': 'https://example.com/ctx' } }],
    ['a context member that is not an IRI', { query: { text: 'x', '@context': { a: 3 } } }],
    ['pageSize 0', { query: { text: 'x' }, pageSize: 0 }],
    ['a negative pageSize', { query: { text: 'x' }, pageSize: -2 }],
    // ARD draft §4.2.2.1 caps pageSize at 100 and the message says 1 to 100, so 101 is refused, not lowered.
    ['pageSize 101', { query: { text: 'x' }, pageSize: 101 }],
    ['an empty pageToken', { query: { text: 'x' }, pageToken: '' }],
    ['a federation mode that is not a string', { query: { text: 'x' }, federation: 1 }],
  ])('400 INVALID_ARGUMENT for %s', (_what, body) => {
    const problem = problemOf(() => readSearchRequest(body, modes));
    expect(problem?.slice(0, 2)).toEqual([400, 'INVALID_ARGUMENT']);
  });

  it('says which pageSize it got: the number, or what else it was', () => {
    const detail = (pageSize: unknown) =>
      problemOf(() => readSearchRequest({ query: { text: 'x' }, pageSize }, modes))?.[2];
    expect(detail(0)).toBe('pageSize must be a whole number from 1 to 100, not 0');
    expect(detail(2.5)).toBe('pageSize must be a whole number from 1 to 100, not 2.5');
    expect(detail('10')).toBe('pageSize must be a whole number from 1 to 100, not a string');
  });

  it('suggests the member meant', () => {
    expect(problemOf(() => readSearchRequest({ query: { text: 'x' }, pageSise: 3 }, modes))?.[2]).toMatch(
      /did you mean "pageSize"/,
    );
  });

  it('501 NOT_IMPLEMENTED for an unknown mode or one this registry does not answer', () => {
    expect(
      problemOf(() => readSearchRequest({ query: { text: 'x' }, federation: 'flood' }, modes))?.slice(0, 2),
    ).toEqual([501, 'NOT_IMPLEMENTED']);
    expect(
      problemOf(() =>
        readSearchRequest(
          { query: { text: 'x' }, federation: 'auto' },
          { defaultMode: 'none', modes: ['none'] },
        ),
      )?.[1],
    ).toBe('NOT_IMPLEMENTED');
  });
});

describe('readExploreRequest (ARD draft §4.2.3.1)', () => {
  it('reads facets with their limits (default 10) and an optional query without text', () => {
    expect(
      readExploreRequest({
        query: { filter: { type: ['application/mcp-server-card+json'] } },
        resultType: {
          facets: [{ field: 'capabilities', limit: 10 }, { field: 'publisher', limit: 5 }, { field: 'tags' }],
        },
      }),
    ).toEqual({
      query: { context: new Map(), filter: [{ key: 'type', values: ['application/mcp-server-card+json'] }] },
      facets: [
        { field: 'capabilities', limit: 10 },
        { field: 'publisher', limit: 5 },
        { field: 'tags', limit: 10 },
      ],
    });
  });

  it.each([
    ['no resultType', {}],
    ['no facets', { resultType: {} }],
    ['an empty facet list', { resultType: { facets: [] } }],
    ['a facet without field', { resultType: { facets: [{ limit: 2 }] } }],
    ['a limit over 100', { resultType: { facets: [{ field: 'tags', limit: 101 }] } }],
    ['a field asked twice', { resultType: { facets: [{ field: 'tags' }, { field: 'tags' }] } }],
    ['an unknown resultType member', { resultType: { facets: [{ field: 'tags' }], count: true } }],
    ['an unknown member', { resultType: { facets: [{ field: 'tags' }] }, federation: 'none' }],
  ])('400 for %s', (_what, body) => {
    expect(problemOf(() => readExploreRequest(body))?.slice(0, 2)).toEqual([400, 'INVALID_ARGUMENT']);
  });
});

describe('readListQuery: the GET /agents grammar (ARD draft §4.2.4)', () => {
  it('reads filter.<path>=<value> (repeated: OR), context.<prefix>=<IRI>, pageSize and pageToken', () => {
    const req = readListQuery(
      new URLSearchParams(
        'filter.tags=travel&filter.ram:owners=CONSUMER&filter.tags=hotels&context.r=https%3A%2F%2Fr.example%2F%23&pageSize=25&pageToken=t.k',
      ),
    );
    expect(req).toEqual({
      query: {
        context: new Map([['r', 'https://r.example/#']]),
        filter: [
          { key: 'ram:owners', values: ['CONSUMER'] },
          { key: 'tags', values: ['hotels', 'travel'] },
        ],
      },
      expression: { displayNames: [], updatedAfter: [] },
      orderBy: [],
      pageSize: 25,
      pageToken: 't.k',
    });
    // ard-spec's OpenAPI (listAgents): pageSize defaults to 20.
    expect(readListQuery(new URLSearchParams(''))).toEqual({
      query: { context: new Map(), filter: [] },
      expression: { displayNames: [], updatedAfter: [] },
      orderBy: [],
      pageSize: 20,
    });
  });

  it.each([
    'pageSize=x',
    'pageSize=1&pageSize=2',
    'pageSize=101',
    'filter=tags',
    'sort=name',
    'filter.tags=',
    'filter.a..b=1',
    'pageSize=-1',
  ])('400 for %s', (query) => {
    expect(problemOf(() => readListQuery(new URLSearchParams(query)))?.slice(0, 2)).toEqual([
      400,
      'INVALID_ARGUMENT',
    ]);
  });
});

describe('queryFingerprint', () => {
  it('is the same for the same query written in another order, and differs otherwise', () => {
    const a = readSearchRequest({ query: { text: 'x', filter: { b: ['2', '1'], a: '3' } } }, modes).query;
    const b = readSearchRequest({ query: { filter: { a: ['3'], b: ['1', '2'] }, text: 'x' } }, modes).query;
    const c = readSearchRequest({ query: { text: 'y', filter: { a: ['3'], b: ['1', '2'] } } }, modes).query;
    expect(queryFingerprint('search', a)).toBe(queryFingerprint('search', b));
    expect(queryFingerprint('search', a)).not.toBe(queryFingerprint('search', c));
    expect(queryFingerprint('search', a, { federation: 'auto' })).not.toBe(
      queryFingerprint('search', a, { federation: 'none' }),
    );
  });
});
