/**
 * Federation over HTTP (ARD draft §4.3, §6.6): three publishers, A, B and C, each built in registry mode
 * and served on loopback, their peers in a loop (A → B → C → A). B also lists one of A's agents with A's
 * own trustManifest, so A's answer must de-duplicate it. The network reader of each server reaches the
 * other publishers' did.json and cards through `resolve` (as `npm run verify -- --resolve`).
 *
 * Shown: `auto` terminates and returns every registry's matches once, each with the `source` of the
 * registry that returned it to A, and verified; Hop-Count and the trail bound the forwarding; `referrals` returns the peers; a slow peer and
 * a failing peer do not fail the answer; a peer result whose signature does not hold is dropped, an
 * unsigned one is marked `verified: false`; `GET /agents/{identifier}` is answered from A's own index only.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeSites, agentMd, makeSite } from '../helpers/site.js';
import {
  buildRegistrySite,
  call,
  expectProblem,
  freePorts,
  postJson,
  startTestRegistry,
  type TestRegistry,
} from '../helpers/registry.js';

type Result = { identifier: string; score: number; source: string; verified: boolean; digest?: string };
type Answer = { results: Result[]; referrals?: Array<Record<string, unknown>>; nextPageToken?: string };

const NAMES = ['a', 'b', 'c'] as const;
type Name = (typeof NAMES)[number];
const domain = (n: string) => `${n}.example.test`;
const registryId = (n: string) => `urn:air:${domain(n)}:agents:registry`;
const baseUri = (n: string) => `https://${domain(n)}/ard/v1`;
const agentId = (n: string, slug: string) => `urn:air:${domain(n)}:agents:${slug}`;

const roots = {} as Record<Name, string>;
const servers = {} as Record<Name, TestRegistry>;
const ports = {} as Record<Name | 'hang' | 'fake', number>;
const extra: Array<{ close(): Promise<void> | void }> = [];
const apiOf = (n: Name | 'hang' | 'fake') => `http://127.0.0.1:${ports[n]}/ard/v1`;
/** A peer as publisher.yaml names it: by its https name, reached through `resolve` (never an address). */
const peerOf = (n: Name | 'hang' | 'fake') => ({
  url: baseUri(n),
  identifier: n === 'hang' || n === 'fake' ? `urn:air:${n}.example.test:agents:registry` : registryId(n),
  displayName: `Registry ${n}`,
});
const resolve = () =>
  new Map([
    ...(['a', 'b', 'c', 'hang', 'fake'] as const).map(
      (n) => [domain(n), `http://127.0.0.1:${ports[n]}`] as [string, string],
    ),
    [domain('broken'), 'http://127.0.0.1:9'] as [string, string],
  ]);

function publisherYaml(n: string): string {
  return `domain: ${domain(n)}\nsiteUrl: https://${domain(n)}/\norganization: Org ${n.toUpperCase()}\norganizationUrl: https://www.${domain(n)}/\n`;
}

function agents(n: Name): Record<string, string> {
  const skill = (id: string, name: string) => ({
    id,
    name,
    description: `${name} for trips.`,
    tags: ['travel'],
    examples: [`${name} for my trip`, `help me ${name.toLowerCase()} on my travel`],
  });
  return {
    [`content/agents/${n}-flights.md`]: agentMd({
      name: `Flights ${n}`,
      description: 'Finds flights for travel.',
      skills: [skill('flights', 'Book flights')],
    }),
    [`content/agents/${n}-rooms.md`]: agentMd({
      name: `Rooms ${n}`,
      description: 'Finds rooms for travel.',
      skills: [skill('rooms', 'Book rooms')],
    }),
  };
}

async function start(n: Name, peers: ReturnType<typeof peerOf>[]): Promise<TestRegistry> {
  return startTestRegistry(path.join(roots[n], 'dist'), {
    port: ports[n],
    resolve: resolve(),
    overrides: { rateLimit: { exemptLoopback: true }, federation: { peers, timeoutMs: 5_000 } },
  });
}

const searchCount = (r: TestRegistry) => r.logs.filter((l) => l.startsWith('POST /ard/v1/search ')).length;

