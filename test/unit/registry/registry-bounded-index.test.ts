/**
 * The CPU bound of one full-text query (src/core/registry/bounded-index.ts; docs/security.md, "Registry"):
 * within the budget the ranking is Orama's own, exactly; beyond it the work stops at the budget while the
 * best results stay those of Orama's own search.
 */
import { describe, expect, it } from 'vitest';
import { WORST_CASE_WORDS } from '../../../bench/synthetic.js';
import {
  MAX_RESULTS,
  POSTINGS_BUDGET,
  RESCORE_BUDGET,
  type BoundedSearchReport,
} from '../../../src/core/registry/bounded-index.js';
import { TEXT_FIELDS, buildCatalog, runSearch, type Catalog } from '../../../src/core/registry/catalog.js';
import { oramaRank as rank } from '../../helpers/orama-rank.js';
import { syntheticEntries } from '../../helpers/synthetic-entries.js';

const ORDINARY = [
  'plan my week number 17',
  'can you search everything about topic 40',
  'summarise for agent 123',
  'agent 4321',
  'book a flight to Tokyo next Monday',
];

describe('bounded full-text step', () => {
  it('ranks exactly as Orama’s own search when the query is within the budget', async () => {
    const inputs = syntheticEntries(300).map((entry) => ({ entry, verified: true }));
    const stock = await buildCatalog(inputs, { search: false, keepOrama: true });
    const bounded = await buildCatalog(inputs, { keepOrama: true });
    for (const text of [...ORDINARY, WORST_CASE_WORDS.join(' '), 'synthetic', '1 2 3']) {
      expect(rank(bounded, text), text).toEqual(rank(stock, text));
    }
  });

  it('bounds the work of the worst query (5,000 entries here; the bound does not grow with them), keeping the ordinary queries’ best results', async () => {
    const inputs = syntheticEntries(5_000).map((entry) => ({ entry, verified: true }));
    const reports: BoundedSearchReport[] = [];
    const stock = await buildCatalog(inputs, { search: false, keepOrama: true });
    const bounded = await buildCatalog(inputs, {
      search: { onSearch: (r) => reports.push(r) },
      keepOrama: true,
    });
    // The worst case: every word of the query is in every entry, most in several members. Orama's own
    // step would score 5,000 postings per (word, member), after a quadratic collection of each.
    for (const text of [WORST_CASE_WORDS.join(' '), 'synthetic', '1 2 3 4 5 6 7 8 9', 'agent 1 11 111']) {
      reports.length = 0;
      const ranking = rank(bounded, text);
      expect(reports, text).toHaveLength(1);
      const [report] = reports;
      expect(report!.cost, text).toBeLessThanOrEqual(POSTINGS_BUDGET);
      expect(report!.candidateChecks, text).toBeLessThanOrEqual(RESCORE_BUDGET);
      expect(ranking.positions.length, text).toBeGreaterThan(0);
      expect(ranking.positions.length, text).toBeLessThanOrEqual(MAX_RESULTS);
    }
    // Postings cost a typed-array read each: at 5,000 entries even the worst query is scored whole, so
    // it ranks as Orama's own search ranks it.
    expect(reports[0]!.listsLeftOut).toBe(0);
    // Ordinary queries: the same best result, and the same first ten, as Orama's unbounded search.
    for (const text of [...ORDINARY, WORST_CASE_WORDS.join(' ')]) {
      const a = rank(stock, text);
      const b = rank(bounded, text);
      expect(b.positions.slice(0, 10), text).toEqual(a.positions.slice(0, 10));
      expect(b.scores.slice(0, 10), text).toEqual(a.scores.slice(0, 10));
    }
  }, 120_000);

  it('leaves any other kind of search (a threshold below 1, exact, typo tolerance) to Orama', async () => {
    const inputs = syntheticEntries(200).map((entry) => ({ entry, verified: true }));
    const reports: BoundedSearchReport[] = [];
    const stock = await buildCatalog(inputs, { search: false, keepOrama: true });
    const bounded = await buildCatalog(inputs, {
      search: { onSearch: (r) => reports.push(r) },
      keepOrama: true,
    });
    for (const params of [
      { term: 'plan week 17', properties: TEXT_FIELDS, threshold: 0 },
      { term: 'plan week 17', properties: TEXT_FIELDS, threshold: 1, exact: true },
      { term: 'plam', properties: TEXT_FIELDS, threshold: 1, tolerance: 1 },
    ]) {
      const ids = (c: Catalog) => runSearch(c, { ...params, limit: 500 }).hits.map((h) => [h.id, h.score]);
      expect(ids(bounded)).toEqual(ids(stock));
    }
    expect(reports).toEqual([]);
  });
});
