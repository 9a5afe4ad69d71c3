/**
 * The filter index of the catalog (src/core/registry/filter-index.ts): it admits the positions Orama's
 * own filter step (`searchByWhereClause` over the `enum[]` properties) admits, counts facet values as
 * Orama's stored documents hold them, and lets the server's catalog go without its Orama database.
 */
import { getByID } from '@orama/orama';
import { describe, expect, it } from 'vitest';
import {
  buildCatalog,
  filterMarks,
  resolveTermPath,
  whereOf,
  type Catalog,
} from '../../../src/core/registry/catalog.js';
import { countFacetValues } from '../../../src/core/registry/filter-index.js';
import { QueryEngine } from '../../../src/core/registry/search.js';
import { syntheticEntries } from '../../helpers/synthetic-entries.js';

const RAM = 'https://github.com/a2aproject/A2A/issues/1426#';

/** Synthetic entries with RAM terms and metadata of a few kinds, some repeated within one entry. */
function entries(n: number): Array<Record<string, unknown>> {
  return syntheticEntries(n).map((e, i) => ({
    ...e,
    ...(i % 3 === 0
      ? { '@context': { ram: RAM }, 'ram:owners': i % 2 ? ['CONSUMER'] : ['CONSUMER', 'THIRD_PARTY'] }
      : {}),
    ...(i % 5 === 0 ? { type: 'application/mcp-server-card+json' } : {}),
    metadata: { region: i % 4 === 0 ? ['eu-west', 'eu-west', 'us-east'] : [`zone-${i % 7}`] },
    'ram:thirdPartyResourceCount': i % 4,
  }));
}

/** The positions Orama's own filter step admits for `where`, over a catalog built with `keepOrama`. */
function oramaPositions(catalog: Catalog, where: Record<string, unknown>): number[] {
  const db = catalog.db as unknown as {
    index: { searchByWhereClause(i: unknown, t: unknown, w: unknown, l?: string): Set<number> };
    data: { index: unknown };
    tokenizer: unknown;
    internalDocumentIDStore: { internalIdToId: string[] };
  };
  const ids = db.index.searchByWhereClause(db.data.index, db.tokenizer, where, undefined);
  return Array.from(ids, (id) => Number(db.internalDocumentIDStore.internalIdToId[id - 1])).sort(
    (a, b) => a - b,
  );
}

const marked = (marks: Uint8Array) => [...marks.keys()].filter((p) => marks[p] === 1);

const FILTERS: Array<Array<{ key: string; values: string[] }>> = [
  [{ key: 'type', values: ['application/a2a-agent-card+json'] }],
  [{ key: 'type', values: ['application/mcp-server-card+json', 'application/a2a-agent-card+json'] }],
  [{ key: 'type', values: ['text/plain'] }],
  [{ key: 'type', values: [] }],
  [{ key: 'ram:owners', values: ['THIRD_PARTY'] }],
  [
    { key: 'ram:owners', values: ['CONSUMER'] },
    { key: 'type', values: ['application/mcp-server-card+json'] },
  ],
  [{ key: 'metadata.region', values: ['eu-west', 'zone-3'] }],
  [{ key: 'ram:thirdPartyResourceCount', values: ['2', '3'] }],
  [
    { key: 'metadata.region', values: ['us-east'] },
    { key: 'ram:thirdPartyResourceCount', values: ['0'] },
    { key: 'version', values: ['1.0.0', '1.4.0'] },
  ],
  // Values one entry carries (held as a position, not a list), the entry at position 0 among them.
  [
    {
      key: 'identifier',
      values: ['urn:air:bench.example.com:agents:agent-0', 'urn:air:bench.example.com:agents:agent-17'],
    },
  ],
];

