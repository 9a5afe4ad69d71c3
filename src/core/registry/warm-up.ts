/**
 * The registry server's warm-up over HTTP, before it listens (server.ts).
 *
 * Why a server that has just built its index answers its first second slowly:
 * - V8 runs a function in its interpreter until it has run often enough to be compiled (Ignition, then
 *   Sparkplug, Maglev and TurboFan). Until then the ranking, the serialising, node:http's parser and its
 *   writes cost several times their steady price.
 * - libuv accepts at most one connection per turn of the event loop (libuv 1.45, "unix: don't accept()
 *   connections in a loop", the libuv of Node 20). Clients that connect together as the port opens are
 *   accepted one per turn, and while the code is cold a turn takes milliseconds. Measured at 10,000
 *   entries with 50 clients (BENCHMARKS.md): the last connection was accepted 1.2 s after the first, and
 *   its request waited all that time.
 *
 * So before the server listens, it sends itself the requests of a public registry's traffic, over HTTP
 * and through the same listeners (request-handler.ts): `POST /search` with texts made of its own
 * entries' words (some asked again, so that the answer cache serves them), with a `type` filter, with a
 * small page and its next page; `POST /explore`; `GET /agents` pages with a filter and an order;
 * `GET /agents/{identifier}`; with and without gzip, in each language of the site (ARD draft §4.2).
 *
 * What it leaves behind: nothing a real request reads. The listeners it calls are built over parts of
 * its own (server.ts): a registry service over the same catalog with its own caches and counters, a new
 * answer cache, no rate limit and no log. They listen on a private loopback port that is closed, with its
 * connections, before the server listens. Federation is never asked (no `federate` member). What stays
 * is compiled code, and what the catalog derives once from its entries on first use.
 *
 * It is bounded by a number of requests and by wall time, whichever comes first.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Catalog } from './catalog.js';
import type { RegistryHandlers } from './request-handler.js';

/** Bounds of {@link warmUpOverHttp}. */
export interface WarmUpBounds {
  /** Most requests sent (default {@link WARM_UP_REQUESTS}); 0 sends none. */
  requests?: number;
  /** Most wall time, ms (default {@link WARM_UP_MS}); checked before each request, and each request's timeout. */
  maxMs?: number;
}

/** What a warm-up did. */
export interface WarmUpReport {
  /** Requests sent. */
  requests: number;
  /** Wall time taken, ms. */
  ms: number;
  /** Answers by HTTP status (0: no answer, the request failed or timed out). */
  statuses: Record<number, number>;
  /** The private loopback port it used, closed when the report is returned (undefined when it sent none). */
  port?: number;
  /** Why it sent nothing although it had entries to ask about: its private port could not be opened. */
  skipped?: string;
}

/**
 * Requests a warm-up sends by default: about what a server of 10,000 entries answers in its first second
 * at the load of BENCHMARKS.md's registry section, enough for V8 to compile the paths they take.
 */
export const WARM_UP_REQUESTS = 1_500;

/** Most wall time a warm-up takes by default: 3 s. */
export const WARM_UP_MS = 3_000;

/** Connections the warm-up's client keeps open at once (keep-alive, as real clients reuse theirs). */
export const WARM_UP_CONNECTIONS = 16;

/** Words kept from each sampled entry's name and description. */
const WORDS_PER_ENTRY = 6;

/** Entries whose words make the texts (spread evenly over the index). */
const SAMPLED_ENTRIES = 64;

/** Texts asked more than once: every text of the slots that repeat is one of the first this many. */
const REPEATED_TEXTS = 60;

/** The `type` of an ARD entry of an A2A agent card (ARD draft §3.2), for the filtered requests. */
const A2A_CARD_TYPE = 'application/a2a-agent-card+json';

/**
 * Words of the names and descriptions of up to {@link SAMPLED_ENTRIES} entries spread evenly over
 * `catalog` (letters and digits, at least three characters each), in index order; `['agent']` when they
 * have none.
 */
export function warmUpWords(catalog: Catalog): string[] {
  const entries = catalog.entries;
  const step = Math.max(1, Math.floor(entries.length / SAMPLED_ENTRIES));
  const words: string[] = [];
  for (let i = 0; i < entries.length; i += step) {
    const { entry } = entries[i]!;
    const text = [entry.name, entry.description].filter((t) => typeof t === 'string').join(' ');
    words.push(...(text.match(/[\p{L}\p{N}]{3,}/gu) ?? []).slice(0, WORDS_PER_ENTRY));
  }
  return words.length > 0 ? words : ['agent'];
}

/** One request of a warm-up: what node:http's client sends. */
export interface WarmUpRequest {
  method: 'GET' | 'POST';
  /** The request target: path and query string. */
  path: string;
  headers: Record<string, string>;
  /** The JSON body of a POST. */
  body?: string;
}

/**
 * The `n`th request (from 0) of a warm-up over `catalog`, for the API at `basePath`: a cycle of 20 in the
 * shape of a public registry's traffic (see the module comment). `Accept-Language` cycles through the
 * site's languages when it has more than one; three requests in four accept gzip.
 */
