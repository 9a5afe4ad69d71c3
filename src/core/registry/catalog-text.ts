/**
 * The text side of the registry's catalog (catalog.ts): the text members searched and their boosts, and
 * the full-text index of each of the site's languages (an Orama database of the text members, read
 * into an inverted index, text-index.ts), with the tokenizer queries in that language are read with.
 */
import { create, insertMultiple, type AnyOrama } from '@orama/orama';
import { textIndexOf } from './orama-text-index.js';
import type { TextIndex } from './text-index.js';
import type { TextLanguage } from './text-languages.js';

/**
 * The text properties searched, with their boosts, highest first. `representativeQueries` are the
 * primary signal (ARD draft §3.2.2: "the primary signal from which registries build semantic vector
 * indices"): a word in a representative query weighs as much as the same word in all the other members
 * together (10 = 4 + 3 + 2 + 1).
 */
export const TEXT_BOOSTS = {
  representativeQueries: 10,
  capabilities: 4,
  tags: 3,
  displayName: 2,
  description: 1,
} as const;

/** The text properties, in boost order. */
export const TEXT_FIELDS = Object.keys(TEXT_BOOSTS) as Array<keyof typeof TEXT_BOOSTS>;

/** The text members of an entry in one language (a text field: a string, or a list of strings). */
export type EntryTexts = Readonly<Partial<Record<keyof typeof TEXT_BOOSTS, string | readonly string[]>>>;

/** The full-text index of one language: its inverted index and the tokenizer that built it. */
export interface LanguageText {
  /** The inverted index (text-index.ts) over catalog positions. */
  readonly text: TextIndex;
  /** The language's tokenizer (its stemmer and stop words), for query texts. */
  readonly tokenize: (text: string) => string[];
}

/** The text of a text member: a string as it is, a list's strings joined by newlines; else undefined. */
export function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    const parts = value.filter((v): v is string => typeof v === 'string');
    return parts.length > 0 ? parts.join('\n') : undefined;
  }
  return undefined;
}

/**
 * The tokenizer of an Orama database (its stemmer and stop words) as a function of a query text: the
 * only part of the database a catalog keeps. Made here, so that the function holds the tokenizer alone
 * and not the scope of the caller (the start-up's term values and entries, catalog.ts `oramaDocuments`).
 */
export function tokenizerFunction(db: AnyOrama): (text: string) => string[] {
  const tokenizer = (db as unknown as { tokenizer: { tokenize(text: string): string[] } }).tokenizer;
  return (value) => tokenizer.tokenize(value);
}

/** Orama's tokenizer configuration of a language (stemming, stop words). */
export function tokenizerOf(language: TextLanguage): Record<string, unknown> {
  return {
    language: language.orama,
    stemming: true,
    ...(language.stemmer ? { stemmer: language.stemmer } : {}),
    stopWords: [...language.stopWords],
  };
}

/**
 * The full-text index of `tag`: the text members of every entry in that language (its `texts[tag]`, else
 * its own text, as the language's pages show it) in an Orama database of the text members alone, read
 * into an inverted index like the default language's.
 */
export async function languageText(
  entries: ReadonlyArray<{
    entry: Readonly<Record<string, unknown>>;
    texts?: Readonly<Record<string, EntryTexts>>;
  }>,
  tag: string,
  language: TextLanguage,
): Promise<LanguageText> {
  const schema: Record<string, string> = {};
  for (const field of TEXT_FIELDS) schema[field] = 'string';
  const db = create({
    schema: schema as never,
    components: { tokenizer: tokenizerOf(language) },
  }) as AnyOrama;
  const docs = entries.map((e, position) => {
    const doc: Record<string, unknown> = { id: String(position) };
    const own = e.texts?.[tag];
    for (const field of TEXT_FIELDS) {
      const value = text(own?.[field] ?? e.entry[field]);
      if (value !== undefined) doc[field] = value;
    }
    return doc;
  });
  await insertMultiple(db, docs as never, 1000);
  return {
    text: textIndexOf(db, entries.length, TEXT_BOOSTS),
    tokenize: tokenizerFunction(db),
  };
}
