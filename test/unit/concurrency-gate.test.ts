/**
 * src/core/concurrency.ts `concurrencyGate`: the bound the content reader puts on files open at once (a
 * prefetch of 20,000 agent files failed with EMFILE before it).
 */
import { describe, expect, it } from 'vitest';
import { concurrencyGate, mapLimit } from '../../src/core/concurrency.js';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('concurrencyGate', () => {
  it('runs at most `limit` calls at once, all of them in the end, in the order they came', async () => {
    const gate = concurrencyGate(3);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        gate(async () => {
          started.push(i);
          running++;
          most = Math.max(most, running);
          for (let t = 0; t < (i % 4) + 1; t++) await tick();
          running--;
          return i * 2;
        }),
      ),
    );
    expect(most).toBe(3);
    expect(results).toEqual(Array.from({ length: 40 }, (_, i) => i * 2));
    expect(started).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });

  it('gives the place of a call that failed to the next one, and passes the failure on', async () => {
    const gate = concurrencyGate(1);
    const failed = gate(() => Promise.reject(new Error('EACCES')));
    const next = gate(async () => 'read');
    await expect(failed).rejects.toThrow('EACCES');
    await expect(next).resolves.toBe('read');
    // The place is free again: a later call does not wait for ever.
    await expect(gate(async () => 'again')).resolves.toBe('again');
  });
});

describe('mapLimit', () => {
  it('starts no further call once one failed (a failed build must not go on writing files)', async () => {
    const started: number[] = [];
    const run = mapLimit(
      Array.from({ length: 50 }, (_, i) => i),
      4,
      async (i) => {
        started.push(i);
        await tick();
        if (i === 5) throw new Error('signing failed');
        await tick();
        return i;
      },
    );
    await expect(run).rejects.toThrow('signing failed');
    for (let t = 0; t < 10; t++) await tick();
    expect(started.length).toBeLessThan(12);
    expect(Math.max(...started)).toBeLessThan(12);
  });
});
