/**
 * The leading matches of a ranking (src/core/registry/top-matches.ts, `QueryEngine.rank`'s `want`): what
 * a page asks for is an exact prefix of the whole ranking, ends with a whole run of tied 0–100 scores,
 * and pages walked through `POST /search` give the whole ranking's entries in its order.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildCatalog, type Catalog } from '../../../src/core/registry/catalog.js';
import { QueryEngine } from '../../../src/core/registry/search.js';
import { createRegistryService } from '../../../src/core/registry/service.js';
import { MAX_RANKED } from '../../../src/core/registry/text-index.js';
import { bestMatches, leadingMatches } from '../../../src/core/registry/top-matches.js';
import { RegistrySettings } from '../../../src/core/schema/registry-settings.js';
import { syntheticEntries } from '../../helpers/synthetic-entries.js';

/** Tie groups as search.ts makes them, coarser (tenths, not hundredths), so that runs of ties are long. */
const TENTHS = {
  group: (score: number, best: number) => Math.round((10 * score) / best),
  groupFloor: (group: number, best: number) => ((group - 0.5) / 10) * best * (1 - 1e-9),
};

/** Matches as the caller orders them: by group, best first, then by position (search.ts). */
const byGroup = (ranked: Int32Array, sums: Float64Array, best: number) =>
  [...ranked].sort((a, b) => TENTHS.group(sums[b]!, best) - TENTHS.group(sums[a]!, best) || a - b);

