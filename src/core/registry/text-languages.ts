/**
 * The languages the registry's full-text index reads (ARD draft §4.2.2): each language of the site is
 * indexed with its own tokenizer, stemmer and stop words, Orama's (`@orama/orama` 3.1 tokenizer languages,
 * `@orama/stemmers`, `@orama/stopwords`), and a question is answered in the language the request asks for.
 *
 * The draft's search request has no language member, so the language is the HTTP `Accept-Language`
 * header's (RFC 9110 §12.5.4), read by the `negotiator` package: the best match among the site's
 * languages (a range matches a tag it is a prefix of and a tag that is its prefix: `pt` matches `pt-BR`,
 * `en-US` matches `en`; `pt-PT` does not match `pt-BR`),
 * the site's default language when the header is absent or matches none.
 */
import Negotiator from 'negotiator';
import { stopwords as englishStopwords } from '@orama/stopwords/english';

/** How Orama tokenizes one language: its tokenizer language name, stemmer and stop words. */
export interface TextLanguage {
  /** Orama's tokenizer language name (`english`, `portuguese`, …): it picks the word splitter. */
  orama: string;
  /** The stemmer of `@orama/stemmers` (English: Orama's built-in one). */
  stemmer?: (word: string) => string;
  /** Orama's stop words of the language, plus the single letters (see {@link withLetters}). */
  stopWords: readonly string[];
}

/** A language's stemmer and stop words, loaded when a site has that language. */
type Loader = () => Promise<[{ stemmer: (word: string) => string }, { stopwords: string[] }]>;

/**
 * Orama's language names and loaders by primary language subtag (RFC 5646 §2.2.1), for languages with
 * a stemmer in `@orama/stemmers`, stop words in `@orama/stopwords` and a word splitter in Orama's
 * tokenizer (static imports, so that bundlers see every module).
 */
const ORAMA_LANGUAGES: Readonly<Record<string, { orama: string; load: Loader }>> = {
  da: {
    orama: 'danish',
    load: () => Promise.all([import('@orama/stemmers/danish'), import('@orama/stopwords/danish')]),
  },
  de: {
    orama: 'german',
    load: () => Promise.all([import('@orama/stemmers/german'), import('@orama/stopwords/german')]),
  },
  es: {
    orama: 'spanish',
    load: () => Promise.all([import('@orama/stemmers/spanish'), import('@orama/stopwords/spanish')]),
  },
  fi: {
    orama: 'finnish',
    load: () => Promise.all([import('@orama/stemmers/finnish'), import('@orama/stopwords/finnish')]),
  },
  fr: {
    orama: 'french',
    load: () => Promise.all([import('@orama/stemmers/french'), import('@orama/stopwords/french')]),
  },
  it: {
    orama: 'italian',
    load: () => Promise.all([import('@orama/stemmers/italian'), import('@orama/stopwords/italian')]),
  },
  nl: {
    orama: 'dutch',
    load: () => Promise.all([import('@orama/stemmers/dutch'), import('@orama/stopwords/dutch')]),
  },
  no: {
    orama: 'norwegian',
    load: () => Promise.all([import('@orama/stemmers/norwegian'), import('@orama/stopwords/norwegian')]),
  },
  nb: {
    orama: 'norwegian',
    load: () => Promise.all([import('@orama/stemmers/norwegian'), import('@orama/stopwords/norwegian')]),
  },
  pt: {
    orama: 'portuguese',
    load: () => Promise.all([import('@orama/stemmers/portuguese'), import('@orama/stopwords/portuguese')]),
  },
  ro: {
    orama: 'romanian',
    load: () => Promise.all([import('@orama/stemmers/romanian'), import('@orama/stopwords/romanian')]),
  },
  ru: {
    orama: 'russian',
    load: () => Promise.all([import('@orama/stemmers/russian'), import('@orama/stopwords/russian')]),
  },
  sv: {
    orama: 'swedish',
    load: () => Promise.all([import('@orama/stemmers/swedish'), import('@orama/stopwords/swedish')]),
  },
  tr: {
    orama: 'turkish',
    load: () => Promise.all([import('@orama/stemmers/turkish'), import('@orama/stopwords/turkish')]),
  },
};

/**
 * Stop words plus the single letters: the index matches query words as prefixes of indexed words, so a
 * one-letter word would match every word starting with it.
 */
export function withLetters(stopWords: readonly string[]): string[] {
  return [...new Set([...stopWords, ...'abcdefghijklmnopqrstuvwxyz'.split('')])];
}

/** The English tokenizer settings (Orama's built-in English stemmer and its English stop words). */
export const ENGLISH: TextLanguage = { orama: 'english', stopWords: withLetters(englishStopwords) };

/**
 * The tokenizer settings of the BCP 47 tag `tag` (RFC 5646), by its primary subtag; `undefined` when
 * Orama has no stemmer for it (the caller then indexes that language with the default language's).
 */
export async function textLanguage(tag: string): Promise<TextLanguage | undefined> {
  const primary = tag.toLowerCase().split('-')[0]!;
  if (primary === 'en') return ENGLISH;
  const known = ORAMA_LANGUAGES[primary];
  if (known === undefined) return undefined;
  const [stemmers, stops] = await known.load();
  return { orama: known.orama, stemmer: stemmers.stemmer, stopWords: withLetters(stops.stopwords) };
}

/** What the `negotiator` package reads of a request. */
interface LanguageNegotiator {
  language(available: string[]): string | undefined;
}

/**
 * The language of a request among `languages` (the site's tags, the default first), by its
 * `Accept-Language` header (RFC 9110 §12.5.4): the best match, the default (`languages[0]`) when the
 * header is absent, empty, or matches none. Returns the tag as `languages` spells it.
 */
export function chooseLanguage(
  acceptLanguage: string | null | undefined,
  languages: readonly string[],
): string {
  const fallback = languages[0] ?? '';
  if (!acceptLanguage || languages.length < 2) return fallback;
  const negotiator = new Negotiator({ headers: { 'accept-language': acceptLanguage } });
  const chosen = (negotiator as unknown as LanguageNegotiator).language([...languages]);
  return chosen ?? fallback;
}
