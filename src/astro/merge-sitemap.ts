/**
 * ardsite's sitemap in a host Astro site's output (sitemaps.org protocol 0.9), so that what the sitemap,
 * llms.txt (llmstxt.org) and robots.txt (RFC 9309 §2.3.5 leaves `Sitemap:` lines to sitemaps.org) say
 * stays true of the merged site:
 *
 * - the site has no sitemap of its own: `/sitemap.xml` lists the site's own HTML pages (no `<lastmod>`,
 *   ardsite does not know when they changed; not its error pages, redirects or `noindex` pages, which a
 *   sitemap does not list) and then ardsite's pages, but for those the site's own
 *   pages replace (its home page at `/`); llms.txt's "Every page of this site" is then true.
 * - the site has one (`sitemap.xml`, or an index such as `@astrojs/sitemap`'s `sitemap-index.xml`): it is
 *   left as it is; ardsite's pages go to {@link ARDSITE_SITEMAP} instead, llms.txt links that file as the
 *   agents' pages only, and ardsite's robots.txt (copied only when the site has none) names the site's
 *   sitemaps and that one.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SITEMAP_ITEM_NOTE } from '../core/pages/llms-txt.js';

/** Where ardsite's sitemap goes when the site has a sitemap of its own (a path of the output folder). */
export const ARDSITE_SITEMAP = 'sitemap-ardsite.xml';

/** The note of the llms.txt item of {@link ARDSITE_SITEMAP}. */
export const ARDSITE_SITEMAP_NOTE =
  "The agents' pages and their permission pages only; the site's own pages are in its own sitemap.";

/**
 * What became of ardsite's sitemap: `merged` (it lists the site's pages too), `beside` (moved to
 * {@link ARDSITE_SITEMAP} beside the site's own) or `none` (ardsite built no sitemap).
 */
export type SitemapOutcome = 'merged' | 'beside' | 'none';

/** Pages a sitemap leaves out: error pages (sitemaps.org lists pages to crawl). */
const NOT_LISTED = /(^|\/)(404|500)\.html$/;

/**
 * The site's own sitemaps among `siteFiles` (paths of the output folder): `sitemap.xml`, and the root
 * `sitemap*.xml` files of a sitemap index (`@astrojs/sitemap` writes `sitemap-index.xml`, `sitemap-0.xml`).
 */
export function siteSitemaps(siteFiles: readonly string[]): string[] {
  return siteFiles.filter((file) => /^sitemap[\w.-]*\.xml$/.test(file));
}

/** The URL path a page of the output folder is served at (`a/index.html` at `/a/`). */
export function pagePath(file: string): string {
  return `/${file.replace(/(^|\/)index\.html$/, '$1')}`;
}

/** XML text with `&`, `<`, `>`, `"` and `'` escaped (XML 1.0 §2.4). */
function xmlText(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!,
  );
}

/**
 * True when a page (`html`) belongs in a sitemap: not a redirect (`<meta http-equiv="refresh">`, which
 * Astro's `redirects` writes) and not kept out of indexes (`<meta name="robots" content="noindex">`).
 */
export function listable(html: string): boolean {
  const metas = html.match(/<meta\b[^>]*>/gi) ?? [];
  return !metas.some(
    (meta) =>
      /\bhttp-equiv=["']?refresh\b/i.test(meta) ||
      (/\bname=["']?robots\b/i.test(meta) && /\bcontent=["'][^"']*\bnoindex\b/i.test(meta)),
  );
}

/**
 * ardsite's sitemap text (`ours`, as src/core/build/site-files.ts writes it) with its `<url>` entries of
 * the URL paths in `taken` removed, and, when `sitePages` (URL paths) are given, one `<url>` with only a
 * `<loc>` for each, first, on the origin of ardsite's own entries.
 */
export function mergeSitemap(ours: string, sitePages: readonly string[], taken: readonly string[]): string {
  const dropped = new Set(taken);
  let origin = '';
  const kept = ours.replace(/\n {2}<url>\n {4}<loc>([^<]*)<\/loc>[\s\S]*?<\/url>/g, (block, loc: string) => {
    const url = new URL(loc.replace(/&amp;/g, '&'));
    origin ||= url.origin;
    return dropped.has(url.pathname) ? '' : block;
  });
  if (sitePages.length === 0 || !origin) return kept;
  const added = sitePages.map(
    (p) => `\n  <url>\n    <loc>${xmlText(new URL(p, origin).href)}</loc>\n  </url>`,
  );
  return kept.replace(/(<urlset\b[^>]*>)/, `$1${added.join('')}`);
}

/**
 * Makes ardsite's built folder (`ardsiteDir`) fit the site's output folder (`siteDir`, whose files are
 * `siteFiles`) before the merge, as this module's comment says; `taken` are the URL paths of ardsite's pages the site's own
 * replace. Nothing of the site's own is written.
 * @returns what was done ({@link SitemapOutcome}).
 * @throws file-system errors.
 */
export async function fitSitemap(
  ardsiteDir: string,
  siteDir: string,
  siteFiles: readonly string[],
  taken: readonly string[],
): Promise<SitemapOutcome> {
  const at = (file: string) => path.join(ardsiteDir, file);
  let ours: string;
  try {
    ours = await readFile(at('sitemap.xml'), 'utf8');
  } catch {
    return 'none';
  }
  const own = siteSitemaps(siteFiles);
  if (own.length === 0) {
    const pages: string[] = [];
    for (const file of siteFiles.filter((f) => f.endsWith('.html') && !NOT_LISTED.test(f))) {
      if (listable(await readFile(path.join(siteDir, ...file.split('/')), 'utf8')))
        pages.push(pagePath(file));
    }
    await writeFile(at('sitemap.xml'), mergeSitemap(ours, pages, taken));
    return 'merged';
  }
  await writeFile(at(ARDSITE_SITEMAP), mergeSitemap(ours, [], taken));
  await rm(at('sitemap.xml'));
  const sitemapUrl = /https?:\/\/[^\s)]*\/sitemap\.xml/;
  await rewrite(at('llms.txt'), (text) =>
    text.replace(
      new RegExp(`^- \\[Sitemap\\]\\(([^)]*)/sitemap\\.xml\\): ${escapeRegExp(SITEMAP_ITEM_NOTE)}$`, 'm'),
      `- [Sitemap of the agents' pages]($1/${ARDSITE_SITEMAP}): ${ARDSITE_SITEMAP_NOTE}`,
    ),
  );
  // Only the sitemap index is named when the site has one: the files it lists are named there.
  const index = own.filter((f) => /index/.test(f));
  const named = [...(index.length > 0 ? index : own), ARDSITE_SITEMAP];
  await rewrite(at('robots.txt'), (text) =>
    text.replace(new RegExp(`^Sitemap: (${sitemapUrl.source})$`, 'm'), (line, url: string) =>
      named.map((f) => `Sitemap: ${url.replace(/sitemap\.xml$/, f)}`).join('\n'),
    ),
  );
  return 'beside';
}

/** `text` with the characters of a regular expression escaped. */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Rewrites one file with `change`; a missing file is left missing. */
async function rewrite(file: string, change: (text: string) => string): Promise<void> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return;
  }
  await writeFile(file, change(text));
}
