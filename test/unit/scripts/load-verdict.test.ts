/**
 * The load test's verdict (scripts/lib/load-measures.ts `allAnswered`): a latency target counts as met
 * only for a run in which every request got a 2xx answer.
 */
import { describe, expect, it } from 'vitest';
import { allAnswered } from '../../../scripts/lib/load-measures.js';

describe('allAnswered', () => {
  it('holds only when no request was refused, failed or timed out', () => {
    expect(allAnswered({ non2xx: 0, errors: 0, timeouts: 0 })).toBe(true);
    expect(allAnswered({ non2xx: 3, errors: 0, timeouts: 0 })).toBe(false);
    expect(allAnswered({ non2xx: 0, errors: 1, timeouts: 0 })).toBe(false);
    expect(allAnswered({ non2xx: 0, errors: 0, timeouts: 2 })).toBe(false);
  });
});
