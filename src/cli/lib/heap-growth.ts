/**
 * How far V8 lets the build's heap grow between two full collections (so that a large site's peak memory
 * stays near that of a bare Astro build of the same pages).
 *
 * V8 sets the next limit of the old generation after each full collection to the live heap times a
 * growing factor it picks from how fast the collector and the program run. On a machine with much memory
 * it picks a large one during rendering, and the process grows with garbage not yet collected. With the
 * factor fixed at 1.5 (`--heap-growing-percent=50`) a large build peaks lower and takes no longer: fewer
 * fresh pages to fault in make up for the extra collections (the figures: docs/benchmarks-archive.md,
 * "the build's heap").
 * The factor only makes collections come sooner: it sets no ceiling, so a site whose live heap needs more
 * memory gets it, as before.
 */
import { setFlagsFromString } from 'node:v8';

/** The growing factor's excess over 1, in percent (V8's `--heap-growing-percent`): a factor of 1.5. */
export const BUILD_HEAP_GROWING_PERCENT = 50;

/**
 * Sets V8's heap growing factor for this process (every isolate, the worker threads too) to
 * 1 + {@link BUILD_HEAP_GROWING_PERCENT} / 100. V8 reads the flag at each full collection, so it takes
 * effect from the next one; call it first thing. Does nothing when the process was started with its own
 * `--heap-growing-percent` (in `process.execArgv`): a flag given by hand wins.
 */
export function limitHeapGrowth(): void {
  if (process.execArgv.some((a) => /^--heap[-_]growing[-_]percent\b/.test(a))) return;
  setFlagsFromString(`--heap-growing-percent=${BUILD_HEAP_GROWING_PERCENT}`);
}
