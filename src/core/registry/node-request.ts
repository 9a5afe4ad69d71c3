/**
 * The direct path from Node's HTTP server to the registry service (service.ts) in `npm run serve`: a
 * request of node:http is given to the service as its plain parts (api-request.ts), and the service's
 * answer is written back with `writeHead` and `end`: no web Request, Response or stream, and no
 * framework's request pipeline between them. The service reads only a request's method, target (path
 * and query string), headers and body bytes, so those are all it is given.
 */
import type http from 'node:http';
import type { ApiAnswer, ApiRequest } from './api-request.js';
import { endpointAt, type RegistryEndpoint } from './runtime.js';

/**
 * The endpoint of an API path (`basePath` already matched), as the routes of the server bundle map it
 * with Astro's `trailingSlash: 'ignore'`: `/search/`, `/explore/` and `/agents/` name the same endpoints
 * as without the slash; a lookup path keeps its slash as part of the identifier it names, matched
 * exactly (ARD v0.91 §5.3.4).
 */
export function apiEndpointAt(basePath: string, pathname: string): RegistryEndpoint {
  const endpoint = endpointAt(basePath, pathname);
  if (endpoint !== 'unknown' || !pathname.endsWith('/')) return endpoint;
  const trimmed = endpointAt(basePath, pathname.slice(0, -1));
  return trimmed === 'agent' ? 'unknown' : trimmed;
}

/**
 * The `Content-Type` lines of a request when there is more than one (`rawHeaders`: name, value, name,
 * value…), else undefined. node:http keeps only the first of a repeated `Content-Type` in its header
 * record; a web `Headers` joins them (RFC 9110 §5.3), which no media type parses as, so a body sent with
 * two types is refused on both paths alike.
 */
function repeatedContentTypes(rawHeaders: readonly string[]): string[] | undefined {
  let values: string[] | undefined;
  let first: string | undefined;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length !== 12 || name.toLowerCase() !== 'content-type') continue;
    if (first === undefined) first = rawHeaders[i + 1]!;
    else (values ??= [first]).push(rawHeaders[i + 1]!);
  }
  return values;
}

/**
 * The {@link ApiRequest} of a Node request whose body (`body`, already read and bounded by the server)
 * is given apart: node:http's own method, request target (RFC 9112 §3.2) and header record, no copy
 * (but for a repeated `Content-Type`, whose lines are all kept: {@link repeatedContentTypes}).
 */
export function apiRequest(req: http.IncomingMessage, body: Buffer): ApiRequest {
  const types = repeatedContentTypes(req.rawHeaders);
  const headers = types === undefined ? req.headers : { ...req.headers, 'content-type': types };
  return { method: req.method ?? 'GET', target: req.url ?? '/', headers, body };
}

/**
 * Writes an {@link ApiAnswer} to a Node response in one `writeHead` and one `end`: status, header lines
 * with the body's `Content-Length`, the body, none for `head` (RFC 9110 §9.3.2).
 */
export function writeAnswer(res: http.ServerResponse, answer: ApiAnswer, head: boolean): void {
  const lines: string[] = [];
  for (const [name, value] of answer.headers) lines.push(name, value);
  if (answer.body !== null) lines.push('content-length', String(answer.body.length));
  res.writeHead(answer.status, lines);
  res.end(head || answer.body === null ? undefined : answer.body);
}
