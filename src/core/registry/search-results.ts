/**
 * The results of `POST /search` (ARD draft §4.2.2.2, §5 `search-result-item`, `search-response`): the
 * result item of a local entry, and one page of the local ranking merged with the peers' results of a
 * federated search (`auto`, §4.3.1), each peer result with its trust verdict. Used by ./service.ts.
 */
import { withoutUndefined } from '../util/json.js';
import { entryKey, type Catalog, type IndexedEntry } from './catalog.js';
import type { PeerResult, RegistryReferral } from './federation.js';
import type { Ranking } from './search.js';

/** A search result (ARD draft §5 `search-result-item`), plus `verified` (§4.3.1). */
export type SearchResultItem = Record<string, unknown> & {
  identifier: string;
  score: number;
  source: string;
};

/**
 * The `/search` answer (ARD draft §5 `search-response`). The token of the next page is given twice, as
 * the draft's `nextPageToken` and as ard-spec v0.91's `pageToken` (the name its clients read before they
 * ask for the next page), as `GET /agents` does; both are the same string.
 */
export interface SearchResponse {
  results: SearchResultItem[];
  referrals?: RegistryReferral[];
  nextPageToken?: string;
  pageToken?: string;
}

/**
 * The members of a local entry's result item before `score` (ARD draft §4.2.2.2): its coordinates, in
 * the order the item lists them; `data` only for an entry without `url`.
 */
function coordinatesOf(indexed: IndexedEntry) {
  const e = indexed.entry;
  return {
    identifier: indexed.identifier,
    displayName: e.displayName,
    type: e.type,
    url: e.url,
    data: e.url === undefined ? e.data : undefined,
    version: e.version,
    digest: e.digest,
  };
}

/** The members of a local entry's result item after `score`: where it came from and its trust envelope. */
function provenanceOf(indexed: IndexedEntry, source: string) {
  const e = indexed.entry;
  return {
    source,
    verified: indexed.verified,
    trustManifest: e.trustManifest,
    trustManifests: e.trustManifests,
  };
}

/** The result item of a local entry (ARD draft §4.2.2.2): its coordinates, trust envelope and score. */
export function localResult(indexed: IndexedEntry, score: number, source: string): SearchResultItem {
  return withoutUndefined({
    ...coordinatesOf(indexed),
    score,
    ...provenanceOf(indexed, source),
  }) as SearchResultItem;
}

/** A peer result with its verdict, ready to merge. */
interface Candidate {
  key: string;
  score: number;
  item: SearchResultItem;
}

/**
 * One page of the merge of the local ranking with peer results (`auto`): peer results whose (identifier,
 * version) the local matches already have are dropped, and among peers a verified result wins over an
 * unverified one, then the higher score. Order: score, then (identifier, version).
 */
export function mergePage(
  catalog: Catalog,
  ranking: Ranking,
  peers: ReadonlyArray<PeerResult & { verified: boolean }>,
  source: string,
  offset: number,
  pageSize: number,
): { items: SearchResultItem[]; total: number } {
  const local = new Set<string>();
  for (const p of ranking.positions) {
    const e = catalog.entries[p]!;
    local.add(entryKey(e.identifier, e.version));
  }
  const best = new Map<string, Candidate & { verified: boolean }>();
  for (const r of peers) {
    const key = entryKey(r.identifier, r.version);
    if (local.has(key)) continue;
    const seen = best.get(key);
    if (seen && (seen.verified > r.verified || (seen.verified === r.verified && seen.score >= r.score)))
      continue;
    best.set(key, {
      key,
      score: r.score,
      verified: r.verified,
      item: { ...r.item, verified: r.verified } as unknown as SearchResultItem,
    });
  }
  const remote = [...best.values()].sort(
    (a, b) => b.score - a.score || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
  const total = ranking.positions.length + remote.length;
  const items: SearchResultItem[] = [];
  let i = 0;
  let j = 0;
  for (let k = 0; k < offset + pageSize && (i < ranking.positions.length || j < remote.length); k++) {
    const position = i < ranking.positions.length ? ranking.positions[i]! : -1;
    const localScore = i < ranking.positions.length ? ranking.scores[i]! : -1;
    const entry = position >= 0 ? catalog.entries[position]! : undefined;
    const peer = remote[j];
    const takeLocal =
      entry !== undefined &&
      (peer === undefined ||
        localScore > peer.score ||
        (localScore === peer.score && entryKey(entry.identifier, entry.version) <= peer.key));
    if (takeLocal) {
      if (k >= offset) items.push(localResult(entry, localScore, source));
      i++;
    } else {
      if (k >= offset) items.push(peer!.item);
      j++;
    }
  }
  return { items, total };
}

/**
 * A local result item (ARD draft §5 `search-result-item`) serialised once, around its score: `head` is
 * the JSON text of {@link localResult}'s members before `score` up to `"score":`, `tail` the text after
 * the score to the closing brace. `head + JSON.stringify(score) + tail` is exactly
 * `JSON.stringify(localResult(indexed, score, source))` (ECMA-262 §25.5.2: members in insertion order,
 * undefined members left out).
 */
export interface ResultJson {
  head: string;
  tail: string;
}

/** The {@link ResultJson} of a local entry whose results name `source`. */
export function resultJson(indexed: IndexedEntry, source: string): ResultJson {
  const before = JSON.stringify(coordinatesOf(indexed));
  const after = JSON.stringify(provenanceOf(indexed, source));
  // `identifier` is always there, so `before` is never `{}`; `source` always, so `after` neither.
  return { head: `${before.slice(0, -1)},"score":`, tail: `,${after.slice(1)}` };
}

/**
 * The JSON text (without the final newline) of a `/search` answer of local results only (ARD draft §5
 * `search-response`), assembled from the items' pre-serialised forms: byte for byte the
 * `JSON.stringify` of the {@link SearchResponse} with `results`, then `referrals` when given, then the
 * token twice (`nextPageToken`, `pageToken`) when there is a next page.
 */
export function searchAnswerJson(
  items: ReadonlyArray<{ json: ResultJson; score: number }>,
  referrals: RegistryReferral[] | undefined,
  token: string | undefined,
): string {
  let text = '{"results":[';
  for (let i = 0; i < items.length; i++) {
    const { json, score } = items[i]!;
    text += `${i > 0 ? ',' : ''}${json.head}${JSON.stringify(score)}${json.tail}`;
  }
  text += ']';
  if (referrals !== undefined) text += `,"referrals":${JSON.stringify(referrals)}`;
  if (token !== undefined) {
    const quoted = JSON.stringify(token);
    text += `,"nextPageToken":${quoted},"pageToken":${quoted}`;
  }
  return `${text}}`;
}
