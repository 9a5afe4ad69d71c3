/**
 * The registry server's warm-up over HTTP (src/core/registry/warm-up.ts): the requests it sends are
 * well-formed requests of every endpoint of the lookup API (ARD draft §4.2), with and without gzip, in
 * each language of the site, some texts asked again; sent over HTTP to the listeners of
 * request-handler.ts, each is answered 200; it stops at its bounds; it asks for next pages; and its
 * private port is closed when it returns.
 */
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import type { ApiRequest } from '../../../src/core/registry/api-request.js';
import { AnswerCache } from '../../../src/core/registry/answer-cache.js';
import { buildCatalog, type Catalog } from '../../../src/core/registry/catalog.js';
import { registryHandlers } from '../../../src/core/registry/request-handler.js';
import type { RegistryEndpoint } from '../../../src/core/registry/runtime.js';
import { createRegistryService, type RegistryService } from '../../../src/core/registry/service.js';
import {
  WARM_UP_REQUESTS,
  warmUpOverHttp,
  warmUpRequest,
  warmUpWords,
} from '../../../src/core/registry/warm-up.js';
import { RegistrySettings } from '../../../src/core/schema/registry-settings.js';
import { syntheticEntries } from '../../helpers/synthetic-entries.js';

let catalog: Catalog | undefined;
const catalogOf = async () =>
  (catalog ??= await buildCatalog(
    syntheticEntries(300).map((entry) => ({ entry, verified: true })),
    {},
  ));

const serviceOf = (c: Catalog) =>
  createRegistryService({
    catalog: c,
    settings: RegistrySettings.parse({}),
    self: { identifier: 'urn:air:r.example.com:registry:main', url: 'https://r.example.com/ard/v1' },
    secret: new Uint8Array(32).fill(9),
    indexFingerprint: 'sha256:0123456789abcdef',
  });

/** Listeners over `service` that record what reached it, as server.ts builds them for the warm-up. */
function recordingHandlers(service: RegistryService) {
  const asked: Array<{ endpoint: RegistryEndpoint; request: ApiRequest; status: number }> = [];
  const wrapped: RegistryService = Object.assign(Object.create(service) as RegistryService, {
    answer: async (endpoint: RegistryEndpoint, request: ApiRequest, slot?: object) => {
      const answer = await service.answer(endpoint, request, slot);
      asked.push({ endpoint, request, status: answer.status });
      return answer;
    },
  });
  const answers = new AnswerCache(1024 * 1024);
  const handlers = registryHandlers({
    service: wrapped,
    answers,
    limiter: { take: () => ({ allowed: true }) },
    basePath: '/ard/v1',
    maxBodyBytes: 65_536,
    serveStatic: (_req, res) => res.writeHead(404).end(),
    log: () => {},
    accessLog: false,
  });
  return { handlers, asked, answers };
}

const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(true));
  });

