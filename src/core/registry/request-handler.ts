/**
 * What the registry server (server.ts) does with each HTTP request, as a pair of Node listeners built
 * over the parts of one process: under the base path, the lookup API of ARD draft §4.2 (the per-client
 * token bucket, ARD draft §6.6; the body bound; the answer cache, answer-cache.ts; then the registry
 * service, service.ts, called directly: node-request.ts); elsewhere the static files of `dist/`
 * (src/core/hosting/preview-server.ts); a CONNECT answered 405.
 */
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import Negotiator from 'negotiator';
import { notModified, notModifiedHeaders } from '../hosting/http-cache.js';
import {
  MIN_GZIP_BYTES,
  answerKey,
  type AnswerCache,
  type AnswerSlot,
  type KeptAnswer,
} from './answer-cache.js';
import { RegistryProblem, invalidArgument } from './problems.js';
import type { RateDecision } from './rate-limit.js';
import { apiEndpointAt, apiRequest, writeAnswer } from './node-request.js';
import { methodProblem } from './runtime.js';
import type { RegistryService } from './service.js';

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

/** The parts of one process that {@link registryHandlers} answers with. */
export interface RegistryHandlerParts {
  service: RegistryService;
  /** The answer cache (answer-cache.ts). */
  answers: AnswerCache;
  /** The per-client rate limit (rate-limit.ts `TokenBucketLimiter`): one token per request but OPTIONS. */
  limiter: { take(client: string): RateDecision };
  /** The API's base path (`/ard/v1`). */
  basePath: string;
  /** The largest request body accepted, bytes (413 above it). */
  maxBodyBytes: number;
  /** What answers the paths outside the API (src/core/hosting/preview-server.ts `previewHandler`). */
  serveStatic: http.RequestListener;
  /** Internal errors, and the access log when `accessLog`. */
  log: (line: string) => void;
  /** One access log line per API request: method, path (no query string, no body: ARD draft §7), status, ms. */
  accessLog: boolean;
}

/** The listeners of {@link registryHandlers}: node:http's `request` event, and its `connect` event. */
export interface RegistryHandlers {
  request: http.RequestListener;
  connect: (req: http.IncomingMessage, socket: Duplex) => void;
}

/**
 * The request and CONNECT listeners of a registry server over `parts` (see the module comment). Never
 * throws: an error of the service is logged and answered 500 `INTERNAL_ERROR` (ARD draft §4.2.5).
 */
export function registryHandlers(parts: RegistryHandlerParts): RegistryHandlers {
  const { service, answers, limiter, basePath, maxBodyBytes, serveStatic, log, accessLog } = parts;
  const api = async (req: http.IncomingMessage, res: http.ServerResponse, pathname: string) => {
    const method = req.method ?? '';
    const head = method === 'HEAD';
    const reply = (problem: RegistryProblem) => writeAnswer(res, service.problemAnswer(problem), head);
    if (accessLog) {
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
    if (declared > maxBodyBytes) {
      res.setHeader('Connection', 'close');
      return reply(
        new RegistryProblem(
          'INVALID_ARGUMENT',
          `the body is larger than this registry accepts (${maxBodyBytes} bytes)`,
          { status: 413 },
        ),
      );
    }
    let body: Buffer = EMPTY_BODY;
    if (method === 'POST') {
      try {
        body = await readBody(req, maxBodyBytes);
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

  const request: http.RequestListener = (req, res) => {
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
  };
  const connect = (_req: http.IncomingMessage, socket: Duplex) => {
    if (accessLog) log(`CONNECT - 405`);
    const problem = new RegistryProblem(
      'NOT_IMPLEMENTED',
      'CONNECT is not implemented: this server is no proxy; the API takes GET, HEAD, POST and OPTIONS',
      { status: 405 },
    );
    socket.on('error', () => {});
    socket.end(
      connectRefusal(problem, { 'Access-Control-Allow-Origin': '*', 'X-Content-Type-Options': 'nosniff' }),
    );
  };
  return { request, connect };
}
