/**
 * src/core/util/full-collection.ts: one full garbage collection on demand, in a process started without
 * `--expose-gc`, that leaves no `gc` function behind for later contexts.
 */
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { collectFully } from '../../../src/core/util/full-collection.js';

/** A WeakRef to an object nothing else holds, made in a function of its own so no local keeps it. */
function unheld(): WeakRef<object> {
  return new WeakRef({ payload: new Array(1_000).fill('unheld') });
}

describe('collectFully', () => {
  it('collects an object nothing holds, and says how long it took', async () => {
    const ref = unheld();
    expect(ref.deref()).toBeDefined();
    // A WeakRef's target lives at least until the end of the job that made or read it (ECMA-262
    // §9.10, AddToKeptObjects): the next macrotask is a job of its own.
    await new Promise((resolve) => setImmediate(resolve));
    const ms = collectFully();
    expect(typeof ms).toBe('number');
    expect(ms).toBeGreaterThanOrEqual(0);
    expect(ref.deref()).toBeUndefined();
  });

  it('leaves no gc function in this context or in contexts made later', () => {
    const before = typeof (globalThis as { gc?: unknown }).gc;
    collectFully();
    collectFully();
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe(before);
    expect(runInNewContext('typeof gc')).toBe('undefined');
  });
});
