/**
 * Federation (src/core/registry/federation.ts, ARD draft §4.3, §6.6), the merge of peer results and
 * the service without HTTP (service.ts), and the trust verdicts drawn from verifier findings (trust.ts).
 */
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../../src/core/registry/catalog.js';
import {
  eligiblePeers,
  forwardSearch,
  readFederationHeaders,
  readPeerResults,
  referralsOf,
  type PostJson,
} from '../../../src/core/registry/federation.js';
import { RegistryProblem } from '../../../src/core/registry/problems.js';
import { QueryEngine } from '../../../src/core/registry/search.js';
import { createRegistryService } from '../../../src/core/registry/service.js';
import { readJsonBody } from '../../../src/core/registry/request-body.js';
import { mergePage } from '../../../src/core/registry/search-results.js';
import { findingsByIdentifier, verdictOf } from '../../../src/core/registry/trust.js';
import { RegistrySettings } from '../../../src/core/schema/registry-settings.js';

const peer = (name: string) => ({
  identifier: `urn:air:${name}.example.test:registry:main`,
  url: `https://${name}.example.test/ard/v1`,
  displayName: `Registry ${name}`,
});
const [A, B, C] = [peer('a'), peer('b'), peer('c')];
const query = {
  context: new Map<string, string>(),
  text: 'flight',
  filter: [{ key: 'tags', values: ['travel'] }],
};

