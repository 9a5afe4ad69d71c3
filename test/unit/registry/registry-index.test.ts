/**
 * The registry's index: term paths and contexts (src/core/registry/terms.ts), the Orama catalog
 * (catalog.ts) and the three local operations over it (search.ts), on a small hand-written manifest.
 */
import { describe, expect, it } from 'vitest';
import { buildCatalog, resolveTermPath, type Catalog } from '../../../src/core/registry/catalog.js';
import { RegistryProblem } from '../../../src/core/registry/problems.js';
import { QueryEngine } from '../../../src/core/registry/search.js';
import { MAX_RANKED } from '../../../src/core/registry/text-index.js';
import {
  ARD_NAMESPACE,
  entryTermValues,
  expandSegment,
  parseContext,
  pathKey,
} from '../../../src/core/registry/terms.js';

const RAM = 'https://github.com/a2aproject/A2A/issues/1426#';
const OTHER = 'https://other.example/ram#';

function entry(name: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    identifier: `urn:air:a.example.com:agents:${name}`,
    displayName: `${name} agent`,
    type: 'application/a2a-agent-card+json',
    url: `https://a.example.com/agents/${name}/agent-card.json`,
    version: '1.0.0',
    ...fields,
  };
}

const ENTRIES = [
  entry('flights', {
    '@context': { ram: RAM },
    description: 'Books seats on airlines.',
    tags: ['travel', 'booking'],
    capabilities: ['Book a flight'],
    representativeQueries: ['book a flight to Tokyo', 'find me a cheap flight'],
    'ram:owners': ['CONSUMER', 'THIRD_PARTY'],
    'ram:actsAsEndUser': true,
    'ram:thirdPartyResourceCount': 1,
    trustManifest: {
      identity: 'did:web:a.example.com',
      attestations: [{ type: 'SOC2-Type2', uri: 'https://a.example.com/soc2' }],
    },
  }),
  entry('notes', {
    '@context': { ram: RAM },
    description: 'Keeps notes; mentions a flight only here.',
    tags: ['productivity'],
    capabilities: ['Take notes'],
    representativeQueries: ['write down my ideas', 'what did I note yesterday'],
    'ram:owners': ['CONSUMER'],
    'ram:actsAsEndUser': false,
    'ram:thirdPartyResourceCount': 0,
    trustManifest: { identity: 'did:web:a.example.com' },
  }),
  entry('hotels', {
    '@context': { x: OTHER },
    description: 'Rooms in hotels.',
    tags: ['travel'],
    capabilities: ['Book a room', 'flight connections'],
    'x:owners': ['THIRD_PARTY'],
    trustManifest: { identity: 'did:web:a.example.com' },
  }),
  {
    identifier: 'urn:air:b.example.org:tools:weather',
    displayName: 'Weather',
    type: 'application/mcp-server-card+json',
    url: 'https://b.example.org/mcp.json',
    tags: ['weather'],
    'undeclared:zone': 'EU',
    metadata: { region: ['eu-west', 'us-east'] },
  },
];

let catalog: Catalog;
const ready = buildCatalog(ENTRIES.map((e, i) => ({ entry: e, verified: i < 3 }))).then((c) => (catalog = c));
const ids = (positions: Iterable<number>) =>
  [...positions].map((p) => catalog.entries[p]!.identifier.split(':').pop());

function problemOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof RegistryProblem) return `${error.code}: ${error.message}`;
    throw error;
  }
  return undefined;
}

