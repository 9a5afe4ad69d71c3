/**
 * How pages get the computed site: the one the build script provided (same process), or, under
 * `npm run dev`, one computed here from `content/` with the same core functions.
 *
 * The dev cache lives on `globalThis`, like the build's slot (src/core/build-context.ts): Vite loads
 * the pages and the config's plugin (src/lib/dev-content-plugin.ts) as separate module instances, and
 * both must see one cache, so that the plugin's invalidation reaches the pages.
 */
import { providedSiteBuild } from '../core/build-context.js';
import { prepareBuild } from '../core/build/prepare.js';
import type { SiteBuild } from '../core/site.js';

const DEV_SLOT = Symbol.for('ardsite.devSiteBuild');
type DevSlot = { [DEV_SLOT]?: Promise<SiteBuild> };

/** The site the pages render. In dev, computed once per content change. */
export async function getSiteBuild(): Promise<SiteBuild> {
  const provided = providedSiteBuild();
  if (provided) return provided;
  const slot = globalThis as DevSlot;
  slot[DEV_SLOT] ??= prepareBuild({ root: process.cwd() }).then((p) => p.site);
  const pending = slot[DEV_SLOT];
  // A failed load is not cached: the next request (after the author's fix) tries again.
  pending.catch(() => {
    if (slot[DEV_SLOT] === pending) slot[DEV_SLOT] = undefined;
  });
  return pending;
}

/** Drops the dev server's cached site, so the next request loads `content/` again. */
export function invalidateDevSite(): void {
  (globalThis as DevSlot)[DEV_SLOT] = undefined;
}