beforeAll(async () => {
  const [pa, pb, pc, ph, pf] = await freePorts(5);
  Object.assign(ports, { a: pa, b: pb, c: pc, hang: ph, fake: pf });
  for (const n of NAMES)
    roots[n] = await makeSite({ 'content/publisher.yaml': publisherYaml(n), ...agents(n) });
  await buildRegistrySite(roots.a);
  // B lists A's flights agent as another publisher's entry, with A's own signed trustManifest.
  const aEntries = (
    JSON.parse(await readFile(path.join(roots.a, 'dist/.well-known/ard.json'), 'utf8')) as {
      entries: Array<Record<string, unknown>>;
    }
  ).entries;
  const aFlights = aEntries.find((e) => e.identifier === agentId('a', 'a-flights'))!;
  const listed = Object.fromEntries(
    [
      'identifier',
      'displayName',
      'type',
      'url',
      'version',
      'digest',
      'description',
      'tags',
      'capabilities',
      'representativeQueries',
      'trustManifest',
    ].map((k) => [k, aFlights[k]]),
  );
  await mkdir(path.join(roots.b, 'content/entries'), { recursive: true });
  await writeFile(path.join(roots.b, 'content/entries/a-flights.yaml'), JSON.stringify(listed, null, 2));
  await Promise.all([buildRegistrySite(roots.b), buildRegistrySite(roots.c)]);
  // Started in order: B verifies A's listed agent through A's server at start-up.
  servers.a = await start('a', [peerOf('b')]);
  servers.b = await start('b', [peerOf('c')]);
  servers.c = await start('c', [peerOf('a')]);
});

afterAll(async () => {
  await Promise.all([...Object.values(servers), ...extra].map((s) => s.close()));
  await removeSites();
});

const everyAgent = NAMES.flatMap((n) => [agentId(n, `${n}-flights`), agentId(n, `${n}-rooms`)]);

describe('federation auto over A → B → C → A', () => {
  it('terminates, with every registry’s matches once, each with the source of the peer A asked, verified', async () => {
    for (const s of Object.values(servers)) s.logs.length = 0;
    const answer = await postJson<Answer>(`${apiOf('a')}/search`, {
      query: { text: 'book flights rooms travel' },
      pageSize: 100,
    });
    expect(answer.status, answer.text).toBe(200);
    const ids = answer.body.results.map((r) => r.identifier);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids)).toEqual(new Set(everyAgent));
    for (const r of answer.body.results) {
      const owner = r.identifier.split(':')[2]!.split('.')[0]!;
      // A asked B only (at B's configured url): C's results came through B, and B's own too; each carries
      // the url of B, the peer A asked, not the source B wrote.
      expect(r.source, r.identifier).toBe(owner === 'a' ? baseUri('a') : baseUri('b'));
      expect(r.verified, r.identifier).toBe(true);
    }
    // A's flights agent, listed by B too, came back once: from A itself.
    expect(answer.body.results.filter((r) => r.identifier === agentId('a', 'a-flights'))).toHaveLength(1);
    expect(answer.body.referrals).toBeUndefined();
    expect(answer.headers.get('ard-federation-failed')).toBeNull();
    // One search each: C did not send the query back to A (A was in the trail).
    expect([searchCount(servers.a), searchCount(servers.b), searchCount(servers.c)]).toEqual([1, 1, 1]);
  });

  it('pages the merged answer without repeats', async () => {
    const seen: string[] = [];
    let pageToken: string | undefined;
    do {
      const page = await postJson<Answer>(`${apiOf('a')}/search`, {
        query: { text: 'book flights rooms travel' },
        pageSize: 4,
        ...(pageToken ? { pageToken } : {}),
      });
      expect(page.status).toBe(200);
      seen.push(...page.body.results.map((r) => r.identifier));
      pageToken = page.body.nextPageToken;
    } while (pageToken);
    expect(seen.sort()).toEqual([...everyAgent].sort());
  });

  it('decrements Hop-Count: 1 reaches B only, 0 stays local; a registry in the trail is skipped', async () => {
    const ids = async (headers: Record<string, string>) =>
      (
        await postJson<Answer>(
          `${apiOf('a')}/search`,
          { query: { text: 'book flights rooms travel' }, pageSize: 100 },
          headers,
        )
      ).body.results
        .map((r) => r.identifier.split(':')[2])
        .filter((d, i, all) => all.indexOf(d) === i)
        .sort();
    expect(await ids({ 'Hop-Count': '1' })).toEqual([domain('a'), domain('b')]);
    expect(await ids({ 'Hop-Count': '0' })).toEqual([domain('a')]);
    expect(await ids({ 'ARD-Registry-Trail': registryId('b') })).toEqual([domain('a')]);
    // A query that comes back to a registry already in its trail is a loop: answered locally.
    expect(
      await ids({ 'ARD-Registry-Trail': `urn:air:x.example.test:agents:registry, ${registryId('a')}` }),
    ).toEqual([domain('a')]);
    // Larger than the maximum: lowered to 3.
    expect(await ids({ 'Hop-Count': '200' })).toEqual([domain('a'), domain('b'), domain('c')]);
  });
});

