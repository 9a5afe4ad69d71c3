/**
 * A {@link SiteReader} over the network, with the rules of DESIGN.md §4 and ARD draft §6.5: https with
 * TLS 1.3 or later (plain http only for loopback hosts and `--resolve` targets), a timeout, a size cap,
 * no redirect to another origin, and no connection to a private, loopback or link-local address unless
 * allowed: a name is checked on the address it resolved to, at connect time (the socket's `lookup`), and
 * an IP-literal host, which is connected to without a lookup, before connecting. So `http://localhost`
 * too needs `--allow-private`. `--resolve host=URL` (as curl's) sends every request for `host` to a
 * server the user named instead (loopback allowed), with the original Host header.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { ipLiteral, isLoopbackHost, isPrivateAddress } from '../util/net-address.js';
import type { FetchedDocument, SiteReader } from './reader.js';

export { isPrivateAddress };

/** Default cap on one response body: 32 MiB. */
export const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;
/** Default timeout of one request, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 15_000;

/** Options of {@link httpReader}. */
export interface HttpReaderOptions {
  /** Largest body accepted, in bytes (default {@link DEFAULT_MAX_BYTES}). */
  maxBytes?: number;
  /** Timeout per request in ms, connect to last byte (default {@link DEFAULT_TIMEOUT_MS}). */
  timeoutMs?: number;
  /** Allow private, loopback and link-local addresses. */
  allowPrivate?: boolean;
  /** host → base URL of the server that answers for it (`http://127.0.0.1:8080`). */
  resolve?: ReadonlyMap<string, string>;
  /** Redirects followed within one origin (default 5). */
  maxRedirects?: number;
}

/** A lookup that refuses names resolving to private addresses (used by the socket at connect time). */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as unknown as LookupAddress[];
      const bad = list.find((a) => isPrivateAddress(a.address));
      if (bad && !allowPrivate) {
        return callback(
          Object.assign(
            new Error(
              `${hostname} resolves to the private address ${bad.address}; use --allow-private to allow it`,
            ),
            { code: 'EPRIVATE' },
          ),
          '',
          0,
        );
      }
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      const first = list[0]!;
      callback(null, first.address, first.family);
    });
  };
}

/** Parses `--resolve host=http://127.0.0.1:PORT` values. @throws Error on a malformed value. */
export function parseResolve(values: readonly string[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const value of values) {
    const eq = value.indexOf('=');
    const host = value.slice(0, eq).toLowerCase();
    const target = value.slice(eq + 1);
    if (eq <= 0 || !/^https?:\/\/[^/]+\/?$/.test(target)) {
      throw new Error(`--resolve takes host=http://127.0.0.1:PORT, got "${value}"`);
    }
    map.set(host, target.replace(/\/$/, ''));
  }
  return map;
}

/** One request of {@link exchanger}: GET, or POST with a body; headers laid over the defaults. */
interface ExchangeInit {
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: Buffer;
}

/** One answer of {@link exchanger}, its body whole (within the size cap). */
interface Exchange {
  status: number;
  headers: http.IncomingHttpHeaders;
  bytes: Uint8Array;
}

/**
 * One HTTP exchange with the rules of this module (the module comment): the one client of `npm run
 * verify`, `npm run diff` and the registry's federation peers, so that they cannot drift apart.
 */
