/** The bench runs compiled ardsite: it compiles lib/ first when missing or older than a source (scripts/lib/bench-commands.ts). */
import { describe, expect, it } from 'vitest';
import { isStale } from '../../../scripts/lib/bench-commands.js';

describe('the bench compiles ardsite when lib/ is missing or older than its sources', () => {
  it('is stale when the compiled CLI is missing', () => {
    expect(isStale(undefined, [1, 2])).toBe(true);
  });
  it('is stale when a source changed after it was compiled', () => {
    expect(isStale(100, [50, 101])).toBe(true);
  });
  it('is fresh when every source is older', () => {
    expect(isStale(100, [50, 100])).toBe(false);
  });
});