export function warmUpRequest(
  catalog: Catalog,
  basePath: string,
  words: readonly string[],
  n: number,
): WarmUpRequest {
  const headers: Record<string, string> = {};
  const languages = catalog.languages;
  if (languages.length > 1) headers['accept-language'] = languages[n % languages.length]!;
  if (n % 4 !== 3) headers['accept-encoding'] = 'gzip, deflate, br';
  const slot = n % 20;
  // Two slots of each cycle ask one of the first texts again: the answer cache keeps an answer from its
  // second asking (answer-cache.ts), and serves it from the third.
  const m = slot === 3 || slot === 9 ? n % REPEATED_TEXTS : n;
  const word = (k: number) => words[(m * 7 + k * 13) % words.length]!;
  const text = [word(0), word(1), word(2), ...(m % 3 === 0 ? [word(3), word(4)] : [])].join(' ');
  const post = (endpoint: string, body: unknown): WarmUpRequest => ({
    method: 'POST',
    path: `${basePath}/${endpoint}`,
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (slot === 19) {
    const filter = encodeURIComponent(`type = '${A2A_CARD_TYPE}'`);
    const order = n % 40 === 19 ? 'identifier' : 'updatedAt%20DESC';
    return {
      method: 'GET',
      path: `${basePath}/agents?pageSize=50&filter=${filter}&orderBy=${order}`,
      headers,
    };
  }
  if (slot === 18) {
    const { identifier } = catalog.entries[(n * 7919) % catalog.entries.length]!;
    return { method: 'GET', path: `${basePath}/agents/${encodeURIComponent(identifier)}`, headers };
  }
  if (slot === 17)
    return post('explore', { query: { text }, resultType: { facets: [{ field: 'type', limit: 10 }] } });
  if (slot >= 14) return post('search', { query: { text, filter: { type: [A2A_CARD_TYPE] } } });
  if (slot === 13) return post('search', { query: { text }, pageSize: 5 });
  return post('search', { query: { text } });
}

/** Sends `request` to `port` on loopback through `agent`; resolves with the status and body (0: failed). */
function send(
  agent: http.Agent,
  port: number,
  request: WarmUpRequest,
  timeoutMs: number,
): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve) => {
    const body = request.body === undefined ? undefined : Buffer.from(request.body);
    const headers = body ? { ...request.headers, 'content-length': String(body.length) } : request.headers;
    const req = http.request(
      { agent, host: '127.0.0.1', port, method: request.method, path: request.path, headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
        res.on('error', () => resolve({ status: 0, body: Buffer.alloc(0) }));
      },
    );
    req.setTimeout(Math.max(1, timeoutMs), () => req.destroy(new Error('the warm-up request timed out')));
    req.on('error', () => resolve({ status: 0, body: Buffer.alloc(0) }));
    req.end(body);
  });
}

/**
 * The next page of a `POST /search` answered with `answer` (uncompressed JSON), or undefined when it has
 * none.
 */
function nextPage(request: WarmUpRequest, answer: Buffer): WarmUpRequest | undefined {
  let token: unknown;
  try {
    token = (JSON.parse(answer.toString('utf8')) as { nextPageToken?: unknown }).nextPageToken;
  } catch {
    return undefined;
  }
  if (typeof token !== 'string') return undefined;
  const body = { ...(JSON.parse(request.body!) as object), pageToken: token };
  return { ...request, body: JSON.stringify(body) };
}

/**
 * Sends the requests of {@link warmUpRequest} to `handlers` (built over parts of the warm-up's own: see
 * the module comment), listening on a private loopback port, over {@link WARM_UP_CONNECTIONS} keep-alive
 * connections, until `bounds` are reached; each 7th `POST /search` that has a next page also asks for
 * it. Closes the private port and its connections before it resolves. Sends nothing for a catalog without
 * entries, nor when the private port cannot be opened (`skipped` says why). Never throws: statuses are
 * counted, a failed request as 0.
 */
export async function warmUpOverHttp(
  handlers: RegistryHandlers,
  catalog: Catalog,
  basePath: string,
  bounds: WarmUpBounds = {},
): Promise<WarmUpReport> {
  const most = bounds.requests ?? WARM_UP_REQUESTS;
  const maxMs = bounds.maxMs ?? WARM_UP_MS;
  const statuses: Record<number, number> = {};
  if (catalog.entries.length === 0 || most <= 0 || maxMs <= 0) return { requests: 0, ms: 0, statuses };
  const started = performance.now();
  const server = http.createServer(handlers.request);
  server.on('connect', handlers.connect);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      // `exclusive`: in a worker of `serve --workers N` the port is the worker's own, not one shared
      // through node:cluster's primary, which would take it for the worker's public port.
      server.listen({ port: 0, host: '127.0.0.1', exclusive: true }, () => resolve());
    });
  } catch (error) {
    // A host without IPv4 loopback: the server starts cold rather than not at all.
    return { requests: 0, ms: performance.now() - started, statuses, skipped: (error as Error).message };
  }
  const { port } = server.address() as AddressInfo;
  const agent = new http.Agent({ keepAlive: true, maxSockets: WARM_UP_CONNECTIONS });
  const words = warmUpWords(catalog);
  let sent = 0;
  let next = 0;
  const left = () => maxMs - (performance.now() - started);
  const ask = async (request: WarmUpRequest) => {
    sent++;
    const answer = await send(agent, port, request, left());
    statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
    return answer;
  };
  const client = async () => {
    while (sent < most && left() > 0) {
      const n = next++;
      const request = warmUpRequest(catalog, basePath, words, n);
      const paged = request.method === 'POST' && request.path.endsWith('/search') && n % 7 === 0;
      // A page asked for its next one is read uncompressed, for its nextPageToken.
      if (paged) delete request.headers['accept-encoding'];
      const answer = await ask(request);
      const following = paged && answer.status === 200 ? nextPage(request, answer.body) : undefined;
      if (following && sent < most && left() > 0) await ask(following);
    }
  };
  try {
    await Promise.all(Array.from({ length: WARM_UP_CONNECTIONS }, client));
  } finally {
    agent.destroy();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
  return { requests: sent, ms: performance.now() - started, statuses, port };
}
