/**
 * The request and the answer of the lookup API (ARD draft §4.2) as the registry service (service.ts)
 * reads and makes them: plain values, no web streams. The one server (server.ts) gives node:http's own
 * request parts (method, request target, the header record of `IncomingMessage.headers`, the body bytes
 * it read) and writes the answer's header lines and bytes with `writeHead`/`end`; the Astro routes of
 * the server bundle go through {@link apiRequestOf} and {@link webResponseOf} (Fetch standard §6.2, §6.4).
 */
import { bodyEntityTag, notModified, notModifiedHeaders } from '../hosting/http-cache.js';
import type { AnswerSlot } from './answer-cache.js';
import { PROBLEM_MEDIA_TYPE, type RegistryProblem } from './problems.js';
import { readBodyBytes } from './request-body.js';

/**
 * The origin a request target (origin-form, RFC 9112 §3.2.1) is resolved against to read its path and
 * query string: a name under the reserved `.invalid` (RFC 2606 §2), so it never names a real host.
 */
export const REQUEST_ORIGIN = 'http://registry.invalid';

/** Request header fields by lower-case name (RFC 9110 §5.1), as node:http's `IncomingMessage.headers`. */
export type ApiHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** A request of the lookup API. */
export interface ApiRequest {
  /** The method, upper case. */
  method: string;
  /** The request target in origin-form (RFC 9112 §3.2.1): path and query string. */
  target: string;
  headers: ApiHeaders;
  /** The body bytes as read, at most the server's cap plus one byte; empty for none. */
  body: Buffer;
}

/**
 * An answer of the lookup API: status, header lines (names in lower case, no `Content-Length`: the
 * writer adds it), and the body bytes (`null` for none: 204, 304).
 */
export interface ApiAnswer {
  status: number;
  headers: Array<[string, string]>;
  body: Buffer | null;
}

/** The value of header `name` (lower case) of `headers`, repeated lines joined by `, ` (RFC 9110 §5.3); null when absent. */
export function headerOf(headers: ApiHeaders, name: string): string | null {
  const value = headers[name];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * The header lines of an answer from a record of them: names in lower case and in code-unit order, as
 * a web `Headers` lists them (Fetch standard §5.2 "sort and combine"), so that both forms of an answer
 * carry the same lines.
 */
export function answerHeaders(record: Readonly<Record<string, string>>): Array<[string, string]> {
  const lines: Array<[string, string]> = [];
  for (const name in record) lines.push([name.toLowerCase(), record[name]!]);
  return lines.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/**
 * The {@link ApiRequest} of a web Request: its method, path and query string, headers, and for a method
 * that may carry one its body, read up to `maxBodyBytes + 1` bytes.
 */
export async function apiRequestOf(request: Request, maxBodyBytes: number): Promise<ApiRequest> {
  const url = new URL(request.url);
  const method = request.method;
  const body =
    method === 'GET' || method === 'HEAD' ? Buffer.alloc(0) : await readBodyBytes(request, maxBodyBytes);
  return {
    method,
    target: `${url.pathname}${url.search}`,
    headers: Object.fromEntries(request.headers),
    body,
  };
}

/** The web Response of an {@link ApiAnswer}. */
export function webResponseOf(answer: ApiAnswer): Response {
  // A Buffer the service made is backed by an ArrayBuffer, never a SharedArrayBuffer.
  const body = answer.body as Uint8Array<ArrayBuffer> | null;
  return new Response(body, { status: answer.status, headers: answer.headers });
}

/** What {@link jsonAnswer} makes an answer of. */
export interface JsonAnswerParts {
  status: number;
  /** The body's JSON text, without the final newline the answer adds. */
  text: string;
  /** The answer's headers besides `Content-Type`, `Cache-Control` and `ETag`. */
  headers: Readonly<Record<string, string>>;
  cacheControl: string;
  /** Where an answer that depends on nothing but the request is put for the answer cache (answer-cache.ts). */
  keepIn?: AnswerSlot;
  /** The headers of the GET answered, for its `If-None-Match`. */
  conditional?: ApiHeaders;
}

/**
 * A JSON answer (`application/json`, RFC 8259). A cacheable answer (not `no-store`) carries an `ETag` of
 * its bytes, and with `conditional` a request whose `If-None-Match` names that tag gets a 304 without a
 * body (RFC 9110 §13.1.2). The full answer is put in `keepIn` when given, a 304's too: a client that
 * revalidates every time it asks again still makes the answer worth keeping (the kept answer then gives
 * its 304s).
 */
export function jsonAnswer(parts: JsonAnswerParts): ApiAnswer {
  const { status, cacheControl } = parts;
  const bytes = Buffer.from(`${parts.text}\n`);
  const record: Record<string, string> = {
    ...parts.headers,
    'Content-Type': 'application/json',
    'Cache-Control': cacheControl,
  };
  if (cacheControl !== 'no-store') record.ETag = bodyEntityTag(bytes);
  const headers = answerHeaders(record);
  if (parts.keepIn) parts.keepIn.answer = { status, headers, body: bytes };
  if (record.ETag !== undefined && parts.conditional && notModified(parts.conditional, record.ETag))
    return { status: 304, headers: notModifiedHeaders(headers), body: null };
  return { status, headers, body: bytes };
}

/**
 * The answer of `problem` (RFC 9457, `application/problem+json`, never cached), with `headers` (security
 * headers, CORS) and the problem's own (`Retry-After`, `Allow`).
 */
export function problemAnswerOf(
  problem: RegistryProblem,
  headers: Readonly<Record<string, string>>,
): ApiAnswer {
  return {
    status: problem.status,
    headers: answerHeaders({
      ...headers,
      ...problem.headers,
      'Content-Type': PROBLEM_MEDIA_TYPE,
      'Cache-Control': 'no-store',
    }),
    body: Buffer.from(`${JSON.stringify(problem.toBody())}\n`),
  };
}