describe('Hop-Count and the visited-registries trail (ARD draft §6.6)', () => {
  it('starts at the configured maximum, lowers larger values to it, and reads the trail', () => {
    expect(readFederationHeaders(new Headers(), 3)).toEqual({ hopCount: 3, trail: [] });
    expect(readFederationHeaders(new Headers({ 'Hop-Count': '9' }), 3).hopCount).toBe(3);
    expect(readFederationHeaders(new Headers({ 'Hop-Count': '0' }), 3).hopCount).toBe(0);
    expect(
      readFederationHeaders(new Headers({ 'ARD-Registry-Trail': `${A.identifier}, ${B.identifier}` }), 2),
    ).toEqual({
      hopCount: 2,
      trail: [A.identifier, B.identifier],
    });
  });

  it('says a large Hop-Count is out of range, not that it is no whole number (ARD draft §6.6)', () => {
    const problem = (value: string) => {
      try {
        readFederationHeaders(new Headers({ 'Hop-Count': value }), 3);
      } catch (error) {
        return error as RegistryProblem;
      }
      return undefined;
    };
    for (const value of ['1000', '99999999999999999999']) {
      const p = problem(value);
      expect(p?.status, value).toBe(400);
      expect(p?.message, value).toMatch(/out of range: it must be from 0 to 255/);
      expect(p?.message, value).not.toMatch(/not a whole number|must be a whole number/);
    }
    expect(problem('two')?.message).toMatch(/must be a whole number/);
    // Up to the bound, still lowered to the maximum, as the message says.
    expect(readFederationHeaders(new Headers({ 'Hop-Count': '255' }), 3).hopCount).toBe(3);
    expect(readFederationHeaders(new Headers({ 'Hop-Count': '0002' }), 3).hopCount).toBe(2);
  });

  it.each<Record<string, string>>([
    { 'Hop-Count': '-1' },
    { 'Hop-Count': 'two' },
    { 'ARD-Registry-Trail': 'no scheme here' },
    { 'ARD-Registry-Trail': Array.from({ length: 17 }, (_, i) => `urn:x:${i}`).join(',') },
  ])('refuses %o with a 400', (headers) => {
    expect(() => readFederationHeaders(new Headers(headers), 3)).toThrow(RegistryProblem);
  });

  it('never sends a query to itself or to a registry in its trail', () => {
    const state = { hopCount: 2, trail: [A.identifier] };
    expect(eligiblePeers([A, B, C], C.identifier, state)).toEqual([B]);
    expect(referralsOf([A, B, C], C.identifier, state)).toEqual([
      {
        identifier: B.identifier,
        displayName: B.displayName,
        type: 'application/ai-registry+json',
        url: B.url,
      },
    ]);
  });

  it('forwards with Hop-Count minus one and itself added to the trail; a failing or slow peer is reported, not thrown', async () => {
    const sent: Array<{ url: string; body: unknown; headers: Record<string, string> }> = [];
    const post: PostJson = async (url, body, headers, { timeoutMs }) => {
      sent.push({ url, body, headers });
      if (url.startsWith(B.url))
        return {
          status: 200,
          body: { results: [{ identifier: 'urn:air:b.example.test:x:y', score: 77.6 }] },
        };
      if (url.startsWith(C.url)) throw new Error(`no answer within ${timeoutMs} ms`);
      return { status: 500, body: { error: 'INTERNAL_ERROR' } };
    };
    const logs: string[] = [];
    const outcome = await forwardSearch({
      peers: [A, B, C],
      self: 'urn:air:self.example.test:registry:main',
      state: { hopCount: 3, trail: ['urn:air:origin.example.test:registry:main'] },
      query,
      timeoutMs: 100,
      post,
      log: (l) => logs.push(l),
    });
    expect(sent[0]).toEqual({
      url: `${A.url}/search`,
      body: { query: { text: 'flight', filter: { tags: ['travel'] } }, federation: 'auto', pageSize: 100 },
      headers: {
        'Hop-Count': '2',
        'ARD-Registry-Trail':
          'urn:air:origin.example.test:registry:main, urn:air:self.example.test:registry:main',
      },
    });
    expect(outcome.results).toEqual([
      {
        item: { identifier: 'urn:air:b.example.test:x:y', score: 78, source: B.url },
        identifier: 'urn:air:b.example.test:x:y',
        score: 78,
      },
    ]);
    expect(outcome.failed).toEqual([A, C]);
    expect(logs.join('\n')).not.toMatch(/flight/);
  });

  it("passes the asker's Accept-Language on to every peer, as it came, and none when it sent none", async () => {
    const sent: Array<Record<string, string>> = [];
    const post: PostJson = async (_url, _body, headers) => {
      sent.push(headers);
      return { status: 200, body: { results: [] } };
    };
    const forward = (acceptLanguage?: string | null) =>
      forwardSearch({
        peers: [A, B],
        self: 'urn:air:self.example.test:registry:main',
        state: { hopCount: 3, trail: [] },
        query,
        timeoutMs: 100,
        post,
        ...(acceptLanguage !== undefined ? { acceptLanguage } : {}),
      });
    await forward('pt-BR,pt;q=0.9,en;q=0.5');
    expect(sent.map((h) => h['Accept-Language'])).toEqual([
      'pt-BR,pt;q=0.9,en;q=0.5',
      'pt-BR,pt;q=0.9,en;q=0.5',
    ]);
    sent.length = 0;
    await forward(null);
    await forward('');
    await forward();
    expect(sent).toHaveLength(6);
    expect(sent.every((h) => !('Accept-Language' in h))).toBe(true);
  });

  it('keeps only well-formed peer results, their scores clamped, their own verified flag dropped', () => {
    expect(
      readPeerResults(
        {
          results: [
            {
              identifier: 'urn:air:x.example:a:b',
              score: 130,
              source: 'https://deeper.example/ard/v1',
              verified: true,
              version: '2',
            },
            { identifier: 'urn:air:x.example:a:c', score: -3 },
            { score: 50 },
            { identifier: 'urn:air:x.example:a:d' },
            'nope',
          ],
        },
        B,
      ),
    ).toEqual([
      {
        item: {
          identifier: 'urn:air:x.example:a:b',
          score: 100,
          // The source is the peer asked (B), not what B wrote: no peer speaks for another registry.
          source: B.url,
          version: '2',
        },
        identifier: 'urn:air:x.example:a:b',
        version: '2',
        score: 100,
      },
      {
        item: { identifier: 'urn:air:x.example:a:c', score: 0, source: B.url },
        identifier: 'urn:air:x.example:a:c',
        score: 0,
      },
    ]);
    expect(readPeerResults({ items: [] }, B)).toBeUndefined();
  });
});

