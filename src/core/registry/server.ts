/**
 * The one Node server of DESIGN.md §7 in registry mode (`npm run serve`): the static files of `dist/`
 * exactly as `npm run preview` serves them (src/core/hosting/preview-server.ts: the `_headers` headers, the 404
 * page, path checks), and under the registry's base path the lookup API of ARD draft §4.2, answered by
 * the registry service (service.ts) called directly from this server (node-request.ts), with no
 * framework's request pipeline in between. The server bundle in `dist-server/` (@astrojs/node in
 * `middleware` mode, whose routes call the same service) is checked to belong to `dir` but not run:
 * it stays for hosts that mount it themselves. Once the index is built and before it listens, the server
 * runs one full garbage collection (src/core/util/full-collection.ts), so that the garbage of start-up is
 * not collected under the first requests.
 *
 * Before the service is called, the server applies what must not cost a ranking: the per-client token
 * bucket (429 RATE_LIMIT_EXCEEDED with Retry-After, ARD draft §6.6), the body size (413, from the
 * declared length, then while reading), and the answer cache (answer-cache.ts): a GET or POST it has
 * answered before, with the same path, query string, body bytes and the headers the service reads, gets
 * the same answer's bytes again. Everything else goes to the service, and an answer the service allows
 * to be kept is stored on the way out the second time its request is made (answer-cache.ts `offer`).
 * The access log line of an API request holds the method, the path (never the query string or the body:
 * ARD draft §7), the status and the time taken.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import Negotiator from 'negotiator';
import { headersForPath, parseHeadersFile } from '../hosting/headers-file.js';
import { notModified, notModifiedHeaders } from '../hosting/http-cache.js';
import { previewHandler, type PreviewServer } from '../hosting/preview-server.js';
import type { RegistryConfig } from '../schema/registry-settings.js';
import { ArdsiteError } from '../util/errors.js';
import { collectFully } from '../util/full-collection.js';
import { httpJsonPoster, httpReader } from '../verify/http-reader.js';
import type { SiteReader } from '../verify/reader.js';
import { AnswerCache, MIN_GZIP_BYTES, answerKey, type AnswerSlot, type KeptAnswer } from './answer-cache.js';
import { readRegistryBuild, registryServerDir } from './bundle.js';
import { MAX_PEER_ANSWER_BYTES, type PostJson } from './federation.js';
import { loadRegistryIndex, type LoadedIndex } from './load-index.js';
import { RegistryProblem, invalidArgument } from './problems.js';
import { TokenBucketLimiter } from './rate-limit.js';
import { apiEndpointAt, apiRequest, writeAnswer } from './node-request.js';
import { methodProblem } from './runtime.js';
import { createRegistryService, type RegistryService } from './service.js';
import { PeerResultVerifier } from './trust.js';

/** Options of {@link startRegistryServer}. */
export interface RegistryServerOptions {
  /** The built site (`dist/`). */
  dir: string;
  /** The server bundle (default `<dir>-server`). */
  serverDir?: string;
  /** The run-time `registry:` settings; `basePath` must be the one the bundle was built with. */
  settings: RegistryConfig;
  /** The pageToken HMAC secret (config.ts). */
  secret: Uint8Array;
  /** TCP port; 0 picks a free one. */
  port: number;
  /** Interface to listen on (default `127.0.0.1`). */
  host?: string;
  /** Reads other origins: foreign entries at start-up, peer results' publishers. Default: the network
   * reader of DESIGN.md §4 (TLS 1.3, timeouts, no private addresses) with `resolve`. */
  network?: SiteReader;
  /** host → base URL mappings of the default network reader (as `npm run verify -- --resolve`). */
  resolve?: ReadonlyMap<string, string>;
  /** The federation's HTTP client (tests inject one); default: the network reader's client with `resolve`. */
  post?: PostJson;
  /**
   * Allow private, loopback and link-local addresses for the network reader and the peers (the operator's
   * `npm run serve -- --allow-private`, never publisher.yaml); default false.
   */
  allowPrivate?: boolean;
  /** Log lines (start-up summary, warnings, access log, internal errors); default: none. */
  log?: (line: string) => void;
  /** Writes one access log line per API request (default false). */
  accessLog?: boolean;
  /** The time trustManifest expiry is checked against at start-up (default now). */
  now?: Date;
  /**
   * How long a client may take to send a request's headers, and the whole request, in ms (defaults
   * {@link HEADERS_TIMEOUT_MS} and {@link REQUEST_TIMEOUT_MS}); a slower one gets a 408 and its
   * connection closes. Checked every {@link TIMEOUT_CHECK_MS} (or a quarter of `headersTimeoutMs` when
   * that is shorter).
   */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  /**
   * One full garbage collection after the index is built and before the server listens
   * (src/core/util/full-collection.ts), so that the first requests do not pay for the start-up's garbage;
   * default true.
   */
  collectBeforeListening?: boolean;
}

