/**
 * The lookup API over HTTP: the example publisher built in registry mode (the real `scripts/build.ts
 * --registry`, fixed TEST-ONLY key), served by the one server (src/core/registry/server.ts), asked with
 * `fetch`. Every request and answer shape of ARD draft §4.2 and §5, every error of Table 1, filters on
 * nested and prefixed keys, facet counts against a count over the manifest, the headers, the layout of
 * the build, and that the query text never reaches the log.
 */
import { existsSync } from 'node:fs';
import { readFile, cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPreviewServer, type PreviewServer } from '../../src/core/hosting/preview-server.js';
import { folderReader } from '../../src/core/verify/folder-reader.js';
import { verifySite } from '../../src/core/verify/site.js';
import { buildProject, copyProject, fixedKeyEnv, readTree, removeProjects } from '../helpers/build.js';
import { DID, ORIGIN, verifyTrustManifest, type Json } from '../helpers/direct-checks.js';
import { runConformanceTool } from '../helpers/ard-conformance.js';
import { asyncCodeOf } from '../helpers/errors.js';
import { sharedBuild } from '../helpers/shared-build.js';
import { agentMd, EXAMPLE_LIKE, makeSite, removeSites } from '../helpers/site.js';
import {
  call,
  expectProblem,
  postJson,
  startTestRegistry,
  TEST_SECRET,
  type TestRegistry,
} from '../helpers/registry.js';

const RAM_NS = 'https://github.com/a2aproject/A2A/issues/1426#';
const BASE_URI = `${ORIGIN}/ard/v1`;

let root: string;
let dist: string;
let entries: Json[];
let registry: TestRegistry;
let api: string;

type Result = Json & { identifier: string; score: number; source: string; verified: boolean };
type SearchAnswer = { results: Result[]; referrals?: Json[]; nextPageToken?: string };

const search = (body: unknown, headers: Record<string, string> = {}) =>
  postJson<SearchAnswer>(`${api}/search`, body, headers);
const byId = (id: string) => entries.find((e) => e.identifier === id)!;

beforeAll(async () => {
  // The example's registry build, shared with the other files that serve it (test/helpers/shared-build.ts);
  // `root`, a copy of the same project with the same commit, builds the static site to compare with.
  [root, dist] = await Promise.all([
    copyProject(),
    sharedBuild(EXAMPLE_LIKE, { copy: true, env: fixedKeyEnv(), registry: true }),
  ]);
  entries = (
    JSON.parse(await readFile(path.join(dist, '.well-known/ard.json'), 'utf8')) as { entries: Json[] }
  ).entries;
  registry = await startTestRegistry(dist);
  api = registry.apiUrl;
});

afterAll(async () => {
  await registry?.close();
  await removeProjects();
});

describe('the registry build', () => {
  it('lists a signed application/ai-registry+json entry whose url is the base URI', async () => {
    const entry = entries.find((e) => e.type === 'application/ai-registry+json')!;
    expect(entry).toMatchObject({
      identifier: 'urn:air:agents.example.com:travel:registry',
      url: BASE_URI,
      trustManifest: {
        identity: DID,
        subject: { identifier: entry.identifier, type: 'application/ai-registry+json' },
      },
    });
    const didDocument = JSON.parse(await readFile(path.join(dist, '.well-known/did.json'), 'utf8')) as Json;
    await verifyTrustManifest(entry.trustManifest as Json, didDocument);
    const report = await verifySite(folderReader(dist, ORIGIN), { origin: ORIGIN });
    expect(report.findings.filter((f) => f.severity === 'error')).toEqual([]);
  });

  it('keeps dist/ the static site, byte for byte but ard.json (and its copies), _headers and the registry url’s document, and puts the server bundle beside it', async () => {
    const staticBuild = await buildProject(root, { env: fixedKeyEnv(), out: 'dist-static' });
    expect(staticBuild.code, staticBuild.stderr).toBe(0);
    // A static build has no server bundle and no API routes.
    expect(existsSync(`${staticBuild.outDir}-server`)).toBe(false);
    expect(existsSync(path.join(staticBuild.outDir, 'ard'))).toBe(false);
    const registryTree = await readTree(dist);
    const staticTree = await readTree(staticBuild.outDir);
    // The registry entry's url answers on the static site too (ARD draft §3.6): its service description.
    expect([...registryTree.keys()].filter((f) => f !== 'ard/v1')).toEqual([...staticTree.keys()]);
    expect(registryTree.has('ard/v1')).toBe(true);
    const differ = [...registryTree]
      .filter(([file, bytes]) => !staticTree.get(file)?.equals(bytes))
      .map(([f]) => f);
    // The manifest gains the registry entry, and so do its ai-catalog.json copy and llms.txt; the registry
    // entry's url answers with its service description, typed in _headers (ARD draft §3.6).
    expect(differ).toEqual([
      '.well-known/ai-catalog.json',
      '.well-known/ard.json',
      '_headers',
      'ard/v1',
      'llms.txt',
    ]);
    const server = await readTree(`${dist}-server`);
    expect(server.has('entry.mjs')).toBe(true);
    expect(JSON.parse(server.get('registry-build.json')!.toString())).toMatchObject({
      basePath: '/ard/v1',
      url: BASE_URI,
      identifier: 'urn:air:agents.example.com:travel:registry',
    });
    await rm(staticBuild.outDir, { recursive: true, force: true });
  });

  it('refuses a registry whose URN an agent already has', async () => {
    const site = await makeSite({ 'content/agents/registry.md': agentMd() });
    const result = await buildProject(site, { env: fixedKeyEnv(), args: ['--registry'] });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/registry\.name.*\[ARD_DUPLICATE_ENTRY\]/s);
    await removeSites();
  });
});

