/**
 * The verifier's network rules (DESIGN.md §4, ARD draft §6.5): private addresses refused on the address
 * actually connected to unless allowed, plain http only for loopback and `--resolve` targets, a size
 * cap, a timeout, no redirect to another origin, and `--resolve` sending a host to a local server with
 * its own Host header. A small folder served by the test's static server stands in for a site.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { httpReader, isPrivateAddress, parseResolve } from '../../src/core/verify/http-reader.js';
import { startStaticServer, type StaticServer } from '../helpers/static-server.js';

let folder: string;
let server: StaticServer;
const BODY = '{"entries":[]}\n';

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'ardsite-http-reader-'));
  await writeFile(path.join(folder, 'doc.json'), BODY);
  server = await startStaticServer({ root: folder });
});
afterEach(() => server.reset());
afterAll(async () => {
  await server.close();
  await rm(folder, { recursive: true, force: true });
});

/** A reader that sends `site.test` to the test server. */
function resolved(options: Parameters<typeof httpReader>[0] = {}) {
  return httpReader({ resolve: parseResolve([`site.test=${server.url}`]), ...options });
}

describe('isPrivateAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.0.0.2', true],
    ['10.1.2.3', true],
    ['172.16.0.1', true],
    ['172.31.255.255', true],
    ['192.168.1.1', true],
    ['169.254.169.254', true], // cloud metadata
    ['100.64.0.1', true], // CGNAT
    ['0.0.0.0', true],
    ['224.0.0.1', true],
    ['255.255.255.255', true],
    ['::1', true],
    ['::', true],
    ['fe80::1', true],
    ['fc00::1', true],
    ['fd12:3456::1', true],
    ['::ffff:127.0.0.1', true], // IPv4-mapped loopback
    ['::ffff:10.0.0.1', true],
    ['::ffff:7f00:1', true], // the same, as the WHATWG URL parser writes [::ffff:127.0.0.1]
    ['::ffff:a9fe:a9fe', true], // 169.254.169.254, mapped
    ['not an address', true], // anything unparseable is refused
    ['8.8.8.8', false],
    ['93.184.215.14', false],
    ['172.32.0.1', false],
    ['100.128.0.1', false],
    ['2606:4700:4700::1111', false],
    ['::ffff:8.8.8.8', false],
  ])('%s → %s', (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
  });
});

describe('private addresses', () => {
  it('refuses an https URL whose host is a private IP literal, before connecting', async () => {
    await expect(httpReader().read(`https://127.0.0.2:${server.port}/doc.json`)).rejects.toThrow(
      /private address 127\.0\.0\.2.*--allow-private/,
    );
    await expect(httpReader().read(`https://10.255.255.1/doc.json`)).rejects.toThrow(
      /private address 10\.255\.255\.1/,
    );
    await expect(httpReader().read(`https://[::ffff:127.0.0.1]:${server.port}/doc.json`)).rejects.toThrow(
      /private address ::ffff:7f00:1/,
    );
    await expect(httpReader().read(`https://[::1]:${server.port}/doc.json`)).rejects.toThrow(
      /private address ::1/,
    );
    expect(server.requests).toEqual([]);
  });

  it('refuses plain http to a loopback address without --allow-private, and reads it with it', async () => {
    await expect(httpReader().read(`${server.url}/doc.json`)).rejects.toThrow(/private address 127\.0\.0\.1/);
    expect(server.requests).toEqual([]);
    const doc = await httpReader({ allowPrivate: true }).read(`${server.url}/doc.json`);
    expect(Buffer.from(doc!.bytes).toString()).toBe(BODY);
  });

  it('checks a name on the address it resolves to at connect time (localhost → 127.0.0.1)', async () => {
    await expect(httpReader().read(`http://localhost:${server.port}/doc.json`)).rejects.toThrow(
      /localhost resolves to the private address/,
    );
    expect(server.requests).toEqual([]);
    const doc = await httpReader({ allowPrivate: true }).read(`http://localhost:${server.port}/doc.json`);
    expect(doc?.contentType).toBe('application/json');
  });

  it('reaches a --resolve target on loopback without --allow-private, with the original Host header', async () => {
    const doc = await resolved().read('https://site.test/doc.json');
    expect(Buffer.from(doc!.bytes).toString()).toBe(BODY);
    expect(server.requests).toEqual([{ method: 'GET', host: 'site.test', path: '/doc.json' }]);
  });
});

