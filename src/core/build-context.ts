/**
 * Hands the computed site to the Astro pages. The build script computes the site once and provides it
 * here before it runs Astro in the same process; pages read it back, so pages and files share one
 * computation (DESIGN.md §7). The slot lives on `globalThis` because Vite loads the pages as separate
 * module instances.
 */
import type { SiteBuild } from './site-build.js';

const SLOT = Symbol.for('ardsite.siteBuild');
type Slot = { [SLOT]?: SiteBuild };

/** Makes `site` the site the pages render. */
export function provideSiteBuild(site: SiteBuild | undefined): void {
  (globalThis as Slot)[SLOT] = site;
}

/** The site provided by the running build, if any. */
export function providedSiteBuild(): SiteBuild | undefined {
  return (globalThis as Slot)[SLOT];
}
