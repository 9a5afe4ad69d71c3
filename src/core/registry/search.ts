/**
 * The three local operations of the lookup API over a {@link Catalog}, each a pure function of the query
 * and the (immutable) index, so any number of processes give the same answers:
 *
 * - {@link QueryEngine.rank}: `/search` (ARD draft §4.2.2): BM25 over the text properties from the
 *   catalog's inverted index (text-index.ts) of the query's language (the default language's when the
 *   query names none or one the catalog has no index of), the filter as a set of positions; `score` is the BM25 score relative to the best match, 0–100, rounded
 *   (§4.2.2.2: "informational semantic relevance"; §6.3: not a measure of trust); ties (equal integer
 *   scores) are ordered by identifier, then version.
 * - {@link QueryEngine.list}: `GET /agents` (§4.2.4): the filter alone, in (identifier, version) order.
 * - {@link QueryEngine.facets}: `/explore` (§4.2.3): value counts over the entries the query matches (its
 *   text, in its language, through the same inverted index as `rank`; its filter), buckets by count
 *   (then value), `otherCount` the sum of the counts of the values left out.
 *
 * Whole result lists (and facet counts) are computed once per query and kept in a small least-recently-used cache, so the
 * pages of one query cost one ranking; the cache holds positions and scores only (typed arrays). A
 * ranking is kept from the second time its query is ranked (a doorkeeper, util/doorkeeper.ts): most
 * texts a registry is asked are never asked again, and their rankings die young instead of reaching
 * the old generation of the heap; the pages of one query cost two rankings.
 */
import type { Catalog } from './catalog.js';
import type { LanguageText } from './catalog.js';
import { filterMarks, resolveTermPath, whereOf } from './catalog.js';
import { countFacetValues } from './filter-index.js';
import { refineList, type ListRefinement } from './list-order.js';
import type { FacetRequest, QueryModel } from './query.js';
import { queryFingerprint } from './query.js';
import { MAX_RANKED, PREFIX_WEIGHT, matchText, rankText } from './text-index.js';
import { Doorkeeper } from '../util/doorkeeper.js';
import { LruCache } from '../util/lru-cache.js';

/**
 * A ranked list of matches: positions in the catalog and their 0–100 scores, best first; `total` is the
 * number of matches the whole ranking holds (at most text-index.ts `MAX_RANKED`), more than
 * `positions.length` when only the leading matches were ranked ({@link QueryEngine.rank}'s `want`).
 */
export interface Ranking {
  positions: Int32Array;
  scores: Uint8Array;
  total: number;
}

/** One facet of the explore response (ARD draft §4.2.3.2). */
export interface FacetResult {
  buckets: Array<{ value: string; count: number }>;
  otherCount: number;
}

const EMPTY_RANKING: Ranking = { positions: new Int32Array(0), scores: new Uint8Array(0), total: 0 };

/** Scales a BM25 score to 0–100 relative to the best score of the query. */
function percent(score: number, best: number): number {
  if (!(best > 0) || !(score > 0)) return 0;
  return Math.min(100, Math.round((100 * score) / best));
}

/**
 * Tie groups of a ranking's leading matches (text-index.ts `TopCut`): the 0–100 score; no sum below
 * (g − 0.5) / 100 of the best sum, less a relative 1e-9 for rounding, has a score of g or more.
 */
const PERCENT_GROUPS = {
  group: percent,
  groupFloor: (group: number, best: number): number => ((group - 0.5) / 100) * best * (1 - 1e-9),
};

/** Whether `ranking` holds its first `want` matches (or all of them). */
const holds = (ranking: Ranking, want: number): boolean =>
  ranking.positions.length >= want || ranking.positions.length === ranking.total;

const NO_REFINEMENT: ListRefinement = { expression: { displayNames: [], updatedAfter: [] }, orderBy: [] };

export type { ListRefinement } from './list-order.js';

