/**
 * The `GET /agents` list's own conditions and order (ARD draft §4.2.4; ard-spec v0.91's `listAgents`
 * `filter` and `orderBy`): `displayName` and `updatedAt` conditions over the positions the filter kept,
 * then the order of the `orderBy` terms, positions breaking ties.
 */
import type { Catalog } from './catalog.js';
import type { OrderKey, OrderTerm } from './list-filter.js';
import type { ListRequest } from './query.js';

/** What a `GET /agents` request adds to its filter clauses (query.ts `ListRequest`). */
export type ListRefinement = Pick<ListRequest, 'expression' | 'orderBy'>;

/** Versions and other keys compare with their numbers as numbers ("1.10.0" after "1.9.0"). */
const NATURAL = new Intl.Collator('en', { numeric: true });

/** The value `key` sorts an entry by; undefined sorts last in either direction. */
function orderValue(e: Catalog['entries'][number], key: OrderKey): string | number | undefined {
  if (key === 'identifier') return e.identifier;
  if (key === 'publisher') return e.publisher || undefined;
  const value = e.entry[key];
  if (typeof value !== 'string') return undefined;
  if (key === 'updatedAt') {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? undefined : ms;
  }
  return key === 'displayName' ? value.toLowerCase() : value;
}

function compareValues(a: string | number, b: string | number): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return NATURAL.compare(String(a), String(b)) || (a < b ? -1 : a > b ? 1 : 0);
}

/** Applies the `displayName` and `updatedAfter` conditions, then `orderBy` (positions break ties). */
export function refineList(catalog: Catalog, positions: Int32Array, refine: ListRefinement): Int32Array {
  const { displayNames, updatedAfter } = refine.expression;
  let kept = positions;
  if (displayNames.length > 0 || updatedAfter.length > 0) {
    kept = positions.filter((p) => {
      const entry = catalog.entries[p]!.entry;
      const name = typeof entry.displayName === 'string' ? entry.displayName.toLowerCase() : undefined;
      if (displayNames.some((names) => name === undefined || !names.includes(name))) return false;
      if (updatedAfter.length === 0) return true;
      const updated = typeof entry.updatedAt === 'string' ? Date.parse(entry.updatedAt) : NaN;
      return !Number.isNaN(updated) && updatedAfter.every((bound) => updated > bound);
    });
  }
  if (refine.orderBy.length === 0) return kept;
  const terms: readonly OrderTerm[] = refine.orderBy;
  const keys = terms.map((t) => new Map([...kept].map((p) => [p, orderValue(catalog.entries[p]!, t.key)])));
  return Int32Array.from(kept).sort((a, b) => {
    for (let k = 0; k < terms.length; k++) {
      const va = keys[k]!.get(a);
      const vb = keys[k]!.get(b);
      if (va === vb) continue;
      if (va === undefined) return 1;
      if (vb === undefined) return -1;
      const c = compareValues(va, vb);
      if (c !== 0) return terms[k]!.descending ? -c : c;
    }
    return a - b;
  });
}
