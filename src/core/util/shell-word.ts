/**
 * A path or value as one word of a POSIX shell command line (POSIX.1-2017 Shell Command Language §2.2.3,
 * single quotes), for the commands ardsite prints for a person to paste: `npm run build -- --root
 * 'My Sites/acme'`.
 */

import path from 'node:path';

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

/**
 * The npm command to paste for `script` over the project at `root`: `npm run <script>` when `root` is the
 * working folder, else `npm run <script> -- --root <root, relative to it>`, then `args`, each a shell
 * word ({@link shellWord}). For the hints of errors and summaries (a project checked with `--root` gets
 * commands that act on it, not on the folder the command ran in).
 *
 * @param script the package.json script, e.g. `release`.
 * @param root the project folder, absolute or relative to the working folder.
 * @param args further arguments, e.g. `['--update']`.
 * @returns the command line. Never throws.
 */
export function npmCommand(script: string, root: string, args: readonly string[] = []): string {
  const rel = path.relative(process.cwd(), path.resolve(root));
  const words = [...(rel === '' ? [] : ['--root', rel]), ...args].map(shellWord);
  return words.length === 0 ? `npm run ${script}` : `npm run ${script} -- ${words.join(' ')}`;
}