describe('GET /agents/{identifier} on a federating registry (ard-spec v0.91 §5.3.4, ADR-0010)', () => {
  it('is never federated: A answers its own entry, and 404 NOT_FOUND for one only its peers hold, asking none', async () => {
    for (const s of Object.values(servers)) s.logs.length = 0;
    const lookup = (identifier: string) => call(`${apiOf('a')}/agents/${encodeURIComponent(identifier)}`);
    const own = await lookup(agentId('a', 'a-rooms'));
    expect(own.status, own.text).toBe(200);
    expect(own.body.identifier).toBe(agentId('a', 'a-rooms'));
    expectProblem(await lookup(agentId('b', 'b-flights')), 404, 'NOT_FOUND');
    expectProblem(await lookup(agentId('c', 'c-rooms')), 404, 'NOT_FOUND');
    expect([servers.b.logs, servers.c.logs]).toEqual([[], []]);
  });
});

describe('federation referrals and none', () => {
  it('referrals: local matches and the configured peer as a referral (ARD draft §4.3.2)', async () => {
    for (const s of Object.values(servers)) s.logs.length = 0;
    const answer = await postJson<Answer>(`${apiOf('a')}/search`, {
      query: { text: 'book flights travel' },
      federation: 'referrals',
      pageSize: 100,
    });
    expect(answer.body.referrals).toEqual([
      {
        identifier: registryId('b'),
        displayName: 'Registry b',
        type: 'application/ai-registry+json',
        url: baseUri('b'),
      },
    ]);
    expect(answer.body.results.every((r) => r.source === baseUri('a'))).toBe(true);
    expect(searchCount(servers.b)).toBe(0);
  });

  it('the answer cache keeps referrals apart by trail, and never keeps an answer merged from peers', async () => {
    const body = { query: { text: 'book flights travel cache' }, federation: 'referrals', pageSize: 100 };
    const referrals = async (headers: Record<string, string> = {}) =>
      (await postJson<Answer>(`${apiOf('a')}/search`, body, headers)).body.referrals?.map(
        (r) => r.identifier,
      );
    expect(await referrals()).toEqual([registryId('b')]);
    expect(await referrals({ 'ARD-Registry-Trail': registryId('b') })).toEqual([]);
    expect(await referrals()).toEqual([registryId('b')]);
    // Kept the second time (answer-cache.ts `offer`), given from the cache the third.
    expect(await referrals()).toEqual([registryId('b')]);
    expect(servers.a!.answers.hits).toBeGreaterThan(0);

    for (const s of Object.values(servers)) s.logs.length = 0;
    const auto = { query: { text: 'book flights rooms travel cache' }, pageSize: 100 };
    const first = await postJson<Answer>(`${apiOf('a')}/search`, auto);
    const second = await postJson<Answer>(`${apiOf('a')}/search`, auto);
    expect(second.text).toBe(first.text);
    // Both were forwarded: B answered twice (its own answer to A may be kept, A's merged one is not).
    expect(searchCount(servers.b)).toBe(2);
  });

  it('none: local matches only, no referrals', async () => {
    const answer = await postJson<Answer>(`${apiOf('b')}/search`, {
      query: { text: 'book flights travel' },
      federation: 'none',
      pageSize: 100,
    });
    expect(new Set(answer.body.results.map((r) => r.source))).toEqual(new Set([baseUri('b')]));
    expect(answer.body.referrals).toBeUndefined();
    // B's own copy of A's agent is verified (through A's did.json) at B's start-up.
    expect(answer.body.results.find((r) => r.identifier === agentId('a', 'a-flights'))).toMatchObject({
      verified: true,
      source: baseUri('b'),
    });
  });
});

