/**
 * Every invalid-JSON diagnostic of a publisher's file names the line and column of the first error
 * (src/core/util/json-position.ts): a ramFile (JSON_INVALID), a release history (JSON_INVALID) and a stored
 * spec (SPEC_INVALID), whether V8's `JSON.parse` message gives a position ("Expected ',' or ']' …
 * at position N") or not ("Unexpected token …", "Unexpected end of JSON input"). `JSON.parse` stays the
 * judge of what is JSON; jsonc-parser only places what V8 does not.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { loadAndCheck } from '../../../src/core/content/index.js';
import { DEFAULT_LIMITS } from '../../../src/core/content/bounds.js';
import { parseJsonInto } from '../../../src/core/content/read.js';
import { formatDiagnostic, type Diagnostic } from '../../../src/core/util/errors.js';
import { jsonErrorPosition } from '../../../src/core/util/json-position.js';
import { readSpecDocument } from '../../../src/core/ram/parse-spec.js';
import { parseHistory } from '../../../src/core/releases/history.js';
import { agentMd, makeSite, removeSites } from '../../helpers/site.js';

afterAll(removeSites);

const RAM = 'content/agents/t.ram.json';
const MESSAGE = 'invalid JSON: this file does not parse as JSON (RFC 8259)';

/** The diagnostics of parsing `text` as the ramFile {@link RAM}. */
function ramDiagnostics(text: string): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  expect(parseJsonInto(RAM, text, diagnostics, DEFAULT_LIMITS)).toBeUndefined();
  return diagnostics;
}

/** V8's message for `text`, to show which cases it gives no position for. */
function v8Message(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the text is JSON');
}

