/**
 * Federation in the asker's language (ARD draft §4.3; RFC 9110 §12.5.4): two registries built in
 * registry mode and served on loopback, each the other's peer: P, the bilingual fixture (en, pt-BR), and
 * E, a site in English only. A forwarded `/search` carries the asker's `Accept-Language`, so P reads a
 * Portuguese question forwarded by E in Portuguese; a peer that answers in another language than the one
 * asked (E has only English) is merged all the same.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedKeyEnv, removeProjects } from '../helpers/build.js';
import { sharedBuild } from '../helpers/shared-build.js';
import { agentMd, fixture, makeSite, removeSites } from '../helpers/site.js';
import {
  buildRegistrySite,
  freePorts,
  postJson,
  startTestRegistry,
  type TestRegistry,
} from '../helpers/registry.js';

type Result = { identifier: string; source: string; verified: boolean };
type Answer = { results: Result[] };

const CONCIERGE = 'urn:air:agents.example.com:travel:itinerary-concierge';
const P = { domain: 'agents.example.com', identifier: 'urn:air:agents.example.com:travel:registry' };
const E = { domain: 'e.example.test', identifier: 'urn:air:e.example.test:agents:registry' };
const baseUri = (domain: string) => `https://${domain}/ard/v1`;
const peer = (r: typeof P) => ({ url: baseUri(r.domain), identifier: r.identifier, displayName: r.domain });

let ports: number[];
const servers: TestRegistry[] = [];
let p: TestRegistry;
let e: TestRegistry;

beforeAll(async () => {
  ports = await freePorts(2);
  const english = await makeSite({
    'content/publisher.yaml': `domain: ${E.domain}\nsiteUrl: https://${E.domain}/\norganization: Org E\norganizationUrl: https://www.${E.domain}/\n`,
    'content/agents/e-flights.md': agentMd({
      name: 'Flights finder',
      description: 'Finds flights for travel.',
      skills: [
        {
          id: 'flights',
          name: 'Book flights',
          description: 'Books flights for trips.',
          tags: ['travel'],
          examples: ['Book flights for my trip', 'find cheap flights'],
        },
      ],
    }),
  });
  // The bilingual registry build registry/languages.test.ts serves too, made once a run: `bilingual` holds
  // this file's copy of its `dist` and `dist-server` (test/helpers/shared-build.ts).
  const [bilingualDist] = await Promise.all([
    sharedBuild(fixture('pages-bilingual'), { copy: true, env: fixedKeyEnv(), registry: true }),
    buildRegistrySite(english),
  ]);
  const bilingual = path.dirname(bilingualDist);
  // Each reaches the other (its did:web document, cards and API) through `resolve`, never an address.
  const resolve = new Map([
    [P.domain, `http://127.0.0.1:${ports[0]}`],
    [E.domain, `http://127.0.0.1:${ports[1]}`],
  ]);
  const start = (root: string, port: number, peers: Array<ReturnType<typeof peer>>) =>
    startTestRegistry(path.join(root, 'dist'), {
      port,
      resolve,
      overrides: { rateLimit: { exemptLoopback: true }, federation: { peers, timeoutMs: 5_000 } },
    });
  p = await start(bilingual, ports[0]!, [peer(E)]);
  servers.push(p);
  e = await start(english, ports[1]!, [peer(P)]);
  servers.push(e);
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await removeProjects();
  await removeSites();
});

const search = (server: TestRegistry, text: string, headers: Record<string, string> = {}) =>
  postJson<Answer>(`${server.apiUrl}/search`, { query: { text }, pageSize: 100 }, headers);

describe('a forwarded /search carries the asker’s language', () => {
  it('a Portuguese question asked of the English registry finds the bilingual peer’s Portuguese texts', async () => {
    const pt = await search(e, 'roteiros de viagem', { 'Accept-Language': 'pt-BR,pt;q=0.9' });
    expect(pt.status, pt.text).toBe(200);
    expect(pt.headers.get('ard-federation-failed')).toBeNull();
    expect(pt.body.results.find((r) => r.identifier === CONCIERGE)).toMatchObject({
      source: baseUri(P.domain),
      verified: true,
    });
    // Without the header the peer reads the same words in English, where they match nothing.
    const none = await search(e, 'roteiros de viagem');
    expect(none.status).toBe(200);
    expect(none.body.results.map((r) => r.identifier)).not.toContain(CONCIERGE);
  });

  it('a peer that answers in another language than the one asked is merged all the same', async () => {
    const pt = await search(p, 'flights', { 'Accept-Language': 'pt-BR' });
    expect(pt.status, pt.text).toBe(200);
    expect(pt.headers.get('ard-federation-failed')).toBeNull();
    expect(pt.body.results.find((r) => r.identifier.startsWith(`urn:air:${E.domain}:`))).toMatchObject({
      source: baseUri(E.domain),
      verified: true,
    });
  });
});
