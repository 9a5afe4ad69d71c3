/**
 * What every page says about its language versions (DESIGN.md §9 "Languages"): the `<link rel="alternate"
 * hreflang>` elements of its head (src/core/site/page-paths.ts `alternateLinks`) and the links of the visible
 * language switcher, each language named in its own words (its table's `layout.languageName`).
 */
import { sameLanguage, type LanguageSettings } from '../i18n/languages.js';
import { alternateLinks, indexPagePath, pageTrees, type AlternateLink } from '../site/page-paths.js';
import { wordsFor } from '../i18n/words/index.js';

/** One link of the language switcher. */
export interface LanguageLink {
  /** The BCP 47 tag of the version (its `lang` and `hreflang`). */
  language: string;
  /** The language's own name ("English", "Português (Brasil)"). */
  name: string;
  /** The version's site path. */
  href: string;
  /** True for the page's own language. */
  current: boolean;
  /**
   * `aria-current` of the link: `page` when it leads to this very page, `true` for the page's language when
   * it leads elsewhere (the 404 page's switcher leads to each index); absent for the other languages.
   */
  ariaCurrent?: 'page' | 'true';
}

/** What the layout shows of a page's language versions. */
export interface PageLanguages {
  /** `<link rel="alternate" hreflang>` of the head; empty on a site in one language. */
  alternates: AlternateLink[];
  /** The switcher's links; empty on a site in one language. */
  switcher: LanguageLink[];
}

/**
 * The language versions of the page whose path in the default language's pages is `pagePath` (`/agents/x/`),
 * seen from a page in `language`. Without `pagePath` (the 404 page, which has no versions), the switcher
 * links to each language's index and there are no alternates. Both are empty on a site in one language.
 */
export function pageLanguages(
  settings: LanguageSettings & { siteUrl: string },
  language: string,
  pagePath: string | undefined,
): PageLanguages {
  const trees = pageTrees(settings);
  if (trees.length < 2) return { alternates: [], switcher: [] };
  return {
    alternates: pagePath === undefined ? [] : alternateLinks(pagePath, settings, settings.siteUrl),
    switcher: trees.map((t) => {
      const current = sameLanguage(t.language, language);
      const link: LanguageLink = {
        language: t.language,
        name: wordsFor(t.language).layout.languageName,
        href: pagePath === undefined ? indexPagePath(t.prefix) : `${t.prefix}${pagePath}`,
        current,
      };
      if (current) link.ariaCurrent = pagePath === undefined ? 'true' : 'page';
      return link;
    }),
  };
}
