/**
 * The full-text step of `/search` (ARD draft §4.2.2) as an inverted index with precomputed postings.
 *
 * Built once from the Orama database of the catalog, after its documents are inserted: for every word
 * Orama indexed in any text property, one posting list over catalog positions whose weight is the sum,
 * over the properties holding the word, of the property's boost times Orama's BM25 for that document
 * (Orama 3.1 `calculateResultScores`: the same term frequencies, field lengths, occurrence counts and
 * `BM25(tf, matchingCount, docsCount, fieldLength, averageFieldLength, {k, b, d})`, Robertson and
 * Zaragoza, "The Probabilistic Relevance Framework: BM25 and Beyond", §3.4, with the BM25+ delta of Lv and
 * Zhai, CIKM 2011). So a query adds, per matched word, what Orama's own search adds for each document.
 *
 * A query:
 * - its words are the tokenizer's (stemming, stop words: the tokenizer that indexed the texts), each
 *   reaching the indexed words it is a prefix of, as Orama matches, by binary search in the sorted
 *   vocabulary; at most {@link MAX_QUERY_WORDS} distinct words and {@link PREFIX_WORD_BUDGET} reached words;
 * - posting lists are summed into a dense accumulator reused by every query (no per-document array is
 *   allocated per query), the rarest lists first; a list that would take the query past
 *   {@link POSTINGS_BUDGET} postings is left out (the most common words: the lowest IDF);
 * - the best {@link MAX_RANKED} matches are kept with a bounded heap (no sort of every match), then
 *   sorted best first, ties by position; or only the leading matches a page needs (top-matches.ts).
 */
import { MIN_PREFIX_WORDS, PREFIX_WORD_BUDGET } from './bounded-index.js';
import { bestMatches, leadingMatches, type TopCut } from './top-matches.js';

export type { TopCut } from './top-matches.js';

/** Most postings one query adds up: a typed-array read and an addition each. */
export const POSTINGS_BUDGET = 1_000_000;
/** Most distinct query words looked up (after the tokenizer). */
export const MAX_QUERY_WORDS = 16;
/** Most matches one query ranks (pages end there). */
export const MAX_RANKED = 1_000;
/**
 * What an indexed word that a query word is only a prefix of weighs, against the word itself (1): the
 * weight MiniSearch gives prefix matches by default (`searchOptions.weights.prefix`, 0.375). A query
 * word reaches every longer word it begins ("bus" reaches "busstoplookup", "bustimet"); summing each at
 * full weight lets an entry that repeats a word inside longer words outrank one that says it plainly.
 */
export const PREFIX_WEIGHT = 0.375;

/** BM25 parameters (Orama's `relevance` defaults: k1 1.2, b 0.75, BM25+ delta 0.5). */
export interface Bm25Parameters {
  k: number;
  b: number;
  d: number;
}

/** Orama 3.1's default BM25 parameters. */
export const ORAMA_BM25: Bm25Parameters = { k: 1.2, b: 0.75, d: 0.5 };

/** The inverted index: a sorted vocabulary, and per word a slice of the posting arrays. */
export interface TextIndex {
  /** Indexed (tokenized, stemmed) words, sorted by code unit. */
  readonly words: readonly string[];
  /** `starts[i]`..`starts[i + 1]`: the postings of `words[i]` (length `words.length + 1`). */
  readonly starts: Int32Array;
  /** Catalog positions, ascending within each word. */
  readonly positions: Int32Array;
  /** Σ over properties of boost × BM25, per posting. */
  readonly weights: Float64Array;
  /** Number of documents (positions run 0 .. size - 1). */
  readonly size: number;
}

/** What {@link buildTextIndex} reads of one Orama text property (Orama 3.1's index data). */
export interface OramaTextProperty {
  /** Word → internal ids of the documents holding it (the radix tree's sets). */
  docs: ReadonlyMap<string, ReadonlySet<number>>;
  /** Internal id → word → normalised term frequency. */
  frequencies: Readonly<Record<number, Readonly<Record<string, number>> | undefined>>;
  /** Word → occurrence count, as Orama counts it. */
  occurrences: Readonly<Record<string, number>>;
  /** Internal id → number of tokens. */
  fieldLengths: Readonly<Record<number, number | undefined>>;
  averageFieldLength: number;
  boost: number;
}

/** BM25 as Orama 3.1 computes it (`components/algorithms.js`). */
function bm25(
  tf: number,
  matching: number,
  docs: number,
  length: number,
  average: number,
  { k, b, d }: Bm25Parameters,
): number {
  const idf = Math.log(1 + (docs - matching + 0.5) / (matching + 0.5));
  return (idf * (d + tf * (k + 1))) / (tf + k * (1 - b + (b * length) / average));
}

