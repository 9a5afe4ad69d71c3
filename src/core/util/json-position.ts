/**
 * Where a JSON text that `JSON.parse` refused goes wrong first, so that every invalid-JSON diagnostic of a
 * publisher's file names a line and a column. `JSON.parse` (RFC 8259) stays the judge of what is JSON;
 * this only places its refusal. V8 gives a position in some of its messages ("Expected ',' or ']' after
 * array element in JSON at position 11") but none in others ("Unexpected token ',', …", "Unexpected end
 * of JSON input"); for those the text is read again by jsonc-parser (Microsoft's JSON scanner and parser,
 * the one VS Code uses), with comments, trailing commas and empty content refused, so that it follows
 * RFC 8259's grammar, and its first error is the place.
 */
import { createRequire } from 'node:module';
import type * as JsoncParser from 'jsonc-parser';
import type { Diagnostic } from './errors.js';

/**
 * A 1-based line and column in a text: lines end at `\n`; columns count UTF-16 code units, as the `yaml`
 * library's do.
 */
export interface TextPosition {
  line: number;
  column: number;
}

/**
 * The line and column of the UTF-16 offset `at` in `text`.
 * @returns 1-based `{ line, column }`; `at` past the end gives the place just after the last character.
 */
export function lineAndColumn(text: string, at: number): TextPosition {
  const before = text.slice(0, at);
  const line = before.split('\n').length;
  return { line, column: before.length - before.lastIndexOf('\n') };
}

/**
 * The offset V8 gives in `message`, a `JSON.parse` SyntaxError's message, when it gives one. Only a whole
 * message of the form "… in JSON at position N" (newer V8 add " (line L column C)") counts: the messages
 * without a position quote the input between double quotes, and the input may hold those very words.
 */
function v8Offset(message: string): number | undefined {
  const at = /^[^"]* in JSON at position (\d+)(?: \(line \d+ column \d+\))?$/.exec(message)?.[1];
  return at === undefined ? undefined : Number(at);
}

let jsonc: typeof JsoncParser | undefined;

/** jsonc-parser, loaded the first time a text is refused: about 20 ms that valid JSON never costs. */
function jsoncParser(): typeof JsoncParser {
  jsonc ??= createRequire(import.meta.url)('jsonc-parser') as typeof JsoncParser;
  return jsonc;
}

/** jsonc-parser's `SyntaxKind` values used here (its types declare a `const enum`, not exported at run time). */
const LINE_BREAK_TRIVIA = 14;
const TRIVIA = 15;
const EOF = 17;

/** What RFC 8259 §2 allows between tokens: space, horizontal tab, line feed, carriage return. */
const NOT_JSON_WHITESPACE = /[^ \t\n\r]/;

/**
 * The offset of the first error jsonc-parser finds in `text` read as strict JSON, or undefined when it
 * finds none. Its scanner also skips as whitespace characters that RFC 8259 does not allow there (a byte
 * order mark U+FEFF, a no-break space, U+2028, a vertical tab, a form feed, …): the first such character
 * before its first error is the place instead.
 */
function jsoncOffset(text: string): number | undefined {
  const { visit, createScanner } = jsoncParser();
  let first: number | undefined;
  visit(
    text,
    {
      onError: (_code, offset) => {
        first ??= offset;
      },
    },
    { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false },
  );
  const scanner = createScanner(text, false);
  for (let kind: number = scanner.scan(); kind !== EOF; kind = scanner.scan()) {
    const offset = scanner.getTokenOffset();
    if (offset >= text.length || (first !== undefined && offset >= first)) break;
    if (kind !== TRIVIA && kind !== LINE_BREAK_TRIVIA) continue;
    const odd = NOT_JSON_WHITESPACE.exec(text.slice(offset, offset + scanner.getTokenLength()));
    if (odd) return offset + odd.index;
  }
  return first;
}

/**
 * Where the JSON text `text` goes wrong first, given `error`, what `JSON.parse(text)` threw: V8's own
 * position when its message has one, else the first error jsonc-parser finds reading `text` as RFC 8259
 * JSON. Never throws.
 * @returns the 1-based line and column ({@link lineAndColumn}), or undefined when neither places the
 *   error (jsonc-parser accepting what `JSON.parse` refused); the caller then reports the file alone.
 */
export function jsonErrorPosition(text: string, error: unknown): TextPosition | undefined {
  const given = error instanceof Error ? v8Offset(error.message) : undefined;
  if (given !== undefined) return lineAndColumn(text, given);
  let found: number | undefined;
  try {
    found = jsoncOffset(text);
  } catch {
    // jsonc-parser recurses into each list and object: a text nested thousands deep (which `JSON.parse`
    // reads) overflows the stack. That, or any failure of the library, leaves the error without a place.
    return undefined;
  }
  return found === undefined ? undefined : lineAndColumn(text, found);
}

/**
 * What to add to an invalid-JSON message when the error `pos` ({@link jsonErrorPosition}) is a byte order
 * mark opening `text`: an invisible character that editors do not show, and that `JSON.parse` refuses
 * (RFC 8259 §8.1 lets a parser ignore it, or not).
 * @returns `'; it starts with a byte order mark …'`, or `''`.
 */
function byteOrderMarkNote(text: string, pos: TextPosition | undefined): string {
  return text.charCodeAt(0) === 0xfeff && pos?.line === 1 && pos.column === 1
    ? '; it starts with a byte order mark (U+FEFF): save it as UTF-8 without one'
    : '';
}

/**
 * The `JSON_INVALID` diagnostic of a publisher's JSON file `file` whose text `JSON.parse` refused with
 * `error` (RFC 8259): at the line and column of the first error ({@link jsonErrorPosition}) when it can be
 * placed, else at the file alone. Never V8's own words, which quote the text.
 * @returns the diagnostic. Never throws.
 */
export function invalidJsonDiagnostic(file: string, text: string, error: unknown): Diagnostic {
  const pos = jsonErrorPosition(text, error);
  return {
    code: 'JSON_INVALID',
    severity: 'error',
    message: `invalid JSON: this file does not parse as JSON (RFC 8259)${byteOrderMarkNote(text, pos)}`,
    file,
    ...(pos ?? {}),
  };
}

/**
 * `' at line L, column C'` of the first error of the JSON text `text` that `JSON.parse` refused with
 * `error` ({@link jsonErrorPosition}), for a message that goes on with the parser's own words; `''` when
 * it cannot be placed. Never throws.
 */
export function jsonErrorPlace(text: string, error: unknown): string {
  const pos = jsonErrorPosition(text, error);
  return pos ? ` at line ${pos.line}, column ${pos.column}` : '';
}
