/**
 * A bound on the CPU cost of one full-text query, as an Orama index component: Orama's
 * own index (`components.index.createIndex()`: radix trees, BM25 statistics, filters, facets), whose
 * full-text `search` step is replaced by one that does the same work within a budget.
 *
 * Why: Orama 3.1's `search` collects the documents of every indexed word a query word is a prefix of with
 * `Array.includes` per document (RadixNode.findAllWords), so a word that 10,000 entries contain costs
 * 10,000²/2 comparisons, and a query made of such words seconds of CPU (docs/benchmarks-archive.md, "Worst-case
 * query cost").
 *
 * What this step does instead, with Orama's own data and scoring:
 * - term statistics, computed once per index at the first query (the index never changes afterwards):
 *   per text property, the sorted list of indexed words and each word's document set (the radix tree's
 *   own sets, read once, never copied per query);
 * - the query's words are tokenized by Orama's tokenizer (stemming, stop words), de-duplicated and
 *   capped at {@link MAX_QUERY_TERMS}; each matches the indexed words it is a prefix of, as in Orama,
 *   found by binary search in the sorted list;
 * - first pass: every (property, word) posting list that fits is scored, the rarest query words first,
 *   within a word its exact match first, then the rarer words it prefixes: each document's BM25 weight
 *   for the word is computed once per index by Orama's `calculateResultScores` and kept in typed arrays,
 *   so a query adds weight × boost into a dense accumulator (the `where` check as Orama's); a list that
 *   would take the query over {@link POSTINGS_BUDGET} is left out. The lists left out are the most common ones: the words whose
 *   BM25 weight (IDF) is lowest;
 * - second pass: the lists left out are scored over the best {@link MAX_RESCORED} candidates of the
 *   first pass only (same function), within {@link RESCORE_BUDGET} checks, so those candidates get the
 *   score Orama's own search gives them and their order is Orama's. What the bound loses: entries that
 *   match only the query's most common words, when the query also has rarer ones.
 *
 * A query within the budget (every query of a small index, and the ordinary queries of a large one) is
 * scored exactly as Orama's own `search` scores it: the same posting lists, the same function. Only
 * `threshold: 1` without `exact` and `tolerance` (what the registry asks) takes this path; any other
 * search is Orama's own.
 */
import { components } from '@orama/orama';

/**
 * The cost one query may spend: postings (document × word × property) scored, plus {@link LIST_COST} per
 * posting list. A posting is a typed-array read and an addition ({@link weightedPostings}), so 400,000
 * of them, every posting of 8 words that all 10,000 entries hold in all five text members, stay within
 * a few milliseconds of CPU; beyond that the second pass bounds the query.
 */
export const POSTINGS_BUDGET = 400_000;
/**
 * What scoring one posting list costs besides its postings (a call, an array copy), in postings: a word
 * prefix that reaches thousands of rare words (`1` before every number) is bounded too.
 */
export const LIST_COST = 16;
/**
 * Most indexed words one query reaches through prefixes, over all its words and properties: each (word,
 * property) reaches at most this share of it (at least {@link MIN_PREFIX_WORDS}), in alphabetical order,
 * the word itself first: `1` reaches `1`, `10`, `100`, … but not every number of a large index.
 */
export const PREFIX_WORD_BUDGET = 16_384;
/** Fewest indexed words one (query word, property) may reach, whatever the query's length. */
export const MIN_PREFIX_WORDS = 64;
/**
 * Most matches one query ranks: its best ones (sorting, and Orama's fetching of, every match of a word
 * that 10,000 entries hold would cost more than the scoring). Pages end there.
 */
export const MAX_RESULTS = 1_000;
/** Most candidates (the best of the first pass) the lists left out are scored over. */
export const MAX_RESCORED = 500;
/** Most candidate checks (candidates × lists) of the second pass. */
export const RESCORE_BUDGET = 20_000;
/** Most distinct (stemmed) words of one query that are looked up. */
export const MAX_QUERY_TERMS = 16;

