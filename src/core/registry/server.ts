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
 * What it does with each request is request-handler.ts. Before the service is called, it applies what
 * must not cost a ranking: the per-client token bucket (429 RATE_LIMIT_EXCEEDED with Retry-After, ARD
 * draft §6.6), the body size (413, from the declared length, then while reading), and the answer cache
 * (answer-cache.ts): a GET or POST it has answered before, with the same path, query string, body bytes
 * and the headers the service reads, gets the same answer's bytes again. Everything else goes to the
 * service, and an answer the service allows to be kept is stored on the way out the second time its
 * request is made (answer-cache.ts `offer`). The access log line of an API request holds the method, the
 * path (never the query string or the body: ARD draft §7), the status and the time taken.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { headersForPath, parseHeadersFile } from '../hosting/headers-file.js';
import { previewHandler, type PreviewServer } from '../hosting/preview-server.js';
import type { RegistryConfig } from '../schema/registry-settings.js';
import { ArdsiteError } from '../util/errors.js';
import { collectFully } from '../util/full-collection.js';
import { httpJsonPoster, httpReader } from '../verify/http-reader.js';
import type { SiteReader } from '../verify/reader.js';
import { AnswerCache } from './answer-cache.js';
import { readRegistryBuild, registryServerDir } from './bundle.js';
import { MAX_PEER_ANSWER_BYTES, type PostJson } from './federation.js';
import { loadRegistryIndex, type LoadedIndex } from './load-index.js';
import { TokenBucketLimiter } from './rate-limit.js';
import { registryHandlers } from './request-handler.js';
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

  const handlers = registryHandlers({
    service,
    answers,
    limiter,
    basePath,
    maxBodyBytes: settings.maxBodyBytes,
    serveStatic,
    log,
    accessLog: options.accessLog === true,
  });

  const headersTimeout = options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS;
  const requestTimeout = Math.max(options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS, headersTimeout);
  const timeouts = {
    headersTimeout,
    requestTimeout,
    connectionsCheckingInterval: Math.min(TIMEOUT_CHECK_MS, Math.max(50, Math.floor(headersTimeout / 4))),
  };
  const server = http.createServer(timeouts, handlers.request);
  // CONNECT never reaches the request handler; without a listener Node drops the connection unanswered.
  server.on('connect', handlers.connect);
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