describe('merging local and peer results', () => {
  const entry = (name: string, words: string) => ({
    identifier: `urn:air:self.example.test:agents:${name}`,
    displayName: name,
    type: 'application/a2a-agent-card+json',
    url: `https://self.example.test/${name}.json`,
    version: '1',
    description: words,
  });

  it('drops peer copies of local matches, prefers verified then higher scores, and orders by score then identifier', async () => {
    const catalog = await buildCatalog(
      [entry('a', 'flight flight flight'), entry('b', 'flight and more words here')].map((e) => ({
        entry: e,
        verified: true,
      })),
    );
    const ranking = new QueryEngine(catalog).rank({ context: new Map(), text: 'flight', filter: [] });
    const scores = [...ranking.scores];
    const remote = (identifier: string, score: number, verified: boolean, version = '1') => ({
      item: { identifier, version, score, source: 'https://peer.example/ard/v1' },
      identifier,
      version,
      score,
      verified,
    });
    const peers = [
      remote('urn:air:self.example.test:agents:a', 100, true), // a local match: dropped
      remote('urn:air:p.example:x:dup', 90, false),
      remote('urn:air:p.example:x:dup', 40, true), // the verified copy wins
      remote('urn:air:p.example:x:top', 100, true),
      remote('urn:air:p.example:x:low', 1, false),
    ];
    const all = mergePage(catalog, ranking, peers, 'https://self.example.test/ard/v1', 0, 100);
    expect(all.total).toBe(5);
    const expected = [
      ['urn:air:self.example.test:agents:a', scores[0], true],
      ['urn:air:p.example:x:top', 100, true],
      ['urn:air:self.example.test:agents:b', scores[1], true],
      ['urn:air:p.example:x:dup', 40, true],
      ['urn:air:p.example:x:low', 1, false],
    ].sort((x, y) => (y[1] as number) - (x[1] as number) || (x[0]! < y[0]! ? -1 : 1));
    expect(all.items.map((i) => [i.identifier, i.score, i.verified])).toEqual(expected);
    const page = mergePage(catalog, ranking, peers, 'https://self.example.test/ard/v1', 2, 2);
    expect(page.items).toEqual(all.items.slice(2, 4));
  });
});

describe('the service without HTTP', () => {
  it('reads JSON bodies: type, emptiness, size (413), and never quotes the body in an error', async () => {
    const req = (body: BodyInit | null, type = 'application/json') =>
      new Request('http://x/ard/v1/search', {
        method: 'POST',
        body,
        headers: type ? { 'content-type': type } : {},
      });
    const problem = async (r: Request, max = 50) => {
      try {
        await readJsonBody(r, max);
      } catch (error) {
        return error instanceof RegistryProblem ? [error.status, error.message] : String(error);
      }
      return undefined;
    };
    expect(await readJsonBody(req('{"a":1}', 'application/vnd.ard+json; charset=utf-8'), 50)).toEqual({
      a: 1,
    });
    expect((await problem(req('{"a":1}', 'text/plain')))?.[0]).toBe(400);
    expect((await problem(req(null)))?.[0]).toBe(400);
    expect(await problem(req('{"query":{"text":"secret-words'))).toEqual([400, 'the body is not valid JSON']);
    expect((await problem(req('x'.repeat(51))))?.[0]).toBe(413);
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 10; i++) controller.enqueue(new TextEncoder().encode('xxxxxxxxxx'));
        controller.close();
      },
    });
    expect(
      (
        await problem(
          new Request('http://x/', {
            method: 'POST',
            body: stream,
            headers: { 'content-type': 'application/json' },
            duplex: 'half',
          } as RequestInit),
        )
      )?.[0],
    ).toBe(413);
  });

  it('answers 500 INTERNAL_ERROR for an unexpected failure and logs it with the query text blanked out', async () => {
    const catalog = await buildCatalog([
      {
        entry: {
          identifier: 'urn:air:s.example:a:b',
          displayName: 'b',
          type: 't',
          url: 'https://s.example/b',
        },
        verified: true,
      },
    ]);
    const logs: string[] = [];
    const service = createRegistryService({
      catalog,
      settings: RegistrySettings.parse({}),
      self: { identifier: 'urn:air:s.example:r:r', url: 'https://s.example/ard/v1' },
      secret: new Uint8Array(32),
      indexFingerprint: 'sha256:00',
      log: (l) => logs.push(l),
    });
    service.engine.rank = (q) => {
      throw new Error(`the index broke while ranking "${q.text}"`);
    };
    const response = await service.handle(
      'search',
      new Request('http://x/ard/v1/search', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: { text: 'my private words' } }),
      }),
    );
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ error: 'INTERNAL_ERROR' });
    expect(logs).toEqual([
      'registry: internal error on search: Error: the index broke while ranking "[query text]"',
    ]);
  });
});

