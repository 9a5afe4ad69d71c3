/**
 * The one-line footprint of an agent (or of one skill) shown on the index and agent pages, e.g.
 * "Acts on 2 of your services · shares data with 1 outside service" (DESIGN.md §6: 2P = the visitor's
 * own services, `CONSUMER`; 3P = outside services, `THIRD_PARTY`), in the page's language.
 */
import type { Ram } from '../schema/ram.js';
import type { PageWords } from '../i18n/words/index.js';
import { capitalize } from '../i18n/words/locale.js';

/** The number of distinct own (2P) and outside (3P) resources of a RAM. */
export interface FootprintCounts {
  yourServices: number;
  outsideServices: number;
}

/** Counts the distinct resources of `ram` by owner (RAM proposal `ResourceOwner`). */
export function footprintCounts(ram: Pick<Ram, 'resources'>): FootprintCounts {
  const ids = (owner: string) =>
    new Set(ram.resources.filter((r) => r.owner === owner).map((r) => r.id)).size;
  return { yourServices: ids('CONSUMER'), outsideServices: ids('THIRD_PARTY') };
}

/**
 * The footprint line of `ram` in `w`'s language: "Acts on N of your services · shares data with M
 * outside services", leaving out a zero part, or `w.footprint.noAccessShort` when both are zero. No
 * trailing period. `position` `'alone'` (default) starts it with a capital, as a line of its own;
 * `'after-label'` leaves it as the words give it, to follow a label that ends in a colon ("What it may
 * access: acts on …"), where a capital is wrong in Portuguese and needless in English. `asksSignIn`: the
 * agent's card asks the visitor to sign in (src/core/ram/sign-in.ts): then an empty RAM is
 * `w.footprint.signInUndeclaredShort`, never "does not access any of your accounts".
 */
export function footprintLine(
  ram: Pick<Ram, 'resources'>,
  w: PageWords,
  position: 'alone' | 'after-label' = 'alone',
  asksSignIn = false,
): string {
  const { yourServices, outsideServices } = footprintCounts(ram);
  const parts: string[] = [];
  if (yourServices > 0) parts.push(w.footprint.yours(yourServices));
  if (outsideServices > 0) parts.push(w.footprint.outside(outsideServices));
  const empty = asksSignIn ? w.footprint.signInUndeclaredShort : w.footprint.noAccessShort;
  const line = parts.length === 0 ? empty : w.footprint.join(parts);
  return position === 'alone' ? capitalize(line) : line;
}
