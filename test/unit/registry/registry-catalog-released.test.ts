/**
 * What a built catalog keeps (src/core/registry/catalog.ts `buildCatalog`): the term values read from
 * each entry at start-up (one map of term path → values per entry, from terms.ts `entryTermValues`) are
 * an intermediate of the filter index and Orama's documents; once the catalog is built, a full garbage
 * collection frees every one of them, the query tokenizer the catalog keeps included (a closure keeps
 * the whole scope it was made in).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it, vi } from 'vitest';
import { buildCatalog } from '../../../src/core/registry/catalog.js';
import { QueryEngine } from '../../../src/core/registry/search.js';
import type * as Terms from '../../../src/core/registry/terms.js';
import { syntheticEntries } from '../../helpers/synthetic-entries.js';

const { made } = vi.hoisted(() => ({ made: [] as Array<WeakRef<object>> }));

vi.mock('../../../src/core/registry/terms.js', async (importOriginal) => {
  const actual = await importOriginal<typeof Terms>();
  return {
    ...actual,
    entryTermValues: (...args: Parameters<typeof actual.entryTermValues>) => {
      const values = actual.entryTermValues(...args);
      made.push(new WeakRef(values));
      return values;
    },
  };
});

/** V8's full collection, as `node --expose-gc` gives it (the flag set at run time, read by a new context). */
function fullCollection(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

describe('buildCatalog lets its start-up intermediates go', () => {
  it('keeps none of the per-entry term values once built, in one language and in two', async () => {
    const gc = fullCollection();
    for (const languages of [[], ['en', 'pt-BR']]) {
      made.length = 0;
      const inputs = syntheticEntries(60).map((entry) => ({ entry, verified: true }));
      const catalog = await buildCatalog(inputs, { languages });
      expect(made).toHaveLength(60);
      // A WeakRef keeps its target until the job that made it ends.
      await nextTurn();
      gc();
      expect(made.filter((ref) => ref.deref() !== undefined)).toHaveLength(0);
      // The catalog still answers: its tokenizer, filters and inverted index are there.
      const engine = new QueryEngine(catalog);
      expect(catalog.tokenize('Planning weeks')).toEqual(['plan', 'week']);
      expect(
        engine.rank({ context: new Map(), text: 'plan my week number 7', filter: [] }).positions.length,
      ).toBeGreaterThan(0);
      expect(
        engine.list({
          context: new Map(),
          filter: [{ key: 'type', values: ['application/a2a-agent-card+json'] }],
        }),
      ).toHaveLength(60);
    }
  });
});
