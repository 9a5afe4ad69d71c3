/**
 * How far V8 lets the build's heap grow between two full collections (issue 19: peak memory at 10,000
 * agents no higher than the floor's).
 *
 * V8 sets the next limit of the old generation after each full collection to the live heap times a
 * growing factor it picks between 1.1 and 4 from how fast the collector and the program run. On a machine
 * with much memory it picks a large one during rendering: a 10,000-agent build whose live heap was 326 MiB
 * after rendering (a full collection forced there; the floor's: 444 MiB) let its main heap reach 1,833 MiB,
 * and the process 2.2 GiB, mostly garbage not yet collected. With the factor fixed at 1.5
 * (`--heap-growing-percent=50`) the same build peaked at 1.2 GiB, below the floor's 1.4–1.5 GiB, and took
 * no longer: fewer fresh pages to fault in made up for the extra collections (BENCHMARKS.md, "Round 6").
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