/** Most ranking keys the doorkeeper of {@link QueryEngine.rank} remembers before forgetting them all. */
export const RANK_DOORKEEPER_KEYS = 65_536;

/** Queries over one catalog, with result caches (see the module comment). */
export class QueryEngine {
  private readonly rankings: LruCache<Ranking>;
  private readonly lists: LruCache<Int32Array>;
  private readonly facetCounts: LruCache<Record<string, FacetResult>>;
  private readonly filterSets: LruCache<Uint8Array>;
  /** The ranking keys seen once and not kept yet ({@link rank}). */
  private readonly rankDoor: Doorkeeper;
  /** Rankings computed, and of them kept in the cache, since the engine was made. */
  ranked = 0;
  rankingsKept = 0;

  /**
   * `cacheSize`: most cached result lists of each kind (default 256); `prefixWeight`: what a word a query
   * word is only a prefix of weighs (text-index.ts `PREFIX_WEIGHT`; 1 ranks as Orama's own search).
   */
  constructor(
    readonly catalog: Catalog,
    cacheSize = 256,
    private readonly prefixWeight = PREFIX_WEIGHT,
  ) {
    this.rankings = new LruCache(cacheSize);
    this.lists = new LruCache(cacheSize);
    this.facetCounts = new LruCache(cacheSize);
    this.filterSets = new LruCache(Math.min(cacheSize, 64));
    this.rankDoor = new Doorkeeper(Math.max(RANK_DOORKEEPER_KEYS, cacheSize));
  }

  /** The positions a filter admits, as a mark per position (1: admitted); cached per filter. */
  private allowed(query: QueryModel, where: Record<string, unknown>): Uint8Array {
    const key = queryFingerprint('filter', { context: query.context, filter: query.filter });
    let marks = this.filterSets.get(key);
    if (!marks) {
      marks = filterMarks(this.catalog, where);
      this.filterSets.set(key, marks);
    }
    return marks;
  }

  /**
   * The full-text index of `language` (one of the catalog's languages), the default language's when it is
   * absent or the catalog has no index of it.
   */
  private textOf(language: string | undefined): LanguageText {
    return (language !== undefined ? this.catalog.byLanguage.get(language) : undefined) ?? this.catalog;
  }

  /**
   * Every entry matching `query.text` and `query.filter`, ranked (ARD draft §4.2.2), or, with `want`, at
   * least its first `want` (a page's offset plus its size): the same leading entries in the same order,
   * with `total` the length of the whole ranking. Kept in the cache from the second time the same query
   * is ranked (the module comment); a kept ranking too short for a later page is replaced by the whole.
   * @throws RegistryProblem INVALID_ARGUMENT for an unsupported filter term.
   */
  rank(query: QueryModel & { text: string }, want: number = MAX_RANKED): Ranking {
    const key = queryFingerprint('rank', query);
    const cached = this.rankings.get(key);
    if (cached && holds(cached, want)) return cached;
    const ranking = this.ranking(query, cached ? MAX_RANKED : want);
    this.ranked++;
    if (cached) this.rankings.set(key, ranking);
    else if (this.rankDoor.admit(key)) {
      this.rankings.set(key, ranking);
      this.rankingsKept++;
    }
    return ranking;
  }

  /** {@link rank} without the cache. */
  private ranking(query: QueryModel & { text: string }, want: number): Ranking {
    const where = whereOf(this.catalog, query.filter, query.context);
    if (where === 'none') return EMPTY_RANKING;
    const allowed = where === undefined ? undefined : this.allowed(query, where);
    const { text, tokenize } = this.textOf(query.language);
    const found = rankText(text, tokenize(query.text), allowed, undefined, this.prefixWeight, {
      want,
      ...PERCENT_GROUPS,
    });
    const best = found.scores.length > 0 ? found.scores[0]! : 0;
    const positions = found.positions;
    const scores = new Uint8Array(found.scores.length);
    for (let i = 0; i < scores.length; i++) scores[i] = percent(found.scores[i]!, best);
    // Best first already; equal 0–100 scores (contiguous runs, whole ones: TopCut) are ordered by position.
    for (let start = 0, i = 1; i <= scores.length; i++) {
      if (i < scores.length && scores[i] === scores[start]) continue;
      if (i - start > 1) positions.subarray(start, i).sort();
      start = i;
    }
    return { positions, scores, total: found.total };
  }

