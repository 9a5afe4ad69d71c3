/**
 * Federation of the lookup API (ARD draft §4.3, §6.6):
 *
 * - `none`: local matches only;
 * - `referrals`: local matches, and the configured peer registries as `referrals` (§4.3.2), leaving out
 *   the ones the query has already visited;
 * - `auto`: the query is forwarded to every peer not yet visited, at once, each with a timeout; their
 *   results are merged with the local ones, de-duplicated by (identifier, version) (a local entry wins,
 *   then a verified result, then the higher score), each with the `source` of the peer asked (never the
 *   `source` the peer wrote), and every peer result is verified (src/core/registry/trust.ts): rejected
 *   results are dropped, the others carry `verified: true|false` (§4.3.1). A peer that fails or is too slow is left out of the answer, which
 *   names it in the `ARD-Federation-Failed` header; it never fails the answer.
 *
 * The asker's language goes on with the query: its `Accept-Language` header (RFC 9110 §12.5.4), as it
 * came, so that each peer reads the text in the best of its own languages (text-languages.ts); a peer
 * that answers in another language (one it has) is merged all the same, its scores being its own.
 *
 * Loops stop two ways (§6.6). `Hop-Count`: a query without one starts at `maxHops` (at most 3); a
 * registry forwards with its value minus one, and a query that arrives with 0 is never forwarded. The
 * visited-registries trail, `ARD-Registry-Trail`: the identifiers (`urn:air:` URNs of their
 * `application/ai-registry+json` entries) of the registries that have handled the query, in order,
 * comma-separated; a registry adds itself before forwarding, and never forwards to a registry in it.
 * So A → B → C → A stops at C, whatever the hop count.
 */
import type { RegistryPeerConfig } from '../schema/registry-settings.js';
import { httpJsonPoster } from '../verify/http-reader.js';
import { invalidArgument } from './problems.js';
import type { QueryModel } from './query.js';

/** The hop counter header (ARD draft §6.6). */
export const HOP_COUNT_HEADER = 'Hop-Count';
/** Largest Hop-Count a request may carry (a larger one is refused as out of range; up to it, lowered). */
export const MAX_HOP_HEADER = 255;
/** The visited-registries trail header (ARD draft §6.6: "a query trail header"). */
export const TRAIL_HEADER = 'ARD-Registry-Trail';
/** Response header naming the peers that did not answer in time (`auto` mode). */
export const FAILED_PEERS_HEADER = 'ARD-Federation-Failed';
/** The draft's maximum initial hop count (ARD draft §6.6). */
export const MAX_HOP_COUNT = 3;
/** Most registries a trail may list. */
export const MAX_TRAIL_LENGTH = 16;
/** Results asked of each peer (its largest page). */
export const PEER_PAGE_SIZE = 100;
/** Largest peer answer read, in bytes. */
export const MAX_PEER_ANSWER_BYTES = 4 * 1024 * 1024;

/** Where a query is in the federation: hops left and the registries it has visited. */
export interface FederationState {
  hopCount: number;
  trail: string[];
}

/** A referral to another registry (ARD draft §5 `registry-referral`). */
export interface RegistryReferral {
  identifier: string;
  displayName: string;
  type: 'application/ai-registry+json';
  url: string;
}

/**
 * Reads `Hop-Count` and the trail of a request. A missing Hop-Count starts at `maxHops`; a larger one
 * up to {@link MAX_HOP_HEADER} is lowered to it.
 * @throws RegistryProblem INVALID_ARGUMENT for a Hop-Count that is not a whole number (named so), one
 *   above {@link MAX_HOP_HEADER} (named out of range, with the range), or a trail that
 *   is not a comma-separated list of at most {@link MAX_TRAIL_LENGTH} URIs.
 */
export function readFederationHeaders(
  headers: { get(name: string): string | null },
  maxHops: number,
): FederationState {
  const hop = headers.get(HOP_COUNT_HEADER);
  let hopCount = maxHops;
  if (hop !== null) {
    const digits = /^\s*(\d+)\s*$/.exec(hop)?.[1];
    if (digits === undefined)
      throw invalidArgument(
        `${HOP_COUNT_HEADER} must be a whole number from 0 to ${MAX_HOP_HEADER}, such as 2`,
      );
    // Leading zeros are no reason to refuse; the value, not the text, is bounded.
    const value = digits.length > 6 ? Infinity : Number(digits);
    if (value > MAX_HOP_HEADER) {
      throw invalidArgument(
        `${HOP_COUNT_HEADER} ${digits.length > 12 ? `${digits.slice(0, 12)}…` : digits} is out of range: it must be from 0 to ${MAX_HOP_HEADER} (a value above ${maxHops} is lowered to ${maxHops})`,
      );
    }
    hopCount = Math.min(value, maxHops);
  }
  const raw = headers.get(TRAIL_HEADER);
  const trail =
    raw === null
      ? []
      : raw
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s.length > 0);
  if (
    trail.length > MAX_TRAIL_LENGTH ||
    trail.some((s) => s.length > 512 || /\s/.test(s) || !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(s))
  ) {
    throw invalidArgument(
      `${TRAIL_HEADER} must list at most ${MAX_TRAIL_LENGTH} registry URIs, comma-separated`,
    );
  }
  return { hopCount, trail };
}