describe('term paths (ARD draft §3.1, §4.2.1)', () => {
  it('expands core terms through the base context, prefixes through a context, IRIs as they are', () => {
    const context = parseContext({ ram: RAM, region: 'https://geo.example/#region' });
    expect(typeof context).not.toBe('string');
    const ctx = context as Map<string, string>;
    expect(expandSegment('tags', ctx)).toEqual({ iri: `${ARD_NAMESPACE}tags` });
    expect(expandSegment('ram:owners', ctx)).toEqual({ iri: `${RAM}owners` });
    expect(expandSegment('region', ctx)).toEqual({ iri: 'https://geo.example/#region' });
    expect(expandSegment('okf:zone', ctx)).toEqual({ undeclaredPrefix: 'okf' });
    expect(expandSegment('https://x.example/#y', ctx)).toEqual({ iri: 'https://x.example/#y' });
  });

  it('reads a context as an object, an array of objects or the base context URL, and nothing else', () => {
    expect(
      parseContext([
        { a: 'https://a/#' },
        'https://agenticresourcediscovery.org/context/v1',
        { b: { '@id': 'https://b/#' } },
      ]),
    ).toEqual(
      new Map([
        ['a', 'https://a/#'],
        ['b', 'https://b/#'],
      ]),
    );
    expect(parseContext('https://example.com/ctx.jsonld')).toMatch(/remote context/);
    expect(parseContext({ a: 1 })).toMatch(/IRI/);
    expect(parseContext(7)).toMatch(/object/);
  });

  it('indexes every scalar under its expanded path, through arrays, values as their JSON text', () => {
    const values = entryTermValues(ENTRIES[0]!, new Map([['ram', RAM]]), { publisher: 'a.example.com' });
    expect(values.get(pathKey([`${RAM}actsAsEndUser`]))).toEqual(new Set(['true']));
    expect(values.get(pathKey([`${RAM}thirdPartyResourceCount`]))).toEqual(new Set(['1']));
    expect(values.get(pathKey([`${ARD_NAMESPACE}tags`]))).toEqual(new Set(['travel', 'booking']));
    expect(
      values.get(
        pathKey([`${ARD_NAMESPACE}trustManifest`, `${ARD_NAMESPACE}attestations`, `${ARD_NAMESPACE}type`]),
      ),
    ).toEqual(new Set(['SOC2-Type2']));
    expect(values.get(pathKey([`${ARD_NAMESPACE}publisher`]))).toEqual(new Set(['a.example.com']));
    expect([...values.keys()].some((k) => k.includes('@context'))).toBe(false);
  });
});

describe('the catalog (Orama)', () => {
  it('orders entries by identifier, then version', async () => {
    await ready;
    expect(catalog.entries.map((e) => e.identifier.split(':').pop())).toEqual([
      'flights',
      'hotels',
      'notes',
      'weather',
    ]);
  });

  it('resolves filter keys: a prefix the query does not declare through every entry context', async () => {
    await ready;
    const none = new Map<string, string>();
    expect(resolveTermPath(catalog, 'ram:owners', none)).toHaveLength(1);
    expect(resolveTermPath(catalog, 'x:owners', none)).toHaveLength(1);
    // The query's own prefix, naming the other entry's IRI.
    expect(resolveTermPath(catalog, 'r:owners', new Map([['r', OTHER]]))).toEqual(
      resolveTermPath(catalog, 'x:owners', none),
    );
    expect(resolveTermPath(catalog, 'metadata.region', none)).toHaveLength(1);
    expect(resolveTermPath(catalog, 'undeclared:zone', none)).toHaveLength(1);
    // Valid but absent: nothing matches.
    expect(resolveTermPath(catalog, 'okf:zone', new Map([['okf', 'https://okf.example/#']]))).toEqual([]);
    expect(resolveTermPath(catalog, 'trustManifests', none)).toEqual([]);
    expect(problemOf(() => resolveTermPath(catalog, 'okf:zone', none))).toMatch(
      /^INVALID_ARGUMENT: .*prefix "okf"/,
    );
    expect(problemOf(() => resolveTermPath(catalog, 'colour', none))).toMatch(
      /^INVALID_ARGUMENT: unsupported filter term/,
    );
  });
});

