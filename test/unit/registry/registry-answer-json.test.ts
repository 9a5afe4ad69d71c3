/**
 * The `/search` answer assembled from each entry's result item serialised once (search-results.ts
 * `resultJson`, `searchAnswerJson`) is byte for byte the `JSON.stringify` of its object form (ARD draft §5
 * `search-response`, `search-result-item`): every member, in the same order, for entries with and without
 * `url`, `data`, `version`, trust manifests, non-ASCII names, unverified entries, with and without a next
 * page token and referrals.
 */
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../../src/core/registry/catalog.js';
import {
  localResult,
  resultJson,
  searchAnswerJson,
  type SearchResponse,
} from '../../../src/core/registry/search-results.js';
import { createRegistryService } from '../../../src/core/registry/service.js';
import { RegistrySettings } from '../../../src/core/schema/registry-settings.js';

const A2A = 'application/a2a-agent-card+json';
const SOURCE = 'https://r.example.com/ard/v1';

const ENTRIES: Array<{ entry: Record<string, unknown>; verified: boolean }> = [
  {
    entry: {
      identifier: 'urn:air:a.example.com:agents:flights',
      displayName: 'Flights "fast" agent',
      type: A2A,
      url: 'https://a.example.com/agents/flights.json',
      version: '1.0.0',
      digest: 'sha256:abc',
      description: 'Books flights and trains',
      tags: ['travel', 'flights'],
      trustManifest: { identity: 'did:web:a.example.com', signature: 'x.y.z' },
    },
    verified: true,
  },
  {
    entry: {
      identifier: 'urn:air:b.example.org:agents:reise',
      displayName: 'Reiseplaner für Züge ✈ \u2028',
      type: A2A,
      data: { inline: true, nested: { list: [1, 2.5, null] } },
      description: 'Plans flights and train trips',
      tags: ['travel'],
      trustManifests: [{ identity: 'did:web:auditor.example' }],
    },
    verified: false,
  },
  {
    entry: {
      identifier: 'urn:air:c.example.net:agents:weather',
      displayName: 'Weather',
      type: 'application/mcp-server-card+json',
      url: 'https://c.example.net/weather.json',
      data: { ignored: 'when url is there' },
      description: 'Weather for flights',
      trustManifest: { identity: 'did:web:c.example.net' },
      trustManifests: [{ identity: 'did:web:auditor.example' }],
    },
    verified: true,
  },
];

const catalog = () => buildCatalog(ENTRIES.map((e) => ({ entry: e.entry, verified: e.verified })));

describe('a result item serialised once', () => {
  it('is JSON.stringify(localResult(…)) around any score', async () => {
    const c = await catalog();
    for (const indexed of c.entries) {
      const json = resultJson(indexed, SOURCE);
      for (const score of [0, 1, 37, 99.5, 100, 1e-7]) {
        expect(`${json.head}${JSON.stringify(score)}${json.tail}`).toBe(
          JSON.stringify(localResult(indexed, score, SOURCE)),
        );
      }
    }
  });

  it('assembles the answer as JSON.stringify of its object form, with and without referrals and token', async () => {
    const c = await catalog();
    const items = c.entries.map((indexed, i) => ({ indexed, score: 100 - i * 7 }));
    const referrals = [
      {
        identifier: 'urn:air:p.example:registry:main',
        displayName: 'P',
        type: 'application/ai-registry+json' as const,
        url: 'https://p.example/ard/v1',
      },
    ];
    for (const refs of [undefined, referrals]) {
      for (const token of [undefined, 'tok.en-"1"']) {
        for (const page of [items, items.slice(1), []]) {
          const object: SearchResponse = {
            results: page.map((p) => localResult(p.indexed, p.score, SOURCE)),
            ...(refs ? { referrals: refs } : {}),
            ...(token ? { nextPageToken: token, pageToken: token } : {}),
          };
          const assembled = searchAnswerJson(
            page.map((p) => ({ json: resultJson(p.indexed, SOURCE), score: p.score })),
            refs,
            token,
          );
          expect(assembled).toBe(JSON.stringify(object));
        }
      }
    }
  });
});

describe('POST /search answered from the serialised items', () => {
  it('gives the bytes of JSON.stringify of the object form of the same ranking, page by page', async () => {
    const c = await catalog();
    const service = createRegistryService({
      catalog: c,
      settings: RegistrySettings.parse({}),
      self: { identifier: 'urn:air:r.example.com:registry:main', url: SOURCE },
      secret: new Uint8Array(32).fill(3),
      indexFingerprint: 'sha256:0123456789abcdef',
    });
    const ask = async (body: Record<string, unknown>) => {
      const answer = await service.answer('search', {
        method: 'POST',
        target: '/ard/v1/search',
        headers: { 'content-type': 'application/json' },
        body: Buffer.from(JSON.stringify(body)),
      });
      expect(answer.status).toBe(200);
      return answer.body!.toString('utf8');
    };
    const first = await ask({ query: { text: 'flights' }, pageSize: 2 });
    const parsed = JSON.parse(first) as SearchResponse;
    const ranking = service.engine.rank({ context: new Map(), text: 'flights', filter: [] } as never);
    expect(ranking.positions.length).toBe(3);
    const expected = (from: number, to: number, token?: string) =>
      `${JSON.stringify({
        results: [...ranking.positions.subarray(from, to)].map((p, k) =>
          localResult(c.entries[p]!, ranking.scores[from + k]!, SOURCE),
        ),
        ...(token ? { nextPageToken: token, pageToken: token } : {}),
      })}\n`;
    expect(parsed.nextPageToken).toBeTruthy();
    expect(first).toBe(expected(0, 2, parsed.nextPageToken));
    const second = await ask({ query: { text: 'flights' }, pageSize: 2, pageToken: parsed.nextPageToken });
    expect(second).toBe(expected(2, 3));
    // The web form (the Astro routes) gives the same bytes.
    const web = await service.handle(
      'search',
      new Request(`${SOURCE}/search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: { text: 'flights' }, pageSize: 2 }),
      }),
    );
    expect(await web.text()).toBe(first);
  });
});
