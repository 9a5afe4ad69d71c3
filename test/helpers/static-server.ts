/**
 * A tiny static file server for the verifier's network tests (node:http, loopback only): it serves a
 * folder the way a static host serves a built site, logs every request (method, Host header, path), and
 * lets a test change what one path answers: the status, headers, the body (a transform of the file's
 * bytes), a redirect, or no answer at all.
 *
 * One server can answer for several host names (the verifier's `--resolve` sends them all here with the
 * original Host header): `hosts` maps a host name to its own folder; other hosts get `root`.
 *
 * Not the project's preview server (scripts/preview.ts): this one exists to misbehave on purpose.
 */
import { readFile, stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/** One request the server received. `host` is the Host header without the port. */
export interface LoggedRequest {
  method: string;
  host: string;
  path: string;
}

/** What a test may change about one path's answer. Unset fields keep the normal behaviour. */
export interface Override {
  /** Answer with this status (the body is still the file, or `body`). */
  status?: number;
  /** Headers added to (or, with `undefined`, removed from) the normal ones, Content-Length included. */
  headers?: Record<string, string | undefined>;
  /** Replaces the body: a function of the file's bytes (empty when there is no file) or fixed bytes. */
  body?: ((bytes: Buffer) => Buffer | string) | Buffer | string;
  /** Answer `302 Location: <redirect>` instead. */
  redirect?: string;
  /** Never answer (for timeouts); the socket is closed when the server closes. */
  hang?: boolean;
}

/** Options of {@link startStaticServer}. */
export interface StaticServerOptions {
  /** The folder served for any host without its own entry in `hosts`. */
  root: string;
  /** host name → folder, for servers that answer as several hosts. */
  hosts?: Record<string, string>;
}

/** A running server. */
export interface StaticServer {
  /** `http://127.0.0.1:<port>` (no trailing slash), for `--resolve host=<url>`. */
  readonly url: string;
  readonly port: number;
  /** Every request so far, in order. */
  readonly requests: LoggedRequest[];
  /** The folder served for hosts without their own; may be changed between requests. */
  root: string;
  /** Per-host folders; may be changed between requests. */
  hosts: Record<string, string>;
  /** Changes the answer for `pathname` (exact match, e.g. `/.well-known/ard.json`), for any host. */
  override(pathname: string, override: Override): void;
  /** Drops every override and empties the request log. */
  reset(): void;
  close(): Promise<void>;
}

/** Content types by file name, as the site's `_headers` would declare them. */
export function contentTypeOf(file: string): string {
  const base = path.basename(file);
  if (base === 'ard.json') return 'application/ard+json';
  if (base === 'did.json') return 'application/did+json';
  if (base === 'jwks.json') return 'application/jwk-set+json';
  const ext = path.extname(file);
  if (ext === '.json') return 'application/json';
  if (ext === '.html') return 'text/html; charset=utf-8';
  if (ext === '.txt') return 'text/plain; charset=utf-8';
  if (ext === '.xml') return 'application/xml';
  return 'application/octet-stream';
}

async function readServed(
  root: string,
  pathname: string,
): Promise<{ file: string; bytes: Buffer } | undefined> {
  let rel = decodeURIComponent(pathname);
  if (rel.endsWith('/')) rel += 'index.html';
  const file = path.resolve(root, `.${rel}`);
  if (file !== root && !file.startsWith(root + path.sep)) return undefined;
  const info = await stat(file).catch(() => undefined);
  if (!info) return undefined;
  if (info.isDirectory()) return readServed(root, `${pathname}/`);
  return { file, bytes: await readFile(file) };
}

/** Starts a server on 127.0.0.1 with an ephemeral port. */
export async function startStaticServer(options: StaticServerOptions): Promise<StaticServer> {
  const overrides = new Map<string, Override>();
  const requests: LoggedRequest[] = [];
  const state = { root: path.resolve(options.root), hosts: { ...(options.hosts ?? {}) } };

  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://placeholder');
      const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
      requests.push({ method: req.method ?? 'GET', host, path: url.pathname });
      const o = overrides.get(url.pathname) ?? {};
      if (o.hang) return;
      if (o.redirect !== undefined) {
        res.writeHead(302, { location: o.redirect, 'content-length': '0' }).end();
        return;
      }
      const root = path.resolve(state.hosts[host] ?? state.root);
      const found = await readServed(root, url.pathname);
      let status = found ? 200 : 404;
      let body: Buffer = found ? found.bytes : Buffer.from('not found\n');
      const headers: Record<string, string> = {
        'content-type': found ? contentTypeOf(found.file) : 'text/plain; charset=utf-8',
        'access-control-allow-origin': '*',
      };
      if (o.body !== undefined) {
        const value = typeof o.body === 'function' ? o.body(found?.bytes ?? Buffer.alloc(0)) : o.body;
        body = Buffer.isBuffer(value) ? value : Buffer.from(value, 'utf8');
        if (!found) status = 200;
      }
      if (o.status !== undefined) status = o.status;
      headers['content-length'] = String(body.length);
      // Overrides come last, so a test can drop Content-Length (a chunked answer) or lie in it.
      for (const [name, value] of Object.entries(o.headers ?? {})) {
        if (value === undefined) delete headers[name.toLowerCase()];
        else headers[name.toLowerCase()] = value;
      }
      res.writeHead(status, headers).end(req.method === 'HEAD' ? undefined : body);
    })().catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    get root() {
      return state.root;
    },
    set root(dir: string) {
      state.root = path.resolve(dir);
    },
    get hosts() {
      return state.hosts;
    },
    set hosts(map: Record<string, string>) {
      state.hosts = { ...map };
    },
    override(pathname: string, override: Override) {
      overrides.set(pathname, override);
    },
    reset() {
      overrides.clear();
      requests.length = 0;
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
    },
  };
}