describe('warmUpRequest', () => {
  it('covers every endpoint in a cycle of 20, with filters, small pages, repeated texts and gzip', async () => {
    const c = await catalogOf();
    const words = warmUpWords(c);
    const requests = Array.from({ length: 200 }, (_, n) => warmUpRequest(c, '/ard/v1', words, n));
    const paths = new Set(
      requests.map((r) => r.path.replace(/\?.*$/, '').replace(/agents\/.+$/, 'agents/{id}')),
    );
    expect([...paths].sort()).toEqual([
      '/ard/v1/agents',
      '/ard/v1/agents/{id}',
      '/ard/v1/explore',
      '/ard/v1/search',
    ]);
    const bodies = requests
      .filter((r) => r.body !== undefined)
      .map((r) => JSON.parse(r.body!) as Record<string, never>);
    expect(bodies.some((b) => (b.query as { filter?: unknown }).filter !== undefined)).toBe(true);
    expect(bodies.some((b) => b.pageSize === 5)).toBe(true);
    const texts = bodies.map((b) => (b.query as { text: string }).text);
    // Most texts are new; some are asked again (the answer cache's path), and all are the catalog's words.
    expect(new Set(texts).size).toBeGreaterThan(texts.length / 3);
    expect(new Set(texts).size).toBeLessThan(texts.length);
    for (const text of texts) for (const word of text.split(' ')) expect(words).toContain(word);
    const gzip = requests.filter((r) => r.headers['accept-encoding']?.includes('gzip')).length;
    expect(gzip).toBe(150);
  });

  it('sends Accept-Language in each of the site languages in turn, none for a one-language site', async () => {
    const c = { ...(await catalogOf()), languages: ['en', 'pt-BR'] } as Catalog;
    const words = warmUpWords(c);
    const languages = [0, 1, 2, 3].map(
      (n) => warmUpRequest(c, '/ard/v1', words, n).headers['accept-language'],
    );
    expect(languages).toEqual(['en', 'pt-BR', 'en', 'pt-BR']);
    expect(warmUpRequest(await catalogOf(), '/ard/v1', words, 1).headers['accept-language']).toBeUndefined();
  });
});

describe('warmUpOverHttp', () => {
  it('sends its requests over HTTP through the listeners, each answered 200, then closes its port', async () => {
    const c = await catalogOf();
    const { handlers, asked, answers } = recordingHandlers(serviceOf(c));
    const report = await warmUpOverHttp(handlers, c, '/ard/v1', { requests: 400, maxMs: 60_000 });
    expect(report.requests).toBe(400);
    expect(report.statuses).toEqual({ 200: 400 });
    expect([...new Set(asked.map((a) => a.endpoint))].sort()).toEqual([
      'agent',
      'agents',
      'explore',
      'search',
    ]);
    // Repeated texts were answered from the answer cache: fewer reached the service than were sent.
    expect(asked.length).toBeLessThan(400);
    expect(answers.size).toBeGreaterThan(0);
    // Next pages were asked with the pageToken of the page before.
    const paged = asked.filter(
      (a) => a.endpoint === 'search' && a.request.body.toString('utf8').includes('pageToken'),
    );
    expect(paged.length).toBeGreaterThan(0);
    expect(paged.every((a) => a.status === 200)).toBe(true);
    expect(report.port).toBeGreaterThan(0);
    expect(await refused(report.port!)).toBe(true);
  });

  it('stops at its time bound, and sends nothing for an empty catalog or a bound of 0', async () => {
    const c = await catalogOf();
    expect(
      (await warmUpOverHttp(recordingHandlers(serviceOf(c)).handlers, c, '/ard/v1', { maxMs: 0 })).requests,
    ).toBe(0);
    expect(
      (await warmUpOverHttp(recordingHandlers(serviceOf(c)).handlers, c, '/ard/v1', { requests: 0 }))
        .requests,
    ).toBe(0);
    const timed = await warmUpOverHttp(recordingHandlers(serviceOf(c)).handlers, c, '/ard/v1', {
      requests: 1_000_000,
      maxMs: 300,
    });
    expect(timed.requests).toBeGreaterThan(0);
    expect(timed.requests).toBeLessThan(1_000_000);
    expect(timed.ms).toBeLessThan(300 + 5_000);
    const empty = await buildCatalog([], {});
    const report = await warmUpOverHttp(recordingHandlers(serviceOf(empty)).handlers, empty, '/ard/v1');
    expect(report).toMatchObject({ requests: 0, statuses: {} });
  });

  it('by default sends WARM_UP_REQUESTS requests', async () => {
    const c = await catalogOf();
    const report = await warmUpOverHttp(recordingHandlers(serviceOf(c)).handlers, c, '/ard/v1', {
      maxMs: 60_000,
    });
    expect(report.requests).toBe(WARM_UP_REQUESTS);
    expect(Object.keys(report.statuses)).toEqual(['200']);
  });
});
