/**
 * How much JavaScript a function of the build runs before V8 considers optimising it.
 *
 * V8 counts the bytecode each function runs against an "interrupt budget" (`--interrupt-budget`, 67,584
 * bytes in V8 11.3, Node 20); once a function has spent it a few times (`--ticks-before-optimization`), it
 * is compiled by TurboFan on V8's helper threads. A build is a batch: much of its code (loading and
 * checking the content, one card, one permission set and a few pages per agent) runs often enough to be
 * optimised and not long enough to pay the compilation back: V8's helper threads spend more of a build's
 * CPU compiling with TurboFan than collecting garbage, and with a larger budget the build uses less CPU
 * for the same bytes (BENCHMARKS.md, "Build CPU: fewer TurboFan compilations"). Code that stays hot (the
 * renderer's loops, hashing) is still optimised, later.
 */
import { setFlagsFromString } from 'node:v8';

/** The build's interrupt budget: eight times V8 11.3's default of 67,584 bytes of bytecode. */
export const BUILD_INTERRUPT_BUDGET = 8 * 67_584;

/**
 * Sets V8's interrupt budget for this process (every isolate, the worker threads too) to
 * {@link BUILD_INTERRUPT_BUDGET}. V8 reads it each time a function's budget is refilled, so it applies to
 * the code loaded after the call and, from their next refill, to functions already running; call it first
 * thing. Does nothing when the process was started with its own `--interrupt-budget` (in
 * `process.execArgv`): a flag given by hand wins.
 */
export function delayTierUp(): void {
  if (process.execArgv.some((a) => /^--interrupt[-_]budget(=|$)/.test(a))) return;
  setFlagsFromString(`--interrupt-budget=${BUILD_INTERRUPT_BUDGET}`);
}