describe('the query engine', () => {
  it('ranks by BM25 with the boosts: representativeQueries, capabilities, tags, displayName, description', async () => {
    await ready;
    const engine = new QueryEngine(catalog);
    const ranking = engine.rank({ context: new Map(), text: 'flight', filter: [] });
    // flights: in its queries and capability; hotels: a capability; notes: the description only.
    expect(ids(ranking.positions)).toEqual(['flights', 'hotels', 'notes']);
    expect(ranking.scores[0]).toBe(100);
    expect([...ranking.scores].every((s) => Number.isInteger(s) && s >= 0 && s <= 100)).toBe(true);
    expect(ranking.scores[1]).toBeGreaterThan(ranking.scores[2]!);
    // Kept from the second ranking of the same query on (registry-rank-cache.test.ts), then given again.
    const kept = engine.rank({ context: new Map(), text: 'flight', filter: [] });
    expect(kept).toEqual(ranking);
    expect(engine.rank({ context: new Map(), text: 'flight', filter: [] })).toBe(kept);
  });

  it('breaks ties of equal scores by identifier', async () => {
    await ready;
    const twins = await buildCatalog(
      ['zeta', 'alpha', 'mid'].map((n) => ({
        entry: entry(n, { description: 'same words here' }),
        verified: true,
      })),
    );
    const ranking = new QueryEngine(twins).rank({ context: new Map(), text: 'words', filter: [] });
    expect([...ranking.positions].map((p) => twins.entries[p]!.identifier.split(':').pop())).toEqual([
      'alpha',
      'mid',
      'zeta',
    ]);
    expect([...ranking.scores]).toEqual([100, 100, 100]);
  });

  it('filters: values OR, keys AND, booleans and numbers by their JSON text', async () => {
    await ready;
    const engine = new QueryEngine(catalog);
    const list = (filter: Array<{ key: string; values: string[] }>, context = new Map<string, string>()) =>
      ids(engine.list({ context, filter }));
    expect(list([{ key: 'ram:actsAsEndUser', values: ['false'] }])).toEqual(['notes']);
    expect(list([{ key: 'ram:thirdPartyResourceCount', values: ['0', '1'] }])).toEqual(['flights', 'notes']);
    expect(
      list([
        { key: 'tags', values: ['travel'] },
        { key: 'ram:owners', values: ['THIRD_PARTY'] },
      ]),
    ).toEqual(['flights']);
    expect(list([{ key: 'x:owners', values: ['THIRD_PARTY'] }])).toEqual(['hotels']);
    expect(list([{ key: 'trustManifest.attestations.type', values: ['SOC2-Type2'] }])).toEqual(['flights']);
    expect(list([{ key: 'publisher', values: ['b.example.org'] }])).toEqual(['weather']);
    expect(list([{ key: 'metadata.region', values: ['us-east'] }])).toEqual(['weather']);
    expect(list([{ key: 'okf:zone', values: ['x'] }], new Map([['okf', 'https://okf.example/#']]))).toEqual(
      [],
    );
    expect(list([])).toEqual(['flights', 'hotels', 'notes', 'weather']);
    const filtered = engine.rank({
      context: new Map(),
      text: 'flight',
      filter: [{ key: 'ram:actsAsEndUser', values: ['false'] }],
    });
    expect(ids(filtered.positions)).toEqual(['notes']);
    expect(filtered.scores[0]).toBe(100);
  });

  it('counts facets over the matching entries, with limit and otherCount', async () => {
    await ready;
    const engine = new QueryEngine(catalog);
    const facets = engine.facets({ context: new Map(), filter: [] }, [
      { field: 'tags', limit: 2 },
      { field: 'publisher', limit: 10 },
      { field: 'type', limit: 1 },
      { field: 'ram:owners', limit: 10 },
    ]);
    expect(facets.tags).toEqual({
      buckets: [
        { value: 'travel', count: 2 },
        { value: 'booking', count: 1 },
      ],
      otherCount: 2,
    });
    expect(facets.publisher).toEqual({
      buckets: [
        { value: 'a.example.com', count: 3 },
        { value: 'b.example.org', count: 1 },
      ],
      otherCount: 0,
    });
    expect(facets.type).toEqual({
      buckets: [{ value: 'application/a2a-agent-card+json', count: 3 }],
      otherCount: 1,
    });
    expect(facets['ram:owners']).toEqual({
      buckets: [
        { value: 'CONSUMER', count: 2 },
        { value: 'THIRD_PARTY', count: 1 },
      ],
      otherCount: 0,
    });
    const travel = engine.facets(
      { context: new Map(), text: 'flight', filter: [{ key: 'tags', values: ['travel'] }] },
      [{ field: 'displayName', limit: 10 }],
    );
    expect(travel.displayName!.buckets.map((b) => b.value).sort()).toEqual(['flights agent', 'hotels agent']);
  });

  it('counts a text query over every entry it matches, beyond the ranked ones (MAX_RANKED)', async () => {
    const many = await buildCatalog(
      Array.from({ length: MAX_RANKED + 5 }, (_, i) => ({
        entry: entry(`agent-${i}`, { description: 'Books a flight.', tags: [i % 2 === 0 ? 'even' : 'odd'] }),
        verified: true,
      })),
    );
    const engine = new QueryEngine(many);
    const query = { context: new Map(), text: 'flight', filter: [] };
    expect(engine.rank(query).positions).toHaveLength(MAX_RANKED);
    expect(engine.facets(query, [{ field: 'tags', limit: 10 }]).tags).toEqual({
      buckets: [
        { value: 'even', count: (MAX_RANKED + 6) / 2 },
        { value: 'odd', count: (MAX_RANKED + 4) / 2 },
      ],
      otherCount: 0,
    });
  });
});
