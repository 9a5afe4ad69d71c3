/**
 * The overall deadline of a verification (`npm run verify --deadline`, docs/security.md "hostile
 * site"): a site that answers slowly, or has 100,000 entries each at the edge of the per-request
 * timeout, cannot hold the verifier for hours. When the deadline passes, reads in flight are abandoned
 * (they reject at once) and no new check starts; ./site.ts then reports what was checked and names what
 * was not.
 */
import type { FetchedDocument, SiteReader } from './reader.js';

/**
 * Default whole-run time limit of `npm run verify` and `npm run diff` (`--deadline`), in seconds: far
 * above what reading a real site takes, short enough that a site answering slowly cannot hold a CI job.
 */
export const DEFAULT_DEADLINE_S = 300;

/**
 * Entries of one manifest read at most, unless `--max-entries` says otherwise (`npm run verify` checks that
 * many; `npm run diff` refuses a side that lists more, since a diff of part of a site could miss a widening).
 */
export const DEFAULT_MAX_ENTRIES = 100_000;

/** Longest wait a Node timer takes (2^31 − 1 ms, about 24.8 days); a later deadline never fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The error of a read the deadline cut short (or that was asked for after it). */
export class DeadlinePassed extends Error {}

/**
 * One run's deadline, `at` (milliseconds since the epoch, as `Date.now()`), or none (`undefined`).
 * `expired` turns true when it passes; the callbacks given to {@link whenPassed} run at that moment, in
 * the timer's own turn, before any promise continuation. Call {@link dispose} when the run ends.
 */
export class Deadline {
  expired = false;
  private readonly callbacks: Array<() => void> = [];
  private timer: NodeJS.Timeout | undefined;
  /** Settles (never rejects) when the deadline passes; never, without one. */
  readonly passed: Promise<void>;

  constructor(readonly at: number | undefined) {
    let resolve!: () => void;
    this.passed = new Promise<void>((r) => (resolve = r));
    if (at === undefined) return;
    const wait = at - Date.now();
    const fire = () => {
      this.expired = true;
      for (const callback of this.callbacks.splice(0)) callback();
      resolve();
    };
    if (wait <= 0) fire();
    else if (wait <= MAX_TIMER_MS) this.timer = setTimeout(fire, wait);
  }

  /** Runs `callback` when the deadline passes (at once when it has). */
  whenPassed(callback: () => void): void {
    if (this.expired) callback();
    else this.callbacks.push(callback);
  }

  /** Stops the timer (the run is over): `passed` then never settles. */
  dispose(): void {
    clearTimeout(this.timer);
    this.callbacks.length = 0;
  }

  /**
   * `reader` bounded by this deadline: after it, a read rejects with {@link DeadlinePassed} at once, and
   * a read in flight when it passes rejects then (the transport's own request is left to its timeout).
   * Without a deadline, `reader` itself.
   */
  bound(reader: SiteReader): SiteReader {
    if (this.at === undefined) return reader;
    const late = (url: string) => new DeadlinePassed(`${url} was not read: the deadline passed (--deadline)`);
    return {
      read: (url: string): Promise<FetchedDocument | undefined> => {
        if (this.expired) return Promise.reject(late(url));
        return Promise.race([
          reader.read(url),
          this.passed.then(() => {
            throw late(url);
          }),
        ]);
      },
    };
  }
}