/**
 * Default headers timeout: 10 s, against Node's 60 s, so that clients that open connections and send
 * their headers a byte at a time (a slowloris) hold a socket for seconds, not a minute.
 */
export const HEADERS_TIMEOUT_MS = 10_000;
/** Default time to receive a whole request: 30 s (Node's default is 300 s); a body is at most `maxBodyBytes`. */
export const REQUEST_TIMEOUT_MS = 30_000;
/** How often the two timeouts are checked: 1 s (Node's default interval is 30 s). */
export const TIMEOUT_CHECK_MS = 1_000;

/** A running registry server. */
export interface RegistryServer extends PreviewServer {
  index: LoadedIndex;
  service: RegistryService;
  /** The answer cache of this process (answer-cache.ts). */
  answers: AnswerCache;
  /** The API's base URL on this server: `<origin><basePath>`. */
  apiUrl: string;
}

const EMPTY_BODY = Buffer.alloc(0);

/** The methods some endpoint of the API takes; any other is refused before the service is called. */
const API_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'OPTIONS']);

/**
 * The raw HTTP/1.1 answer to a CONNECT (Node hands it to the `connect` event, not to the request
 * handler): a 405 problem, then the connection is closed. No endpoint of this server is a proxy.
 */
function connectRefusal(problem: RegistryProblem, headers: Readonly<Record<string, string>>): string {
  const body = `${JSON.stringify(problem.toBody())}\n`;
  const lines = Object.entries({
    ...headers,
    Allow: 'GET, HEAD, POST, OPTIONS',
    'Content-Type': 'application/problem+json',
    'Cache-Control': 'no-store',
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
  }).map(([name, value]) => `${name}: ${value}`);
  return `HTTP/1.1 405 Method Not Allowed\r\n${lines.join('\r\n')}\r\n\r\n${body}`;
}

/**
 * Reads a request body of at most `maxBytes`.
 * @throws RegistryProblem INVALID_ARGUMENT with status 413 when the body is larger (the rest is not read),
 *   with status 400 when the client closes the connection before the body's end.
 */
function readBody(req: http.IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        req.off('data', onData);
        req.pause();
        reject(
          new RegistryProblem(
            'INVALID_ARGUMENT',
            `the body is larger than this registry accepts (${maxBytes} bytes)`,
            { status: 413 },
          ),
        );
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)));
    // A client that goes away mid-body ('aborted', or a close before the end): the answer, a 400 nobody
    // reads, ends the request's handling: the client's doing, not an internal error.
    const cut = () => reject(invalidArgument('the connection closed before the end of the body'));
    req.once('error', cut);
    req.once('close', () => {
      if (!req.complete) cut();
    });
  });
}

/**
 * negotiator 1.x's `encoding(available, { preferred })` (its README), which @types/negotiator 0.6 does
 * not declare yet: the client's most preferred of `available`, ties broken by `preferred`.
 */
type EncodingNegotiator = {
  encoding(available: string[], options: { preferred: string[] }): string | undefined;
};

/**
 * Writes an answer of the answer cache, as the service first gave it: gzip-compressed when the client
 * accepts gzip at least as much as no encoding (RFC 9110 §12.5.3, read by the `negotiator` package),
 * else as it is; a 304 without a body when the request's `If-None-Match` names its `ETag`.
 */
