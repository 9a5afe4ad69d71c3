/**
 * The lookup API over HTTP, hardened (RFC 9110 methods and problem details, RFC 9457) and read as ard-spec's
 * OpenAPI and conformance tool read it (ARD draft §4): the example publisher built in registry mode (the build registry/api.test.ts
 * serves too, made once a run: test/helpers/shared-build.ts) and served by the one server.
 *
 * Shown: TRACE, CONNECT and any other method no endpoint takes get a 405 problem+json, and nothing lands
 * in the log; `GET /agents` answers `items` with paging, `filter` and `orderBy`; `GET /agents/{identifier}`
 * answers one entry; `pageSize: 101` is a 400 as its message says.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedKeyEnv, removeProjects } from '../helpers/build.js';
import { call, expectProblem, postJson, startTestRegistry, type TestRegistry } from '../helpers/registry.js';
import { sharedBuild } from '../helpers/shared-build.js';
import { EXAMPLE_LIKE } from '../helpers/site.js';

let dist: string;
let server: TestRegistry;
let entries: Array<Record<string, unknown>>;

beforeAll(async () => {
  dist = await sharedBuild(EXAMPLE_LIKE, { copy: true, env: fixedKeyEnv(), registry: true });
  entries = (
    JSON.parse(await readFile(path.join(dist, '.well-known/ard.json'), 'utf8')) as { entries: typeof entries }
  ).entries;
  server = await startTestRegistry(dist);
});

afterAll(async () => {
  await server?.close();
  await removeProjects();
});

/** Sends a raw HTTP/1.1 request and returns the raw answer (the connection closes after it). */
function raw(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(new URL(server.origin).port), '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (answer += d));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.setTimeout(5_000, () => {
      socket.destroy();
      resolve(answer);
    });
    socket.write(request);
  });
}

describe('methods (RFC 9110 §15.5.6)', () => {
  it.each(['TRACE', 'PUT', 'DELETE', 'PATCH', 'PROPFIND'])(
    '%s gets a 405 problem+json, not a 500, and no stack trace in the log',
    async (method) => {
      server.logs.length = 0;
      const answer = await raw(
        `${method} ${new URL(server.apiUrl).pathname}/agents HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      );
      expect(answer).toMatch(/^HTTP\/1\.1 405 /);
      expect(answer).toMatch(/content-type: application\/problem\+json/i);
      expect(answer).toMatch(/allow: GET, HEAD, OPTIONS/i);
      expect(answer).toMatch(/"error":"NOT_IMPLEMENTED"/);
      expect(server.logs.filter((l) => !/^\w+ \/\S+ 405 [\d.]+ ms$/.test(l))).toEqual([]);
    },
  );

  it('CONNECT gets a 405 problem+json and the connection closes', async () => {
    const answer = await raw('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 405 /);
    expect(answer).toMatch(/"error":"NOT_IMPLEMENTED"/);
  });

  it('TRACE on a path with no endpoint is a 404 problem', async () => {
    const answer = await raw(
      `TRACE ${new URL(server.apiUrl).pathname}/nothing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 404 /);
    expect(answer).toMatch(/application\/problem\+json/);
  });
});

describe('slow clients', () => {
  it('closes a connection whose headers do not arrive within the headers timeout, with a 408', async () => {
    const quick = await startTestRegistry(dist, { headersTimeoutMs: 400 });
    try {
      const socket = net.connect(Number(new URL(quick.origin).port), '127.0.0.1');
      socket.setEncoding('utf8');
      let answer = '';
      socket.on('data', (d: string) => (answer += d));
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      socket.on('error', () => {});
      // A slowloris: the request line and one header, then nothing more.
      socket.write('POST /ard/v1/search HTTP/1.1\r\nHost: registry.test\r\n');
      // The client never ends its headers: only the server's headers timeout closes the connection (the
      // test's timeout fails a server that never does), and it answers 408 first.
      await closed;
      socket.destroy();
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      await quick.close();
    }
  });

  it('defaults to 10 s for the headers and 30 s for the whole request, checked every second', async () => {
    expect(server.server.headersTimeout).toBe(10_000);
    expect(server.server.requestTimeout).toBe(30_000);
  });
});