type StockIndex = ReturnType<typeof components.index.createIndex>;
type SearchArgs = Parameters<StockIndex['search']>;
/** Orama's index data (`orama.data.index`), as far as this module reads it. */
type IndexData = SearchArgs[0];

/** The end of a radix tree path, as Orama 3.1's RadixNode holds it. */
interface RadixLike {
  c: Map<string, RadixLike>;
  d: Set<number>;
  e: boolean;
  w: string;
}

/** One text property's statistics. */
interface PropertyTerms {
  /** Indexed words, sorted by code unit. */
  words: string[];
  /** word → the internal ids of the documents whose property holds it. */
  docs: Map<string, ReadonlySet<number>>;
}

const statsByIndex = new WeakMap<object, Map<string, PropertyTerms>>();

/** Reads the words and document sets of a radix tree once (iteratively: trees can be deep). */
function readTree(root: RadixLike): PropertyTerms {
  const docs = new Map<string, ReadonlySet<number>>();
  const stack: RadixLike[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.e && node.d.size > 0) docs.set(node.w, node.d);
    for (const child of node.c.values()) stack.push(child);
  }
  const words = [...docs.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { words, docs };
}

/** The term statistics of `index`'s text property `prop` (computed at the first call). */
function termsOf(index: IndexData, prop: string): PropertyTerms | undefined {
  let stats = statsByIndex.get(index);
  if (!stats) statsByIndex.set(index, (stats = new Map()));
  let terms = stats.get(prop);
  if (!terms) {
    const tree = (index as unknown as { indexes: Record<string, { type: string; node: RadixLike }> }).indexes[
      prop
    ];
    if (!tree || tree.type !== 'Radix') return undefined;
    terms = readTree(tree.node);
    stats.set(prop, terms);
  }
  return terms;
}

/**
 * Computes the term statistics of the text properties `props` of an Orama database now, so the first
 * query does not pay for it. `db` is what `create` returned (its `data.index`).
 */
export function precomputeTermStats(db: { data: { index: unknown } }, props: readonly string[]): void {
  for (const prop of props) termsOf(db.data.index as IndexData, prop);
}

/** One posting list as typed arrays: internal document ids and each one's BM25 weight for the word. */
interface WeightedPostings {
  ids: Int32Array;
  weights: Float64Array;
}

/** BM25 parameters as Orama passes them (`relevance`): k1, b and the BM25+ delta. */
interface Bm25Parameters {
  k: number;
  b: number;
  d: number;
}

/** Weighted posting lists per index, per (parameters, document count), per property, per word. */
const weightsByIndex = new WeakMap<object, Map<string, Map<string, WeightedPostings>>>();

/**
 * The posting list of `word` in `prop` with each document's BM25 weight, computed once per index by
 * Orama's own `calculateResultScores` with a boost of 1 (its BM25 over its term frequencies, field
 * lengths and document frequencies), so that adding a weight times the property's boost adds what Orama
 * adds for that document. The index never changes, so neither do the weights.
 */
function weightedPostings(
  stock: StockIndex,
  index: IndexData,
  prop: string,
  word: string,
  docs: ReadonlySet<number>,
  docsCount: number,
  relevance: Bm25Parameters,
): WeightedPostings {
  let byKey = weightsByIndex.get(index);
  if (!byKey) weightsByIndex.set(index, (byKey = new Map()));
  const key = `${prop}\u0000${relevance.k}\u0000${relevance.b}\u0000${relevance.d}\u0000${docsCount}`;
  let lists = byKey.get(key);
  if (!lists) byKey.set(key, (lists = new Map()));
  let list = lists.get(word);
  if (list) return list;
  const scored = new Map<number, number>();
  stock.calculateResultScores(
    index,
    prop,
    word,
    docs as never,
    docsCount,
    relevance as never,
    scored as never,
    1,
    undefined as never,
    new Map() as never,
  );
  const ids = Int32Array.from(docs);
  const weights = Float64Array.from(ids, (id) => scored.get(id) ?? 0);
  list = { ids, weights };
  lists.set(word, list);
  return list;
}