  /**
   * Positions of the entries matching `query.filter` and `refine` (the `displayName` and `updatedAfter`
   * conditions of a `filter` expression), in `refine.orderBy` order, then (identifier, version) order
   * (ARD draft §4.2.4; ard-spec's `listAgents`).
   * @throws RegistryProblem INVALID_ARGUMENT for an unsupported filter term.
   */
  list(query: QueryModel, refine: ListRefinement = NO_REFINEMENT): Int32Array {
    const key = queryFingerprint('list', query, { refine: JSON.stringify(refine) });
    const cached = this.lists.get(key);
    if (cached) return cached;
    const where = whereOf(this.catalog, query.filter, query.context);
    let positions: Int32Array;
    if (where === 'none') positions = new Int32Array(0);
    else if (where === undefined) positions = Int32Array.from(this.catalog.entries, (_, i) => i);
    else {
      const marks = this.allowed(query, where);
      const admitted: number[] = [];
      for (let p = 0; p < marks.length; p++) if (marks[p] === 1) admitted.push(p);
      positions = Int32Array.from(admitted);
    }
    positions = refineList(this.catalog, positions, refine);
    this.lists.set(key, positions);
    return positions;
  }

  /**
   * Facet counts over the entries matching `query` (text, when given, and filter), ARD draft §4.2.3.
   * A field that names several indexed paths (a prefix with several IRIs) sums their counts.
   * @throws RegistryProblem INVALID_ARGUMENT for an unsupported filter term or facet field.
   */
  facets(query: QueryModel, facets: readonly FacetRequest[]): Record<string, FacetResult> {
    const key = queryFingerprint('facets', query, { facets: JSON.stringify(facets) });
    const cached = this.facetCounts.get(key);
    if (cached) return cached;
    const fields = facets.map((f) => ({
      ...f,
      props: resolveTermPath(this.catalog, f.field, query.context),
    }));
    const where = whereOf(this.catalog, query.filter, query.context);
    const wanted = [...new Set(fields.flatMap((f) => f.props))];
    let matched: Iterable<number> = [];
    if (where !== 'none' && wanted.length > 0) {
      const allowed = where === undefined ? undefined : this.allowed(query, where);
      if (query.text !== undefined) {
        // The entries `rank` scores for this text in this language (not only its best MAX_RANKED).
        const { text, tokenize } = this.textOf(query.language);
        matched = matchText(text, tokenize(query.text), allowed);
      } else if (allowed !== undefined) {
        const admitted: number[] = [];
        allowed.forEach((mark, p) => {
          if (mark === 1) admitted.push(p);
        });
        matched = admitted;
      } else {
        matched = this.catalog.entries.keys();
      }
    }
    const counted = countFacetValues(this.catalog.filters, this.catalog.entries.length, matched, wanted);
    const out: Record<string, FacetResult> = {};
    for (const field of fields) {
      const totals = new Map<string, number>();
      for (const prop of field.props) {
        for (const [value, count] of counted.get(prop) ?? []) {
          totals.set(value, (totals.get(value) ?? 0) + count);
        }
      }
      const sorted = [...totals]
        .filter(([, count]) => count > 0)
        .sort(([va, ca], [vb, cb]) => cb - ca || (va < vb ? -1 : va > vb ? 1 : 0));
      out[field.field] = {
        buckets: sorted.slice(0, field.limit).map(([value, count]) => ({ value, count })),
        otherCount: sorted.slice(field.limit).reduce((sum, [, count]) => sum + count, 0),
      };
    }
    this.facetCounts.set(key, out);
    return out;
  }
}
