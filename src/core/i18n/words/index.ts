/**
 * The page words of every supported language (one file per language: ./en.ts, ./pt-BR.ts) and how a
 * page picks its table: the agent's own `language`, else the publisher's (publisher.yaml). A language
 * without a table is the coded error PAGE_LANGUAGE_UNSUPPORTED; a table missing a word is a TypeScript
 * error and, should one be loaded untyped, PAGE_WORDS_MISSING (never an English fallback).
 */
import type { Diagnostic } from '../../util/errors.js';
import { EN, type PageWords } from './en.js';
import { PT_BR } from './pt-BR.js';

export type { PageWords } from './en.js';
export type { ChangeWordsInput } from './change-input.js';

/** The page word tables by BCP 47 tag (RFC 5646), compared case-insensitively. */
export const PAGE_WORDS: Readonly<Record<string, PageWords>> = { en: EN, 'pt-BR': PT_BR };

/** The tags of {@link PAGE_WORDS}, for messages and the schema's description. */
export const SUPPORTED_LANGUAGES: readonly string[] = Object.keys(PAGE_WORDS);

/** The English table (the `npm run diff` output and other terminal text). */
export const ENGLISH_WORDS: PageWords = EN;

/**
 * The table of `language` (a BCP 47 tag, compared case-insensitively, RFC 5646 §2.1.1), or undefined
 * when there is none. A regional tag reads the table of its bare language when that is the table's own
 * tag (`en-GB` → `en`); a table for one region is never used for another (`pt-PT` has none: `pt-BR` is
 * not its words).
 */
export function findWords(language: string): PageWords | undefined {
  const wanted = language.toLowerCase();
  const primary = wanted.split('-')[0];
  const key =
    SUPPORTED_LANGUAGES.find((tag) => tag.toLowerCase() === wanted) ??
    SUPPORTED_LANGUAGES.find((tag) => tag.toLowerCase() === primary);
  return key === undefined ? undefined : PAGE_WORDS[key];
}

/**
 * The table of `language`.
 * @throws Error naming PAGE_LANGUAGE_UNSUPPORTED when there is none (the content checks report it first,
 *   with its file and line, so a build never gets here with one).
 */
export function wordsFor(language: string): PageWords {
  const words = findWords(language);
  if (!words)
    throw new Error(
      `PAGE_LANGUAGE_UNSUPPORTED: no page words for "${language}" (supported: ${SUPPORTED_LANGUAGES.join(', ')})`,
    );
  return words;
}

/** The language tag of one agent's pages: its own `language` when set, else the publisher's. */
export function agentLanguage(
  agent: { front: { language?: string | undefined } },
  publisher: { language: string },
): string {
  return agent.front.language ?? publisher.language;
}

/** The words of one agent's pages ({@link agentLanguage}). @throws as {@link wordsFor}. */
export function agentWords(
  agent: { front: { language?: string | undefined } },
  publisher: { language: string },
): PageWords {
  return wordsFor(agentLanguage(agent, publisher));
}

/** The dotted paths of every word of `table` (nested groups walked; the `locale` helpers left out). */
export function wordPaths(table: object, prefix = ''): string[] {
  const paths: string[] = [];
  for (const [key, value] of Object.entries(table)) {
    if (key === 'locale' && prefix === '') continue;
    const path = `${prefix}${key}`;
    if (value !== null && typeof value === 'object') paths.push(...wordPaths(value as object, `${path}.`));
    else paths.push(path);
  }
  return paths;
}

/**
 * Compares every table with the English one: a word English has that another table lacks is
 * PAGE_WORDS_MISSING (error) naming the table and the word's path. Types make this empty for the tables
 * compiled here; the check keeps the promise for a table added without them.
 */
export function checkWordTables(tables: Readonly<Record<string, object>> = PAGE_WORDS): Diagnostic[] {
  const english = wordPaths(EN);
  const out: Diagnostic[] = [];
  for (const [tag, table] of Object.entries(tables)) {
    const have = new Set(wordPaths(table));
    for (const path of english) {
      if (!have.has(path))
        out.push({
          code: 'PAGE_WORDS_MISSING',
          severity: 'error',
          message: `the page words for "${tag}" have no "${path}"`,
          file: `src/core/i18n/words/${tag}.ts`,
          path,
        });
    }
  }
  return out;
}
