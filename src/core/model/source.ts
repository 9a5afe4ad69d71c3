/**
 * Parsed source documents that remember where each value came from, so that a diagnostic can name the
 * line of the field it is about.
 *
 * Values are read with js-yaml (YAML 1.2 core schema) or `JSON.parse`, which are fast; positions come from
 * the `yaml` library, which keeps node ranges but is several times slower, so a document is parsed with it
 * only when a diagnostic asks for a line (and when js-yaml refuses the text, for `yaml`'s positioned error
 * messages). A site of 10,000 clean agents never pays for positions.
 */
import {
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  visit,
  parse as parseYamlText,
  parseDocument,
  type Document,
  type Node,
} from 'yaml';
import { documentValue, readYaml, YamlReadError } from '../util/bounded-yaml.js';
import { formatPath, type Diagnostic } from '../util/errors.js';
import { nonJsonValue } from '../util/json.js';

/** The `yaml` library's view of a text: the node tree and its line index. */
interface Positions {
  doc: Document;
  lines: LineCounter;
}

function parseWithPositions(text: string): Positions {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  return { doc, lines };
}

/**
 * A copy of `value` (plain data: objects, arrays, strings, numbers, booleans, null) whose strings share no
 * memory with the text they were read from. Parsers return substrings of their input, which V8 keeps as
 * slices holding the whole text alive: a 40-character agent name kept the whole agent file (front matter
 * and body) for as long as the model lived, through rendering, whatever {@link SourceDoc.release}
 * let go. `structuredClone` writes every string anew.
 */
export function detached<T>(value: T): T {
  return structuredClone(value);
}

/**
 * `doc`, or a `YAML_INVALID` diagnostic at the first value in it that JSON cannot hold (binary data, a date,
 * a set, NaN, Infinity: src/core/util/json.ts `nonJsonValue`). Content becomes JSON that is signed and hashed
 * (RFC 8785), which has no such values: a YAML tag such as `!!binary` must not reach it.
 */
function jsonOnly(doc: SourceDoc): SourceDoc | Diagnostic[] {
  const bad = nonJsonValue(doc.value);
  if (!bad) return doc;
  const at = doc.locate(bad.path);
  const where = bad.path.length > 0 ? '' : 'the document is ';
  return [
    {
      code: 'YAML_INVALID',
      severity: 'error',
      message: `invalid YAML: ${where}${bad.what}, which JSON cannot hold; write it as a string or a number`,
      file: doc.file,
      ...(bad.path.length > 0 ? { path: formatPath(bad.path) } : {}),
      ...(at ? { line: at.line, column: at.column } : {}),
    },
  ];
}

/**
 * The key written at `offset` of the YAML `text` (a mapping key, up to its `:`), as the `yaml` library
 * reads it (so `"b"` and `b` are both `b`), or `undefined` when none is there or it is over 80 characters.
 */