/** A dense score accumulator over an index's internal document ids, kept zeroed between searches. */
interface Accumulator {
  sums: Float64Array;
  seen: Uint8Array;
}

const accumulators = new WeakMap<object, Accumulator>();

/**
 * The accumulator of `index`, large enough for `docsCount` documents (internal ids run from 1; one is
 * shared by the searches of an index, which run one at a time: `search` is synchronous).
 */
function accumulatorOf(index: IndexData, docsCount: number): Accumulator {
  let acc = accumulators.get(index);
  if (!acc || acc.sums.length < docsCount + 2) {
    acc = { sums: new Float64Array(docsCount + 2), seen: new Uint8Array(docsCount + 2) };
    accumulators.set(index, acc);
  }
  return acc;
}

/**
 * The best {@link MAX_RESULTS} of `ids` by `sums[id]`, as `[id, score]` best first, ties in the order of
 * `ids` (what sorting every pair and keeping the first ones gives, without sorting them all): the
 * threshold score is found on a typed copy, and only the pairs at or above it are made and sorted.
 */
function bestOf(ids: readonly number[], sums: Float64Array): Array<[number, number]> {
  let threshold = -Infinity;
  if (ids.length > MAX_RESULTS) {
    const scores = Float64Array.from(ids, (id) => sums[id]!).sort();
    threshold = scores[ids.length - MAX_RESULTS]!;
  }
  const out: Array<[number, number]> = [];
  for (const id of ids) {
    const value = sums[id]!;
    if (value >= threshold) out.push([id, value]);
  }
  out.sort((a, b) => b[1] - a[1]);
  if (out.length > MAX_RESULTS) out.length = MAX_RESULTS;
  return out;
}

/** The first position in sorted `words` not below `key`. */
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

/** One posting list a query word reaches. */
interface PostingList {
  prop: string;
  word: string;
  docs: ReadonlySet<number>;
  exact: boolean;
}

/** What the last bounded search did (for tests and the load test's report). */
export interface BoundedSearchReport {
  /** Distinct query words looked up (after the cap). */
  terms: number;
  /** Postings scored. */
  postings: number;
  /** Their cost: postings plus {@link LIST_COST} per list (at most the budget). */
  cost: number;
  /** Posting lists left out of the first pass for the budget. */
  listsLeftOut: number;
  /** Candidate checks of the second pass (at most {@link RESCORE_BUDGET}). */
  candidateChecks: number;
}

/**
 * Creates Orama's index component with the bounded full-text step (see the module comment).
 * `onSearch` receives a report of each bounded search.
 */