/** The peers a query may still go to: not this registry, not already in its trail. */
export function eligiblePeers(
  peers: readonly RegistryPeerConfig[],
  self: string,
  state: FederationState,
): RegistryPeerConfig[] {
  return peers.filter((p) => p.identifier !== self && !state.trail.includes(p.identifier));
}

/** The referrals of a `referrals` answer (ARD draft §4.3.2): the eligible peers, as registry referrals. */
export function referralsOf(
  peers: readonly RegistryPeerConfig[],
  self: string,
  state: FederationState,
): RegistryReferral[] {
  return eligiblePeers(peers, self, state).map((p) => ({
    identifier: p.identifier,
    displayName: p.displayName,
    type: 'application/ai-registry+json',
    url: p.url,
  }));
}

/** The JSON form of a checked query, as forwarded to peers. */
export function queryJson(query: QueryModel): Record<string, unknown> {
  return {
    ...(query.context.size > 0 ? { '@context': Object.fromEntries(query.context) } : {}),
    ...(query.text !== undefined ? { text: query.text } : {}),
    ...(query.filter.length > 0
      ? { filter: Object.fromEntries(query.filter.map((c) => [c.key, c.values])) }
      : {}),
  };
}

/** A JSON POST: the status and the parsed body. */
export type PostJson = (
  url: string,
  body: unknown,
  headers: Record<string, string>,
  options: { timeoutMs: number },
) => Promise<{ status: number; body: unknown }>;

/**
 * The default client of the peers: verify's HTTP client (../verify/http-reader.ts `httpJsonPoster`), so
 * a peer is reached under the same rules as a verified site (TLS 1.3, no private, loopback or link-local
 * address unless the operator allows it), its answer capped at {@link MAX_PEER_ANSWER_BYTES}.
 */
export const postJson: PostJson = httpJsonPoster({ maxBytes: MAX_PEER_ANSWER_BYTES });

/** One result a peer returned, checked for the members a merge needs. */
export interface PeerResult {
  item: Record<string, unknown>;
  identifier: string;
  version?: string;
  score: number;
}

/** What forwarding a query to the peers gave. */
export interface ForwardOutcome {
  results: PeerResult[];
  /** Peers that failed, answered with an error or too late. */
  failed: RegistryPeerConfig[];
}

/** Reads a peer's answer into checked results (ARD draft §5 `search-result-item`); others are dropped. */
export function readPeerResults(body: unknown, peer: RegistryPeerConfig): PeerResult[] | undefined {
  const results = (body as { results?: unknown } | undefined)?.results;
  if (!Array.isArray(results)) return undefined;
  const out: PeerResult[] = [];
  for (const raw of results.slice(0, PEER_PAGE_SIZE)) {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) continue;
    const { verified: _theirs, ...item } = raw as Record<string, unknown>;
    if (typeof item.identifier !== 'string' || typeof item.score !== 'number' || !Number.isFinite(item.score))
      continue;
    const score = Math.max(0, Math.min(100, Math.round(item.score)));
    out.push({
      // The peer this registry asked answers for its results, whatever `source` it wrote (ARD draft
      // §4.2.2.2: the registry that returned the result); a peer cannot speak in another's name.
      item: { ...item, score, source: peer.url },
      identifier: item.identifier,
      ...(typeof item.version === 'string' ? { version: item.version } : {}),
      score,
    });
  }
  return out;
}

/**
 * Forwards `query` to `peers` at once (`auto` mode) with the next hop count, the trail plus `self`, and
 * the asker's `Accept-Language` when it sent one (RFC 9110 §12.5.4: each peer picks among its own
 * languages). Never throws: a peer that fails, answers with an error or does not answer within
 * `timeoutMs` is listed in `failed`.
 */
export async function forwardSearch(options: {
  peers: readonly RegistryPeerConfig[];
  self: string;
  state: FederationState;
  query: QueryModel;
  timeoutMs: number;
  /** The asker's `Accept-Language` header, as it came (absent or empty: none is sent). */
  acceptLanguage?: string | null;
  post?: PostJson;
  log?: (line: string) => void;
}): Promise<ForwardOutcome> {
  const post = options.post ?? postJson;
  const acceptLanguage = options.acceptLanguage?.trim();
  const headers = {
    [HOP_COUNT_HEADER]: String(options.state.hopCount - 1),
    [TRAIL_HEADER]: [...options.state.trail, options.self].join(', '),
    ...(acceptLanguage ? { 'Accept-Language': acceptLanguage } : {}),
  };
  const body = { query: queryJson(options.query), federation: 'auto', pageSize: PEER_PAGE_SIZE };
  const answers = await Promise.all(
    options.peers.map(async (peer) => {
      try {
        const answer = await post(`${peer.url}/search`, body, headers, { timeoutMs: options.timeoutMs });
        const results = answer.status === 200 ? readPeerResults(answer.body, peer) : undefined;
        if (!results) throw new Error(`answered HTTP ${answer.status} without a results list`);
        return { peer, results };
      } catch (error) {
        // Never the query: only which peer failed and why (ARD draft §7).
        options.log?.(
          `registry: peer ${peer.identifier} (${peer.url}) gave no results: ${(error as Error).message}`,
        );
        return { peer, results: undefined };
      }
    }),
  );
  return {
    results: answers.flatMap((a) => a.results ?? []),
    failed: answers.filter((a) => !a.results).map((a) => a.peer),
  };
}
