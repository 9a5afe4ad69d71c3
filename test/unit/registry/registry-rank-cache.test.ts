/**
 * The rankings cache of the query engine (src/core/registry/search.ts `QueryEngine.rank`): a ranking is
 * kept from the second time its query is ranked, so a text asked once leaves nothing behind; the kept
 * ranking is the same as the one computed.
 */
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../../src/core/registry/catalog.js';
import type { QueryModel } from '../../../src/core/registry/query.js';
import { QueryEngine } from '../../../src/core/registry/search.js';
import { syntheticEntries } from '../../helpers/synthetic-entries.js';

const query = (text: string): QueryModel & { text: string } => ({ context: new Map(), text, filter: [] });

describe('QueryEngine.rank keeps a ranking from its second request', () => {
  it('ranks a query asked once without keeping it, keeps it the second time, gives the kept one after', async () => {
    const catalog = await buildCatalog(syntheticEntries(40).map((entry) => ({ entry, verified: true })));
    const engine = new QueryEngine(catalog);
    const first = engine.rank(query('plan my week number 7'));
    expect([engine.ranked, engine.rankingsKept]).toEqual([1, 0]);
    engine.rank(query('summarise topic 12'));
    expect([engine.ranked, engine.rankingsKept]).toEqual([2, 0]);
    const second = engine.rank(query('plan my week number 7'));
    expect(second).not.toBe(first);
    expect(second).toEqual(first);
    expect([engine.ranked, engine.rankingsKept]).toEqual([3, 1]);
    const third = engine.rank(query('plan my week number 7'));
    expect(third).toBe(second);
    expect([engine.ranked, engine.rankingsKept]).toEqual([3, 1]);
    expect(first.positions.length).toBeGreaterThan(0);
  });
});
