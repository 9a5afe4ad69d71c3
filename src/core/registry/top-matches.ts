/**
 * The selection step of a ranking (text-index.ts `rankText`): out of the documents a query reached, with
 * their summed weights, the best ones, best first, equal sums by position, without sorting every match:
 * the best `capacity` with a bounded min-heap (Cormen et al., "Introduction to Algorithms", §6.5, the
 * worst kept at the root), or the leading matches a page needs ({@link TopCut}).
 */

/**
 * The leading part of a ranking that a query needs (a page asks for its offset plus its size). The
 * caller gives each sum a tie group (search.ts: the 0–100 score relative to the best sum) and orders the
 * matches of one group by position; what text-index.ts `rankText` returns with a cut, once so ordered, is
 * the first entries of the whole ranking so ordered, at least `want` of them.
 */
export interface TopCut {
  /** Leading matches wanted (1 or more). */
  want: number;
  /** The tie group of a sum `score` when the best sum is `best`: never lower for a higher score. */
  group: (score: number, best: number) => number;
  /** A sum below which no score is in group `group` or a higher one (a lower bound, for speed). */
  groupFloor: (group: number, best: number) => number;
}

/** True when position `a` ranks below `b` (lower sum, or equal sum and later position). */
function worse(sums: Float64Array, a: number, b: number): boolean {
  const sa = sums[a]!;
  const sb = sums[b]!;
  return sa < sb || (sa === sb && a > b);
}

/** Restores the min-heap (worst at the root) from `i` down. */
function siftDown(heap: Int32Array, length: number, sums: Float64Array, i: number): void {
  for (;;) {
    const left = 2 * i + 1;
    if (left >= length) return;
    const right = left + 1;
    let child = left;
    if (right < length && worse(sums, heap[right]!, heap[left]!)) child = right;
    if (!worse(sums, heap[child]!, heap[i]!)) return;
    const tmp = heap[i]!;
    heap[i] = heap[child]!;
    heap[child] = tmp;
    i = child;
  }
}

/**
 * The best `capacity` of the `count` positions in `touched` by their `sums`, best first (equal sums by
 * position), chosen with a bounded min-heap (the worst kept at the root) in `heap`'s first `capacity`
 * slots (`capacity` at most `heap.length`); a new Int32Array of min(`count`, `capacity`) positions.
 */
export function bestMatches(
  sums: Float64Array,
  touched: Int32Array,
  count: number,
  heap: Int32Array,
  capacity: number,
): Int32Array {
  let length = 0;
  // Once the heap is full, a match below the worst kept one (most of them) is passed over at once.
  let floor = -Infinity;
  for (let t = 0; t < count; t++) {
    const p = touched[t]!;
    if (length < capacity) {
      heap[length] = p;
      let i = length++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!worse(sums, heap[i]!, heap[parent]!)) break;
        const tmp = heap[i]!;
        heap[i] = heap[parent]!;
        heap[parent] = tmp;
        i = parent;
      }
      if (length === capacity) floor = sums[heap[0]!]!;
    } else if (sums[p]! >= floor && worse(sums, heap[0]!, p)) {
      heap[0] = p;
      siftDown(heap, length, sums, 0);
      floor = sums[heap[0]!]!;
    }
  }
  const ranked = new Int32Array(length);
  for (let i = length - 1; i >= 0; i--) {
    ranked[i] = heap[0]!;
    heap[0] = heap[i]!;
    siftDown(heap, i, sums, 0);
  }
  return ranked;
}

/**
 * Moves the best `k` of `items` (by sum, equal sums by position) to its first `k` slots, in no order
 * (Hoare's quickselect, C. A. R. Hoare, "Algorithm 65: Find", CACM 4(7), 1961, with the middle element as
 * pivot). `k` is in 1..items.length.
 */
function selectBest(items: Int32Array, k: number, sums: Float64Array): void {
  let lo = 0;
  let hi = items.length - 1;
  while (lo < hi) {
    const pivot = items[(lo + hi) >>> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (worse(sums, pivot, items[i]!)) i++;
      while (worse(sums, items[j]!, pivot)) j--;
      if (i <= j) {
        const tmp = items[i]!;
        items[i++] = items[j]!;
        items[j--] = tmp;
      }
    }
    if (k - 1 <= j) hi = j;
    else if (k - 1 >= i) lo = i;
    else return;
  }
}

/**
 * The leading matches `top` asks for (see {@link TopCut}), best first. The `top.want`-th best sum's
 * group reaches down to some sum; every match from there up is a candidate. When they fit in the whole
 * ranking (`heap.length` matches), they are all of its matches in those groups, returned by sum. When
 * they do not, the whole ranking ends inside the `top.want`-th's group (it keeps the best `heap.length`
 * by sum): the matches of the higher groups come first, then the first of that group's kept matches by
 * position, as many as `top.want` asks. `heap` is scratch (its length is the whole ranking's), and the
 * first `count` slots of `touched` are reordered (the same positions); `top.want` is below
 * `Math.min(count, heap.length)`.
 */
export function leadingMatches(
  sums: Float64Array,
  touched: Int32Array,
  count: number,
  heap: Int32Array,
  top: TopCut,
): Int32Array {
  const leading = bestMatches(sums, touched, count, heap, Math.max(1, top.want));
  const best = sums[leading[0]!]!;
  const group = top.group(sums[leading[leading.length - 1]!]!, best);
  const floor = top.groupFloor(group, best);
  // The candidates are moved to the front of `touched` (its order does not matter to the caller): no
  // array is made per query for them.
  let n = 0;
  for (let t = 0; t < count; t++) {
    const p = touched[t]!;
    const s = sums[p]!;
    if (s >= floor && top.group(s, best) >= group) {
      touched[t] = touched[n]!;
      touched[n++] = p;
    }
  }
  const capacity = heap.length;
  const candidates = touched.subarray(0, n);
  if (n <= capacity) return candidates.slice().sort((a, b) => sums[b]! - sums[a]! || a - b);
  selectBest(candidates, capacity, sums);
  // The kept matches of the higher groups, and those of the tied group in `heap` (free again), by position.
  const higher: number[] = [];
  let tied = 0;
  for (let i = 0; i < capacity; i++) {
    const p = candidates[i]!;
    if (top.group(sums[p]!, best) > group) higher.push(p);
    else heap[tied++] = p;
  }
  higher.sort((a, b) => sums[b]! - sums[a]! || a - b);
  const first = heap
    .subarray(0, tied)
    .sort()
    .subarray(0, Math.max(0, top.want - higher.length));
  const out = new Int32Array(higher.length + first.length);
  out.set(higher);
  out.set(first, higher.length);
  return out;
}
