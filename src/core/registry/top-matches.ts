/**
 * The selection step of a ranking (text-index.ts `rankText`): out of the documents a query reached, with
 * their summed weights, the best ones, best first, equal sums by position, without sorting every match:
 * the best `capacity` with a bounded min-heap (Cormen et al., "Introduction to Algorithms", §6.5, the
 * worst kept at the root), or the leading matches a page needs ({@link TopCut}).
 */

/**
 * The leading part of a ranking that a query needs (a page asks for its offset plus its size): what
 * text-index.ts `rankText` returns with it is an exact prefix of the whole ranking, at least `want` long, and
 * ending where the caller's ties end, so that a caller ordering tied matches again (search.ts orders
 * equal 0–100 scores by position) reorders a whole run of ties, never part of one.
 */
export interface TopCut {
  /** Leading matches wanted (1 or more). */
  want: number;
  /**
   * Whether a match of sum `score`, below the `want`-th match's sum `kth`, still ties with it for the
   * caller when the best sum is `best`; must be monotonic (true for a score implies true for every
   * higher score).
   */
  tiesWith: (score: number, kth: number, best: number) => boolean;
  /** A sum below which no match ties with the `want`-th (`tiesWith` is asked only from it up). */
  tieFloor: (kth: number, best: number) => number;
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
 * slots.
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
 * The leading matches `top` asks for (see {@link TopCut}), best first: the best `top.want` by sum, and
 * every other match whose sum is at least the `top.want`-th's or ties with it. `undefined` when those
 * are more than `heap.length` (the whole ranking's length): the caller ranks the whole list then, which
 * cuts such a run of ties where the whole ranking cuts it.
 */
export function leadingMatches(
  sums: Float64Array,
  touched: Int32Array,
  count: number,
  heap: Int32Array,
  top: TopCut,
): Int32Array | undefined {
  const best = bestMatches(sums, touched, count, heap, Math.max(1, top.want));
  const kth = sums[best[best.length - 1]!]!;
  const first = sums[best[0]!]!;
  const kept: number[] = [];
  const tieFloor = top.tieFloor(kth, first);
  for (let t = 0; t < count; t++) {
    const p = touched[t]!;
    const s = sums[p]!;
    if (s < tieFloor) continue;
    if (s >= kth || top.tiesWith(s, kth, first)) {
      if (kept.length === heap.length) return undefined;
      kept.push(p);
    }
  }
  return Int32Array.from(kept).sort((a, b) => sums[b]! - sums[a]! || a - b);
}