function writeKeptAnswer(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  answer: KeptAnswer,
  answers: AnswerCache,
): void {
  // A kept answer with a validator answers a conditional GET as the service would (RFC 9110 §13.1.2).
  const tag = answer.headers.find(([name]) => name === 'etag')?.[1];
  if (tag !== undefined && notModified(req.headers, tag)) {
    res.writeHead(304, notModifiedHeaders(answer.headers).flat());
    res.end();
    return;
  }
  const gzip =
    answer.body.length >= MIN_GZIP_BYTES &&
    req.headers['accept-encoding'] !== undefined &&
    (new Negotiator(req) as unknown as EncodingNegotiator).encoding(['identity', 'gzip'], {
      preferred: ['gzip', 'identity'],
    }) === 'gzip'
      ? answers.gzipForm(answer)
      : undefined;
  const form = gzip ?? answer.identity;
  res.writeHead(answer.status, form.rawHeaders);
  res.end(form.body);
}

/** The security headers `_headers` gives the API's paths, without the ones each answer sets itself. */
async function apiSecurityHeaders(dir: string, basePath: string): Promise<Record<string, string>> {
  const text = await readFile(path.join(dir, '_headers'), 'utf8').catch(() => '');
  const own = /^(content-type|cache-control|access-control-.*|link|content-security-policy)$/i;
  return Object.fromEntries(
    headersForPath(parseHeadersFile(text), `${basePath}/search`).filter(([name]) => !own.test(name)),
  );
}

/**
 * Starts the registry server: checks that `dir` and its server bundle belong together and that the
 * settings' base path is the built one, loads and verifies the index, then listens.
 * @throws ArdsiteError `REGISTRY_BUILD_MISSING`, `REGISTRY_CONFIG_INVALID` (another basePath),
 *   `REGISTRY_INDEX_INVALID`, `FILE_MISSING`.
 */
