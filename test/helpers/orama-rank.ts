/**
 * `/search`'s ranking as Orama's own search gives it (the registry's ranking before its inverted index,
 * src/core/registry/text-index.ts): every match of `text` over the text properties with the registry's
 * boosts, `score` 0–100 relative to the best, equal scores by position.
 */
import { TEXT_BOOSTS, TEXT_FIELDS, runSearch, type Catalog } from '../../src/core/registry/catalog.js';

/** Positions and 0–100 scores of every match of `text`, best first, as Orama's own search ranks them. */
export function oramaRank(catalog: Catalog, text: string): { positions: number[]; scores: number[] } {
  const hits = runSearch(catalog, {
    term: text,
    properties: TEXT_FIELDS,
    boost: TEXT_BOOSTS,
    threshold: 1,
    limit: catalog.entries.length,
    includeVectors: true,
  }).hits;
  const best = hits.reduce((max, hit) => Math.max(max, hit.score), 0);
  const order = hits
    .map((hit) => ({
      position: Number(hit.id),
      score: best > 0 && hit.score > 0 ? Math.min(100, Math.round((100 * hit.score) / best)) : 0,
    }))
    .sort((a, b) => b.score - a.score || a.position - b.position);
  return { positions: order.map((o) => o.position), scores: order.map((o) => o.score) };
}