describe('trust verdicts (ARD draft §4.3.1, §6.2)', () => {
  const signed = { identifier: 'urn:air:p.example:a:b', trustManifest: { identity: 'did:web:p.example' } };
  const finding = (code: string, severity: 'error' | 'warning' = 'error') =>
    ({ code, severity, subject: signed.identifier, message: code }) as never;

  it('verified when the publisher signed and every check held; unverified when a check could not run; rejected when one failed', () => {
    expect(verdictOf(signed, [])).toBe('verified');
    expect(verdictOf(signed, [finding('ARD_QUERIES_COUNT', 'warning')])).toBe('verified');
    expect(verdictOf(signed, [finding('DID_RESOLUTION_FAILED', 'warning')])).toBe('unverified');
    expect(verdictOf(signed, [finding('FILE_UNREADABLE')])).toBe('unverified');
    expect(verdictOf({ identifier: signed.identifier }, [])).toBe('unverified');
    expect(verdictOf({ ...signed, trustManifest: { identity: 'did:web:other.example' } }, [])).toBe(
      'unverified',
    );
    expect(verdictOf(signed, [finding('TRUST_SIGNATURE_INVALID')])).toBe('rejected');
    expect(verdictOf(signed, [finding('ARD_DIGEST_MISMATCH')])).toBe('rejected');
    // ARD draft §6.2: a target not bound by a digest leaves the entry unverified; a card without an A2A
    // signature, or not naming its entry on its publisher's origin, is still bound by the digest.
    expect(verdictOf(signed, [finding('ARD_UNPINNED', 'warning')])).toBe('unverified');
    expect(verdictOf(signed, [finding('CARD_UNSIGNED', 'warning')])).toBe('verified');
    expect(verdictOf(signed, [finding('CARD_ENTRY_UNDECLARED', 'warning')])).toBe('verified');
    expect(verdictOf(signed, [finding('ARD_ORIGIN_UNBOUND')])).toBe('rejected');
    // A third party's manifest that could not be checked does not touch the publisher's authority...
    const aboutList = (code: string, severity: 'error' | 'warning') =>
      ({ code, severity, subject: `${signed.identifier} trustManifests[0]`, message: '' }) as never;
    const withThirdParty = { ...signed, trustManifests: [{ identity: 'did:web:auditor.example' }] };
    expect(verdictOf(withThirdParty, [aboutList('DID_RESOLUTION_FAILED', 'warning')])).toBe('verified');
    // ...but the publisher's own manifest in that list is the publisher's, unsigned or unread.
    const inList = {
      identifier: signed.identifier,
      trustManifests: [{ identity: 'did:web:p.example' }],
    };
    expect(verdictOf(inList, [aboutList('TRUST_MISSING', 'error')])).toBe('unverified');
    expect(verdictOf(inList, [aboutList('DID_RESOLUTION_FAILED', 'warning')])).toBe('unverified');
  });

  it('groups findings by the entry they are about', () => {
    const f = (subject: string) => ({ code: 'X', severity: 'error', subject, message: '' }) as never;
    const grouped = findingsByIdentifier(
      ['urn:air:p.example:a:b'],
      [
        f('urn:air:p.example:a:b'),
        f('urn:air:p.example:a:b trustManifests[0]'),
        f('https://p.example/.well-known/jwks.json'),
      ],
    );
    expect(grouped.byIdentifier.get('urn:air:p.example:a:b')).toHaveLength(2);
    expect(grouped.site).toHaveLength(1);
  });
});
