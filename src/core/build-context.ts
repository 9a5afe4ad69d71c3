/**
 * Hands the computed site to the Astro pages. The build script computes the site once and provides it
 * here (as the promise of it: Astro bundles the pages while the site is computed) before it runs Astro
 * in the same process; pages read it back, so pages and files share one computation (DESIGN.md §7). The
 * slot lives on `globalThis` because Vite loads the pages as separate module instances.
 */
import type { SiteBuild } from './site-build.js';

const SLOT = Symbol.for('ardsite.siteBuild');
type Slot = { [SLOT]?: SiteBuild | Promise<SiteBuild> };

/** Makes `site` (or the site it resolves to) the site the pages render. */
export function provideSiteBuild(site: SiteBuild | Promise<SiteBuild> | undefined): void {
  (globalThis as Slot)[SLOT] = site;
}

/** The site provided by the running build, or its promise, if any. */
export function providedSiteBuild(): SiteBuild | Promise<SiteBuild> | undefined {
  return (globalThis as Slot)[SLOT];
}