describe('messages match behaviour', () => {
  it('pageSize 101 is a 400, as the message says 1 to 100', async () => {
    const answer = await postJson(`${server.apiUrl}/search`, { query: { text: 'plan' }, pageSize: 101 });
    expectProblem(answer, 400, 'INVALID_ARGUMENT');
    expect(answer.body.detail).toMatch(/from 1 to 100/);
    expectProblem(await call(`${server.apiUrl}/agents?pageSize=101`), 400, 'INVALID_ARGUMENT');
  });

  it('Hop-Count 1000 is out of range, not "not a whole number"', async () => {
    const answer = await postJson(
      `${server.apiUrl}/search`,
      { query: { text: 'plan' } },
      { 'Hop-Count': '1000' },
    );
    expectProblem(answer, 400, 'INVALID_ARGUMENT');
    expect(answer.body.detail).toMatch(/out of range/);
  });
});

describe('GET /agents as ard-spec reads it (ARD draft §4.2.4)', () => {
  it('answers items, total and pageToken, walks every entry, and reads filter and orderBy', async () => {
    const seen: string[] = [];
    let token: string | undefined;
    do {
      const page = await call<{ items: Array<{ identifier: string }>; total: number; pageToken?: string }>(
        `${server.apiUrl}/agents?pageSize=3${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`,
      );
      expect(page.status).toBe(200);
      expect(Array.isArray(page.body.items)).toBe(true);
      expect(page.body.total).toBe(entries.length);
      seen.push(...page.body.items.map((e) => e.identifier));
      token = page.body.pageToken;
    } while (token);
    expect(seen).toEqual(entries.map((e) => String(e.identifier)).sort());

    const a2a = entries.filter((e) => e.type === 'application/a2a-agent-card+json');
    const filtered = await call<{ items: Array<{ identifier: string }> }>(
      `${server.apiUrl}/agents?filter=${encodeURIComponent("type = 'application/a2a-agent-card+json'")}&orderBy=${encodeURIComponent('identifier DESC')}`,
    );
    expect(filtered.status, filtered.text).toBe(200);
    expect(filtered.body.items.map((e) => e.identifier)).toEqual(
      a2a
        .map((e) => String(e.identifier))
        .sort()
        .reverse(),
    );
  });

  it('GET /agents/{identifier} answers the entry; an unknown one is a 404 problem', async () => {
    const entry = entries[0]!;
    const answer = await call(`${server.apiUrl}/agents/${encodeURIComponent(String(entry.identifier))}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(entry);
    expectProblem(await call(`${server.apiUrl}/agents/urn:air:nobody.example:a:b`), 404, 'NOT_FOUND');
  });
});

describe('GET /agents/{identifier} as ARD v0.91 §5.3.4 asks (ard-spec ADR-0010)', () => {
  const lookup = (identifier: string, init: RequestInit = {}) =>
    call(`${server.apiUrl}/agents/${encodeURIComponent(identifier)}`, init);

  it('answers 400 INVALID_ARGUMENT, errorCode and message included, for an identifier that is no ARD identifier', async () => {
    for (const malformed of [
      'not-a-valid-ard-urn',
      'urn:air:x',
      'urn:isbn:0451450523:a',
      'urn:air:a.example::b',
    ])
      expectProblem(await lookup(malformed), 400, 'INVALID_ARGUMENT');
  });

  it('answers 404 NOT_FOUND for a well-formed identifier it does not hold, matched exactly (case, namespace)', async () => {
    const identifier = String(entries[0]!.identifier);
    const [, , domain, , name] = identifier.split(':');
    for (const unknown of [
      'urn:air:ard-conformance.invalid:probe:not-found',
      `urn:air:${domain}:${name}`,
      identifier.toUpperCase().replace('URN:AIR:', 'urn:air:'),
    ])
      expectProblem(await lookup(unknown), 404, 'NOT_FOUND');
  });

  it('answers the entry with Cache-Control and an ETag, and 304 to If-None-Match, before and after the answer is kept', async () => {
    const entry = entries[1]!;
    const first = await lookup(String(entry.identifier));
    expect(first.status).toBe(200);
    expect(first.body).toEqual(entry);
    expect(first.body).not.toHaveProperty('score');
    expect(first.body).not.toHaveProperty('source');
    expect(first.headers.get('cache-control')).toMatch(/max-age=\d+/);
    const tag = first.headers.get('etag');
    expect(tag).toMatch(/^"[^"]+"$/);
    // The second GET is rendered again and kept (answer-cache.ts keeps from a request's second time);
    // the conditional GETs below come from the kept answer: the same validator.
    expect((await lookup(String(entry.identifier))).headers.get('etag')).toBe(tag);
    for (const ifNoneMatch of [tag!, `W/${tag!}`, `"other", ${tag!}`, '*']) {
      const again = await lookup(String(entry.identifier), { headers: { 'if-none-match': ifNoneMatch } });
      expect(again.status, ifNoneMatch).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.get('etag')).toBe(tag);
      expect(again.headers.get('cache-control')).toBe(first.headers.get('cache-control'));
    }
    const changed = await lookup(String(entry.identifier), { headers: { 'if-none-match': '"other"' } });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual(entry);
    // A fresh server: its first, rendered answer (not a kept one) answers the conditional GET too, and
    // a client that revalidates every time after one plain GET gets its 304s from the kept answer.
    const other = await startTestRegistry(dist);
    try {
      const url = `${other.apiUrl}/agents/${encodeURIComponent(String(entry.identifier))}`;
      const rendered = await call(url, { headers: { 'if-none-match': tag! } });
      expect(rendered.status).toBe(304);
      expect(other.answers.stores).toBe(0);
      for (let i = 0; i < 4; i++)
        expect((await call(url, { headers: { 'if-none-match': tag! } })).status).toBe(304);
      expect(other.answers.stores).toBe(1);
      expect(other.answers.hits).toBe(3);
    } finally {
      await other.close();
    }
  });

  it('POST /search gives the next page’s token as nextPageToken and as pageToken, and either walks on', async () => {
    const text = 'agent';
    const all = (await postJson<{ results: unknown[] }>(`${server.apiUrl}/search`, { query: { text } })).body
      .results;
    expect(all.length).toBeGreaterThan(1);
    const first = await postJson<{ results: unknown[]; nextPageToken?: string; pageToken?: string }>(
      `${server.apiUrl}/search`,
      { query: { text }, pageSize: 1 },
    );
    expect(first.body.pageToken).toBeDefined();
    expect(first.body.pageToken).toBe(first.body.nextPageToken);
    const second = await postJson<{ results: unknown[] }>(`${server.apiUrl}/search`, {
      query: { text },
      pageSize: 1,
      pageToken: first.body.pageToken,
    });
    expect(second.body.results).toEqual(all.slice(1, 2));
  });
});

describe('the registry entry’s url (ARD draft §3.6)', () => {
  it('answers with the service description the entry pins by digest, not a 404', async () => {
    const entry = entries.find((e) => e.type === 'application/ai-registry+json')!;
    const basePath = new URL(String(entry.url)).pathname;
    const response = await fetch(`${server.origin}${basePath}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/ai-registry+json');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(entry.digest).toBe(`sha256:${createHash('sha256').update(bytes).digest('hex')}`);
    expect((entry.trustManifest as { subject?: { digest?: string } }).subject?.digest).toBe(entry.digest);
    const document = JSON.parse(bytes.toString('utf8')) as {
      identifier: string;
      url: string;
      endpoints: unknown[];
    };
    expect(document).toMatchObject({ identifier: entry.identifier, url: entry.url });
    expect(document.endpoints).toHaveLength(4);
  });
});

describe('framing on the direct node:http path', () => {
  const api = () => new URL(server.apiUrl).pathname;

  it('a body sent with two Content-Type lines is refused, as a web Headers (which joins them) refuses it', async () => {
    const body = '{"query":{"text":"flights"}}';
    const answer = await raw(
      `POST ${api()}/search HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toMatch(/the body must be JSON/);
    const once = await raw(
      `POST ${api()}/search HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(once).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('a 204 answer carries no Content-Length (RFC 9110 §8.6)', async () => {
    const answer = await raw(`OPTIONS ${api()}/search HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 204 /);
    expect(answer).not.toMatch(/content-length:/i);
  });
});
