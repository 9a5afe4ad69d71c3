/**
 * The one small Node server of DESIGN.md §7 (`npm run preview`): serves a built site folder with
 * exactly the headers its `_headers` file declares (src/core/hosting/headers-file.ts), the way Netlify and
 * Cloudflare Pages would, which Astro's own preview server does not do.
 *
 * Behaviour: GET and HEAD only (405 otherwise); `/dir/` serves `dir/index.html`, `/dir` redirects to
 * `/dir/`; an unknown path gets `404.html` with status 404; a path that leaves the folder (`..`,
 * encoded slashes, symbolic links) is refused with 403; `_headers` itself is not served (hosts do not
 * serve it), under any spelling of its path (`/.//_headers`): paths are normalised before anything is
 * matched ({@link requestPath}). Content-Type comes from `_headers` when it sets one, else from the file
 * extension. Every file answer carries a weak `ETag` of the file's size and time (RFC 9110 §8.8.3; A2A
 * §8.6.1 asks it of agent cards), and a request whose `If-None-Match` names it gets a 304 without a body.
 */
import { createReadStream } from 'node:fs';
import { readFile, realpath, stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { headersForPath, parseHeadersFile, type HeaderRule } from './headers-file.js';
import { fileEntityTag, notModified, notModifiedHeaders } from './http-cache.js';
import { isWithin } from '../util/within.js';

/** Content types by file extension, for files `_headers` does not type. */
export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.pdf': 'application/pdf',
  '.webmanifest': 'application/manifest+json',
};

/** The content type of `file` by its extension; `application/octet-stream` when unknown. */
export function contentTypeOf(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** Files of the folder that hosts never serve. */
const NOT_SERVED = new Set(['/_headers', '/_redirects']);

/** Options of {@link startPreviewServer}. */
export interface PreviewServerOptions {
  /** The built site folder. */
  dir: string;
  /** TCP port; 0 picks a free one. */
  port: number;
  /** Interface to listen on (default `127.0.0.1`). */
  host?: string;
}

/** A running preview server. */
export interface PreviewServer {
  server: http.Server;
  /** `http://host:port` (no trailing slash). */
  origin: string;
  close(): Promise<void>;
}

async function readRules(root: string): Promise<HeaderRule[]> {
  const text = await readFile(path.join(root, '_headers'), 'utf8').catch(() => undefined);
  return text === undefined ? [] : parseHeadersFile(text);
}

async function fileAt(file: string): Promise<'file' | 'dir' | undefined> {
  const s = await stat(file).catch(() => undefined);
  return s?.isFile() ? 'file' : s?.isDirectory() ? 'dir' : undefined;
}

/** Where a request path leads inside the served folder ({@link resolveRequestPath}). */
export type Resolved =
  | { kind: 'file'; file: string }
  | { kind: 'redirect'; location: string }
  | { kind: 'missing' }
  | { kind: 'forbidden' };

/**
 * The path a request names, as the files and the `_headers` rules are matched against it: `pathname`
 * (still percent-encoded, RFC 3986 §3.3) decoded, with empty and `.` segments dropped (RFC 3986 §5.2.4
 * removes dot segments; hosts read `//` as `/`), a trailing slash kept, so `/.//_headers` and `//_headers`
 * are `/_headers`. `undefined` (refused) for an encoded slash or backslash (`%2f`, `%5c`), a `..` segment,
 * a NUL, a backslash, or a text that does not decode (RFC 3986 §2.1).
 */
export function requestPath(pathname: string): string | undefined {
  if (/%(2f|5c)/i.test(pathname)) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.includes('\\') || !decoded.startsWith('/')) return undefined;
  const segments = decoded.split('/');
  if (segments.includes('..')) return undefined;
  const kept = segments.filter((s) => s !== '' && s !== '.');
  const last = segments[segments.length - 1];
  const folder = kept.length > 0 && (last === '' || last === '.');
  return `/${kept.join('/')}${folder ? '/' : ''}`;
}

/**
 * Maps the URL path `pathname` (still percent-encoded) to a file under `root` (an absolute, real path),
 * through {@link requestPath}. Never returns a file outside `root`; a folder's redirect is always a
 * path-absolute `/…/` (one leading slash, never a protocol-relative `//host/`, RFC 3986 §4.2).
 */
