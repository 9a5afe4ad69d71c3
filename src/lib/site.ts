/**
 * How pages get the computed site: the one the build script provided (same process), or, under
 * `npm run dev`, one computed here from `content/` with the same core functions.
 */
import { providedSiteBuild } from '../core/build-context.js';
import { prepareBuild } from '../core/build/prepare.js';
import type { SiteBuild } from '../core/site.js';

let devSite: Promise<SiteBuild> | undefined;

/** The site the pages render. */
export async function getSiteBuild(): Promise<SiteBuild> {
  const provided = providedSiteBuild();
  if (provided) return provided;
  devSite ??= prepareBuild({ root: process.cwd() }).then((p) => p.site);
  return devSite;
}

/** Drops the dev server's cached site, so the next request loads `content/` again. */
export function invalidateDevSite(): void {
  devSite = undefined;
}
