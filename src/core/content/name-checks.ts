/**
 * Names people read on the index (an agent's `name`, an entry's `displayName`) must not let one agent pass
 * for another (UTS #39 "Unicode Security Mechanisms"):
 * - `NAME_HIDDEN_CHARACTER` (error): a character that shows nothing or reorders the text around it: a
 *   Default_Ignorable_Code_Point (zero-width space, word joiner, soft hyphen, …) or a Bidi_Control (an
 *   unterminated right-to-left override turns the rest of a line around, Unicode TR9 §2). The joiners an
 *   emoji sequence or a non-Latin script needs, and variation selectors after a character, are allowed.
 * - `NAME_LOOKALIKE` (warning): two names with the same UTS #39 §4 skeleton (the same name, or one with a
 *   Cyrillic `а` for a Latin `a`): on the index the two cannot be told apart.
 * - `NAME_MIXED_SCRIPT` (warning): a name written in Latin letters with a letter of another script that
 *   UTS #39's confusables data maps to Latin ones (UTS #39 §5.1 mixed-script detection, restricted to
 *   the confusable letters, so `Café` and `Zürich` pass).
 * The confusables data (UTS #39 confusables.txt) comes from the `unhomoglyph` package; the character
 * properties from the Unicode data built into the JavaScript engine (`\p{…}`, ECMA-262 §22.2.2.9).
 */
import unhomoglyph from 'unhomoglyph';
import type { SourceDoc } from '../model/source.js';
import type { Reporter } from './check-reporter.js';

/** One name to check: where it is written and the text. */
export interface ShownName {
  source: SourceDoc;
  /** Field path of the name in its document (`['name']`, `['displayName']`). */
  path: readonly PropertyKey[];
  name: string;
}

const IGNORABLE = /[\p{Default_Ignorable_Code_Point}\p{Bidi_Control}]/u;
const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
const VARIATION_SELECTOR = /\p{Variation_Selector}/u;
/** A letter of a script other than Latin (where ZWJ and ZWNJ shape words, as in Persian or Hindi). */
const NON_LATIN_LETTER = /^(?!\p{Script=Latin})\p{L}$/u;
const LATIN_LETTER = /\p{Script=Latin}/u;

/** `U+200B` for a code point. */
function codePoint(c: string): string {
  return `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * The first character of `name` that shows nothing or reorders the text (see the module comment), or
 * `undefined`. A zero-width joiner is allowed between emoji and between letters of a non-Latin script, a
 * zero-width non-joiner between such letters, a variation selector after any visible character.
 */
export function hiddenCharacter(name: string): string | undefined {
  const chars = [...name];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (!IGNORABLE.test(c)) continue;
    const before = chars[i - 1] ?? '';
    const after = chars[i + 1] ?? '';
    if (VARIATION_SELECTOR.test(c) && before !== '' && !IGNORABLE.test(before)) continue;
    if (c === '\u200D' && PICTOGRAPHIC.test(after) && /\p{Extended_Pictographic}|\uFE0F/u.test(before))
      continue;
    if ((c === '\u200D' || c === '\u200C') && NON_LATIN_LETTER.test(before) && NON_LATIN_LETTER.test(after))
      continue;
    return c;
  }
  return undefined;
}

/**
 * The UTS #39 §4 skeleton of `name`: NFD, default-ignorable code points removed, each character replaced
 * by its confusables.txt prototype, NFD again, so that two names that look alike have the same skeleton.
 * Not for display.
 */
export function skeleton(name: string): string {
  const bare = name.normalize('NFD').replace(/\p{Default_Ignorable_Code_Point}/gu, '');
  return unhomoglyph(bare).normalize('NFD');
}

/**
 * The first letter of `name` that belongs to another script than Latin but looks like a Latin letter
 * (its skeleton is Latin), when `name` also has Latin letters; else `undefined`.
 */
export function mixedScriptLetter(name: string): string | undefined {
  const letters = [...name.normalize('NFC')].filter((c) => /\p{L}/u.test(c));
  if (!letters.some((c) => LATIN_LETTER.test(c))) return undefined;
  return letters.find((c) => {
    if (LATIN_LETTER.test(c)) return false;
    const prototype = skeleton(c);
    return prototype !== c.normalize('NFD') && [...prototype].some((p) => LATIN_LETTER.test(p));
  });
}

/**
 * Reports every name of `names` that hides characters, mixes scripts with look-alike letters, or looks
 * like another name of the list (module comment), at the name's field and line.
 */
export function checkShownNames(names: readonly ShownName[], r: Reporter): void {
  const bySkeleton = new Map<string, ShownName>();
  for (const shown of names) {
    const hidden = hiddenCharacter(shown.name);
    if (hidden !== undefined)
      r.add(
        shown.source,
        shown.path,
        'NAME_HIDDEN_CHARACTER',
        `this name holds ${codePoint(hidden)}, a character that shows nothing or turns the text around it (UTS #39, Unicode TR9): readers cannot see it, and it can make one name pass for another; remove it`,
      );
    const foreign = mixedScriptLetter(shown.name);
    if (foreign !== undefined)
      r.add(
        shown.source,
        shown.path,
        'NAME_MIXED_SCRIPT',
        `this name mixes Latin letters with "${foreign}" (${codePoint(foreign)}), a letter of another script that looks like "${skeleton(foreign)}" (UTS #39 confusables): write it in one script`,
        'warning',
      );
    const key = skeleton(shown.name);
    const first = bySkeleton.get(key);
    if (first === undefined) bySkeleton.set(key, shown);
    else
      r.add(
        shown.source,
        shown.path,
        'NAME_LOOKALIKE',
        `"${shown.name}" ${first.name === shown.name ? 'is the same name as' : 'looks like'} "${first.name}" in ${first.source.file} (UTS #39 confusable skeleton): on the index one could pass for the other; give each a name of its own`,
        'warning',
      );
  }
}
