/**
 * Phase timings of a build, for `npm run bench` and `npm run build -- --report`: wall-clock
 * milliseconds spent in named phases (loading/checks, signing, digesting, rendering, writing,
 * self-verification). Phases may be entered many times; their times add up.
 */

/** Accumulates milliseconds per phase name. */
export class PhaseTimer {
  private readonly totals = new Map<string, number>();

  /** Adds `ms` milliseconds to `phase`. */
  add(phase: string, ms: number): void {
    this.totals.set(phase, (this.totals.get(phase) ?? 0) + ms);
  }

  /** Runs `fn` and adds its duration to `phase` (sync or async). */
  time<T>(phase: string, fn: () => T): T {
    const start = performance.now();
    const result = fn();
    if (result instanceof Promise) {
      return result.finally(() => this.add(phase, performance.now() - start)) as T;
    }
    this.add(phase, performance.now() - start);
    return result;
  }

  /** Phase → milliseconds, rounded to 0.1 ms, in the order phases were first seen. */
  toJSON(): Record<string, number> {
    return Object.fromEntries([...this.totals].map(([k, v]) => [k, Math.round(v * 10) / 10]));
  }
}
