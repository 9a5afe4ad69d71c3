/**
 * The URL paths of the HTML pages (DESIGN.md §2): `/`, `/agents/<slug>/` and
 * `/agents/<slug>/permissions/`. The Astro routes in `src/pages/` produce exactly these paths
 * (`trailingSlash: 'always'`, directory format); the sitemap and `_headers` are computed from them.
 */

/** The index page. */
export const INDEX_PAGE_PATH = '/';

/** The page of the agent `slug`. */
export function agentPagePath(slug: string): string {
  return `/agents/${slug}/`;
}

/** The permission disclosure page of the agent `slug` (DESIGN.md §6). */
export function permissionsPagePath(slug: string): string {
  return `/agents/${slug}/permissions/`;
}

/** Every HTML page of a site with these agent slugs, index first, in sitemap order. */
export function htmlPagePaths(slugs: readonly string[]): string[] {
  return [INDEX_PAGE_PATH, ...slugs.flatMap((slug) => [agentPagePath(slug), permissionsPagePath(slug)])];
}

/**
 * An HTML `id` made from an authored id (RAM ids are free strings): characters outside
 * `[A-Za-z0-9_-]` become `-`, prefixed so it never starts with a digit.
 */
export function fragmentId(prefix: string, id: string): string {
  return `${prefix}-${id.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}
