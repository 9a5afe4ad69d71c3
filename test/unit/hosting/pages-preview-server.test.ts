/**
 * `npm run preview`'s server (src/core/hosting/preview-server.ts) over a small folder: the `_headers` headers,
 * content types, directory indexes, the 404 page, HEAD, and refused path traversal.
 */
import http from 'node:http';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPreviewServer, type PreviewServer } from '../../../src/core/hosting/preview-server.js';

let dir: string;
let outside: string;
let preview: PreviewServer;

/** A raw request, so that the path reaches the server exactly as written (no client normalisation). */
function request(
  method: string,
  rawPath: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const { hostname, port } = new URL(preview.origin);
  return new Promise((resolve, reject) => {
    const req = http.request({ method, hostname, port, path: rawPath, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ardsite-preview-'));
  outside = await mkdtemp(path.join(tmpdir(), 'ardsite-outside-'));
  await writeFile(path.join(outside, 'secret.txt'), 'secret');
  const files: Record<string, string> = {
    'index.html': '<!doctype html><title>home</title>',
    '404.html': '<!doctype html><title>missing</title>',
    'agents/a/index.html': '<!doctype html><title>a</title>',
    'agents/a/agent-card.json': '{"name":"a"}',
    '.well-known/ard.json': '{"entries":[]}',
    'robots.txt': 'User-agent: *\n',
    'sitemap.xml': '<urlset/>',
    '_astro/site.css': 'body{}',
    _headers: [
      '/*',
      '  X-Content-Type-Options: nosniff',
      '/.well-known/ard.json',
      '  Content-Type: application/ard+json',
      '  Access-Control-Allow-Origin: *',
      '/agents/:slug/agent-card.json',
      '  Content-Type: application/json',
      '  Access-Control-Allow-Origin: *',
      '/agents/:slug/',
      '  Link: </.well-known/ard.json>; rel="ard"',
      '',
    ].join('\n'),
  };
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
  await symlink(path.join(outside, 'secret.txt'), path.join(dir, 'link.txt'));
  preview = await startPreviewServer({ dir, port: 0 });
});

afterAll(async () => {
  // Also when beforeAll failed part way: whatever it made is removed.
  await preview?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  if (outside) await rm(outside, { recursive: true, force: true });
});

describe('preview server', () => {
  it('sends the _headers headers, its content type first', async () => {
    const res = await request('GET', '/.well-known/ard.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/ard+json');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body).toBe('{"entries":[]}');
  });

  it.each([
    ['/robots.txt', 'text/plain; charset=utf-8'],
    ['/sitemap.xml', 'application/xml'],
    ['/_astro/site.css', 'text/css; charset=utf-8'],
    ['/', 'text/html; charset=utf-8'],
    ['/agents/a/agent-card.json', 'application/json'],
  ])('types %s as %s', async (p, type) => {
    const res = await request('GET', p);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(type);
  });

  it('serves a folder index, and redirects the folder without its slash', async () => {
    const page = await request('GET', '/agents/a/');
    expect(page.body).toContain('<title>a</title>');
    expect(page.headers.link).toBe('</.well-known/ard.json>; rel="ard"');
    const redirect = await request('GET', '/agents/a?x=1');
    expect(redirect.status).toBe(301);
    expect(redirect.headers.location).toBe('/agents/a/?x=1');
  });

  it('answers an unknown path with 404.html and status 404', async () => {
    const res = await request('GET', '/nope/');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('<title>missing</title>');
  });

  it('sends an ETag on an agent card (A2A §8.6.1) and answers 304 to If-None-Match, with the card’s headers', async () => {
    const first = await request('GET', '/agents/a/agent-card.json');
    const tag = first.headers.etag;
    expect(tag).toMatch(/^W\/"[^"]+"$/);
    for (const ifNoneMatch of [tag!, tag!.slice(2), '*']) {
      const again = await request('GET', '/agents/a/agent-card.json', { 'if-none-match': ifNoneMatch });
      expect(again.status, ifNoneMatch).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers.etag).toBe(tag);
      expect(again.headers['access-control-allow-origin']).toBe('*');
    }
    const other = await request('GET', '/agents/a/agent-card.json', { 'if-none-match': '"other"' });
    expect(other.status).toBe(200);
    expect(other.body).toBe('{"name":"a"}');
    // Another file has another tag.
    expect((await request('GET', '/.well-known/ard.json')).headers.etag).not.toBe(tag);
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await request('HEAD', '/.well-known/ard.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/ard+json');
    expect(res.headers['content-length']).toBe(String('{"entries":[]}'.length));
    expect(res.body).toBe('');
  });

  it('refuses other methods', async () => {
    const res = await request('POST', '/');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
  });

  it.each([
    '/../secret.txt',
    '/..%2fsecret.txt',
    '/agents/..%2f..%2f..%2fetc%2fpasswd',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/a%5c..%5c..%5csecret.txt',
    '/link.txt',
    '/%00',
  ])('never serves a file outside the folder: %s', async (p) => {
    const res = await request('GET', p);
    expect([403, 404]).toContain(res.status);
    expect(res.body).not.toContain('secret');
    expect(res.body).not.toContain('root:');
  });

  it('does not serve _headers itself', async () => {
    expect((await request('GET', '/_headers')).status).toBe(404);
  });

  it.each([
    '/.//_headers',
    '/%2f_headers',
    '//_headers',
    '/./_headers',
    '/%2e/_headers',
    '/_Redirects/../_headers',
  ])('does not serve _headers under another spelling of its path: %s', async (p) => {
    const res = await request('GET', p);
    expect([403, 404]).toContain(res.status);
    expect(res.body).not.toContain('X-Content-Type-Options');
  });

  it.each([
    ['/.//agents/a', '/agents/a/'],
    ['//agents/a?x=1', '/agents/a/?x=1'],
    ['/./agents//a', '/agents/a/'],
  ])('redirects %s to the path-absolute %s, never to a protocol-relative //host', async (p, location) => {
    const res = await request('GET', p);
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe(location);
  });

  it('sends the _headers headers of the normalised path', async () => {
    const res = await request('GET', '/.//.well-known/ard.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/ard+json');
  });
});
