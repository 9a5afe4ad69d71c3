/**
 * The `GET /agents` list's own conditions and order (ARD draft §4.2.4; ard-spec v0.91's `listAgents`
 * `filter` and `orderBy`): `displayName` and `updatedAt` conditions over the positions the filter kept,
 * then the order of the `orderBy` terms, positions breaking ties.
 *
 * The order of the whole catalog by each key is computed once, at its first use, and kept beside the
 * catalog (it is derived from the entries alone): a rank per position, equal values sharing one. Ordering
 * a list is then a sort of positions by small integers, not a comparison of strings by a collator
 * (a 10,000-entry list took about 12 ms of CPU per request that way, 0.9 ms by the ranks: BENCHMARKS.md).
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

/** A position's rank when its entry has no value for the key: it sorts last in either direction. */
export const NO_VALUE = -1;

const ranksByCatalog = new WeakMap<Catalog, Map<OrderKey, Int32Array>>();

/**
 * The rank of every catalog position by `key`, ascending (Int32Array, one per position): 0 for the lowest
 * value, equal values one rank, {@link NO_VALUE} for an entry without one. Values compare as
 * {@link compareValues} does: numbers as numbers, strings by a numeric-aware collation, then by code unit.
 * Computed at the first call for a catalog and key, then kept with the catalog.
 */
export function orderRanks(catalog: Catalog, key: OrderKey): Int32Array {
  let byKey = ranksByCatalog.get(catalog);
  if (!byKey) ranksByCatalog.set(catalog, (byKey = new Map()));
  const kept = byKey.get(key);
  if (kept) return kept;
  const values = catalog.entries.map((e) => orderValue(e, key));
  const ranks = new Int32Array(values.length).fill(NO_VALUE);
  const order: number[] = [];
  values.forEach((value, p) => {
    if (value !== undefined) order.push(p);
  });
  order.sort((a, b) => compareValues(values[a]!, values[b]!));
  let rank = -1;
  order.forEach((p, i) => {
    if (i === 0 || values[p] !== values[order[i - 1]!]) rank++;
    ranks[p] = rank;
  });
  byKey.set(key, ranks);
  return ranks;
}

/**
 * The `GET /agents` list of ARD draft §4.2.4 (ard-spec v0.91 `listAgents`) after its own conditions:
 * `positions` (catalog positions the filter kept, ascending) less those failing the `displayName` and
 * `updatedAfter` conditions of `refine.expression`, then in `refine.orderBy` order by {@link orderRanks},
 * equal ranks by position. A new Int32Array when it filters or orders, else `positions` itself. Throws
 * nothing: the terms were checked when the request was read (list-filter.ts).
 */
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
  const ranks = terms.map((t) => orderRanks(catalog, t.key));
  return Int32Array.from(kept).sort((a, b) => {
    for (let k = 0; k < terms.length; k++) {
      const ra = ranks[k]![a]!;
      const rb = ranks[k]![b]!;
      if (ra === rb) continue;
      if (ra === NO_VALUE) return 1;
      if (rb === NO_VALUE) return -1;
      return terms[k]!.descending ? rb - ra : ra - rb;
    }
    return a - b;
  });
}
