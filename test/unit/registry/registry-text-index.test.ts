/**
 * `/search`'s inverted index (src/core/registry/text-index.ts): it ranks as Orama's own search ranks the
 * same index (the same BM25 sums, the same order), bounds the work of a query, and finds a filter's
 * matches only.
 */
import { describe, expect, it } from 'vitest';
import { WORST_CASE_WORDS } from '../../../bench/synthetic.js';
import { buildCatalog, type Catalog } from '../../../src/core/registry/catalog.js';
import { QueryEngine } from '../../../src/core/registry/search.js';
import {
  MAX_RANKED,
  POSTINGS_BUDGET,
  PREFIX_WEIGHT,
  rankText,
  type TextQueryReport,
} from '../../../src/core/registry/text-index.js';
import { oramaRank } from '../../helpers/orama-rank.js';
import { syntheticEntries } from '../../helpers/synthetic-entries.js';

/** The ranking of `/search`, prefix matches weighing what Orama gives them (1) unless `prefixWeight`. */
const rank = (
  catalog: Catalog,
  text: string,
  filter: Array<{ key: string; values: string[] }> = [],
  prefixWeight = 1,
) => {
  const r = new QueryEngine(catalog, 1, prefixWeight).rank({ context: new Map(), text, filter });
  return { positions: [...r.positions], scores: [...r.scores] };
};

const ORDINARY = [
  'plan my week number 17',
  'can you search everything about topic 40',
  'summarise for agent 123',
  'agent 4321',
  'book a flight to Tokyo next Monday',
];

describe('inverted index of /search', () => {
  it('ranks every match exactly as Orama’s own search does, when prefix matches weigh as much', async () => {
    const inputs = syntheticEntries(300).map((entry) => ({ entry, verified: true }));
    const stock = await buildCatalog(inputs, { search: false, keepOrama: true });
    const catalog = await buildCatalog(inputs, { keepOrama: true });
    for (const text of [...ORDINARY, WORST_CASE_WORDS.join(' '), 'synthetic', '1 2 3', 'nothingmatches']) {
      expect(rank(catalog, text), text).toEqual(oramaRank(stock, text));
    }
  });

  it('bounds the work of the worst query and keeps the ordinary queries’ best results (5,000 entries)', async () => {
    const inputs = syntheticEntries(5_000).map((entry) => ({ entry, verified: true }));
    const stock = await buildCatalog(inputs, { search: false, keepOrama: true });
    const catalog = await buildCatalog(inputs, { keepOrama: true });
    for (const text of [WORST_CASE_WORDS.join(' '), 'synthetic', '1 2 3 4 5 6 7 8 9', 'agent 1 11 111']) {
      const reports: TextQueryReport[] = [];
      const found = rankText(catalog.text, catalog.tokenize(text), undefined, (r) => reports.push(r), 1);
      expect(reports, text).toHaveLength(1);
      expect(reports[0]!.postings, text).toBeLessThanOrEqual(POSTINGS_BUDGET);
      expect(found.positions.length, text).toBeGreaterThan(0);
      expect(found.positions.length, text).toBeLessThanOrEqual(MAX_RANKED);
      // Best first, equal sums by position.
      for (let i = 1; i < found.positions.length; i++) {
        const [a, b] = [found.scores[i - 1]!, found.scores[i]!];
        expect(a > b || (a === b && found.positions[i - 1]! < found.positions[i]!), text).toBe(true);
      }
    }
    for (const text of [...ORDINARY, WORST_CASE_WORDS.join(' ')]) {
      const a = oramaRank(stock, text);
      const b = rank(catalog, text);
      expect(b.positions.slice(0, 10), text).toEqual(a.positions.slice(0, 10));
      expect(b.scores.slice(0, 10), text).toEqual(a.scores.slice(0, 10));
    }
  }, 120_000);

  it('ranks only the entries the filter admits, as Orama’s search with the same where', async () => {
    const entries = syntheticEntries(200).map((entry, i) => ({
      ...entry,
      type: i % 3 === 0 ? 'application/mcp-server+json' : 'application/a2a-agent-card+json',
    }));
    const catalog = await buildCatalog(entries.map((entry) => ({ entry, verified: true })));
    const filter = [{ key: 'type', values: ['application/mcp-server+json'] }];
    const ranked = rank(catalog, 'plan my week number 17', filter);
    expect(ranked.positions.length).toBeGreaterThan(0);
    for (const p of ranked.positions)
      expect(catalog.entries[p]!.entry.type).toBe('application/mcp-server+json');
    const all = rank(catalog, 'plan my week number 17');
    const expected = all.positions.filter(
      (p) => catalog.entries[p]!.entry.type === 'application/mcp-server+json',
    );
    expect(new Set(ranked.positions)).toEqual(new Set(expected));
  });

  it('weighs a word a query word only begins at PREFIX_WEIGHT, the word itself at 1', async () => {
    const catalog = await buildCatalog(
      [
        { description: 'bus stops', name: 'plain' },
        { description: 'busstops', name: 'joined' },
      ].map((e, i) => ({
        entry: {
          identifier: `urn:air:a.example.com:agents:${e.name}`,
          displayName: `Agent ${i}`,
          type: 'application/a2a-agent-card+json',
          url: `https://a.example.com/${e.name}.json`,
          description: e.description,
        },
        verified: true,
      })),
    );
    const exact = rankText(catalog.text, ['bus'], undefined, undefined, 1);
    const weighted = rankText(catalog.text, ['bus'], undefined, undefined, PREFIX_WEIGHT);
    const joined = catalog.entries.findIndex((e) => e.identifier.endsWith(':joined'));
    const at = (r: { positions: Int32Array; scores: Float64Array }) =>
      r.scores[[...r.positions].indexOf(joined)]!;
    expect(PREFIX_WEIGHT).toBeLessThan(1);
    expect(at(weighted)).toBeCloseTo(at(exact) * PREFIX_WEIGHT, 12);
  });
});
