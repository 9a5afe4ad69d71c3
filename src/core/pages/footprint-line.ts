/**
 * The one-line footprint of an agent (or of one skill) shown on the index and agent pages, e.g.
 * "Acts on 2 of your services · shares data with 1 outside service" (DESIGN.md §6: 2P = the visitor's
 * own services, `CONSUMER`; 3P = outside services, `THIRD_PARTY`).
 */
import type { Ram } from '../schema/ram.js';
import { capitalize, plural } from './words.js';

/** The sentence for an agent or skill that touches no resource at all. */
export const NO_ACCESS_TEXT = 'This agent does not access any of your accounts or outside services.';

/** The short form of {@link NO_ACCESS_TEXT}, for lists. */
export const NO_ACCESS_SHORT = 'Does not access any of your accounts or outside services';

/** The number of distinct own (2P) and outside (3P) resources of a RAM. */
export interface FootprintCounts {
  yourServices: number;
  outsideServices: number;
}

/** Counts the distinct resources of `ram` by owner (seed 000 `ResourceOwner`). */
export function footprintCounts(ram: Pick<Ram, 'resources'>): FootprintCounts {
  const ids = (owner: string) =>
    new Set(ram.resources.filter((r) => r.owner === owner).map((r) => r.id)).size;
  return { yourServices: ids('CONSUMER'), outsideServices: ids('THIRD_PARTY') };
}

/**
 * The footprint line of `ram`: "Acts on N of your services · shares data with M outside services",
 * leaving out a zero part, or {@link NO_ACCESS_SHORT} when both are zero. No trailing period.
 */
export function footprintLine(ram: Pick<Ram, 'resources'>): string {
  const { yourServices, outsideServices } = footprintCounts(ram);
  const parts: string[] = [];
  if (yourServices > 0) parts.push(`acts on ${yourServices} of your services`);
  if (outsideServices > 0) parts.push(`shares data with ${plural(outsideServices, 'outside service')}`);
  return parts.length === 0 ? NO_ACCESS_SHORT : capitalize(parts.join(' · '));
}
