/**
 * The direct path from Node's HTTP server to the registry service (service.ts) in `npm run serve`: a
 * request of node:http becomes the web Request (Fetch standard §6.2) the service reads, and the service's
 * web Response is written back, with no framework's request pipeline between them. The service reads
 * only a request's method, URL (path and query string), headers and body bytes, so those are all it is
 * given.
 */
import type http from 'node:http';
import { endpointAt, type RegistryEndpoint } from './runtime.js';

/** The origin given to request URLs: the service reads their path and query string only. */
const REQUEST_ORIGIN = 'http://registry.invalid';

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
 * The web Request of a Node request whose body (`body`, already read and bounded by the server) is
 * given apart: method, request target (origin-form or absolute-form, RFC 9112 §3.2), every header line
 * as received, and the body for a method that may carry one.
 */
export function webRequest(req: http.IncomingMessage, body: Buffer): Request {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  const method = req.method ?? 'GET';
  const carries = body.length > 0 && method !== 'GET' && method !== 'HEAD';
  return new Request(new URL(req.url ?? '/', REQUEST_ORIGIN), {
    method,
    headers,
    // A Buffer of node:http is backed by an ArrayBuffer, never a SharedArrayBuffer.
    ...(carries ? { body: body as Uint8Array<ArrayBuffer> } : {}),
  });
}

/**
 * Writes a web Response to a Node response: status, headers, the body with its `Content-Length`, no
 * body for `head` (RFC 9110 §9.3.2).
 */
export async function writeWebResponse(
  res: http.ServerResponse,
  response: Response,
  head: boolean,
): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => res.setHeader(name, value));
  const body = Buffer.from(await response.arrayBuffer());
  res.setHeader('Content-Length', String(body.length));
  res.end(head ? undefined : body);
}