function keyAt(text: string, offset: number): string | undefined {
  const written = /^(.*?):(?:\s|$)/.exec(text.slice(offset).split('\n')[0] ?? '')?.[1]?.trim();
  if (!written || written.length > 80) return undefined;
  try {
    const key: unknown = parseYamlText(written);
    return typeof key === 'string' || typeof key === 'number' || typeof key === 'boolean'
      ? String(key)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where the construct a syntax error of the `yaml` library is about opens, when it is one left open: a
 * flow sequence or mapping without its `]` or `}` (YAML 1.2 §7.4) or a quoted scalar without its closing
 * quote (§7.3.1, §7.3.2). The library reports those where it gave up, the line after (or the end of the
 * text); the problem is the line that opened them. The offset of the outermost such node ending where the
 * error starts; undefined for other errors.
 */
function openedAt(doc: Document, error: { code: string; message: string; pos: [number, number] }) {
  const open =
    (error.code === 'BAD_INDENT' && /^Flow (sequence|map) .*end with/.test(error.message)) ||
    (error.code === 'MISSING_CHAR' && /^Missing closing .?quote/.test(error.message));
  if (!open) return undefined;
  let found: number | undefined;
  visit(doc, (_, node) => {
    const unclosed =
      ((isSeq(node) || isMap(node)) && node.flow) ||
      (isScalar(node) && (node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE'));
    if (unclosed && node.range?.[1] === error.pos[0]) {
      found = node.range[0];
      return visit.BREAK;
    }
    return undefined;
  });
  return found;
}

/** The diagnostic of a {@link YamlReadError} (its code, reason and place) for `file`. */
function yamlDiagnostic(error: YamlReadError, file: string): Diagnostic {
  return {
    code: error.code,
    severity: 'error',
    message: error.reason,
    file,
    ...(error.line !== undefined ? { line: error.line } : {}),
    ...(error.column !== undefined ? { column: error.column } : {}),
  };
}

/** A parsed document with positions. `lineOffset` shifts lines for YAML front matter inside Markdown. */
export class SourceDoc {
  readonly file: string;
  private parsed: unknown;
  private text: string;
  private positions: Positions | undefined;
  private readonly lineOffset: number;
  private released = false;

  private constructor(file: string, text: string, value: unknown, lineOffset: number, positions?: Positions) {
    this.file = file;
    this.text = text;
    this.parsed = value;
    this.lineOffset = lineOffset;
    this.positions = positions;
  }

  /** The parsed document (`undefined` once {@link release}d). */
  get value(): unknown {
    return this.parsed;
  }

  /**
   * Lets go of the text, the parsed value and the positions: a build calls this once every artifact is
   * computed and only the pages are left to render, which never read them (scripts/build.ts). A
   * diagnostic made afterwards still names the file, without a line.
   */
  release(): void {
    this.released = true;
    this.text = '';
    this.parsed = undefined;
    this.positions = undefined;
  }

  /**
   * Parses YAML `text` from `file` (a project-relative path used in messages). Returns the document, or
   * the `YAML_INVALID` diagnostics (all of them, with lines) when it does not parse.
   */
  static parseYaml(file: string, text: string, lineOffset = 0): SourceDoc | Diagnostic[] {
    try {
      // The one bounded reader (../bounded-yaml.ts): aliases that expand too far are refused here.
      const value = readYaml(text, file, lineOffset);
      return jsonOnly(new SourceDoc(file, text, detached(value), lineOffset));
    } catch (error) {
      if (error instanceof YamlReadError && error.code !== 'YAML_INVALID')
        return [yamlDiagnostic(error, file)];
      if (!(error instanceof YamlReadError)) throw error;
      // Fall through: the `yaml` library gives every syntax error with its line.
    }
    const positions = parseWithPositions(text);
    if (positions.doc.errors.length > 0) {
      return positions.doc.errors.map((e) => {
        const pos = positions.lines.linePos(openedAt(positions.doc, e) ?? e.pos[0]);
        // "Map keys must be unique" names no key: it is the one written where the error starts.
        const key = e.code === 'DUPLICATE_KEY' ? keyAt(text, e.pos[0]) : undefined;
        const reason =
          key !== undefined
            ? `the key ${JSON.stringify(key)} is given twice in the same mapping (YAML 1.2 §3.2.1.1); keep one`
            : e.message.split('\n')[0];
        return {
          code: 'YAML_INVALID',
          severity: 'error',
          message: `invalid YAML: ${reason}`,
          file,
          line: pos.line + lineOffset,
          column: pos.col,
        } satisfies Diagnostic;
      });
    }
    let value: unknown;
    try {
      value = documentValue(positions.doc, text, file, lineOffset);
    } catch (error) {
      if (error instanceof YamlReadError) return [yamlDiagnostic(error, file)];
      throw error;
    }
    return jsonOnly(new SourceDoc(file, text, detached(value), lineOffset, positions));
  }

  /**
   * Wraps a JSON document already parsed with `JSON.parse` (`value`), keeping `text` for positions.
   */
  static fromJson(file: string, text: string, value: unknown): SourceDoc {
    return new SourceDoc(file, text, value, 0);
  }

  /**
   * Finds the 1-based line and column of the value at `path`. Each key is tried as written and in its
   * snake_case spelling, since RAM input may use either (DESIGN.md §1). Falls back to the closest
   * ancestor that exists.
   */
  locate(path: readonly PropertyKey[]): { line: number; column: number } | undefined {
    if (this.released) return undefined;
    try {
      this.positions ??= parseWithPositions(this.text);
    } catch {
      // A document nested too deeply for the positioned parser (`RangeError`): no line, still a finding.
      return undefined;
    }
    let node: unknown = this.positions.doc.contents;
    let found: Node | undefined = isNode(node) ? node : undefined;
    for (const part of path) {
      if (isMap(node)) {
        const names = typeof part === 'string' ? [part, toSnakeCase(part)] : [String(part)];
        const pair = node.items.find((p) => isScalar(p.key) && names.includes(String(p.key.value)));
        if (!pair) break;
        node = pair.value;
        // A field is where its key is written: a block value (a nested mapping or list, a `>-`
        // scalar) starts on a later line than the field itself.
        if (isNode(pair.key)) found = pair.key;
        else if (isNode(node)) found = node;
      } else if (isSeq(node) && typeof part === 'number') {
        node = node.items[part];
        if (!isNode(node)) break;
        found = node;
      } else break;
    }
    if (!found?.range) return undefined;
    const pos = this.positions.lines.linePos(found.range[0]);
    return { line: pos.line + this.lineOffset, column: pos.col };
  }

  /** Builds a diagnostic located at `path` in this document. */
  diagnostic(d: Omit<Diagnostic, 'file' | 'line' | 'column'>, path: readonly PropertyKey[]): Diagnostic {
    const pos = this.locate(path);
    return { ...d, file: this.file, ...(pos ? { line: pos.line, column: pos.column } : {}) };
  }
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && 'range' in value;
}

/** `identityUsed` → `identity_used`. */
export function toSnakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** `identity_used` → `identityUsed`. */
export function toCamelCase(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}