describe('the ARD conformance tool (ards-project/ard-spec conformance-test, run as published)', () => {
  it('passes the lookup API: GET /agents, POST /search and POST /explore, without an error or a warning', async () => {
    const verdict = await runConformanceTool(['registry', api]);
    expect({ errors: verdict.errors, warnings: verdict.warnings }, verdict.output).toEqual({
      errors: [],
      warnings: [],
    });
    expect(verdict.output).toContain('CONFORMANCE STATUS: PASS');
    expect(verdict.code).toBe(0);
    // It probed all three endpoints, and /search found the example's MCP entry for its query.
    for (const probe of [
      'GET /agents response contains valid',
      'POST /search returned valid results list (1 items)',
      'POST /explore returned valid facets object',
    ])
      expect(verdict.output).toContain(probe);
  });
});

describe('POST /search (ARD draft §4.2.2)', () => {
  it('answers a search-response whose results carry the entry coordinates, score, source and trustManifest', async () => {
    const answer = await search({ query: { text: 'book a flight to Tokyo' } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(Object.keys(answer.body)).toEqual(['results']);
    const { results } = answer.body;
    expect(results[0]!.identifier).toBe('urn:air:agents.example.com:travel:travel-reservation');
    expect(results[0]!.score).toBe(100);
    for (const r of results) {
      const entry = byId(r.identifier);
      expect(Number.isInteger(r.score) && r.score >= 0 && r.score <= 100).toBe(true);
      expect(r).toMatchObject({
        displayName: entry.displayName,
        type: entry.type,
        url: entry.url,
        source: BASE_URI,
      });
      for (const field of ['version', 'digest', 'trustManifest'] as const)
        expect(r[field]).toEqual(entry[field]);
      expect(r.verified).toBe(String(entry.identifier).startsWith('urn:air:agents.example.com:'));
    }
    // Ordered by score, ties by identifier.
    for (let i = 1; i < results.length; i++) {
      const [a, b] = [results[i - 1]!, results[i]!];
      expect(a.score > b.score || (a.score === b.score && a.identifier < b.identifier)).toBe(true);
    }
  });

  it('pages with pageSize (default 10, 1 to 100) and an opaque nextPageToken', async () => {
    const text = 'travel agent';
    const all = (await search({ query: { text } })).body.results;
    expect(all.length).toBeGreaterThan(2);
    const first = await search({ query: { text }, pageSize: 2 });
    expect(first.body.results).toEqual(all.slice(0, 2));
    expect(first.body.nextPageToken).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    const second = await search({ query: { text }, pageSize: 100, pageToken: first.body.nextPageToken });
    expect(second.body.results).toEqual(all.slice(2));
    expect(second.body.nextPageToken).toBeUndefined();
    // ARD draft §4.2.2.1: the message says 1 to 100, and so does the behaviour.
    expectProblem(await search({ query: { text }, pageSize: 5000 }), 400, 'INVALID_ARGUMENT');
  });

  it('filters on nested keys (trustManifest.identity) and values OR, keys AND', async () => {
    const text = 'travel';
    const own = await search({ query: { text, filter: { 'trustManifest.identity': DID } } });
    expect(own.body.results.length).toBeGreaterThan(0);
    expect(own.body.results.every((r) => r.identifier.startsWith('urn:air:agents.example.com:'))).toBe(true);
    const types = await search({
      query: { text, filter: { type: ['application/mcp-server-card+json', 'application/ai-registry+json'] } },
    });
    expect(new Set(types.body.results.map((r) => r.type))).toEqual(
      new Set(['application/mcp-server-card+json', 'application/ai-registry+json']),
    );
    const all = (await search({ query: { text }, pageSize: 100 })).body.results;
    const both = await search({
      query: { text, filter: { type: ['application/a2a-agent-card+json'], tags: ['hotels', 'booking'] } },
      pageSize: 100,
    });
    const expected = all.filter((r) => {
      const tags = (byId(r.identifier).tags as string[] | undefined) ?? [];
      return (
        r.type === 'application/a2a-agent-card+json' && (tags.includes('hotels') || tags.includes('booking'))
      );
    });
    expect(expected.length).toBeGreaterThan(0);
    expect(both.body.results.map((r) => r.identifier).sort()).toEqual(
      expected.map((r) => r.identifier).sort(),
    );
  });

  it('filters on the RAM footprint terms, prefixed, through the entries’ or the query’s @context', async () => {
    const agents = entries.filter(
      (e) => e.type === 'application/a2a-agent-card+json' && e['ram:accessCount'] !== undefined,
    );
    const never = agents
      .filter((e) => e['ram:actsAsEndUser'] === false)
      .map((e) => e.identifier)
      .sort();
    expect(never.length).toBeGreaterThan(0);
    const listed = await search({
      query: { text: 'travel policy trip', filter: { 'ram:actsAsEndUser': ['false'] } },
      pageSize: 100,
    });
    expect(listed.body.results.map((r) => r.identifier).sort()).toEqual(
      never.filter((id) => listed.body.results.some((r) => r.identifier === id)),
    );
    expect(listed.body.results.every((r) => never.includes(r.identifier))).toBe(true);
    // The same term under another prefix name, declared by the query.
    const thirdParty = agents.filter((e) =>
      (e['ram:owners'] as string[] | undefined)?.includes('THIRD_PARTY'),
    );
    const remapped = await call<{ entries: Json[] }>(
      `${api}/agents?context.r=${encodeURIComponent(RAM_NS)}&filter.r:owners=THIRD_PARTY`,
    );
    expect(remapped.body.entries.map((e) => e.identifier)).toEqual(
      thirdParty.map((e) => e.identifier).sort(),
    );
    const posted = await search({
      query: {
        '@context': { r: RAM_NS },
        text: 'travel trip flight hotel',
        filter: { 'r:thirdPartyResourceCount': '0' },
      },
    });
    expect(posted.status).toBe(200);
    for (const r of posted.body.results) expect(byId(r.identifier)['ram:thirdPartyResourceCount']).toBe(0);
  });

  it('matches nothing, without an error, for a declared term no entry has', async () => {
    const answer = await search({
      query: {
        '@context': { okf: 'https://openknowledgeformat.org/ns#' },
        text: 'book a flight',
        filter: { 'okf:regulatoryZone': ['JP', 'US'] },
      },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.results).toEqual([]);
  });

  it('answers referrals only in referrals mode (none configured here: an empty list)', async () => {
    expect((await search({ query: { text: 'hotel' }, federation: 'referrals' })).body.referrals).toEqual([]);
    expect((await search({ query: { text: 'hotel' }, federation: 'none' })).body.referrals).toBeUndefined();
    expect((await search({ query: { text: 'hotel' }, federation: 'auto' })).body.referrals).toBeUndefined();
  });
});

describe('GET /agents (ARD draft §4.2.4)', () => {
  it('lists the entries verbatim in identifier order, page by page, cacheable', async () => {
    const seen: Json[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const answer = await call<{ entries: Json[]; nextPageToken?: string }>(
        `${api}/agents?pageSize=4${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`,
      );
      expect(answer.status).toBe(200);
      expect(answer.headers.get('cache-control')).toBe('public, max-age=300');
      seen.push(...answer.body.entries);
      token = answer.body.nextPageToken;
      pages++;
    } while (token);
    expect(pages).toBe(Math.ceil(entries.length / 4));
    expect(seen).toEqual([...entries].sort((a, b) => (String(a.identifier) < String(b.identifier) ? -1 : 1)));
  });

  it('takes the filter grammar: filter.<path>=<value>, repeated keys OR, distinct keys AND', async () => {
    const ids = async (query: string) =>
      (await call<{ entries: Json[] }>(`${api}/agents?${query}`)).body.entries.map((e) => e.identifier);
    expect(await ids('filter.type=application/mcp-server-card%2Bjson')).toEqual([
      'urn:air:agents.example.com:tools:trip-tools',
    ]);
    expect(
      await ids('filter.type=application/mcp-server-card%2Bjson&filter.type=application/ai-registry%2Bjson'),
    ).toEqual(['urn:air:agents.example.com:tools:trip-tools', 'urn:air:agents.example.com:travel:registry']);
    expect(await ids('filter.tags=travel&filter.publisher=hotels.example.org')).toEqual([
      'urn:air:hotels.example.org:agents:hotel-booking',
    ]);
    expect(
      await ids(`filter.trustManifest.subject.type=${encodeURIComponent('application/ai-registry+json')}`),
    ).toEqual(['urn:air:agents.example.com:travel:registry']);
    expect(await ids('filter.ram:actsAsEndUser=true')).toEqual(
      entries
        .filter((e) => e['ram:actsAsEndUser'] === true)
        .map((e) => e.identifier)
        .sort(),
    );
  });
});

describe('POST /explore (ARD draft §4.2.3)', () => {
  /** Counts over the manifest: entries per value of `read(entry)`. */
  function countOver(list: Json[], read: (e: Json) => unknown): Map<string, number> {
    const counts = new Map<string, number>();
    for (const e of list) {
      const raw = read(e);
      const values = new Set(
        (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map((v) =>
          typeof v === 'string' ? v : JSON.stringify(v),
        ),
      );
      for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
    }
    return counts;
  }
  const sorted = (m: Map<string, number>) =>
    [...m]
      .sort(([va, a], [vb, b]) => b - a || (va < vb ? -1 : 1))
      .map(([value, count]) => ({ value, count }));

  it('answers facet counts equal to a count over the manifest, with limit and otherCount', async () => {
    const fields: Array<[string, (e: Json) => unknown]> = [
      ['capabilities', (e) => e.capabilities],
      ['tags', (e) => e.tags],
      ['type', (e) => e.type],
      ['publisher', (e) => String(e.identifier).split(':')[2]],
      ['ram:owners', (e) => e['ram:owners']],
      ['ram:actsAsEndUser', (e) => e['ram:actsAsEndUser']],
      ['trustManifest.identity', (e) => (e.trustManifest as Json | undefined)?.identity],
    ];
    const answer = await postJson<{
      resultType: string;
      facets: Record<string, { buckets: Json[]; otherCount: number }>;
    }>(`${api}/explore`, { resultType: { facets: fields.map(([field]) => ({ field, limit: 2 })) } });
    expect(answer.status).toBe(200);
    expect(answer.body.resultType).toBe('facets');
    for (const [field, read] of fields) {
      const expected = sorted(countOver(entries, read));
      expect(answer.body.facets[field], field).toEqual({
        buckets: expected.slice(0, 2),
        otherCount: expected.slice(2).reduce((s, b) => s + b.count, 0),
      });
    }
  });

  it('counts over the entries a query matches', async () => {
    const answer = await postJson<{ facets: Record<string, { buckets: Json[] }> }>(`${api}/explore`, {
      query: { filter: { 'ram:actsAsEndUser': ['true'] } },
      resultType: { facets: [{ field: 'type' }] },
    });
    const count = entries.filter((e) => e['ram:actsAsEndUser'] === true).length;
    expect(answer.body.facets.type!.buckets).toEqual([{ value: 'application/a2a-agent-card+json', count }]);
  });
});

describe('errors: application/problem+json with the codes of Table 1 (ARD draft §4.2.5)', () => {
  const bad: Array<[string, unknown]> = [
    ['not JSON', '{"query": '],
    ['not an object', '[1, 2]'],
    ['no query', {}],
    ['an unknown member', { query: { text: 'x' }, page: 2 }],
    ['an unknown query member', { query: { text: 'x', q: 'y' } }],
    ['no text', { query: { filter: { tags: ['x'] } } }],
    ['an empty text', { query: { text: '   ' } }],
    ['a text of the wrong type', { query: { text: 42 } }],
    ['a filter of the wrong type', { query: { text: 'x', filter: ['tags'] } }],
    ['a filter value of the wrong type', { query: { text: 'x', filter: { 'ram:accessCount': [3] } } }],
    ['an empty filter value list', { query: { text: 'x', filter: { tags: [] } } }],
    ['an undeclared prefix', { query: { text: 'x', filter: { 'okf:zone': ['JP'] } } }],
    ['an unknown term', { query: { text: 'x', filter: { colour: ['red'] } } }],
    ['a malformed term path', { query: { text: 'x', filter: { 'tags..x': ['a'] } } }],
    ['a remote @context', { query: { text: 'x', '@context': 'https://example.com/context.jsonld' } }],
    ['pageSize 0', { query: { text: 'x' }, pageSize: 0 }],
    ['a fractional pageSize', { query: { text: 'x' }, pageSize: 1.5 }],
    ['a pageSize string', { query: { text: 'x' }, pageSize: '10' }],
    ['a federation mode of the wrong type', { query: { text: 'x' }, federation: true }],
    ['a pageToken of the wrong type', { query: { text: 'x' }, pageToken: 7 }],
    ['a pageToken this registry did not issue', { query: { text: 'x' }, pageToken: 'eyJvIjoxfQ.AAAA' }],
  ];
  it.each(bad)('400 INVALID_ARGUMENT for %s', async (_what, body) => {
    expectProblem(await search(body), 400, 'INVALID_ARGUMENT');
  });

  it('400 for a changed token, a token of another query, a bad Content-Type and bad federation headers', async () => {
    const first = await search({ query: { text: 'travel' }, pageSize: 1 });
    const token = first.body.nextPageToken!;
    const [payload, mac] = token.split('.') as [string, string];
    const changedPayload = Buffer.from(
      Buffer.from(payload, 'base64url').toString().replace(/"o":1/, '"o":0'),
    ).toString('base64url');
    expectProblem(
      await search({ query: { text: 'travel' }, pageToken: `${changedPayload}.${mac}` }),
      400,
      'INVALID_ARGUMENT',
    );
    const flipped = `${payload}.${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`;
    expectProblem(await search({ query: { text: 'travel' }, pageToken: flipped }), 400, 'INVALID_ARGUMENT');
    const other = await search({ query: { text: 'hotel' }, pageToken: token });
    expectProblem(other, 400, 'INVALID_ARGUMENT');
    expect((other.body as unknown as { detail: string }).detail).toMatch(/another query/);
    expectProblem(
      await call(`${api}/search`, {
        method: 'POST',
        body: '{"query":{"text":"x"}}',
        headers: { 'content-type': 'text/plain' },
      }),
      400,
      'INVALID_ARGUMENT',
    );
    expectProblem(await search({ query: { text: 'x' } }, { 'Hop-Count': 'many' }), 400, 'INVALID_ARGUMENT');
    expectProblem(
      await search({ query: { text: 'x' } }, { 'ARD-Registry-Trail': 'not a uri' }),
      400,
      'INVALID_ARGUMENT',
    );
  });

  it('400 for malformed explore requests and GET parameters', async () => {
    for (const body of [
      {},
      { resultType: { facets: [] } },
      { resultType: { facets: [{ field: 'tags', limit: 0 }] } },
      { resultType: { facets: [{ field: 'tags', size: 3 }] } },
      { resultType: { facets: [{ field: 'tags' }, { field: 'tags' }] } },
      { resultType: { facets: [{ field: 'colour' }] } },
      { resultType: { groups: [] } },
      { query: { text: 5 }, resultType: { facets: [{ field: 'tags' }] } },
    ]) {
      expectProblem(await postJson(`${api}/explore`, body), 400, 'INVALID_ARGUMENT');
    }
    for (const query of [
      'pageSize=abc',
      'pageSize=0',
      'filter=tags',
      'filters.tags=x',
      'filter.tags=',
      'pageToken=x.y',
      'filter.okf:x=1',
    ]) {
      expectProblem(await call(`${api}/agents?${query}`), 400, 'INVALID_ARGUMENT');
    }
  });

  it('413 (INVALID_ARGUMENT) for a body over the cap, declared or streamed', async () => {
    const big = JSON.stringify({ query: { text: 'x'.repeat(20_000) } });
    expectProblem(await search(big), 413, 'INVALID_ARGUMENT');
    const { port } = new URL(api);
    const streamed = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/ard/v1/search',
          headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8').on('data', (c: string) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      for (let i = 0; i < 20; i++)
        req.write(`${'{"query":{"text":"'.slice(0, i === 0 ? 18 : 0)}${'y'.repeat(1000)}`);
      req.end('"}}');
    });
    expect(streamed.status).toBe(413);
    expect(JSON.parse(streamed.body)).toMatchObject({ error: 'INVALID_ARGUMENT', status: 413 });
  });

  it('404 NOT_FOUND for any other path under the base path (the base path: the service description)', async () => {
    expectProblem(await call(`${api}/nothing`, { method: 'POST' }), 404, 'NOT_FOUND');
    // The base path itself is the registry entry's url: its service description (ARD draft §3.6).
    const base = await call(api);
    expect(base.status).toBe(200);
    expect(base.headers.get('content-type')).toBe('application/ai-registry+json');
  });

  it('405 (NOT_IMPLEMENTED) with Allow for a method an endpoint does not take', async () => {
    const answer = await call(`${api}/search`);
    expectProblem(answer, 405, 'NOT_IMPLEMENTED');
    expect(answer.headers.get('allow')).toBe('POST, OPTIONS');
    expect((await call(`${api}/agents`, { method: 'DELETE' })).headers.get('allow')).toBe(
      'GET, HEAD, OPTIONS',
    );
  });

  it('429 RATE_LIMIT_EXCEEDED with Retry-After when a client empties its bucket', async () => {
    const limited = await startTestRegistry(dist, {
      overrides: { rateLimit: { capacity: 2, refillPerSecond: 0.05, exemptLoopback: false } },
    });
    try {
      const url = `${limited.apiUrl}/agents?pageSize=1`;
      expect((await call(url)).status).toBe(200);
      expect((await call(url)).status).toBe(200);
      const refused = await call(url);
      expectProblem(refused, 429, 'RATE_LIMIT_EXCEEDED');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(refused.headers.get('access-control-allow-origin')).toBe('*');
      // The static files are not limited.
      expect((await call(`${limited.origin}/.well-known/ard.json`)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('500 INTERNAL_ERROR when the server bundle is mounted without the registry index', async () => {
    const { handler } = (await import(pathToFileURL(path.join(`${dist}-server`, 'entry.mjs')).href)) as {
      handler: (
        req: http.IncomingMessage,
        res: http.ServerResponse,
        next: () => void,
        locals: object,
      ) => Promise<void>;
    };
    const bare = http.createServer((req, res) => void handler(req, res, () => res.end(), {}));
    await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
    try {
      const { port } = bare.address() as AddressInfo;
      expectProblem(
        await postJson(`http://127.0.0.1:${port}/ard/v1/search`, { query: { text: 'x' } }),
        500,
        'INTERNAL_ERROR',
      );
    } finally {
      bare.close();
    }
  });

  it('501 NOT_IMPLEMENTED for an unknown federation mode, or one this registry does not answer', async () => {
    expectProblem(await search({ query: { text: 'x' }, federation: 'recursive' }), 501, 'NOT_IMPLEMENTED');
    const localOnly = await startTestRegistry(dist, {
      overrides: {
        rateLimit: { exemptLoopback: true },
        federation: { modes: ['none'], defaultMode: 'none' },
      },
    });
    try {
      expectProblem(
        await postJson(`${localOnly.apiUrl}/search`, { query: { text: 'x' }, federation: 'auto' }),
        501,
        'NOT_IMPLEMENTED',
      );
      expect((await postJson(`${localOnly.apiUrl}/search`, { query: { text: 'x' } })).status).toBe(200);
    } finally {
      await localOnly.close();
    }
  });
});

describe('headers, CORS and the static files', () => {
  let preview: PreviewServer;
  beforeAll(async () => {
    preview = await startPreviewServer({ dir: dist, port: 0 });
  });
  afterAll(async () => preview?.close());

  it('sends the security headers and CORS of the static JSON files on every API answer', async () => {
    const staticJson = await fetch(`${preview.origin}/.well-known/ard.json`);
    for (const answer of [
      await search({ query: { text: 'x' } }),
      await call(`${api}/agents`),
      await call(`${api}/nothing`),
    ]) {
      for (const name of ['x-content-type-options', 'referrer-policy', 'access-control-allow-origin']) {
        expect(answer.headers.get(name), name).toBe(staticJson.headers.get(name));
      }
    }
    expect((await search({ query: { text: 'x' } })).headers.get('cache-control')).toBe('no-store');
  });

  it('answers CORS preflights', async () => {
    const answer = await call(`${api}/search`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example.net', 'access-control-request-method': 'POST' },
    });
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(answer.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
    expect(answer.headers.get('access-control-allow-headers')).toMatch(
      /Content-Type.*Hop-Count.*ARD-Registry-Trail/,
    );
  });

  it('serves the static files exactly as npm run preview does', async () => {
    for (const p of [
      '/',
      '/.well-known/ard.json',
      '/agents/travel-reservation/',
      '/agents/travel-reservation/agent-card.json',
      '/robots.txt',
      '/nope',
      '/agents/travel-reservation',
    ]) {
      const [a, b] = await Promise.all([
        fetch(`${registry.origin}${p}`, { redirect: 'manual' }),
        fetch(`${preview.origin}${p}`, { redirect: 'manual' }),
      ]);
      expect(a.status, p).toBe(b.status);
      const headers = (r: Response) =>
        [...r.headers].filter(([n]) => !['date', 'connection', 'keep-alive'].includes(n));
      expect(headers(a), p).toEqual(headers(b));
      expect(Buffer.from(await a.arrayBuffer()).equals(Buffer.from(await b.arrayBuffer())), p).toBe(true);
    }
    // An agent card carries the ETag A2A §8.6.1 recommends, and If-None-Match gets a 304 without a body.
    const card = `${registry.origin}/agents/travel-reservation/agent-card.json`;
    const tag = (await fetch(card)).headers.get('etag');
    expect(tag).toMatch(/^W\/"[^"]+"$/);
    const again = await fetch(card, { headers: { 'if-none-match': tag! } });
    expect([again.status, await again.text(), again.headers.get('etag')]).toEqual([304, '', tag]);
  });
});

describe('the answer cache of the one server (answer-cache.ts)', () => {
  const comparable = (answer: { status: number; headers: Headers; text: string }) => ({
    status: answer.status,
    headers: [...answer.headers].filter(
      // fetch asks for gzip and decompresses: a kept answer may come compressed (tested below).
      ([n]) =>
        ![
          'date',
          'connection',
          'keep-alive',
          'transfer-encoding',
          'content-length',
          'content-encoding',
        ].includes(n),
    ),
    text: answer.text,
  });

  it('answers a request it has answered before with the same status, headers and bytes, without a render', async () => {
    const requests: Array<() => ReturnType<typeof call>> = [
      () => search({ query: { text: 'calendar meeting cache-test' }, pageSize: 1 }),
      () =>
        postJson(`${api}/explore`, {
          query: { text: 'cache-test' },
          resultType: { facets: [{ field: 'tags' }] },
        }),
      () => call(`${api}/agents?pageSize=1&filter.type=application%2Fa2a-agent-card%2Bjson`),
    ];
    for (const send of requests) {
      const { hits, stores } = registry.answers;
      const first = await send();
      expect(first.status).toBe(200);
      // Kept from the second time it is asked (answer-cache.ts `offer`), given from the cache after that.
      expect(registry.answers.stores).toBe(stores);
      const second = await send();
      expect(registry.answers.stores).toBe(stores + 1);
      expect(registry.answers.hits).toBe(hits);
      const again = await send();
      expect(registry.answers.hits).toBe(hits + 1);
      expect(comparable(second)).toEqual(comparable(first));
      expect(comparable(again)).toEqual(comparable(first));
    }
  });

  it('keeps the answer of each page of a query apart, so paging through cached answers never repeats', async () => {
    const body = { query: { text: 'travel' }, pageSize: 1 };
    const first = await search(body);
    const second = await search({ ...body, pageToken: first.body.nextPageToken });
    expect(second.body.results[0]!.identifier).not.toBe(first.body.results[0]!.identifier);
    const secondAgain = await search({ ...body, pageToken: first.body.nextPageToken });
    expect(secondAgain.text).toBe(second.text);
  });

  it('gives a kept answer gzip-compressed to a client that accepts gzip, the same JSON once decompressed', async () => {
    const body = JSON.stringify({ query: { text: 'travel gzip-test' }, pageSize: 10 });
    const raw = (acceptEncoding?: string) =>
      new Promise<{ headers: http.IncomingHttpHeaders; bytes: Buffer }>((resolve, reject) => {
        const req = http.request(
          `${api}/search`,
          {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}),
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ headers: res.headers, bytes: Buffer.concat(chunks) }));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    const first = await raw(); // rendered
    expect(first.headers['content-encoding']).toBeUndefined();
    // Rendered again and kept (answer-cache.ts `offer`: from the second time), the same bytes.
    expect((await raw()).bytes.equals(first.bytes)).toBe(true);
    expect(first.headers.vary).toBe('Accept-Encoding');
    const zipped = await raw('gzip, deflate, br');
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toBe('Accept-Encoding');
    expect(Number(zipped.headers['content-length'])).toBe(zipped.bytes.length);
    expect(zipped.bytes.length).toBeLessThan(first.bytes.length / 2);
    expect(gunzipSync(zipped.bytes).equals(first.bytes)).toBe(true);
    // gzip refused (q=0), or not offered: as it is.
    for (const refusal of ['gzip;q=0, identity', 'br', 'identity'])
      expect((await raw(refusal)).bytes.equals(first.bytes), refusal).toBe(true);
    // fetch asks for gzip and decompresses: the same answer.
    expect((await search(JSON.parse(body))).text).toBe(first.bytes.toString('utf8'));
  });

  it('lets a client go that closes the connection mid-body, with no internal error', async () => {
    const { port } = new URL(api);
    await new Promise<void>((resolve) => {
      const req = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/ard/v1/search',
        headers: { 'content-type': 'application/json', 'content-length': '1000' },
      });
      req.on('error', () => resolve());
      req.write('{"query":');
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 50);
    });
    await new Promise((r) => setTimeout(r, 50));
    expect((await search({ query: { text: 'travel' } })).status).toBe(200);
    expect(registry.logs.filter((l) => /internal error|could not answer/.test(l))).toEqual([]);
  });

  it('never keeps a problem answer', async () => {
    const { stores } = registry.answers;
    expectProblem(await search({ query: { text: 1 } }), 400, 'INVALID_ARGUMENT');
    expectProblem(await search({ query: { text: 1 } }), 400, 'INVALID_ARGUMENT');
    expectProblem(await call(`${api}/agents?pageSize=0`), 400, 'INVALID_ARGUMENT');
    expect(registry.answers.stores).toBe(stores);
  });

  it('can be turned off (answerCacheBytes: 0), with the same answers', async () => {
    const off = await startTestRegistry(dist, { overrides: { answerCacheBytes: 0 } });
    try {
      const body = { query: { text: 'calendar' }, pageSize: 2 };
      const [a, b] = [await postJson(`${off.apiUrl}/search`, body), await search(body)];
      expect(a.text).toBe(b.text);
      expect(off.answers.size).toBe(0);
    } finally {
      await off.close();
    }
  });
});

describe('the direct path from the server to the service (node-request.ts)', () => {
  it('answers the API without the server bundle’s Astro handler', async () => {
    // A copy of the bundle whose handler answers 418: the one server must never call it.
    const serverDir = await mkdtemp(path.join(tmpdir(), 'ardsite-bundle-'));
    try {
      await cp(`${dist}-server`, serverDir, { recursive: true });
      await writeFile(
        path.join(serverDir, 'entry.mjs'),
        'export const handler = (req, res) => { res.statusCode = 418; res.end(); };\n',
      );
      const direct = await startTestRegistry(dist, { serverDir });
      try {
        const found = await postJson<SearchAnswer>(`${direct.apiUrl}/search`, {
          query: { text: 'travel' },
        });
        expect(found.status).toBe(200);
        expect(found.body.results.length).toBeGreaterThan(0);
        expect((await call(`${direct.apiUrl}/agents?pageSize=1`)).status).toBe(200);
        expectProblem(await call(`${direct.apiUrl}/nothing-here`), 404, 'NOT_FOUND');
      } finally {
        await direct.close();
      }
    } finally {
      await rm(serverDir, { recursive: true, force: true });
    }
  });

  it('names the endpoints as the bundle’s routes do, a trailing slash ignored (but in an identifier)', async () => {
    const body = { query: { text: 'travel' }, pageSize: 2 };
    const plain = await search(body);
    const slashed = await postJson(`${api}/search/`, body);
    expect(slashed.status).toBe(200);
    expect(slashed.text).toBe(plain.text);
    expect((await call(`${api}/agents/?pageSize=1`)).text).toBe(
      (await call(`${api}/agents?pageSize=1`)).text,
    );
    expectProblem(
      await call(`${api}/agents/${encodeURIComponent(entries[0]!.identifier as string)}/`),
      404,
      'NOT_FOUND',
    );
  });

  it('sends a first answer uncompressed and gzip-compresses a kept answer only when it is asked again', async () => {
    const body = { query: { text: 'travel lazy-gzip-test' }, pageSize: 10 };
    const { gzipped } = registry.answers;
    const first = await search(body);
    expect(first.headers.get('content-encoding')).toBeNull();
    // Made again and kept the second time (answer-cache.ts `offer`), still uncompressed.
    expect((await search(body)).text).toBe(first.text);
    expect(registry.answers.gzipped).toBe(gzipped);
    const again = await search(body);
    expect(again.text).toBe(first.text);
    expect(registry.answers.gzipped).toBe(gzipped + 1);
  });
});

describe('privacy (ARD draft §7)', () => {
  it('never writes query.text to the log, even on an error', async () => {
    const secretText = 'my-private-intent-7f3a9c book a confidential flight';
    await search({ query: { text: secretText } });
    await search({ query: { text: secretText, filter: { colour: ['x'] } } });
    await search(`{"query":{"text":"${secretText}"`);
    await postJson(`${api}/explore`, {
      query: { text: secretText },
      resultType: { facets: [{ field: 'tags' }] },
    });
    expect(registry.logs.some((l) => l.startsWith('POST /ard/v1/search'))).toBe(true);
    expect(registry.logs.join('\n')).not.toMatch(/7f3a9c|confidential/);
    // Nor is it echoed in an error detail.
    const answer = await search(`{"query":{"text":"${secretText}"`);
    expect(answer.text).not.toMatch(/7f3a9c/);
  });
});

describe('start-up', () => {
  it('refuses a static build, a server bundle of another build and another basePath', async () => {
    const other = await mkdtemp(path.join(tmpdir(), 'ardsite-reg-'));
    try {
      await cp(dist, path.join(other, 'dist'), { recursive: true });
      expect(await asyncCodeOf(() => startTestRegistry(path.join(other, 'dist')))).toBe(
        'REGISTRY_BUILD_MISSING',
      );
      await cp(`${dist}-server`, path.join(other, 'dist-server'), { recursive: true });
      expect(
        await asyncCodeOf(() =>
          startTestRegistry(path.join(other, 'dist'), { overrides: { basePath: '/api/ard' } }),
        ),
      ).toBe('REGISTRY_CONFIG_INVALID');
      const manifest = path.join(other, 'dist/.well-known/ard.json');
      await writeFile(
        manifest,
        (await readFile(manifest, 'utf8')).replace('Travel Policy Helper', 'Travel Policy Helpers'),
      );
      expect(await asyncCodeOf(() => startTestRegistry(path.join(other, 'dist')))).toBe(
        'REGISTRY_BUILD_MISSING',
      );
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('refuses a build whose files were changed after the build (it does not verify)', async () => {
    const other = await mkdtemp(path.join(tmpdir(), 'ardsite-reg-'));
    try {
      await cp(dist, path.join(other, 'dist'), { recursive: true });
      await cp(`${dist}-server`, path.join(other, 'dist-server'), { recursive: true });
      const card = path.join(other, 'dist/agents/travel-policy-helper/agent-card.json');
      await writeFile(
        card,
        (await readFile(card, 'utf8')).replace('"version": "2.0.0"', '"version": "2.0.1"'),
      );
      expect(await asyncCodeOf(() => startTestRegistry(path.join(other, 'dist')))).toBe(
        'REGISTRY_INDEX_INVALID',
      );
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('uses the configured secret: a token of one server process is valid on another', async () => {
    const second = await startTestRegistry(dist, { secret: TEST_SECRET });
    const otherSecret = await startTestRegistry(dist, {
      secret: new TextEncoder().encode('another secret of at least thirty-two bytes!'),
    });
    try {
      const first = await search({ query: { text: 'travel' }, pageSize: 1 });
      const token = first.body.nextPageToken!;
      const onSecond = await postJson<SearchAnswer>(`${second.apiUrl}/search`, {
        query: { text: 'travel' },
        pageSize: 1,
        pageToken: token,
      });
      expect(onSecond.status).toBe(200);
      expect(onSecond.body.results).toEqual(
        (await search({ query: { text: 'travel' }, pageSize: 1, pageToken: token })).body.results,
      );
      expectProblem(
        await postJson(`${otherSecret.apiUrl}/search`, { query: { text: 'travel' }, pageToken: token }),
        400,
        'INVALID_ARGUMENT',
      );
    } finally {
      await second.close();
      await otherSecret.close();
    }
  });
});