describe('a ramFile that is not JSON: JSON_INVALID at the line and column of the first error', () => {
  // [name, text, line, column, whether V8's message gives the position]: the place of the first error,
  // 1-based, columns in UTF-16 code units.
  const cases: Array<[string, string, number, number, boolean]> = [
    ['an unexpected token (a list item missing)', '{"resources": [ , ],\n "x": 1}', 1, 17, false],
    ['a trailing comma in a list', '{\n  "resources": [\n    "a",\n  ],\n  "x": 1\n}', 4, 3, false],
    ['a colon with no value', '{\n  "resources":\n}', 3, 1, false],
    ['an unterminated string (end of line)', '{\n  "resources": [\n    "notes\n', 3, 11, true],
    ['an unterminated string (end of file)', '{\n  "resources": [\n    "notes', 3, 11, true],
    ['a truncated file', '{\n  "resources": [\n    {"id": "notes"', 3, 19, true],
    ['a truncated file ending after a colon', '{\n  "resources": ', 2, 16, false],
    ['an empty file', '', 1, 1, false],
    ['a word that is not JSON', '{\n  "x": [True]\n}', 2, 9, false],
    ['a no-break space between tokens', '{\n  "x":\u00a01\n}', 2, 7, false],
    ['a line separator (U+2028) between tokens', '{\n  "x": [1,\u20282]\n}', 2, 11, false],
    ['a merge conflict marker', '{\n<<<<<<< HEAD\n  "x": 1\n}', 2, 1, true],
  ];
  for (const [name, text, line, column, v8] of cases) {
    it(name, () => {
      expect(v8Message(text)).toMatch(
        v8 ? / in JSON at position \d+$/ : /^Unexpected (token|end of JSON input)/,
      );
      expect(ramDiagnostics(text)).toEqual([
        { code: 'JSON_INVALID', severity: 'error', message: MESSAGE, file: RAM, line, column },
      ]);
    });
  }

  it('a trailing comma in an object, a comment: V8’s own position is kept', () => {
    expect(ramDiagnostics('{\n  "x": 1,\n}')).toMatchObject([{ line: 3, column: 1 }]);
    expect(ramDiagnostics('{\n  "x": 1 // one\n}')).toMatchObject([{ line: 2, column: 10 }]);
  });

  it('a byte order mark: at line 1, column 1, saying what the invisible character is', () => {
    const [d] = ramDiagnostics('\ufeff{"resources": []}');
    expect(d).toMatchObject({ code: 'JSON_INVALID', line: 1, column: 1 });
    expect(d!.message).toBe(
      `${MESSAGE}; it starts with a byte order mark (U+FEFF): save it as UTF-8 without one`,
    );
  });

  it('never takes a position from the file’s own bytes that V8 quotes', () => {
    // V8: `Unexpected token 'x', "[x,"position 9"]" is not valid JSON`.
    const text = '[x,"position 9"]';
    expect(v8Message(text)).toContain('position 9');
    expect(ramDiagnostics(text)).toMatchObject([{ line: 1, column: 2 }]);
  });

  it('npm run check prints file:line:column for the ramFile an agent names', async () => {
    const root = await makeSite({
      'content/agents/t.md': agentMd({ ramFile: './t.ram.json' }),
      [RAM]: '{"resources": [ , ],\n "x": 1}',
    });
    const errors = (await loadAndCheck({ root })).diagnostics.filter((d) => d.severity === 'error');
    expect(errors.map(formatDiagnostic)).toEqual([`E  ${RAM}:1:17  ${MESSAGE}  [JSON_INVALID]`]);
  });

  it('every text JSON.parse refuses gets a place, never after the one V8 gives', () => {
    const ALPHABET = [...' \n\r\t,:[]{}"\\10-.eatnu/*\'', '\ufeff', '\u00a0', '\u2028', '\u000b', '\u0001'];
    const edit = fc.tuple(
      fc.nat(),
      fc.constantFrom(...ALPHABET),
      fc.constantFrom('insert', 'delete', 'replace'),
    );
    fc.assert(
      fc.property(
        fc.json({ maxDepth: 3 }),
        fc.boolean(),
        fc.array(edit, { minLength: 1, maxLength: 3 }),
        (json, indent, edits) => {
          let text = JSON.stringify(JSON.parse(json), null, indent ? 2 : undefined);
          for (const [n, char, kind] of edits) {
            const i = n % (text.length + 1);
            const rest = kind === 'insert' ? i : i + 1;
            text = text.slice(0, i) + (kind === 'delete' ? '' : char) + text.slice(rest);
          }
          let error: unknown;
          try {
            JSON.parse(text);
            return;
          } catch (e) {
            error = e;
          }
          const [d] = ramDiagnostics(text);
          expect(d).toMatchObject({
            code: 'JSON_INVALID',
            line: expect.any(Number),
            column: expect.any(Number),
          });
          // Where V8 gives a position, jsonc-parser alone finds an error no later than it.
          const v8 = /^[^"]* in JSON at position (\d+)$/.exec((error as Error).message)?.[1];
          if (v8 === undefined) return;
          const alone = jsonErrorPosition(text, new SyntaxError('no position'))!;
          const before = text.slice(0, Number(v8)).split('\n');
          const given = { line: before.length, column: before.at(-1)!.length + 1 };
          expect(alone.line < given.line || (alone.line === given.line && alone.column <= given.column)).toBe(
            true,
          );
          expect(d).toMatchObject(given);
        },
      ),
      { numRuns: 1500 },
    );
  });
});

describe('the other JSON files of a project', () => {
  it('a release history: JSON_INVALID at its line and column, without V8’s words (which quote the file)', () => {
    const text = '{\n  "format": 1,\n  "releases": [\n    {"version": "1.0.0",}\n  ]\n}\n';
    expect(parseHistory('content/releases/t.json', text)).toEqual([
      {
        code: 'JSON_INVALID',
        severity: 'error',
        message: MESSAGE,
        file: 'content/releases/t.json',
        line: 4,
        column: 25,
      },
    ]);
    const conflict = '{\n  "format": 1,\n<<<<<<< ours\n';
    expect(parseHistory('content/releases/t.json', conflict)).toMatchObject([{ line: 3, column: 1 }]);
  });

  it('a stored spec in JSON: SPEC_INVALID naming the file, line and column', () => {
    const spec = (text: string) => () =>
      readSpecDocument(new TextEncoder().encode(text), 'content/specs/n.json');
    expect(spec('{\n  "openapi": "3.0.3",\n  "paths": [,]\n}')).toThrow(
      /^content\/specs\/n\.json: neither JSON nor YAML at line 3, column 13: Unexpected token/,
    );
    // A byte order mark is dropped before parsing (as before): the columns are the editor's.
    expect(spec('\ufeff{"openapi": "3.0.3",\n "paths": ')).toThrow(
      / at line 2, column 11: Unexpected end of JSON input$/,
    );
    // YAML is placed the same way, from the bounded YAML reader's line and column.
    expect(spec('openapi: [3\npaths: {}\n')).toThrow(
      /^content\/specs\/n\.json: neither JSON nor YAML at line 2, column 1: /,
    );
  });
});
