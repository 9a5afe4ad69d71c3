/**
 * The lookup API (ARD draft §4.2) as a function from a web Request to a web Response: what the one
 * server calls (server.ts, through node-request.ts), and the Astro routes of the server bundle
 * (src/registry-routes/ → runtime.ts) for hosts that mount it. It reads and checks the request
 * (request-body.ts, query.ts), runs it on the index (search.ts) and, for `/search`, on the federation
 * (federation.ts, trust.ts, merged in search-results.ts), pages it with signed tokens (page-token.ts), and
 * answers JSON, or a problem (problems.ts).
 *
 * Every answer carries the security headers the site's `_headers` gives every path (`X-Content-Type-
 * Options`, `Referrer-Policy`), the CORS header of the static JSON files (`Access-Control-Allow-Origin:
 * *`), and a cache policy: `no-store` for the POST answers (they echo a user's intent, ARD draft §7),
 * the JSON files' `public, max-age=300` for `GET /agents` (§4.2.4: "cacheable"). Nothing is logged but
 * internal errors, with `query.text` blanked out of the message (§7).
 */
import type { RegistryConfig } from '../schema/registry-settings.js';
import { JSON_CACHE_CONTROL } from '../hosting/http-cache.js';
import type { Catalog } from './catalog.js';
import {
  FAILED_PEERS_HEADER,
  HOP_COUNT_HEADER,
  TRAIL_HEADER,
  eligiblePeers,
  forwardSearch,
  readFederationHeaders,
  referralsOf,
  type PostJson,
} from './federation.js';
import { decodePageToken, encodePageToken, queryDigest } from './page-token.js';
import { RegistryProblem } from './problems.js';
import { chooseLanguage } from './text-languages.js';
import {
  queryFingerprint,
  readExploreRequest,
  readListQuery,
  readSearchRequest,
  type SearchRequest,
} from './query.js';
import type { AnswerSlot } from './answer-cache.js';
import {
  answerHeaders,
  apiRequestOf,
  REQUEST_ORIGIN,
  headerOf,
  jsonAnswer,
  problemAnswerOf,
  webResponseOf,
  type ApiAnswer,
  type ApiHeaders,
  type ApiRequest,
} from './api-request.js';
import { jsonBodyOf } from './request-body.js';
import {
  mergePage,
  resultJson,
  searchAnswerJson,
  type ResultJson,
  type SearchResponse,
} from './search-results.js';
import {
  ENDPOINT_METHODS,
  methodProblem,
  type RegistryEndpoint,
  type RegistryRequestHandler,
} from './runtime.js';
import { QueryEngine } from './search.js';
import { lookUpAgent } from './agent-lookup.js';
import type { PeerResultVerifier } from './trust.js';

/** The origin given to request targets to read them as URLs: only their path and query string are used. */

/** The response headers a browser script may read (CORS `Access-Control-Expose-Headers`). */
export const API_EXPOSED_HEADERS = ['Retry-After', FAILED_PEERS_HEADER].join(', ');

/** The registry itself: what its results name as `source` and its trail entry. */
export interface RegistrySelf {
  /** Identifier of its `application/ai-registry+json` entry. */
  identifier: string;
  /** Its base URI (`https://<domain><basePath>`). */
  url: string;
}

/** Options of {@link createRegistryService}. */
export interface RegistryServiceOptions {
  catalog: Catalog;
  settings: RegistryConfig;
  self: RegistrySelf;
  /** HMAC key of the page tokens. */
  secret: Uint8Array;
  /** Fingerprint of the index (the manifest's digest): page tokens are bound to it. */
  indexFingerprint: string;
  /** Security headers for API paths (from `_headers`). */
  securityHeaders?: Readonly<Record<string, string>>;
  /** Verifies peer results; without one, peer results are `verified: false`. */
  peerVerifier?: PeerResultVerifier;
  /** The HTTP client of federation (tests inject one). */
  post?: PostJson;
  /** Where internal errors and failed peers are reported (never the query text). */
  log?: (line: string) => void;
}