describe('transport', () => {
  it('refuses plain http for a host that is not local, without any connection', async () => {
    await expect(httpReader().read('http://agents.example.com/.well-known/ard.json')).rejects.toThrow(
      /plain http.*https/,
    );
    await expect(httpReader({ allowPrivate: true }).read('http://agents.example.com/x')).rejects.toThrow(
      /plain http/,
    );
  });

  it('refuses schemes other than http and https', async () => {
    await expect(httpReader().read('ftp://agents.example.com/ard.json')).rejects.toThrow(/https/);
    await expect(httpReader().read('file:///etc/passwd')).rejects.toThrow(/https/);
  });

  it('answers other than 200 are errors that name the status', async () => {
    await expect(resolved().read('https://site.test/missing.json')).rejects.toThrow(/HTTP 404/);
    server.override('/doc.json', { status: 500 });
    await expect(resolved().read('https://site.test/doc.json')).rejects.toThrow(/HTTP 500/);
  });

  it('passes the Content-Type and Link headers on', async () => {
    server.override('/doc.json', {
      headers: { 'content-type': 'application/ard+json', link: '</.well-known/ard.json>; rel="ard"' },
    });
    const doc = await resolved().read('https://site.test/doc.json');
    expect(doc).toMatchObject({
      contentType: 'application/ard+json',
      link: '</.well-known/ard.json>; rel="ard"',
    });
  });
});

describe('size cap', () => {
  const size = Buffer.byteLength(BODY);

  it('reads a body of exactly the cap', async () => {
    const doc = await resolved({ maxBytes: size }).read('https://site.test/doc.json');
    expect(doc?.bytes.length).toBe(size);
  });

  it('refuses a body one byte over the cap, from Content-Length, and names the cap', async () => {
    await expect(resolved({ maxBytes: size - 1 }).read('https://site.test/doc.json')).rejects.toThrow(
      new RegExp(`over the cap of ${size - 1} bytes \\(--max-bytes\\)`),
    );
  });

  it('refuses a chunked body (no Content-Length) that grows over the cap', async () => {
    server.override('/doc.json', { headers: { 'content-length': undefined } });
    await expect(resolved({ maxBytes: size - 1 }).read('https://site.test/doc.json')).rejects.toThrow(
      /over the cap of/,
    );
    const doc = await resolved({ maxBytes: size }).read('https://site.test/doc.json');
    expect(doc?.bytes.length).toBe(size);
  });

  it('refuses a body longer than its Content-Length claims only up to the cap (the claim is not trusted)', async () => {
    server.override('/doc.json', { body: 'x'.repeat(64), headers: { 'content-length': undefined } });
    await expect(resolved({ maxBytes: 32 }).read('https://site.test/doc.json')).rejects.toThrow(
      /over the cap of 32 bytes/,
    );
  });
});

describe('timeout', () => {
  it('gives up on a server that never answers, naming the time', async () => {
    server.override('/doc.json', { hang: true });
    // The server never answers: only the timeout can end the read (the test's timeout fails one that
    // does not end), and the error names it.
    await expect(resolved({ timeoutMs: 300 }).read('https://site.test/doc.json')).rejects.toThrow(
      /within 300 ms/,
    );
  });
});

describe('redirects', () => {
  it('follows a redirect within the origin', async () => {
    server.override('/old.json', { redirect: '/doc.json' });
    const doc = await resolved().read('https://site.test/old.json');
    expect(Buffer.from(doc!.bytes).toString()).toBe(BODY);
    expect(server.requests.map((r) => r.path)).toEqual(['/old.json', '/doc.json']);
  });

  it('refuses a redirect to another origin without requesting it', async () => {
    server.override('/doc.json', { redirect: 'https://elsewhere.test/doc.json' });
    const reader = httpReader({
      resolve: parseResolve([`site.test=${server.url}`, `elsewhere.test=${server.url}`]),
    });
    await expect(reader.read('https://site.test/doc.json')).rejects.toThrow(
      /redirects to another origin \(https:\/\/elsewhere\.test\)/,
    );
    expect(server.requests.map((r) => r.host)).toEqual(['site.test']);
  });

  it('refuses a redirect from https to http on the same host (another origin)', async () => {
    server.override('/doc.json', { redirect: 'http://site.test/doc.json' });
    await expect(resolved().read('https://site.test/doc.json')).rejects.toThrow(
      /another origin \(http:\/\/site\.test\)/,
    );
  });

  it('stops after the redirect limit', async () => {
    server.override('/loop.json', { redirect: '/loop.json' });
    await expect(resolved({ maxRedirects: 3 }).read('https://site.test/loop.json')).rejects.toThrow(
      /more than 3 redirects/,
    );
    expect(server.requests.length).toBe(4);
  });
});

describe('parseResolve', () => {
  it('takes host=http(s)://address:port, case-folding the host', () => {
    expect(parseResolve(['Agents.Example.com=http://127.0.0.1:8080/'])).toEqual(
      new Map([['agents.example.com', 'http://127.0.0.1:8080']]),
    );
  });
  it.each([
    'agents.example.com',
    '=http://127.0.0.1:1',
    'a.example=127.0.0.1:80',
    'a.example=http://127.0.0.1:1/path',
  ])('refuses %s', (value) => {
    expect(() => parseResolve([value])).toThrow(/--resolve takes host=/);
  });
});