/**
 * Builds the index from Orama's per-property data. `positionOf(internalId)` gives the catalog position of
 * an Orama internal id; `size` the number of documents.
 * @throws Error when a posting's weight is not above 0 (Orama's statistics broke an assumption).
 */
export function buildTextIndex(
  properties: readonly OramaTextProperty[],
  size: number,
  positionOf: (internalId: number) => number,
  relevance: Bm25Parameters = ORAMA_BM25,
): TextIndex {
  const merged = new Map<string, Map<number, number>>();
  for (const prop of properties) {
    for (const [word, ids] of prop.docs) {
      const matching = typeof prop.occurrences[word] === 'number' ? prop.occurrences[word]! : 0;
      let list = merged.get(word);
      if (!list) merged.set(word, (list = new Map()));
      for (const id of ids) {
        const tf = prop.frequencies[id]?.[word] ?? 0;
        const weight =
          prop.boost *
          bm25(tf, matching, size, prop.fieldLengths[id] ?? 0, prop.averageFieldLength, relevance);
        // Orama's tokens are distinct per document, so `matching` <= `size` and the weight is above 0,
        // which rankText's accumulation relies on (a sum of 0 is a document not reached yet).
        if (!(weight > 0) || !Number.isFinite(weight))
          throw new Error(`text index: the weight of "${word}" in document ${id} is ${weight}, not above 0`);
        const position = positionOf(id);
        list.set(position, (list.get(position) ?? 0) + weight);
      }
    }
  }
  const words = [...merged.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  let total = 0;
  for (const list of merged.values()) total += list.size;
  const starts = new Int32Array(words.length + 1);
  const positions = new Int32Array(total);
  const weights = new Float64Array(total);
  let at = 0;
  words.forEach((word, i) => {
    starts[i] = at;
    const list = [...merged.get(word)!].sort((a, b) => a[0] - b[0]);
    for (const [position, weight] of list) {
      positions[at] = position;
      weights[at] = weight;
      at++;
    }
  });
  starts[words.length] = at;
  return { words, starts, positions, weights, size };
}

/** The first index in sorted `words` not below `key`. */
function lowerBound(words: readonly string[], key: string): number {
  let lo = 0;
  let hi = words.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (words[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A ranked list: catalog positions and their summed weights, best first, ties by position; `total` is
 * the number of matches the whole ranking holds (at most {@link MAX_RANKED}), which is more than
 * `positions.length` when a {@link TopCut} asked for the leading matches only.
 */
export interface TextRanking {
  positions: Int32Array;
  scores: Float64Array;
  total: number;
}

/** What one query did (for tests and the load test). */
export interface TextQueryReport {
  /** Distinct query words looked up. */
  words: number;
  /** Indexed words reached. */
  lists: number;
  /** Postings added up. */
  postings: number;
  /** Posting lists left out for the budget. */
  listsLeftOut: number;
}

/** Scratch space of an index, reused by its queries (queries run one at a time: they are synchronous). */
interface Scratch {
  sums: Float64Array;
  seen: Uint8Array;
  touched: Int32Array;
  heap: Int32Array;
}

const scratchByIndex = new WeakMap<TextIndex, Scratch>();

function scratchOf(index: TextIndex): Scratch {
  let scratch = scratchByIndex.get(index);
  if (!scratch) {
    scratch = {
      sums: new Float64Array(index.size),
      seen: new Uint8Array(index.size),
      touched: new Int32Array(index.size),
      heap: new Int32Array(Math.min(MAX_RANKED, index.size)),
    };
    scratchByIndex.set(index, scratch);
  }
  return scratch;
}

/** One posting list a query sums: the word's index in the vocabulary, and its factor (1 or the prefix weight). */
interface ReachedList {
  word: number;
  factor: number;
}

/**
 * The posting lists `tokens` reach, rarest first: each of the first {@link MAX_QUERY_WORDS} distinct
 * tokens reaches the indexed words it begins (at most the prefix reach of bounded-index.ts), the word
 * itself with factor 1, a longer word with `prefixWeight`.
 */
function reachedLists(
  index: TextIndex,
  tokens: readonly string[],
  prefixWeight: number,
): { words: number; lists: ReachedList[] } {
  const words = [...new Set(tokens)].slice(0, MAX_QUERY_WORDS);
  const reach = Math.max(MIN_PREFIX_WORDS, Math.floor(PREFIX_WORD_BUDGET / Math.max(1, words.length)));
  const lists: ReachedList[] = [];
  for (const word of words) {
    const first = lowerBound(index.words, word);
    const end = Math.min(index.words.length, first + reach);
    for (let i = first; i < end && index.words[i]!.startsWith(word); i++)
      lists.push({ word: i, factor: index.words[i] === word ? 1 : prefixWeight });
  }
  const { starts } = index;
  const sizeOf = (i: number) => starts[i + 1]! - starts[i]!;
  lists.sort((a, b) => sizeOf(a.word) - sizeOf(b.word));
  return { words: words.length, lists };
}

/**
 * The lists of {@link reachedLists} a query adds up: rarest first, leaving out each list that would take
 * it past {@link POSTINGS_BUDGET} postings. Returns the kept lists and the number left out.
 */
function withinBudget(
  index: TextIndex,
  lists: readonly ReachedList[],
): { kept: ReachedList[]; leftOut: number } {
  const kept: ReachedList[] = [];
  let postings = 0;
  let leftOut = 0;
  for (const list of lists) {
    const size = index.starts[list.word + 1]! - index.starts[list.word]!;
    if (postings + size > POSTINGS_BUDGET) {
      leftOut++;
      continue;
    }
    postings += size;
    kept.push(list);
  }
  return { kept, leftOut };
}

/**
 * Every document holding any of `tokens` (already tokenized by the indexing tokenizer), restricted to the
 * positions `allowed` marks (1) when given: the documents {@link rankText} scores for the same tokens
 * (the same words, prefix reach and postings budget), without its {@link MAX_RANKED} cut and without
 * ranking them. Positions ascending. What `/explore` counts facets over (ARD draft §4.2.3: the entries
 * the query matches).
 */
export function matchText(index: TextIndex, tokens: readonly string[], allowed?: Uint8Array): Int32Array {
  const { kept } = withinBudget(index, reachedLists(index, tokens, 1).lists);
  const { seen, touched } = scratchOf(index);
  const { starts, positions } = index;
  let count = 0;
  for (const { word } of kept) {
    for (let i = starts[word]!; i < starts[word + 1]!; i++) {
      const p = positions[i]!;
      if ((allowed !== undefined && allowed[p] === 0) || seen[p] === 1) continue;
      seen[p] = 1;
      touched[count++] = p;
    }
  }
  const matched = touched.slice(0, count).sort();
  for (const p of matched) seen[p] = 0;
  return matched;
}

/**
 * Ranks the documents holding any of `tokens` (already tokenized by the indexing tokenizer), restricted
 * to the positions `allowed` marks (1) when given: the best {@link MAX_RANKED}, best first, equal sums by
 * position; with `top`, only the leading matches it asks for (once ordered by the caller's tie groups
 * and by position, the first of that ranking so ordered: see {@link TopCut}), and `total` the length of
 * the whole ranking. `report` receives what the query did;
 * `prefixWeight` 1 sums what Orama's own search sums.
 * @throws RangeError when `prefixWeight` is not above 0.
 */
export function rankText(
  index: TextIndex,
  tokens: readonly string[],
  allowed?: Uint8Array,
  report?: (r: TextQueryReport) => void,
  prefixWeight = PREFIX_WEIGHT,
  top?: TopCut,
): TextRanking {
  if (!(prefixWeight > 0)) throw new RangeError(`prefixWeight must be above 0, not ${prefixWeight}`);
  const reached = reachedLists(index, tokens, prefixWeight);
  const { kept, leftOut } = withinBudget(index, reached.lists);
  const { sums, touched, heap } = scratchOf(index);
  const { starts, positions, weights } = index;
  let count = 0;
  let postings = 0;
  for (const { word, factor } of kept) {
    const from = starts[word]!;
    const to = starts[word + 1]!;
    postings += to - from;
    // Every weight is above 0 (BM25+ with its delta, positive boosts and factors), so a sum of 0 marks
    // a document not reached yet.
    if (allowed === undefined) {
      for (let i = from; i < to; i++) {
        const p = positions[i]!;
        const sum = sums[p]!;
        if (sum === 0) touched[count++] = p;
        sums[p] = sum + weights[i]! * factor;
      }
    } else {
      for (let i = from; i < to; i++) {
        const p = positions[i]!;
        if (allowed[p] === 0) continue;
        const sum = sums[p]!;
        if (sum === 0) touched[count++] = p;
        sums[p] = sum + weights[i]! * factor;
      }
    }
  }
  const capacity = heap.length;
  const total = Math.min(count, capacity);
  const ranked =
    top !== undefined && top.want < total
      ? leadingMatches(sums, touched, count, heap, top)
      : bestMatches(sums, touched, count, heap, capacity);
  const scores = new Float64Array(ranked.length);
  for (let i = 0; i < ranked.length; i++) scores[i] = sums[ranked[i]!]!;
  for (let t = 0; t < count; t++) sums[touched[t]!] = 0;
  report?.({ words: reached.words, lists: reached.lists.length, postings, listsLeftOut: leftOut });
  return { positions: ranked, scores, total };
}
