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
import { bodyEntityTag, notModified, notModifiedHeaders } from '../hosting/http-cache.js';
import { JSON_CACHE_CONTROL } from '../hosting/http-cache.js';
import { isArdIdentifier } from '../ard/urn.js';
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
import { RegistryProblem, invalidArgument, problemResponse } from './problems.js';
import { chooseLanguage } from './text-languages.js';
import {
  queryFingerprint,
  readExploreRequest,
  readListQuery,
  readSearchRequest,
  type SearchRequest,
} from './query.js';
import type { AnswerSlot } from './answer-cache.js';
import { readJsonBody } from './request-body.js';
import { localResult, mergePage, type SearchResponse, type SearchResultItem } from './search-results.js';
import {
  ENDPOINT_METHODS,
  methodProblem,
  type RegistryEndpoint,
  type RegistryRequestHandler,
} from './runtime.js';
import { QueryEngine } from './search.js';
import type { PeerResultVerifier } from './trust.js';

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
  /** The answer to `problem`, with the API's headers. */
  problem(problem: RegistryProblem): Response;
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

  /**
   * A JSON answer. With `keepIn`, the answer is also put in that slot for the server's answer cache
   * (answer-cache.ts): only for answers that depend on nothing but the request. A cacheable answer (not
   * `no-store`) carries an `ETag` of its bytes, and with `conditional` (the GET it answers) a request
   * whose `If-None-Match` names that tag gets a 304 without a body (RFC 9110 §13.1.2), never kept.
   */
  const json = (
    status: number,
    body: unknown,
    cacheControl: string,
    extra: Record<string, string> = {},
    keepIn?: AnswerSlot,
    conditional?: Request,
  ) => {
    const bytes = Buffer.from(`${JSON.stringify(body)}\n`);
    const headers = new Headers({
      ...baseHeaders,
      ...extra,
      'Content-Type': 'application/json',
      'Cache-Control': cacheControl,
      // The server may give a kept answer gzip-compressed to a client that accepts it (answer-cache.ts);
      // on a site in several languages, /search answers in the request's language (text-languages.ts).
      Vary: catalog.languages.length > 1 ? 'Accept-Encoding, Accept-Language' : 'Accept-Encoding',
    });
    if (cacheControl !== 'no-store') {
      const tag = bodyEntityTag(bytes);
      headers.set('ETag', tag);
      if (conditional && notModified(Object.fromEntries(conditional.headers), tag))
        return new Response(null, { status: 304, headers: notModifiedHeaders(headers) });
    }
    if (keepIn) keepIn.answer = { status, headers: [...headers], body: bytes };
    return new Response(bytes, { status, headers });
  };
  const problem = (p: RegistryProblem) => problemResponse(p, baseHeaders);

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
  const askedLanguage = (request: Request): string | undefined => {
    const language = chooseLanguage(request.headers.get('accept-language'), catalog.languages);
    return catalog.byLanguage.has(language) ? language : undefined;
  };

  /** `seen.text`: the query text, kept only to blank it out of an internal error's log line (§7). */
  async function search(request: Request, seen: { text?: string }, slot?: AnswerSlot): Promise<Response> {
    const body = await readJsonBody(request, settings.maxBodyBytes);
    const req: SearchRequest = readSearchRequest(body, settings.federation);
    seen.text = req.query.text;
    const language = askedLanguage(request);
    if (language !== undefined) req.query.language = language;
    const state = readFederationHeaders(request.headers, settings.federation.maxHops);
    const fingerprint = queryFingerprint('search', req.query, { federation: req.federation });
    const offset = pageOffset(req.pageToken, fingerprint);
    const ranking = engine.rank(req.query);
    const extra: Record<string, string> = {};
    let page: { items: SearchResultItem[]; total: number };
    // A query whose trail already holds this registry has looped back (ARD draft §6.6): local answer only.
    const peers =
      req.federation === 'auto' && state.hopCount > 0 && !state.trail.includes(self.identifier)
        ? eligiblePeers(settings.federation.peers, self.identifier, state)
        : [];
    if (peers.length > 0) {
      const outcome = await forwardSearch({
        peers,
        self: self.identifier,
        state,
        query: req.query,
        timeoutMs: settings.federation.timeoutMs,
        acceptLanguage: request.headers.get('accept-language'),
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
      page = mergePage(catalog, ranking, kept, self.url, offset, req.pageSize);
    } else {
      const end = Math.min(offset + req.pageSize, ranking.positions.length);
      const items: SearchResultItem[] = [];
      for (let k = offset; k < end; k++)
        items.push(localResult(catalog.entries[ranking.positions[k]!]!, ranking.scores[k]!, self.url));
      page = { items, total: ranking.positions.length };
    }
    const token = nextToken(offset + req.pageSize, page.total, fingerprint);
    const answer: SearchResponse = {
      results: page.items,
      ...(req.federation === 'referrals'
        ? { referrals: referralsOf(settings.federation.peers, self.identifier, state) }
        : {}),
      ...(token ? { nextPageToken: token, pageToken: token } : {}),
    };
    // An answer merged from live peers may change from one request to the next: never kept.
    return json(200, answer, 'no-store', extra, peers.length === 0 ? slot : undefined);
  }

  async function explore(request: Request, seen: { text?: string }, slot?: AnswerSlot): Promise<Response> {
    const body = await readJsonBody(request, settings.maxBodyBytes);
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
  function agents(request: Request, slot?: AnswerSlot): Response {
    const req = readListQuery(new URL(request.url).searchParams);
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
    return json(200, answer, JSON_CACHE_CONTROL, {}, request.method === 'GET' ? slot : undefined, request);
  }

  /**
   * `GET /agents/{identifier}` (ard-spec v0.91 §5.3.4, its ADR-0010): the entry of this registry's own
   * index whose identifier is exactly the one in the path, decoded once; never forwarded to peers. The
   * answer is the catalog entry as indexed, without the search-only members `score` and `source`;
   * `?version=` picks one version, else the latest (versions compared with their numbers as numbers),
   * and `Link: <…>; rel="alternate"` headers name the others. It is cacheable (`Cache-Control`, `ETag`;
   * `If-None-Match` gives 304).
   * @throws RegistryProblem INVALID_ARGUMENT (an identifier that is not an ARD identifier, bad
   *   parameters), NOT_FOUND (no such identifier or version).
   */
  function agent(request: Request, slot?: AnswerSlot): Response {
    const url = new URL(request.url);
    const prefix = `${settings.basePath}/agents/`;
    let identifier: string;
    try {
      identifier = decodeURIComponent(url.pathname.slice(prefix.length));
    } catch {
      throw invalidArgument('the identifier in the path is not valid percent-encoded UTF-8');
    }
    if (!isArdIdentifier(identifier))
      throw invalidArgument(
        `${JSON.stringify(identifier.slice(0, 200))} is not an ARD identifier (urn:air:<publisher>:<namespace>:<name>, percent-encoded as one path segment)`,
      );
    let version: string | undefined;
    for (const [name, value] of url.searchParams) {
      if (name !== 'version' || version !== undefined || value === '')
        throw invalidArgument(
          `GET /agents/{identifier} takes one parameter, version=<version>, not ${JSON.stringify(name.slice(0, 64))}${name === 'version' ? ' twice or empty' : ''}`,
        );
      version = value;
    }
    const versions = catalog.byIdentifier.get(identifier) ?? [];
    if (versions.length === 0)
      throw new RegistryProblem(
        'NOT_FOUND',
        `no entry of this registry has the identifier ${JSON.stringify(identifier.slice(0, 200))}`,
      );
    const position =
      version === undefined
        ? versions[versions.length - 1]!
        : versions.find((p) => catalog.entries[p]!.version === version);
    if (position === undefined)
      throw new RegistryProblem(
        'NOT_FOUND',
        `the entry ${JSON.stringify(identifier.slice(0, 200))} has no version ${JSON.stringify(version!.slice(0, 64))}; it has ${versions.map((p) => catalog.entries[p]!.version ?? '(none)').join(', ')}`,
      );
    const others = versions
      .filter((p) => p !== position && catalog.entries[p]!.version !== undefined)
      .map(
        (p) =>
          `<${prefix}${encodeURIComponent(identifier)}?version=${encodeURIComponent(catalog.entries[p]!.version!)}>; rel="alternate"`,
      );
    const extra: Record<string, string> = others.length > 0 ? { Link: others.join(', ') } : {};
    const {
      score: _score,
      source: _source,
      ...entry
    } = catalog.entries[position]!.entry as Record<string, unknown>;
    return json(200, entry, JSON_CACHE_CONTROL, extra, request.method === 'GET' ? slot : undefined, request);
  }

  async function handle(endpoint: RegistryEndpoint, request: Request, slot?: AnswerSlot): Promise<Response> {
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
        return new Response(null, {
          status: 204,
          headers: {
            ...baseHeaders,
            'Access-Control-Allow-Methods': [...allowed, 'OPTIONS'].join(', '),
            'Access-Control-Allow-Headers': ['Content-Type', HOP_COUNT_HEADER, TRAIL_HEADER].join(', '),
            'Access-Control-Max-Age': '86400',
            'Cache-Control': JSON_CACHE_CONTROL,
          },
        });
      }
      const refused = methodProblem(endpoint, request.method);
      if (refused) throw refused;
      if (endpoint === 'search') return await search(request, seen, slot);
      if (endpoint === 'explore') return await explore(request, seen, slot);
      if (endpoint === 'agent') return agent(request, slot);
      return agents(request, slot);
    } catch (error) {
      if (error instanceof RegistryProblem) return problem(error);
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      const text = seen.text;
      log(
        `registry: internal error on ${endpoint}: ${text ? message.split(text).join('[query text]') : message}`,
      );
      return problem(new RegistryProblem('INTERNAL_ERROR', 'the registry could not answer this request'));
    }
  }

  return { handle, problem, engine };
}
