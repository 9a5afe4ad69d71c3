/**
 * Texts given per language in a one-line YAML map and cut at a comma (YAML 1.2 §7.4): what
 * src/core/content/texts.ts reports as one `TEXT_UNQUOTED_COMMA` error with the text to quote.
 */
import { sameLanguage } from '../i18n/languages.js';

/**
 * A per-language map that a YAML flow map cut at a comma (YAML 1.2 §7.4: `,` separates flow entries, so
 * `{ en: a, b, pt-BR: c }` reads `b` as a key without a value): the first key that is not a language of
 * `languages` and has no value, with the text before it (the previous key's), that key's language, and
 * the pieces the commas made (`b`, or `b, c` for `{ en: a, b, c }`).
 * Undefined when there is none. Pure.
 */
export function cutAtComma(
  map: Readonly<Record<string, unknown>>,
  languages: readonly string[],
): { language: string; text: string; rest: string } | undefined {
  const entries = Object.entries(map);
  const piece = ([key, value]: [string, unknown]) =>
    value === null && !languages.some((t) => sameLanguage(t, key));
  for (let i = 1; i < entries.length; i++) {
    const [before, text] = entries[i - 1]!;
    if (!piece(entries[i]!) || typeof text !== 'string') continue;
    // Every piece the commas made of this text, up to the next real key.
    const pieces: string[] = [];
    for (let j = i; j < entries.length && piece(entries[j]!); j++) pieces.push(entries[j]![0]);
    return { language: before, text, rest: pieces.join(', ') };
  }
  return undefined;
}