describe('the leading matches of a ranking', () => {
  it('are, ordered by tie group and position, the first `want` or more of the whole ranking so ordered', () => {
    fc.assert(
      fc.property(
        // The whole ranking's length, the matches wanted (fewer), and more matches than the whole keeps.
        fc
          .integer({ min: 2, max: 120 })
          .chain((capacity) =>
            fc.tuple(
              fc.constant(capacity),
              fc.integer({ min: 1, max: capacity - 1 }),
              fc.array(fc.integer({ min: 1, max: 40 }), { minLength: capacity, maxLength: 300 }),
            ),
          ),
        ([capacity, want, values]) => {
          const sums = Float64Array.from(values);
          const touched = Int32Array.from(values.keys()).reverse();
          const heap = new Int32Array(capacity);
          const whole = bestMatches(sums, touched, touched.length, heap, capacity);
          const leading = leadingMatches(sums, touched, touched.length, heap, { want, ...TENTHS });
          // `touched` is only reordered: the caller clears the sums of every position it holds.
          expect([...touched].sort((a, b) => a - b)).toEqual([...values.keys()]);
          const best = sums[whole[0]!]!;
          expect(leading.length).toBeGreaterThanOrEqual(want);
          expect(leading.length).toBeLessThanOrEqual(whole.length);
          expect(byGroup(leading, sums, best)).toEqual(byGroup(whole, sums, best).slice(0, leading.length));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('leave out the documents a query did not reach (a sum of 0), also in the lowest tie group', () => {
    // Coarse groups (halves of the best sum), so that the tied group is often group 0, whose lower
    // bound is below 0.
    const HALVES = {
      group: (score: number, best: number) => Math.round((2 * score) / best),
      groupFloor: (group: number, best: number) => ((group - 0.5) / 2) * best * (1 - 1e-9),
    };
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 40 }),
        fc.integer({ min: 1, max: 39 }),
        fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 9 })), { minLength: 2, maxLength: 200 }),
        (capacity, want, values) => {
          const touched = Int32Array.from([...values.keys()].filter((p) => values[p]! > 0)).reverse();
          fc.pre(want < Math.min(capacity, touched.length));
          const sums = Float64Array.from(values);
          const heap = new Int32Array(capacity);
          const whole = bestMatches(sums, touched.slice(), touched.length, heap, capacity);
          const reordered = touched.slice();
          const leading = leadingMatches(sums, reordered, touched.length, heap, { want, ...HALVES });
          expect([...reordered].sort((a, b) => a - b)).toEqual([...touched].sort((a, b) => a - b));
          const best = sums[whole[0]!]!;
          const order = (ranked: Int32Array) =>
            [...ranked].sort((a, b) => HALVES.group(sums[b]!, best) - HALVES.group(sums[a]!, best) || a - b);
          for (const p of leading) expect(sums[p]).toBeGreaterThan(0);
          expect(leading.length).toBeGreaterThanOrEqual(want);
          expect(order(leading)).toEqual(order(whole).slice(0, leading.length));
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('QueryEngine.rank with `want`', () => {
  let catalog: Catalog | undefined;
  const catalogOf = async () =>
    (catalog ??= await buildCatalog(
      syntheticEntries(400).map((entry) => ({ entry, verified: true })),
      {},
    ));
  const WORDS = [
    'plan',
    'search',
    'my',
    'week',
    'number',
    'topic',
    'agent',
    'synthetic',
    '7',
    '12',
    '1',
    'every',
  ];

  it('gives the whole ranking’s first entries and scores, and its length as `total`', async () => {
    const c = await catalogOf();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 1, max: 80 }),
        fc.boolean(),
        async (words, want, filtered) => {
          const query = {
            context: new Map(),
            text: words.join(' '),
            filter: filtered ? [{ key: 'type', values: ['application/a2a-agent-card+json'] }] : [],
          };
          const whole = new QueryEngine(c, 1).rank(query);
          const leading = new QueryEngine(c, 1).rank(query, want);
          expect(leading.total).toBe(whole.total);
          expect(whole.total).toBe(whole.positions.length);
          expect(leading.positions.length).toBeGreaterThanOrEqual(Math.min(want, whole.total));
          expect([...leading.positions]).toEqual([...whole.positions.subarray(0, leading.positions.length)]);
          expect([...leading.scores]).toEqual([...whole.scores.subarray(0, leading.positions.length)]);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('replaces a kept ranking too short for a later page with the whole one', async () => {
    const engine = new QueryEngine(await catalogOf());
    const query = { context: new Map(), text: 'topic 12 agent 7', filter: [] };
    engine.rank(query, 5);
    const kept = engine.rank(query, 5);
    expect(kept.positions.length).toBeLessThan(kept.total);
    expect(engine.rank(query, 5)).toBe(kept);
    const whole = engine.rank(query, 50);
    expect(whole.positions.length).toBe(Math.min(whole.total, MAX_RANKED));
    expect(engine.rank(query, 5)).toBe(whole);
    expect(engine.ranked).toBe(3);
  });

  it('pages walked through POST /search give the whole ranking in its order', async () => {
    const c = await catalogOf();
    const service = createRegistryService({
      catalog: c,
      settings: RegistrySettings.parse({}),
      self: { identifier: 'urn:air:r.example.com:registry:main', url: 'https://r.example.com/ard/v1' },
      secret: new Uint8Array(32).fill(5),
      indexFingerprint: 'sha256:0123456789abcdef',
    });
    for (const [text, pageSize] of [
      ['search everything about topic 12', 7],
      ['topic 12 agent 7', 2],
    ] as const) {
      const whole = new QueryEngine(c).rank({ context: new Map(), text, filter: [] });
      const seen: Array<[string, number]> = [];
      let pageToken: string | undefined;
      for (let page = 0; page < 6; page++) {
        const answer = await service.answer('search', {
          method: 'POST',
          target: '/ard/v1/search',
          headers: { 'content-type': 'application/json' },
          body: Buffer.from(
            JSON.stringify({ query: { text }, pageSize, ...(pageToken ? { pageToken } : {}) }),
          ),
        });
        expect(answer.status).toBe(200);
        const parsed = JSON.parse(answer.body!.toString('utf8')) as {
          results: Array<{ identifier: string; score: number }>;
          nextPageToken?: string;
        };
        for (const r of parsed.results) seen.push([r.identifier, r.score]);
        pageToken = parsed.nextPageToken;
        expect(pageToken !== undefined, text).toBe(seen.length < whole.total);
        if (!pageToken) break;
      }
      expect(seen.length, text).toBe(Math.min(6 * pageSize, whole.total));
      expect(seen, text).toEqual(
        [...whole.positions.subarray(0, seen.length)].map((p, k) => [
          c.entries[p]!.identifier,
          whole.scores[k]!,
        ]),
      );
    }
  });
});
