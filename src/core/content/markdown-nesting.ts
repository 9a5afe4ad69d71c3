/**
 * A bound on how deeply an agent's Markdown body nests, found in one pass over its text before the page
 * renderer sees it. The renderer (`@astrojs/markdown-remark`: micromark, mdast, hast) recurses once per
 * level and pays for every delimiter still open: 2,000 nested block quotes (`>>>…`, 2 KB) or emphasis
 * openers (`*a *a *a …`, 8 KB) end the build in `RangeError: Maximum call stack size exceeded` with no
 * file named, and a paragraph of open delimiters (`_*_*_*…`, `[[[…`) takes seconds per few KB, growing
 * with the square of its length. `npm run check` passed them all.
 *
 * The count is an upper bound, never below what the renderer nests (so that a body within it renders):
 * - a block level is a `>`, or two columns of a line's leading list markers and indentation (a list
 *   level takes at least a marker and a space);
 * - an inline level is a `[` not yet closed by a `]`, or half a run of `*`, `_` or `~` (rounded up) that
 *   may open emphasis (CommonMark §6.2, left-flanking) and was not closed by a later run of the same
 *   character, counted over a paragraph (lines up to a blank one); a backslash-escaped one is text.
 * Prose never comes near the limit (`limits.depth`, 64 by default): the READMEs of 800 npm packages count
 * at most 30 (test/unit/content/markdown-nesting.test.ts).
 */

import type { Diagnostic } from '../util/errors.js';
import type { ContentLimits } from '../schema/publisher.js';

/** Where a body first nests past the limit. */
export interface MarkdownNesting {
  /** 1-based line of the body. */
  line: number;
  /** The levels counted there. */
  depth: number;
  kind: 'block' | 'inline';
}

const isSpace = (c: string | undefined) => c === undefined || c === ' ' || c === '\t';
/** ASCII and Unicode punctuation and symbols (CommonMark's "punctuation character"). */
const isPunct = (c: string | undefined) => c !== undefined && /[\p{P}\p{S}]/u.test(c);

/** Leading columns of block containers on `line`: the levels they can open, and where the text starts. */
function blockPrefix(line: string): { levels: number; end: number } {
  let quotes = 0;
  let columns = 0;
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (c === '>') {
      quotes++;
      i++;
    } else if (c === ' ') {
      columns++;
      i++;
    } else if (c === '\t') {
      columns += 4;
      i++;
    } else if ((c === '-' || c === '*' || c === '+') && isSpace(line[i + 1])) {
      columns++;
      i++;
    } else {
      const ordered = /^\d{1,9}[.)](?=[ \t]|$)/.exec(line.slice(i, i + 11));
      if (!ordered) break;
      columns += ordered[0].length;
      i += ordered[0].length;
    }
  }
  return { levels: quotes + Math.ceil(columns / 2), end: i };
}

/**
 * The first line of `body` where the nesting counted as the module comment says passes `limit`, or
 * undefined when it never does. Linear in the length of `body`.
 */
export function markdownNesting(body: string, limit: number): MarkdownNesting | undefined {
  const lines = body.split('\n');
  // Open brackets and emphasis runs of the paragraph, by character (`[`, `*`, `_`, `~`), and their sum.
  const open = new Map<string, number>();
  let inline = 0;
  const set = (c: string, count: number) => {
    inline += count - (open.get(c) ?? 0);
    open.set(c, count);
  };
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!.replace(/\r$/, '');
    if (line.trim() === '') {
      open.clear();
      inline = 0;
      continue;
    }
    const { levels, end } = blockPrefix(line);
    if (levels > limit) return { line: n + 1, depth: levels, kind: 'block' };
    for (let i = end; i < line.length;) {
      const c = line[i]!;
      if (c === '\\' && isPunct(line[i + 1])) {
        // A backslash escape (`\*`, `\[`): the character is text.
        i += 2;
        continue;
      }
      if (c === '[' || c === ']') {
        set('[', Math.max(0, (open.get('[') ?? 0) + (c === '[' ? 1 : -1)));
        if (inline > limit) return { line: n + 1, depth: inline, kind: 'inline' };
        i++;
        continue;
      }
      if (c !== '*' && c !== '_' && c !== '~') {
        i++;
        continue;
      }
      let j = i;
      while (line[j] === c) j++;
      // A run of n delimiters opens at most ⌈n/2⌉ levels (`***x***`: strong and emphasis).
      const run = Math.ceil((j - i) / 2);
      const before = i === end ? undefined : line[i - 1];
      const after = line[j];
      const left = !isSpace(after) && (!isPunct(after) || isSpace(before) || isPunct(before));
      const right = !isSpace(before) && (!isPunct(before) || isSpace(after) || isPunct(after));
      const pending = open.get(c) ?? 0;
      if (left && right && !isPunct(before) && !isPunct(after)) {
        // Inside a word (`snake_case`, `a*b*c`): `_` neither opens nor closes; `*` and `~` pair in order.
        if (c !== '_') set(c, pending > 0 ? Math.max(0, pending - run) : pending + run);
      } else if (left) set(c, pending + run);
      else if (right) set(c, Math.max(0, pending - run));
      if (inline > limit) return { line: n + 1, depth: inline, kind: 'inline' };
      i = j;
    }
  }
  return undefined;
}

/**
 * `CONTENT_TOO_DEEP` for a Markdown body of `file` that nests past `limits.depth` ({@link markdownNesting}),
 * at its line in the file (`offset`: the lines before the body), or undefined.
 */
export function markdownNestingDiagnostic(
  body: string,
  limits: ContentLimits,
  file: string,
  offset: number,
): Diagnostic | undefined {
  const at = markdownNesting(body, limits.depth);
  if (!at) return undefined;
  const what = at.kind === 'block' ? 'block quotes and lists' : 'open emphasis and link brackets';
  return {
    code: 'CONTENT_TOO_DEEP',
    severity: 'error',
    message: `the Markdown body nests ${what} ${at.depth} levels deep here; the limit is ${limits.depth} (limits.depth in content/publisher.yaml)`,
    file,
    line: offset + at.line,
  };
}
