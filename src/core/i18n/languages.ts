/**
 * The languages of a site (DESIGN.md §9 "Languages"; docs/languages.md): publisher.yaml `languages:` lists
 * them as BCP 47 tags (RFC 5646), the default first. The default language's pages are served at `/`; each
 * other language's pages under a prefix made of its tag in lower case (`/pt-br/`), the form HTML's
 * `hreflang` and Google's sitemap alternates name (both compare tags case-insensitively, RFC 5646 §2.1.1).
 *
 * Pure functions over strings, shared by the content loader, the checks, the pages and the site files.
 */

/** The language settings of publisher.yaml this module reads. */
export interface LanguageSettings {
  /** The default language (publisher.yaml `language`; with `languages:` and no `language`, its first). */
  language: string;
  /** publisher.yaml `languages:`, when given. */
  languages?: readonly string[] | undefined;
  /** publisher.yaml `hosting:`, for `pagesPrefix` (the path every page tree sits under). */
  hosting?: { pagesPrefix?: string | undefined } | undefined;
}

/** The path every page tree sits under (`hosting.pagesPrefix`, `/ai`), `''` when the pages are at `/`. */
export function pagesBase(settings: LanguageSettings): string {
  return settings.hosting?.pagesPrefix ?? '';
}

/** True when `a` and `b` are the same BCP 47 tag (tags are case-insensitive, RFC 5646 §2.1.1). */
export function sameLanguage(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/**
 * True when `tag` is a well-formed BCP 47 language tag (RFC 5646 §2.1), as ECMA-402's
 * `Intl.getCanonicalLocales` reads it (it throws a RangeError for an ill-formed one).
 */
export function isLanguageTag(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}

/**
 * The site's languages, the default first, each once (compared case-insensitively), as written:
 * `language`, then the others of `languages` in their order. A site without `languages:` has one.
 */
export function siteLanguages(settings: LanguageSettings): string[] {
  const out = [settings.language];
  for (const tag of settings.languages ?? []) if (!out.some((t) => sameLanguage(t, tag))) out.push(tag);
  return out;
}

/** True when the site publishes its pages in more than one language. */
export function isMultilingual(settings: LanguageSettings): boolean {
  return siteLanguages(settings).length > 1;
}

/**
 * The URL path prefix of `tag`'s pages: {@link pagesBase} (`''` unless `hosting.pagesPrefix` is set) for
 * the default language, else that and `/` and the tag in lower case (`pt-BR` → `/pt-br`). No trailing slash.
 */
export function languagePrefix(tag: string, settings: LanguageSettings): string {
  return `${pagesBase(settings)}${sameLanguage(tag, settings.language) ? '' : `/${tag.toLowerCase()}`}`;
}

/**
 * The site's spelling of `tag` when it is one of its languages (compared case-insensitively), else
 * undefined: `pt-br` → `pt-BR` on a site that lists `pt-BR`.
 */
export function siteLanguage(tag: string, settings: LanguageSettings): string | undefined {
  return siteLanguages(settings).find((t) => sameLanguage(t, tag));
}

/**
 * The default language and the languages of a publisher.yaml as written, before it is validated: the
 * content loader needs them to read the texts given per language in that very file. `language` when it
 * is a string, else the first string of `languages`, else `en`; unusable values are left out (the
 * schema reports them).
 */
export function rawLanguageSettings(raw: unknown): LanguageSettings {
  const record = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const listed = Array.isArray(record.languages)
    ? record.languages.filter((t): t is string => typeof t === 'string' && t.trim() !== '')
    : undefined;
  const language =
    typeof record.language === 'string' && record.language.trim() !== ''
      ? record.language.trim()
      : (listed?.[0]?.trim() ?? 'en');
  return { language, ...(listed ? { languages: listed.map((t) => t.trim()) } : {}) };
}
