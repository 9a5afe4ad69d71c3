/**
 * The URL paths of the HTML pages (DESIGN.md §2): `/`, `/agents/<slug>/` and
 * `/agents/<slug>/permissions/`, in each language of the site (DESIGN.md §9 "Languages"): the default
 * language's pages at those paths, another language's under its prefix (`/pt-br/`, `/pt-br/agents/<slug>/`,
 * …; src/core/i18n/languages.ts). The Astro routes in `src/pages/` produce exactly these paths
 * (`trailingSlash: 'always'`, directory format); the sitemap, `_headers` and the `hreflang` links are
 * computed from them.
 */
import {
  isMultilingual,
  languagePrefix,
  pagesBase,
  siteLanguage,
  siteLanguages,
  type LanguageSettings,
} from '../i18n/languages.js';

/** The index page (of the default language). */
export const INDEX_PAGE_PATH = '/';

/** One language version of the site's pages. */
export interface PageTree {
  /** The BCP 47 tag of its words and texts, as the site spells it. */
  language: string;
  /** Its URL path prefix: `''` for the default language, `/pt-br` for another (no trailing slash). */
  prefix: string;
  /** True for the default language's pages, served at `/` (or at `hosting.pagesPrefix`). */
  isDefault: boolean;
}

/**
 * The language versions of the site's pages, the default first: one on a site in one language, one per
 * tag of `languages:` on a site with several.
 */
export function pageTrees(settings: LanguageSettings): PageTree[] {
  return siteLanguages(settings).map((language, i) => ({
    language,
    prefix: languagePrefix(language, settings),
    isDefault: i === 0,
  }));
}

/**
 * The page tree a route parameter names: the default language's for `undefined`, else the tree whose
 * prefix is `/<param>`. @throws Error for a parameter that names no language of the site (a route that
 * `getStaticPaths` did not produce).
 */
export function pageTreeOf(settings: LanguageSettings, param: string | undefined): PageTree {
  const trees = pageTrees(settings);
  const tree = param === undefined ? trees[0] : trees.find((t) => t.prefix === `/${param}`);
  if (!tree) throw new Error(`no pages in a language "${String(param)}"`);
  return tree;
}

/**
 * The path prefix of pages in `language` on this site: {@link pagesBase} (`''` unless
 * `hosting.pagesPrefix` is set) on a site in one language (where an agent's own `language` changes its
 * words, not its paths) and for the default language; else its tree's prefix.
 */
export function pagePrefix(language: string, settings: LanguageSettings): string {
  if (!isMultilingual(settings)) return pagesBase(settings);
  const tag = siteLanguage(language, settings);
  return tag === undefined ? pagesBase(settings) : languagePrefix(tag, settings);
}

/** The index page of the tree with `prefix` (`/`, `/pt-br/`). */
export function indexPagePath(prefix = ''): string {
  return `${prefix}/`;
}

/** The page of the agent `slug`, in the tree with `prefix`. */
export function agentPagePath(slug: string, prefix = ''): string {
  return `${prefix}/agents/${slug}/`;
}

/** The permission disclosure page of the agent `slug` (DESIGN.md §6), in the tree with `prefix`. */
export function permissionsPagePath(slug: string, prefix = ''): string {
  return `${prefix}/agents/${slug}/permissions/`;
}

/**
 * Every HTML page of a site with these agent slugs, in sitemap order: each tree of `settings` (the
 * default first; only `/…` without it), its index first, then each agent's page and permission page.
 */
export function htmlPagePaths(slugs: readonly string[], settings?: LanguageSettings): string[] {
  const prefixes = settings ? pageTrees(settings).map((t) => t.prefix) : [''];
  return prefixes.flatMap((prefix) => [
    indexPagePath(prefix),
    ...slugs.flatMap((slug) => [agentPagePath(slug, prefix), permissionsPagePath(slug, prefix)]),
  ]);
}

/** One language version of a page, for `<link rel="alternate" hreflang>` and the sitemap's `xhtml:link`. */
export interface AlternateLink {
  /** A BCP 47 tag, or `x-default` for the version shown to a visitor of no listed language. */
  hreflang: string;
  /** The version's absolute URL (Google asks for fully qualified URLs). */
  href: string;
}

/**
 * The language versions of the page at `path` (its path in the default language's tree, `/agents/x/`)
 * as HTML `hreflang` alternates (HTML §4.6.7, Google's "Tell Google about localized versions"): one per
 * language of the site, itself included, and `x-default` naming the default language's version. Empty on
 * a site in one language, which has no alternates.
 */
export function alternateLinks(path: string, settings: LanguageSettings, siteUrl: string): AlternateLink[] {
  if (!isMultilingual(settings)) return [];
  const absolute = (p: string) => new URL(p.replace(/^\//, ''), siteUrl).toString();
  const links = pageTrees(settings).map((t) => ({
    hreflang: t.language,
    href: absolute(`${t.prefix}${path}`),
  }));
  return [...links, { hreflang: 'x-default', href: absolute(`${pagesBase(settings)}${path}`) }];
}

/**
 * An HTML `id` made from an authored id (RAM ids are free strings): characters outside
 * `[A-Za-z0-9_-]` become `-`, prefixed so it never starts with a digit.
 */
export function fragmentId(prefix: string, id: string): string {
  return `${prefix}-${id.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}