describe('filter index', () => {
  it('admits the positions Orama’s own filter step admits, for every kind of clause', async () => {
    const catalog = await buildCatalog(
      entries(400).map((entry) => ({ entry, verified: true })),
      { keepOrama: true },
    );
    // `ram:owners` with a prefix no query declares resolves through the entries' contexts; an `or`
    // of two paths: `ram:owners` under two IRIs would make one, so build one by hand too.
    const owners = resolveTermPath(catalog, 'ram:owners', new Map());
    expect(owners.length).toBeGreaterThan(0);
    const wheres: Array<Record<string, unknown>> = FILTERS.map((filter) => {
      const where = whereOf(catalog, filter, new Map());
      if (where === undefined || where === 'none') throw new Error(`no clause for ${JSON.stringify(filter)}`);
      return where;
    });
    const [type] = resolveTermPath(catalog, 'type', new Map());
    const [region] = resolveTermPath(catalog, 'metadata.region', new Map());
    wheres.push(
      {
        or: [
          { [type!]: { containsAny: ['application/mcp-server-card+json'] } },
          { [region!]: { containsAny: ['zone-1'] } },
        ],
      },
      {
        [type!]: { containsAny: ['application/a2a-agent-card+json'] },
        [region!]: { containsAny: ['eu-west'] },
      },
      { and: [] },
      { or: [] },
    );
    const sizes = wheres.map((where) => {
      const admitted = marked(filterMarks(catalog, where));
      expect(admitted, JSON.stringify(where)).toEqual(oramaPositions(catalog, where));
      return admitted.length;
    });
    // Not a comparison of empty sets: the clauses admit all, none, and everything between.
    expect(sizes).toEqual([320, 400, 0, 0, 67, 27, 143, 200, 40, 2, 114, 80, 0, 0]);
  });

  it('counts facet values as Orama’s stored documents hold them, a value once per entry', async () => {
    const catalog = await buildCatalog(
      entries(300).map((entry) => ({ entry, verified: true })),
      { keepOrama: true },
    );
    const props = [...catalog.props.values()];
    const positions = [...catalog.entries.keys()].filter((p) => p % 3 !== 1);
    const expected = new Map(props.map((prop) => [prop, new Map<string, number>()]));
    for (const position of positions) {
      const doc = getByID(catalog.db!, String(position)) as Record<string, unknown>;
      for (const [prop, values] of expected) {
        for (const value of new Set((doc[prop] as unknown[]).map(String)))
          values.set(value, (values.get(value) ?? 0) + 1);
      }
    }
    const counted = countFacetValues(catalog.filters, catalog.entries.length, positions, props);
    for (const prop of props) {
      const sorted = (m: Map<string, number>) => [...m].sort(([a], [b]) => (a < b ? -1 : 1));
      expect(sorted(counted.get(prop)!), prop).toEqual(sorted(expected.get(prop)!));
    }
    const [region] = resolveTermPath(catalog, 'metadata.region', new Map());
    expect(countFacetValues(catalog.filters, catalog.entries.length, [0], [region!]).get(region!)).toEqual(
      new Map([
        ['eu-west', 1],
        ['us-east', 1],
      ]),
    );
  });

  it('builds the server’s catalog without its Orama database; lists, filters and facets answer as with it', async () => {
    const inputs = entries(200).map((entry) => ({ entry, verified: true }));
    const servedCatalog = await buildCatalog(inputs);
    const kept = await buildCatalog(inputs, { keepOrama: true });
    expect('db' in servedCatalog).toBe(false);
    expect(kept.db).toBeDefined();
    const a = new QueryEngine(servedCatalog);
    const b = new QueryEngine(kept);
    for (const filter of FILTERS) {
      const query = { context: new Map(), filter };
      // The served catalog's list is what Orama's own filter step admits on the kept database.
      const where = whereOf(kept, filter, new Map());
      const expected =
        where === 'none' ? [] : where === undefined ? [...kept.entries.keys()] : oramaPositions(kept, where);
      expect([...a.list(query)], JSON.stringify(filter)).toEqual(expected);
      expect([...a.list(query)]).toEqual([...b.list(query)]);
      const ranked = { ...query, text: 'plan my week number 17' };
      expect(a.rank(ranked)).toEqual(b.rank(ranked));
      const facets = [
        { field: 'type', limit: 2 },
        { field: 'metadata.region', limit: 3 },
      ];
      expect(a.facets({ ...query, text: 'summarise topic' }, facets)).toEqual(
        b.facets({ ...query, text: 'summarise topic' }, facets),
      );
      expect(a.facets(query, facets)).toEqual(b.facets(query, facets));
      // And its facet counts are the kept database's stored documents' (a value once per entry).
      const [type] = resolveTermPath(kept, 'type', new Map());
      const counts = new Map<string, number>();
      for (const position of expected) {
        const doc = getByID(kept.db!, String(position)) as Record<string, unknown>;
        for (const value of new Set((doc[type!] as unknown[]).map(String)))
          counts.set(value, (counts.get(value) ?? 0) + 1);
      }
      const served = countFacetValues(servedCatalog.filters, servedCatalog.entries.length, expected, [
        type!,
      ]).get(type!)!;
      expect(new Map([...served].sort()), JSON.stringify(filter)).toEqual(new Map([...counts].sort()));
    }
  });
});
