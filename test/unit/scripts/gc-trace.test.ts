/** The main thread's collections by phase (scripts/lib/gc-trace.ts) on a hand-made `--trace-gc` log. */
import { describe, expect, it } from 'vitest';
import { gcPhases } from '../../../scripts/lib/gc-trace.js';

const scavenge = (isolate: string, at: number, pause: number) =>
  `[3706:${isolate}]    ${at} ms: Scavenge 46.0 (61.2) -> 38.4 (61.2) MB, pooled: 0 MB, ${pause} / 0.00 ms  (average mu = 1.000, current mu = 1.000) allocation failure;`;
const major = (isolate: string, at: number, pause: number) =>
  `[3706:${isolate}]    ${at} ms: Mark-Compact 54.5 (76.7) -> 40.0 (77.2) MB, ${pause} / 0.12 ms  (+ 49.1 ms in 64 steps since start of marking, biggest step 44.2 ms, walltime since start of marking 229 ms) (average mu = 0.971, current mu = 0.971) finalize incremental marking via stack guard; GC in old space requested`;
const MAIN = '0x27f2d090';
const WORKER = '0x7f6b88000f00';

describe('gcPhases', () => {
  it('cuts the main isolate’s collections at the page marks and leaves out the worker threads’', () => {
    const log = [
      scavenge(MAIN, 100, 2.5),
      major(MAIN, 495, 4),
      scavenge(WORKER, 500, 99),
      major(WORKER, 600, 99),
      'ardsite-page-mark 1 1000',
      'Signing with a throw-away key (ARDSITE_DEV_KEY=1): this build is for tests, not for deployment.',
      scavenge(MAIN, 1200, 1.5),
      scavenge(MAIN, 1300, 1),
      'ardsite-page-mark 2 1400',
      major(MAIN, 1500, 10.25),
    ].join('\n');
    expect(gcPhases(log)).toEqual([
      { fromPage: 0, scavenges: 1, scavengeMs: 2.5, majors: 1, majorMs: 4 },
      { fromPage: 1, scavenges: 2, scavengeMs: 2.5, majors: 0, majorMs: 0 },
      { fromPage: 2, scavenges: 0, scavengeMs: 0, majors: 1, majorMs: 10.25 },
    ]);
  });

  it('finds no phase in a log without a collection', () => {
    expect(gcPhases('ardsite-page-mark 1 10\nBuilt dist/')).toEqual([]);
  });
});