export async function resolveRequestPath(root: string, pathname: string): Promise<Resolved> {
  const clean = requestPath(pathname);
  if (clean === undefined) return { kind: 'forbidden' };
  if (NOT_SERVED.has(clean)) return { kind: 'missing' };
  const segments = clean.split('/').filter(Boolean);
  let file = path.join(root, ...segments);
  if (clean.endsWith('/')) file = path.join(file, 'index.html');
  const kind = await fileAt(file);
  if (kind === 'dir') {
    return (await fileAt(path.join(file, 'index.html'))) === 'file'
      ? { kind: 'redirect', location: `/${segments.map(encodeURIComponent).join('/')}/` }
      : { kind: 'missing' };
  }
  if (kind !== 'file') return { kind: 'missing' };
  const real = await realpath(file);
  if (!isWithin(root, real)) return { kind: 'forbidden' };
  return { kind: 'file', file: real };
}

/** The request handler of the preview server over the folder `dir`. */
export async function previewHandler(dir: string): Promise<http.RequestListener> {
  const root = await realpath(path.resolve(dir));
  return (req, res) => {
    void (async () => {
      // A path starting `//` is a path here (RFC 9112 §3.2.1 origin-form), not a protocol-relative URL.
      const target = req.url ?? '/';
      const url = target.startsWith('/')
        ? new URL(`http://preview.invalid${target}`)
        : new URL(target, 'http://preview.invalid');
      const send = (status: number, headers: Array<[string, string]>, body?: Buffer | string) => {
        res.statusCode = status;
        for (const [name, value] of headers) res.setHeader(name, value);
        res.end(req.method === 'HEAD' ? undefined : body);
      };
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        return send(
          405,
          [
            ['Allow', 'GET, HEAD'],
            ['Content-Type', 'text/plain; charset=utf-8'],
          ],
          'Method not allowed\n',
        );
      }
      const rules = await readRules(root);
      // The rules match the path the file is found by, so no other spelling of it escapes them.
      const declared = headersForPath(rules, requestPath(url.pathname) ?? url.pathname);
      const resolved = await resolveRequestPath(root, url.pathname);
      if (resolved.kind === 'forbidden')
        return send(403, [['Content-Type', 'text/plain; charset=utf-8']], 'Forbidden\n');
      if (resolved.kind === 'redirect') return send(301, [['Location', `${resolved.location}${url.search}`]]);
      const status = resolved.kind === 'file' ? 200 : 404;
      const file = resolved.kind === 'file' ? resolved.file : path.join(root, '404.html');
      if (status === 404 && (await fileAt(file)) !== 'file') {
        return send(404, [['Content-Type', 'text/plain; charset=utf-8']], 'Not found\n');
      }
      const stats = await stat(file);
      const hasType = declared.some(([name]) => name.toLowerCase() === 'content-type');
      const headers: Array<[string, string]> = [
        ...(hasType && status === 200 ? [] : [['Content-Type', contentTypeOf(file)] as [string, string]]),
        ...declared.filter(([name]) => status === 200 || name.toLowerCase() !== 'content-type'),
        ['Content-Length', String(stats.size)],
      ];
      if (status === 200) {
        // A validator on every file, agent cards included (A2A §8.6.1), and 304 to a client that has it.
        const tag = fileEntityTag(stats);
        headers.push(['ETag', tag]);
        if (notModified(req.headers, tag)) return send(304, notModifiedHeaders(headers));
      }
      res.statusCode = status;
      for (const [name, value] of headers) res.setHeader(name, value);
      if (req.method === 'HEAD') return res.end();
      createReadStream(file)
        .on('error', () => res.destroy())
        .pipe(res);
    })().catch((error: unknown) => {
      if (!res.headersSent) {
        res.statusCode = 500;
        res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      }
      res.end(`Internal error: ${error instanceof Error ? error.message : String(error)}\n`);
    });
  };
}

/** Starts the preview server; resolves once it listens. */
export async function startPreviewServer(options: PreviewServerOptions): Promise<PreviewServer> {
  const server = http.createServer(await previewHandler(options.dir));
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    server,
    origin: `http://${shownHost}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
