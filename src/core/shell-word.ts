/**
 * A path or value as one word of a POSIX shell command line (POSIX.1-2017 Shell Command Language §2.2.3,
 * single quotes), for the commands ardsite prints for a person to paste: `npm run build -- --root
 * 'My Sites/acme'`.
 */

/** Characters that need no quoting in a shell word. */
const PLAIN = /^[\w@%+=:,./-]+$/;

/**
 * `word` as it can be pasted into a shell as one argument: unchanged when it holds only letters, digits
 * and `@%+=:,./-_`, else in single quotes (a single quote inside written `'\''`).
 *
 * @param word any text, e.g. a relative path.
 * @returns the shell word. Never throws.
 */
export function shellWord(word: string): string {
  return PLAIN.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
