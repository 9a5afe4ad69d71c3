/**
 * Golden queries of `/search` (ARD draft §4.2.2) over hand-written entries (test/fixtures/registry-golden):
 * each question ranks its entry first. `representativeQueries` are the primary signal (ARD draft §3.2.2):
 * "when is my next bus" finds the trip planner that lists it before an MCP server whose other members
 * say "bus" many times.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../../src/core/registry/catalog.js';
import { QueryEngine } from '../../../src/core/registry/search.js';

const dir = new URL('../../fixtures/registry-golden/', import.meta.url);
const entries = JSON.parse(readFileSync(new URL('entries.json', dir), 'utf8')) as Array<
  Record<string, unknown>
>;
const queries = JSON.parse(readFileSync(new URL('queries.json', dir), 'utf8')) as Array<{
  text: string;
  top: string;
}>;

describe('golden queries of /search', async () => {
  const catalog = await buildCatalog(entries.map((entry) => ({ entry, verified: true })));
  const engine = new QueryEngine(catalog, 1);
  it.each(queries)('"$text" ranks $top first', ({ text, top }) => {
    const ranking = engine.rank({ context: new Map(), text, filter: [] });
    const ranked = [...ranking.positions].map((p) => catalog.entries[p]!.identifier);
    expect(ranked[0], `ranking: ${ranked.join(', ')}; scores ${[...ranking.scores].join(', ')}`).toBe(top);
  });
});
