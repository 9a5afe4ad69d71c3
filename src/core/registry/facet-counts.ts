/**
 * Facet counts of `/explore` (ARD draft §4.2.3.2): how many of a set of catalog entries carry each value
 * of an indexed term path. Counted from the Orama documents of the catalog (catalog.ts: every term path
 * is one `enum[]` property, present on every document), the way Orama's own facet step counts `enum[]`
 * values: a value repeated within one entry counts once.
 */
import { getByID } from '@orama/orama';
import type { Catalog } from './catalog.js';

/**
 * Per Orama property (`p0`, `p1`, … of catalog.ts `props`) in `props`: value → the number of entries at
 * `positions` that carry it. Properties no entry at `positions` carries map to an empty map.
 */
export function countFacetValues(
  catalog: Catalog,
  positions: Iterable<number>,
  props: readonly string[],
): Map<string, Map<string, number>> {
  const counts = new Map(props.map((prop) => [prop, new Map<string, number>()]));
  for (const position of positions) {
    const doc = getByID(catalog.db, String(position)) as Record<string, unknown> | undefined;
    if (!doc) continue;
    for (const [prop, values] of counts) {
      const held = doc[prop];
      if (!Array.isArray(held)) continue;
      for (const value of new Set(held.map(String))) values.set(value, (values.get(value) ?? 0) + 1);
    }
  }
  return counts;
}
