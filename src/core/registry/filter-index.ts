/**
 * The filter and facet index of the registry's catalog (ARD draft §4.2.1 filters, §4.2.3.2 facets): per
 * indexed term path (catalog.ts `props`: `p0`, `p1`, …), each value → the catalog positions of the
 * entries that carry it, ascending, in typed arrays.
 *
 * It answers what the catalog's Orama database answered before, with the same results: a `where` clause
 * of catalog.ts `whereOf` (`{ prop: { containsAny: [...] } }` leaves, `and` / `or` lists) admits the
 * positions Orama 3.1's `searchByWhereClause` admits over `enum[]` properties (a leaf: the union of its
 * values' sets, values compared exactly; several properties in one leaf, `and`: the intersection; `or`:
 * the union; an empty `and` or `or`: nothing), and {@link countFacetValues} counts what Orama's stored
 * documents held. So the server can let the Orama database go once its text statistics are read into
 * the inverted index (text-index.ts): it is most of the index's heap, which every garbage collection
 * of a serving process would otherwise mark again.
 */

/**
 * The entries carrying one value: their catalog positions, ascending, or the one position as a number
 * (most values of the paths every entry has, such as `identifier` and `url`, are one entry's: a typed
 * array each would cost more than the positions).
 */
export type Holders = Int32Array | number;

/** Property → value → the entries carrying the value ({@link Holders}). */
export type FilterIndex = ReadonlyMap<string, ReadonlyMap<string, Holders>>;

/**
 * Builds the index from the term values of each entry: `values[position]` maps an expanded term path to
 * the values the entry has at it; `props` maps a term path to its property name (paths not in `props`
 * are left out, as catalog.ts leaves them out of Orama's schema). Every property of `props` is present,
 * with no values when no entry has the path.
 */
export function buildFilterIndex(
  values: ReadonlyArray<ReadonlyMap<string, ReadonlySet<string>>>,
  props: ReadonlyMap<string, string>,
): FilterIndex {
  const lists = new Map<string, Map<string, number[]>>();
  for (const prop of props.values()) lists.set(prop, new Map());
  values.forEach((byPath, position) => {
    for (const [path, set] of byPath) {
      const prop = props.get(path);
      if (prop === undefined) continue;
      const byValue = lists.get(prop)!;
      for (const value of set) {
        const list = byValue.get(value);
        if (list) list.push(position);
        else byValue.set(value, [position]);
      }
    }
  });
  const index = new Map<string, Map<string, Holders>>();
  for (const [prop, byValue] of lists) {
    // Positions are pushed in ascending order (one pass over the entries), once per entry (a set).
    const holders = new Map<string, Holders>();
    for (const [value, list] of byValue)
      holders.set(value, list.length === 1 ? list[0]! : Int32Array.from(list));
    index.set(prop, holders);
  }
  return index;
}

/** Marks every position of `holders` in `marks`. */
function markAll(marks: Uint8Array, holders: Holders): void {
  if (typeof holders === 'number') marks[holders] = 1;
  else for (let i = 0; i < holders.length; i++) marks[holders[i]!] = 1;
}

/** Keeps in `into` only the positions also marked in `other`. */
function intersect(into: Uint8Array, other: Uint8Array): void {
  for (let p = 0; p < into.length; p++) if (other[p] === 0) into[p] = 0;
}

/**
 * The positions a `where` clause admits, as one mark per position (1: admitted) over `size` positions.
 * @throws Error for a property the index does not hold or an operation other than `containsAny` (catalog.ts
 *   never makes either).
 */
export function whereMarks(
  index: FilterIndex,
  size: number,
  where: Readonly<Record<string, unknown>>,
): Uint8Array {
  const marks = new Uint8Array(size);
  if (Array.isArray(where.and)) {
    const parts = where.and as ReadonlyArray<Record<string, unknown>>;
    if (parts.length === 0) return marks;
    marks.set(whereMarks(index, size, parts[0]!));
    for (const part of parts.slice(1)) intersect(marks, whereMarks(index, size, part));
    return marks;
  }
  if (Array.isArray(where.or)) {
    for (const part of where.or as ReadonlyArray<Record<string, unknown>>) {
      const admitted = whereMarks(index, size, part);
      for (let p = 0; p < size; p++) marks[p]! |= admitted[p]!;
    }
    return marks;
  }
  const keys = Object.keys(where);
  keys.forEach((prop, k) => {
    const byValue = index.get(prop);
    if (byValue === undefined) throw new Error(`the filter index holds no property ${prop}`);
    const operation = where[prop] as { containsAny?: readonly string[] } | undefined;
    if (!operation || !Array.isArray(operation.containsAny) || Object.keys(operation).length !== 1)
      throw new Error(`unsupported filter operation on ${prop}`);
    const leaf = k === 0 ? marks : new Uint8Array(size);
    for (const value of operation.containsAny) {
      const holders = byValue.get(value);
      // Position 0 is a number too: compare with undefined, not by truth.
      if (holders !== undefined) markAll(leaf, holders);
    }
    if (k > 0) intersect(marks, leaf);
  });
  return marks;
}

/**
 * Per property of `props`: value → the number of entries at `positions` that carry it (a value counts
 * once per entry). Values no entry at `positions` carries are left out; a property none of them carries
 * maps to an empty map. Positions must be below `size`.
 */
export function countFacetValues(
  index: FilterIndex,
  size: number,
  positions: Iterable<number>,
  props: readonly string[],
): Map<string, Map<string, number>> {
  const marks = new Uint8Array(size);
  for (const p of positions) marks[p] = 1;
  const counts = new Map<string, Map<string, number>>();
  for (const prop of props) {
    const found = new Map<string, number>();
    for (const [value, holders] of index.get(prop) ?? []) {
      let count = 0;
      if (typeof holders === 'number') count = marks[holders]!;
      else for (let i = 0; i < holders.length; i++) count += marks[holders[i]!]!;
      if (count > 0) found.set(value, count);
    }
    counts.set(prop, found);
  }
  return counts;
}