describe('peers that misbehave', () => {
  it('a peer that never answers and a peer that fails do not fail the answer', async () => {
    const hang = http.createServer(() => {});
    await new Promise<void>((r) => hang.listen(ports.hang, '127.0.0.1', r));
    extra.push({
      close: () =>
        new Promise<void>((r) => {
          hang.closeAllConnections();
          hang.close(() => r());
        }),
    });
    const broken = {
      url: baseUri('broken'),
      identifier: 'urn:air:broken.example.test:agents:registry',
      displayName: 'Broken',
    };
    const a2 = await startTestRegistry(path.join(roots.a, 'dist'), {
      resolve: resolve(),
      overrides: {
        rateLimit: { exemptLoopback: true },
        federation: { peers: [peerOf('hang'), broken, peerOf('b')], timeoutMs: 700 },
      },
    });
    extra.push(a2);
    // The hanging peer never answers: only the federation timeout lets this search answer at all.
    const answer = await postJson<Answer>(`${a2.apiUrl}/search`, {
      query: { text: 'book flights rooms travel' },
      pageSize: 100,
    });
    expect(answer.status).toBe(200);
    expect(new Set(answer.body.results.map((r) => r.identifier))).toEqual(new Set(everyAgent));
    expect(answer.headers.get('ard-federation-failed')).toBe(
      `${peerOf('hang').identifier}, ${broken.identifier}`,
    );
    expect(a2.logs.some((l) => /peer .*hang.* gave no results/.test(l))).toBe(true);
    expect(a2.logs.join('\n')).not.toMatch(/book flights/);
  });

  it('drops a peer result whose trustManifest does not hold, and marks an unsigned or a minimal one unverified', async () => {
    const good = (
      await postJson<Answer>(`${apiOf('b')}/search`, { query: { text: 'rooms' }, federation: 'none' })
    ).body.results.find((r) => r.identifier === agentId('b', 'b-rooms'))!;
    const forged = { ...good, identifier: agentId('b', 'b-forged'), score: 99 };
    const changed = { ...good, digest: `sha256:${'0'.repeat(64)}`, score: 98 };
    const unsigned = {
      identifier: 'urn:air:z.example.test:agents:plain',
      displayName: 'Plain',
      type: 'application/mcp-server-card+json',
      url: 'https://z.example.test/mcp.json',
      score: 97,
      source: 'https://z.example.test/ard/v1',
    };
    // ARD draft §5: a search result may leave out displayName, type and url.
    const minimal = { identifier: 'urn:air:z.example.test:agents:minimal', score: 96 };
    const fake = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ results: [forged, changed, unsigned, minimal] }));
      });
    });
    await new Promise<void>((r) => fake.listen(ports.fake, '127.0.0.1', r));
    extra.push({ close: () => new Promise<void>((r) => fake.close(() => r())) });
    const a3 = await startTestRegistry(path.join(roots.a, 'dist'), {
      resolve: resolve(),
      overrides: {
        rateLimit: { exemptLoopback: true },
        federation: { peers: [peerOf('fake')], timeoutMs: 5_000 },
      },
    });
    extra.push(a3);
    const answer = await postJson<Answer>(`${a3.apiUrl}/search`, { query: { text: 'rooms' }, pageSize: 100 });
    const byId = new Map(answer.body.results.map((r) => [r.identifier, r]));
    expect(byId.has(forged.identifier)).toBe(false);
    expect(byId.has(good.identifier)).toBe(false); // only the changed copy was offered, and it was dropped
    // The peer wrote another registry's source: the result carries the url of the peer asked.
    expect(byId.get(unsigned.identifier)).toMatchObject({ verified: false, source: baseUri('fake') });
    expect(byId.get(minimal.identifier)).toMatchObject({ verified: false, source: baseUri('fake') });
  });
});
