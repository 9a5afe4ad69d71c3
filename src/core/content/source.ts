/**
 * Parsed source documents that remember where each value came from, so that a diagnostic can name the
 * line of the field it is about. YAML (and JSON, a subset of YAML 1.2) is parsed with the `yaml`
 * library, which keeps node ranges.
 */
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import type { Diagnostic } from '../errors.js';

/** A parsed document with positions. `lineOffset` shifts lines for YAML front matter inside Markdown. */
export class SourceDoc {
  readonly file: string;
  readonly value: unknown;
  private readonly doc: Document;
  private readonly lines: LineCounter;
  private readonly lineOffset: number;

  private constructor(file: string, doc: Document, lines: LineCounter, lineOffset: number) {
    this.file = file;
    this.doc = doc;
    this.lines = lines;
    this.lineOffset = lineOffset;
    this.value = doc.toJS({ maxAliasCount: 100 });
  }

  /**
   * Parses YAML `text` from `file` (a project-relative path used in messages). Returns the document, or
   * the `YAML_INVALID` diagnostics (all of them, with lines) when it does not parse.
   */
  static parseYaml(file: string, text: string, lineOffset = 0): SourceDoc | Diagnostic[] {
    const lines = new LineCounter();
    const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
    if (doc.errors.length > 0) {
      return doc.errors.map((e) => {
        const pos = lines.linePos(e.pos[0]);
        return {
          code: 'YAML_INVALID',
          severity: 'error',
          message: `invalid YAML: ${e.message.split('\n')[0]}`,
          file,
          line: pos.line + lineOffset,
          column: pos.col,
        } satisfies Diagnostic;
      });
    }
    return new SourceDoc(file, doc, lines, lineOffset);
  }

  /**
   * Finds the 1-based line and column of the value at `path`. Each key is tried as written and in its
   * snake_case spelling, since RAM input may use either (DESIGN.md §1). Falls back to the closest
   * ancestor that exists.
   */
  locate(path: readonly PropertyKey[]): { line: number; column: number } | undefined {
    let node: unknown = this.doc.contents;
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
    const pos = this.lines.linePos(found.range[0]);
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