/** The service: answers requests, and builds problem answers for the server in front of it. */
export interface RegistryService extends RegistryRequestHandler {
  /**
   * Answers one request of `endpoint` given as plain parts (api-request.ts): what the one server calls.
   * Never throws: a RegistryProblem becomes its problem answer, anything else a logged 500.
   */
  answer(endpoint: RegistryEndpoint, request: ApiRequest, slot?: AnswerSlot): Promise<ApiAnswer>;
  /** The answer to `problem`, with the API's headers (RFC 9457), as a web Response. */
  problem(problem: RegistryProblem): Response;
  /** The answer to `problem`, with the API's headers (RFC 9457), as plain parts. */
  problemAnswer(problem: RegistryProblem): ApiAnswer;
  /** The query engine (its caches). */
  readonly engine: QueryEngine;
}

/**
 * Creates the service over `options.catalog` (see the module comment).
 */
export function createRegistryService(options: RegistryServiceOptions): RegistryService {
  const { catalog, settings, self, secret } = options;
  // A short form of the manifest digest is enough to tell builds apart, and keeps tokens short.
  const indexFingerprint = options.indexFingerprint.replace(/^sha256:/, '').slice(0, 16);
  const engine = new QueryEngine(catalog);
  const log = options.log ?? (() => {});
  const baseHeaders: Record<string, string> = {
    ...options.securityHeaders,
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Expose-Headers': API_EXPOSED_HEADERS,
  };
  // Each entry's result item serialised once, around its score: a /search answer is assembled from
  // these strings (search-results.ts `searchAnswerJson`), not serialised per request.
  const results: ResultJson[] = catalog.entries.map((indexed) => resultJson(indexed, self.url));

  // The server may give a kept answer gzip-compressed to a client that accepts it (answer-cache.ts);
  // on a site in several languages, /search answers in the request's language (text-languages.ts).
  const vary = catalog.languages.length > 1 ? 'Accept-Encoding, Accept-Language' : 'Accept-Encoding';
  /** A JSON answer (api-request.ts `jsonAnswer`) with the API's headers. */
  const json = (
    status: number,
    body: unknown,
    cacheControl: string,
    extra: Record<string, string> = {},
    keepIn?: AnswerSlot,
    conditional?: ApiHeaders,
    text?: string,
  ): ApiAnswer =>
    jsonAnswer({
      status,
      text: text ?? JSON.stringify(body),
      headers: { ...baseHeaders, ...extra, Vary: vary },
      cacheControl,
      ...(keepIn ? { keepIn } : {}),
      ...(conditional ? { conditional } : {}),
    });
  const problemAnswer = (p: RegistryProblem): ApiAnswer => problemAnswerOf(p, baseHeaders);
  const problem = (p: RegistryProblem) => webResponseOf(problemAnswer(p));

  const pageOffset = (token: string | undefined, fingerprint: string): number =>
    token === undefined
      ? 0
      : decodePageToken(token, secret, { query: queryDigest(fingerprint), index: indexFingerprint });
  const nextToken = (next: number, total: number, fingerprint: string): string | undefined =>
    next < total
      ? encodePageToken({ offset: next, query: queryDigest(fingerprint), index: indexFingerprint }, secret)
      : undefined;

  /**
   * The language a request's query text is read in, when it is one the catalog has an index of besides the
   * default: the draft's requests have no language member, so `Accept-Language` chooses (RFC 9110
   * §12.5.4, text-languages.ts); `undefined` for the default language.
   */
  const askedLanguage = (request: ApiRequest): string | undefined => {
    const language = chooseLanguage(headerOf(request.headers, 'accept-language'), catalog.languages);
    return catalog.byLanguage.has(language) ? language : undefined;
  };

  /** The JSON value of a POST's body (request-body.ts). */
  const bodyOf = (request: ApiRequest) =>
    jsonBodyOf(
      headerOf(request.headers, 'content-type'),
      headerOf(request.headers, 'content-length'),
      request.body,
      settings.maxBodyBytes,
    );

  /** `seen.text`: the query text, kept only to blank it out of an internal error's log line (§7). */
  async function search(request: ApiRequest, seen: { text?: string }, slot?: AnswerSlot): Promise<ApiAnswer> {
    const body = bodyOf(request);
    const req: SearchRequest = readSearchRequest(body, settings.federation);
    seen.text = req.query.text;
    const language = askedLanguage(request);
    if (language !== undefined) req.query.language = language;
    const state = readFederationHeaders(
      { get: (name) => headerOf(request.headers, name.toLowerCase()) },
      settings.federation.maxHops,
    );
    const fingerprint = queryFingerprint('search', req.query, { federation: req.federation });
    const offset = pageOffset(req.pageToken, fingerprint);
    const referrals =
      req.federation === 'referrals'
        ? referralsOf(settings.federation.peers, self.identifier, state)
        : undefined;
    // A query whose trail already holds this registry has looped back (ARD draft §6.6): local answer only.
    const peers =
      req.federation === 'auto' && state.hopCount > 0 && !state.trail.includes(self.identifier)
        ? eligiblePeers(settings.federation.peers, self.identifier, state)
        : [];
    if (peers.length === 0) {
      // Local results only: the page's leading matches are ranked, and the answer is assembled from the
      // entries' serialised forms.
      const ranking = engine.rank(req.query, offset + req.pageSize);
      const end = Math.min(offset + req.pageSize, ranking.positions.length);
      const items: Array<{ json: ResultJson; score: number }> = [];
      for (let k = offset; k < end; k++)
        items.push({ json: results[ranking.positions[k]!]!, score: ranking.scores[k]! });
      const token = nextToken(offset + req.pageSize, ranking.total, fingerprint);
      return json(200, undefined, 'no-store', {}, slot, undefined, searchAnswerJson(items, referrals, token));
    }
    // Merged with the peers' results: the whole local ranking (a peer's result is left out when the
    // registry holds the same entry anywhere in its own), ranked before any peer is asked.
    const ranking = engine.rank(req.query);
    const extra: Record<string, string> = {};
    const outcome = await forwardSearch({
      peers,
      self: self.identifier,
      state,
      query: req.query,
      timeoutMs: settings.federation.timeoutMs,
      acceptLanguage: headerOf(request.headers, 'accept-language'),
      ...(options.post ? { post: options.post } : {}),
      log,
    });
    if (outcome.failed.length > 0)
      extra[FAILED_PEERS_HEADER] = outcome.failed.map((p) => p.identifier).join(', ');
    const verdicts = options.peerVerifier
      ? await options.peerVerifier.verify(outcome.results.map((r) => r.item))
      : outcome.results.map(() => 'unverified' as const);
    const kept = outcome.results
      .map((r, i) => ({ ...r, verdict: verdicts[i]! }))
      .filter((r) => r.verdict !== 'rejected')
      .map((r) => ({ ...r, verified: r.verdict === 'verified' }));
    const page = mergePage(catalog, ranking, kept, self.url, offset, req.pageSize);
    const token = nextToken(offset + req.pageSize, page.total, fingerprint);
    const answer: SearchResponse = {
      results: page.items,
      ...(referrals ? { referrals } : {}),
      ...(token ? { nextPageToken: token, pageToken: token } : {}),
    };
    // An answer merged from live peers may change from one request to the next: never kept.
    return json(200, answer, 'no-store', extra);
  }

  function explore(request: ApiRequest, seen: { text?: string }, slot?: AnswerSlot): ApiAnswer {
    const body = bodyOf(request);
    const req = readExploreRequest(body);
    seen.text = req.query.text;
    // Its text is matched in the request's language, as /search ranks it (text-languages.ts).
    const language = req.query.text !== undefined ? askedLanguage(request) : undefined;
    if (language !== undefined) req.query.language = language;
    const facets = engine.facets(req.query, req.facets);
    return json(200, { resultType: 'facets', facets }, 'no-store', {}, slot);
  }

  /**
   * `GET /agents`: one page of the list. The body holds the page twice over names two documents give it:
   * `items` and `pageToken` (ard-spec's `ListResponse`, which its conformance tool checks), `entries` and
   * `nextPageToken` (this API's first form, after the manifest's `entries` and the search-response's
   * `nextPageToken` of ARD draft §5), so clients of either read it; `total` counts every match.
   */
  function agents(request: ApiRequest, slot?: AnswerSlot): ApiAnswer {
    const req = readListQuery(new URL(request.target, REQUEST_ORIGIN).searchParams);
    const refine = { expression: req.expression, orderBy: req.orderBy };
    const fingerprint = queryFingerprint('agents', req.query, { refine: JSON.stringify(refine) });
    const offset = pageOffset(req.pageToken, fingerprint);
    const positions = engine.list(req.query, refine);
    const items = [...positions.subarray(offset, offset + req.pageSize)].map(
      (p) => catalog.entries[p]!.entry,
    );
    const token = nextToken(offset + req.pageSize, positions.length, fingerprint);
    const answer = {
      items,
      total: positions.length,
      ...(token ? { pageToken: token } : {}),
      entries: items,
      ...(token ? { nextPageToken: token } : {}),
    };
    return json(
      200,
      answer,
      JSON_CACHE_CONTROL,
      {},
      request.method === 'GET' ? slot : undefined,
      request.headers,
    );
  }

  /** `GET /agents/{identifier}` (agent-lookup.ts): cacheable, `If-None-Match` gives 304. */
  function agent(request: ApiRequest, slot?: AnswerSlot): ApiAnswer {
    const { entry, extra } = lookUpAgent(catalog, settings.basePath, request.target);
    return json(
      200,
      entry,
      JSON_CACHE_CONTROL,
      extra,
      request.method === 'GET' ? slot : undefined,
      request.headers,
    );
  }

  async function answer(
    endpoint: RegistryEndpoint,
    request: ApiRequest,
    slot?: AnswerSlot,
  ): Promise<ApiAnswer> {
    const seen: { text?: string } = {};
    try {
      if (endpoint === 'unknown') {
        throw new RegistryProblem(
          'NOT_FOUND',
          `there is no endpoint at this path; this registry answers POST ${settings.basePath}/search, POST ${settings.basePath}/explore, GET ${settings.basePath}/agents and GET ${settings.basePath}/agents/{identifier}`,
        );
      }
      const allowed = ENDPOINT_METHODS[endpoint];
      if (request.method === 'OPTIONS') {
        return {
          status: 204,
          headers: answerHeaders({
            ...baseHeaders,
            'Access-Control-Allow-Methods': [...allowed, 'OPTIONS'].join(', '),
            'Access-Control-Allow-Headers': ['Content-Type', HOP_COUNT_HEADER, TRAIL_HEADER].join(', '),
            'Access-Control-Max-Age': '86400',
            'Cache-Control': JSON_CACHE_CONTROL,
          }),
          body: null,
        };
      }
      const refused = methodProblem(endpoint, request.method);
      if (refused) throw refused;
      if (endpoint === 'search') return await search(request, seen, slot);
      if (endpoint === 'explore') return explore(request, seen, slot);
      if (endpoint === 'agent') return agent(request, slot);
      return agents(request, slot);
    } catch (error) {
      if (error instanceof RegistryProblem) return problemAnswer(error);
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      const text = seen.text;
      log(
        `registry: internal error on ${endpoint}: ${text ? message.split(text).join('[query text]') : message}`,
      );
      return problemAnswer(
        new RegistryProblem('INTERNAL_ERROR', 'the registry could not answer this request'),
      );
    }
  }

  /** The web form of {@link answer}, for the Astro routes of the server bundle (runtime.ts). */
  async function handle(endpoint: RegistryEndpoint, request: Request, slot?: AnswerSlot): Promise<Response> {
    let parts: ApiRequest;
    try {
      parts = await apiRequestOf(request, settings.maxBodyBytes);
    } catch {
      // The body could not be read to its end (the client went away, or sent a broken stream): a
      // client's fault, answered as such, inside the boundary every other failure is answered in.
      return webResponseOf(
        problemAnswer(new RegistryProblem('INVALID_ARGUMENT', 'the request body could not be read')),
      );
    }
    return webResponseOf(await answer(endpoint, parts, slot));
  }

  return { answer, handle, problem, problemAnswer, engine };
}