export function createBoundedIndex(
  options: {
    budget?: number;
    maxTerms?: number;
    prefixWordBudget?: number;
    onSearch?: (report: BoundedSearchReport) => void;
  } = {},
): StockIndex {
  const stock = components.index.createIndex();
  const budget = options.budget ?? POSTINGS_BUDGET;
  const maxTerms = options.maxTerms ?? MAX_QUERY_TERMS;
  const prefixWordBudget = options.prefixWordBudget ?? PREFIX_WORD_BUDGET;
  const search: StockIndex['search'] = (...args: SearchArgs) => {
    const [
      index,
      term,
      tokenizer,
      language,
      props,
      exact,
      tolerance,
      boost,
      relevance,
      docsCount,
      where,
      threshold,
    ] = args;
    if (threshold !== 1 || exact || (tolerance ?? 0) > 0 || !term) return stock.search(...args);
    const propTerms = props.map((prop) => [prop, termsOf(index, prop)] as const);
    if (propTerms.some(([, terms]) => terms === undefined)) return stock.search(...args);
    const tokens = [...new Set(tokenizer.tokenize(term, language))].slice(0, maxTerms);
    const maxPrefixWords = Math.max(
      MIN_PREFIX_WORDS,
      Math.floor(prefixWordBudget / Math.max(1, tokens.length * props.length)),
    );
    const perToken = tokens.map((token) => {
      const lists: PostingList[] = [];
      let size = 0;
      for (const [prop, terms] of propTerms as ReadonlyArray<readonly [string, PropertyTerms]>) {
        const first = lowerBound(terms.words, token);
        const end = Math.min(terms.words.length, first + maxPrefixWords);
        for (let i = first; i < end; i++) {
          const word = terms.words[i]!;
          if (!word.startsWith(token)) break;
          const docs = terms.docs.get(word)!;
          lists.push({ prop, word, docs, exact: word === token });
          size += docs.size;
        }
      }
      // Within a word: its exact match first, then the rarer words it prefixes.
      lists.sort((a, b) => Number(b.exact) - Number(a.exact) || a.docs.size - b.docs.size);
      return { lists, size };
    });
    // The rarest words first: they carry the most weight, and cost the least.
    perToken.sort((a, b) => a.size - b.size);
    const resultsMap = new Map<number, number>();
    const keywordMatchesMap = new Map<number, Map<string, number>>();
    const score = (list: PostingList, ids: Iterable<number>) =>
      stock.calculateResultScores(
        index,
        list.prop,
        list.word,
        ids as never,
        docsCount,
        relevance,
        resultsMap as never,
        boost[list.prop] ?? 1,
        where,
        keywordMatchesMap as never,
      );
    // First pass: whole posting lists, each document's weight read from typed arrays and summed in a
    // dense accumulator (the same sums Orama's `calculateResultScores` makes, in a few nanoseconds a
    // posting instead of a Map update and four object lookups).
    const acc = accumulatorOf(index, docsCount);
    const touched: number[] = [];
    let spent = 0;
    let postings = 0;
    const skipped: PostingList[] = [];
    for (const { lists } of perToken) {
      for (const list of lists) {
        const cost = list.docs.size + LIST_COST;
        if (spent + cost > budget) {
          skipped.push(list);
          continue;
        }
        spent += cost;
        postings += list.docs.size;
        const { ids, weights } = weightedPostings(
          stock,
          index,
          list.prop,
          list.word,
          list.docs,
          docsCount,
          relevance,
        );
        const factor = boost[list.prop] ?? 1;
        for (let i = 0; i < ids.length; i++) {
          const id = ids[i]!;
          if (where && !where.has(id)) continue;
          if (acc.seen[id] === 0) {
            acc.seen[id] = 1;
            touched.push(id);
          }
          acc.sums[id]! += weights[i]! * factor;
        }
      }
    }
    if (skipped.length === 0) {
      const best = bestOf(touched, acc.sums);
      for (const id of touched) {
        acc.sums[id] = 0;
        acc.seen[id] = 0;
      }
      options.onSearch?.({
        terms: tokens.length,
        postings,
        cost: spent,
        listsLeftOut: 0,
        candidateChecks: 0,
      });
      return best as ReturnType<StockIndex['search']>;
    }
    for (const id of touched) {
      resultsMap.set(id, acc.sums[id]!);
      acc.sums[id] = 0;
      acc.seen[id] = 0;
    }
    // The lists left out still count for the best candidates: each is scored over them alone (the same
    // Orama function, so a candidate's score is what Orama's own search gives it), rarest lists first,
    // within {@link RESCORE_BUDGET} candidate checks.
    let rescored = 0;
    if (skipped.length > 0 && resultsMap.size > 0) {
      const candidates = [...resultsMap]
        .sort((a, b) => b[1] - a[1])
        .slice(0, MAX_RESCORED)
        .map(([id]) => id);
      for (const list of skipped) {
        if (rescored + candidates.length > RESCORE_BUDGET) break;
        rescored += candidates.length;
        score(
          list,
          candidates.filter((id) => list.docs.has(id)),
        );
      }
    }
    options.onSearch?.({
      terms: tokens.length,
      postings,
      cost: spent,
      listsLeftOut: skipped.length,
      candidateChecks: rescored,
    });
    return [...resultsMap].sort((a, b) => b[1] - a[1]).slice(0, MAX_RESULTS) as ReturnType<
      StockIndex['search']
    >;
  };
  return { ...stock, search };
}