export async function startRegistryServer(options: RegistryServerOptions): Promise<RegistryServer> {
  const dir = path.resolve(options.dir);
  const build = await readRegistryBuild(dir, options.serverDir ?? registryServerDir(dir));
  const { descriptor } = build;
  const { settings } = options;
  const basePath = descriptor.basePath;
  if (settings.basePath !== basePath) {
    throw new ArdsiteError(
      'REGISTRY_CONFIG_INVALID',
      `registry.basePath is ${settings.basePath} in publisher.yaml, but the build serves the API at ${basePath}; rebuild (npm run build -- --registry)`,
    );
  }
  const log = options.log ?? (() => {});
  const reach = {
    ...(options.resolve ? { resolve: options.resolve } : {}),
    ...(options.allowPrivate ? { allowPrivate: true } : {}),
  };
  const network = options.network ?? httpReader({ timeoutMs: 5_000, maxBytes: 4 * 1024 * 1024, ...reach });
  // Peers are reached by the same client, under the same address rules, as the network reader.
  const post = options.post ?? httpJsonPoster({ maxBytes: MAX_PEER_ANSWER_BYTES, ...reach });
  const started = performance.now();
  const index = await loadRegistryIndex({
    dir,
    origin: descriptor.origin,
    network,
    ...(options.now ? { now: options.now } : {}),
    log,
  });
  const service = createRegistryService({
    catalog: index.catalog,
    settings,
    self: { identifier: descriptor.identifier, url: descriptor.url },
    secret: options.secret,
    indexFingerprint: index.fingerprint,
    securityHeaders: await apiSecurityHeaders(dir, basePath),
    peerVerifier: new PeerResultVerifier({ reader: network }),
    post,
    log,
  });
  log(
    `Registry index: ${index.catalog.entries.length} entries (${index.unverified.length} unverified, ${index.rejected.length} left out) in ${((performance.now() - started) / 1000).toFixed(1)} s.`,
  );
  if (index.catalog.droppedPaths > 0)
    log(
      `registry: ${index.catalog.droppedPaths} term paths beyond the first ${index.catalog.props.size} cannot be filtered on`,
    );

  const serveStatic = await previewHandler(dir);
  const limiter = new TokenBucketLimiter(settings.rateLimit);
  const answers = new AnswerCache(settings.answerCacheBytes);

  const api = async (req: http.IncomingMessage, res: http.ServerResponse, pathname: string) => {
    const method = req.method ?? '';
    const head = method === 'HEAD';
    const reply = (problem: RegistryProblem) => writeAnswer(res, service.problemAnswer(problem), head);
    if (options.accessLog) {
      const t0 = performance.now();
      res.on('finish', () =>
        log(`${method} ${pathname} ${res.statusCode} ${(performance.now() - t0).toFixed(1)} ms`),
      );
    }
    if (method !== 'OPTIONS') {
      const decision = limiter.take(req.socket.remoteAddress ?? '');
      if (!decision.allowed) {
        return reply(
          new RegistryProblem(
            'RATE_LIMIT_EXCEEDED',
            `too many requests from this client; retry after ${decision.retryAfterSeconds} s`,
            { headers: { 'Retry-After': String(decision.retryAfterSeconds) } },
          ),
        );
      }
    }
    const endpoint = apiEndpointAt(basePath, pathname);
    // A method no endpoint takes (TRACE, CONNECT, PUT, …) is answered here: a web Request cannot even
    // hold TRACE.
    if (!API_METHODS.has(method)) {
      return reply(
        methodProblem(endpoint, method) ??
          new RegistryProblem('NOT_FOUND', 'there is no endpoint at this path'),
      );
    }
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (declared > settings.maxBodyBytes) {
      res.setHeader('Connection', 'close');
      return reply(
        new RegistryProblem(
          'INVALID_ARGUMENT',
          `the body is larger than this registry accepts (${settings.maxBodyBytes} bytes)`,
          { status: 413 },
        ),
      );
    }
    let body: Buffer = EMPTY_BODY;
    if (method === 'POST') {
      try {
        body = await readBody(req, settings.maxBodyBytes);
      } catch (error) {
        if (!(error instanceof RegistryProblem)) throw error;
        res.setHeader('Connection', 'close');
        return reply(error);
      }
    }
    const key =
      answers.maxBytes > 0 && (method === 'GET' || method === 'POST')
        ? answerKey(method, req.url ?? '', req.headers, body)
        : undefined;
    if (key !== undefined) {
      const kept = answers.get(key);
      if (kept) return writeKeptAnswer(req, res, kept, answers);
    }
    const slot: AnswerSlot = {};
    const answer = await service.answer(
      endpoint,
      apiRequest(req, body),
      key !== undefined ? slot : undefined,
    );
    writeAnswer(res, answer, head);
    // A 304 counts as a request for the answer it stands for (jsonAnswer keeps the full one).
    if (key !== undefined && slot.answer && (answer.status === slot.answer.status || answer.status === 304))
      answers.offer(key, slot.answer);
  };

  const headersTimeout = options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS;
  const requestTimeout = Math.max(options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS, headersTimeout);
  const timeouts = {
    headersTimeout,
    requestTimeout,
    connectionsCheckingInterval: Math.min(TIMEOUT_CHECK_MS, Math.max(50, Math.floor(headersTimeout / 4))),
  };
  const server = http.createServer(timeouts, (req, res) => {
    let pathname: string;
    try {
      pathname = new URL(req.url ?? '/', 'http://registry.invalid').pathname;
    } catch {
      pathname = '';
    }
    // The base path itself is the registry entry's url: the static service description (service-document.ts).
    if (pathname.startsWith(`${basePath}/`)) {
      api(req, res, pathname).catch((error: unknown) => {
        log(`registry: could not answer ${req.method} ${pathname}: ${(error as Error).message}`);
        if (!res.headersSent)
          writeAnswer(
            res,
            service.problemAnswer(
              new RegistryProblem('INTERNAL_ERROR', 'the registry could not answer this request'),
            ),
            false,
          );
        else res.destroy();
      });
      return;
    }
    serveStatic(req, res);
  });
  // CONNECT never reaches the request handler; without a listener Node drops the connection unanswered.
  server.on('connect', (_req: http.IncomingMessage, socket: Duplex) => {
    if (options.accessLog) log(`CONNECT - 405`);
    const problem = new RegistryProblem(
      'NOT_IMPLEMENTED',
      'CONNECT is not implemented: this server is no proxy; the API takes GET, HEAD, POST and OPTIONS',
      { status: 405 },
    );
    socket.on('error', () => {});
    socket.end(
      connectRefusal(problem, { 'Access-Control-Allow-Origin': '*', 'X-Content-Type-Options': 'nosniff' }),
    );
  });
  const host = options.host ?? '127.0.0.1';
  // The start-up's garbage collected now, not under the first requests (full-collection.ts).
  if (options.collectBeforeListening !== false) {
    const ms = collectFully();
    if (ms !== undefined) log(`Collected the start-up's garbage in ${Math.round(ms)} ms.`);
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    server,
    origin,
    apiUrl: `${origin}${basePath}`,
    index,
    service,
    answers,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
