/**
 * The order of `GET /agents` (ARD draft §4.2.4, `orderBy`) by ranks computed once per catalog
 * (src/core/registry/list-order.ts): for any entries and any order terms, the same order as comparing the
 * entries' values directly (numbers as numbers, strings by a numeric-aware collation then by code unit,
 * entries without a value last in either direction, positions breaking ties), which is how the list was
 * ordered before the ranks.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildCatalog, type Catalog } from '../../../src/core/registry/catalog.js';
import type { OrderKey, OrderTerm } from '../../../src/core/registry/list-filter.js';
import { NO_VALUE, orderRanks, refineList } from '../../../src/core/registry/list-order.js';

const NATURAL = new Intl.Collator('en', { numeric: true });

/** The value an entry sorts by, as the ARD list defines the keys (the reference, written out). */
function valueOf(catalog: Catalog, p: number, key: OrderKey): string | number | undefined {
  const e = catalog.entries[p]!;
  if (key === 'identifier') return e.identifier;
  if (key === 'publisher') return e.publisher || undefined;
  const value = e.entry[key];
  if (typeof value !== 'string') return undefined;
  if (key === 'updatedAt') return Number.isNaN(Date.parse(value)) ? undefined : Date.parse(value);
  return key === 'displayName' ? value.toLowerCase() : value;
}

/** The reference order: each term's values compared directly, then positions. */
function referenceOrder(catalog: Catalog, positions: number[], terms: OrderTerm[]): number[] {
  return [...positions].sort((a, b) => {
    for (const term of terms) {
      const va = valueOf(catalog, a, term.key);
      const vb = valueOf(catalog, b, term.key);
      if (va === vb) continue;
      if (va === undefined) return 1;
      if (vb === undefined) return -1;
      const c =
        typeof va === 'number' && typeof vb === 'number'
          ? va - vb
          : NATURAL.compare(String(va), String(vb)) || (va < vb ? -1 : 1);
      if (c !== 0) return term.descending ? -c : c;
    }
    return a - b;
  });
}

const NO_CONDITIONS = { displayNames: [], updatedAfter: [] };

// Values that collate alike but differ (case, digits as numbers), repeated values and missing ones.
const text = fc.constantFrom('a', 'A', 'b', 'item 2', 'item 10', 'Item 10', 'ä', 'z', '1.9.0', '1.10.0', '');
const date = fc.constantFrom(
  '2026-01-01T00:00:00Z',
  '2025-06-01T12:00:00Z',
  'not a date',
  '2026-01-01T00:00:00.000Z',
);
const entries = fc.array(
  fc.record(
    {
      name: fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'item2', 'item10'),
      domain: fc.constantFrom('a.example.com', 'b.example.org', 'c.example.net'),
      displayName: text,
      version: text,
      updatedAt: date,
      type: fc.constantFrom('application/a2a-agent-card+json', 'application/mcp-server-card+json'),
    },
    { requiredKeys: ['name', 'domain'] },
  ),
  { minLength: 1, maxLength: 30 },
);
const terms = fc.array(
  fc.record({
    key: fc.constantFrom<OrderKey>('identifier', 'displayName', 'version', 'updatedAt', 'type', 'publisher'),
    descending: fc.boolean(),
  }),
  { minLength: 1, maxLength: 3 },
);

async function catalogOf(list: Array<Record<string, string>>): Promise<Catalog> {
  return buildCatalog(
    list.map(({ name, domain, ...rest }, i) => ({
      entry: {
        identifier: `urn:air:${domain}:agents:${name}`,
        url: `https://${domain}/agents/${name}-${i}.json`,
        ...(rest.type ? {} : { type: 'application/a2a-agent-card+json' }),
        ...rest,
        ...(rest.version === undefined ? {} : { version: rest.version || `0.${i}` }),
      },
      verified: true,
    })),
  );
}

describe('list order by ranks', () => {
  it('orders any entries by any terms as comparing their values directly', async () => {
    await fc.assert(
      fc.asyncProperty(entries, terms, fc.boolean(), async (list, orderBy, subset) => {
        const catalog = await catalogOf(list);
        const all = catalog.entries.map((_, p) => p);
        const positions = subset ? all.filter((p) => p % 2 === 0) : all;
        const ordered = refineList(catalog, Int32Array.from(positions), {
          expression: NO_CONDITIONS,
          orderBy,
        });
        expect([...ordered]).toEqual(referenceOrder(catalog, positions, orderBy));
      }),
      { numRuns: 200 },
    );
  });

  it('gives equal values one rank, entries without a value NO_VALUE, and keeps the ranks with the catalog', async () => {
    const catalog = await catalogOf([
      { name: 'alpha', domain: 'a.example.com', displayName: 'Item 10' },
      { name: 'beta', domain: 'a.example.com', displayName: 'item 10' },
      { name: 'gamma', domain: 'a.example.com', displayName: 'item 2' },
      { name: 'delta', domain: 'a.example.com' },
    ]);
    const ranks = orderRanks(catalog, 'displayName');
    const byName = (name: string) => ranks[catalog.entries.findIndex((e) => e.identifier.endsWith(name))]!;
    // displayName sorts lower-cased: "Item 10" and "item 10" are one value; "item 2" before them.
    expect(byName(':alpha')).toBe(byName(':beta'));
    expect(byName(':gamma')).toBeLessThan(byName(':alpha'));
    expect(byName(':delta')).toBe(NO_VALUE);
    expect(orderRanks(catalog, 'displayName')).toBe(ranks);
  });
});
