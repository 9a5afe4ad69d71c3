/**
 * A doorkeeper for a cache: it tells the second time a key is seen from the first, so a cache can keep
 * only what is asked for again (TinyLFU's doorkeeper, Einziger, Friedman and Manes, "TinyLFU: A Highly
 * Efficient Cache Admission Policy", ACM TOS 2017, §4.3). Keys are remembered as 32-bit FNV-1a hashes
 * of their UTF-16 code units (a few bytes each, no key text kept), up to a bound, then all forgotten at
 * once; two keys of one hash only mean one of them is admitted a time early.
 *
 * Why a serving process wants one: most questions a registry sees are never asked twice, and an object
 * kept for each of them until a bound pushes it out lives long enough to reach the old generation of
 * V8's heap, where dropping it at the rate of the questions makes the major collections (which stop the
 * event loop) come every few seconds.
 */

/** FNV-1a (32 bits) of the UTF-16 code units of `text`. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** Remembers keys seen once, at most `capacity` (a count, at least 1) before it forgets them all. */
export class Doorkeeper {
  private readonly seenOnce = new Set<number>();
  constructor(readonly capacity: number) {}

  /**
   * True when `key` was seen once before (since the doorkeeper last forgot) and so may be kept: it is
   * then forgotten, and its next sighting counts as a first one again. False on a first sighting, which
   * is remembered (after forgetting every key when `capacity` are held).
   */
  admit(key: string): boolean {
    const hash = fnv1a(key);
    if (this.seenOnce.delete(hash)) return true;
    if (this.seenOnce.size >= this.capacity) this.seenOnce.clear();
    this.seenOnce.add(hash);
    return false;
  }

  /** Keys remembered as seen once. */
  get size(): number {
    return this.seenOnce.size;
  }
}