function exchanger(options: HttpReaderOptions): (url: URL, init: ExchangeInit) => Promise<Exchange> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const resolve = options.resolve ?? new Map<string, string>();
  const allowPrivate = options.allowPrivate ?? false;
  const lookup = guardedLookup(allowPrivate);

  return (url, init) =>
    new Promise((resolvePromise, reject) => {
      const mapped = resolve.get(url.hostname);
      let target = url;
      if (mapped) target = new URL(`${url.pathname}${url.search}`, mapped);
      if (target.protocol !== 'https:' && target.protocol !== 'http:') {
        reject(new Error(`${url.href}: only https (and http for loopback) URLs are read`));
        return;
      }
      if (target.protocol === 'http:' && !mapped && !isLoopbackHost(target.hostname)) {
        reject(
          new Error(
            `${url.href} is plain http; ARD requires https (TLS 1.3), http is allowed for localhost and --resolve targets only`,
          ),
        );
        return;
      }
      // An IP literal is connected to without a name lookup, so the private-address rule is applied to
      // it here; names are checked by the lookup on the address actually connected to.
      const literal = ipLiteral(target.hostname);
      if (!mapped && !allowPrivate && literal !== undefined && isPrivateAddress(literal)) {
        reject(
          Object.assign(
            new Error(`${url.href} is the private address ${literal}; use --allow-private to allow it`),
            { code: 'EPRIVATE' },
          ),
        );
        return;
      }
      const common = {
        method: init.method,
        headers: {
          host: url.host,
          accept: 'application/ard+json, application/json;q=0.9, text/html;q=0.5, */*;q=0.1',
          'user-agent': 'ardsite-verify',
          ...init.headers,
          ...(init.body ? { 'content-length': String(init.body.length) } : {}),
        },
        // --resolve targets are named by the user, so they may be loopback.
        lookup: mapped ? undefined : lookup,
        timeout: timeoutMs,
      };
      const request =
        target.protocol === 'https:'
          ? https.request(target, {
              ...common,
              minVersion: 'TLSv1.3',
              // SNI carries host names only (RFC 6066 §3).
              ...(ipLiteral(url.hostname) === undefined ? { servername: url.hostname } : {}),
            })
          : http.request(target, common);
      const timer = setTimeout(
        () => request.destroy(new Error(`no complete answer from ${url.href} within ${timeoutMs} ms`)),
        timeoutMs,
      );
      request.on('timeout', () =>
        request.destroy(new Error(`no answer from ${url.href} within ${timeoutMs} ms`)),
      );
      request.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      request.on('response', (response) => {
        const declared = Number(response.headers['content-length'] ?? NaN);
        if (declared > maxBytes) {
          clearTimeout(timer);
          request.destroy();
          reject(
            new Error(`${url.href} is ${declared} bytes, over the cap of ${maxBytes} bytes (--max-bytes)`),
          );
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            clearTimeout(timer);
            request.destroy();
            reject(new Error(`${url.href} is over the cap of ${maxBytes} bytes (--max-bytes)`));
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => {
          clearTimeout(timer);
          resolvePromise({
            status: response.statusCode ?? 0,
            headers: response.headers,
            bytes: new Uint8Array(Buffer.concat(chunks)),
          });
        });
        response.on('error', (error) => {
          clearTimeout(timer);
          reject(error);
        });
      });
      request.end(init.body);
    });
}

/**
 * POSTs `body` as JSON to `url` with the rules of {@link httpReader} (TLS 1.3, `resolve`, no private,
 * loopback or link-local address unless `allowPrivate`, the size cap) and no redirect followed: the
 * registry's client of its federation peers (ARD draft §4.3, §6.5). Resolves the status and the parsed
 * body (`undefined` when it is not JSON); `timeoutMs` bounds the whole exchange.
 * @throws Error (rejects) on a refused address (`code: 'EPRIVATE'`), a network error, a timeout or an
 *   answer over the cap.
 */
export function httpJsonPoster(
  options: Omit<HttpReaderOptions, 'timeoutMs' | 'maxRedirects'> = {},
): (
  url: string,
  body: unknown,
  headers: Record<string, string>,
  limits: { timeoutMs: number },
) => Promise<{ status: number; body: unknown }> {
  return async (url, body, headers, { timeoutMs }) => {
    const exchange = exchanger({ ...options, timeoutMs });
    const answer = await exchange(new URL(url), {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': 'application/json',
        accept: 'application/json',
        'user-agent': 'ardsite-registry',
      },
      body: Buffer.from(JSON.stringify(body)),
    });
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(answer.bytes).toString('utf8'));
    } catch {
      parsed = undefined;
    }
    return { status: answer.status, body: parsed };
  };
}

/** Creates a network reader with the rules above. */
export function httpReader(options: HttpReaderOptions = {}): SiteReader {
  const maxRedirects = options.maxRedirects ?? 5;
  const exchange = exchanger(options);
  const once = (url: URL) => exchange(url, { method: 'GET' });

  return {
    async read(href: string): Promise<FetchedDocument | undefined> {
      let url = new URL(href);
      for (let hop = 0; ; hop++) {
        const answer = await once(url);
        if (answer.status >= 300 && answer.status < 400 && answer.headers.location) {
          const next = new URL(answer.headers.location, url);
          if (next.origin !== url.origin) {
            throw new Error(
              `${url.href} redirects to another origin (${next.origin}); redirects are followed within one origin only`,
            );
          }
          if (hop >= maxRedirects) throw new Error(`${href}: more than ${maxRedirects} redirects`);
          url = next;
          continue;
        }
        if (answer.status !== 200) throw new Error(`${url.href} answered HTTP ${answer.status}`);
        const contentType = answer.headers['content-type'];
        return {
          bytes: answer.bytes,
          ...(contentType ? { contentType } : {}),
          ...(answer.headers.link ? { link: String(answer.headers.link) } : {}),
        };
      }
    },
  };
}
