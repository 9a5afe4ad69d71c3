import { describe, expect, it } from 'vitest';
import { pairedRatios, summarise, type VerifyRun } from '../../../scripts/lib/bench-verify.js';

const run = (elapsedMs: number): VerifyRun => ({
  elapsedMs,
  wallMs: elapsedMs + 700,
  cpuMs: elapsedMs * 2,
  loadAverage: 1,
  entries: 1000,
  passed: 10,
  failed: 0,
  helperThreads: 1,
});

describe('pairedRatios (npm run bench -- --verify --baseline)', () => {
  it('divides run i of this tree by run i of the baseline, and gives their median and spread', () => {
    const ours = summarise([1000, 900, 1100, 800, 950].map(run));
    const baseline = summarise([1000, 1000, 1000, 1000, 2000].map(run));
    expect(pairedRatios(ours, baseline)).toEqual({ median: 0.9, min: 0.475, max: 1.1, pairs: 5 });
  });

  it('pairs only as many runs as both have', () => {
    const ours = summarise([500, 600, 700].map(run));
    const baseline = summarise([1000, 1000].map(run));
    expect(pairedRatios(ours, baseline)).toEqual({ median: 0.55, min: 0.5, max: 0.6, pairs: 2 });
  });
});
