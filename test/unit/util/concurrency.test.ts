/**
 * src/core/util/concurrency.ts `mapLimit`: a failed call stops the rest from starting.
 */
import { describe, expect, it } from 'vitest';
import { mapLimit } from '../../../src/core/util/concurrency.js';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

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
