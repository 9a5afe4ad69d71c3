/**
 * The one YAML reader of ardsite: content files and front matter, stored specs, the publisher file read
 * by the command-line tools. Every YAML text goes through {@link readYaml} (or {@link readYamlLeniently}
 * for a text already reported as broken), so every read has the same bound on aliases.
 *
 * YAML aliases (YAML 1.2 §3.2.2.2, `&anchor` / `*alias`) make a graph, not a tree: both parsers used here
 * return the anchored value itself for each alias, so the parse is linear, but every later walk (checks,
 * JSON serialisation, RFC 8785 canonicalisation, spec indexing) expands the graph into a tree, and nine
 * levels of nine aliases in 1 KB of text expand to hundreds of millions of values. The bound is measured
 * on the parsed graph before anything expands it: {@link expandedWeight} counts what the tree would hold,
 * visiting each shared value once, and a document whose tree would outweigh twice its own text plus
 * {@link ALIAS_ALLOWANCE} is refused, as is one that contains itself (JSON cannot hold a cycle).
 */
import { CORE_SCHEMA, load as loadJsYaml } from 'js-yaml';
import { LineCounter, parseDocument, visit, type Node } from 'yaml';
import { ArdsiteError, type ErrorCode } from './errors.js';

/**
 * What aliases may add to a document beyond twice its own text, in the units of {@link expandedWeight}
 * (one per value, plus the characters of each string and key). Far above what anchors used for sharing
 * (a common header, a repeated parameter list) add to a real file, far below what a walk of the expanded
 * document can afford.
 */
export const ALIAS_ALLOWANCE = 100_000;

/** The place of a YAML fault in its text: 1-based line and column, when known. */
export interface YamlPlace {
  line?: number;
  column?: number;
}

/**
 * A YAML text that cannot be used: `YAML_INVALID` (it does not parse, YAML 1.2 core schema) or
 * `YAML_ALIASES_TOO_LARGE` (its aliases expand past the bound, or it contains itself). `reason` is the
 * sentence without the file; `message` is `<file>[:<line>]: <reason>`. Never quotes more of the text than
 * the parser's own first line of error.
 */
export class YamlReadError extends ArdsiteError {
  readonly reason: string;
  readonly line: number | undefined;
  readonly column: number | undefined;

  constructor(code: ErrorCode, file: string, reason: string, place: YamlPlace = {}) {
    super(code, `${file}${place.line !== undefined ? `:${place.line}` : ''}: ${reason}`);
    this.reason = reason;
    this.line = place.line;
    this.column = place.column;
  }
}

/** Result of {@link expandedWeight}: the weight of the tree the value expands to, or a cycle. */
type Weight = { weight: number; cyclic: false } | { weight: number; cyclic: true };

/**
 * The weight of the tree that `value` (a parsed YAML or JSON value, possibly a graph through aliases)
 * expands to: 1 per value (mapping, sequence, scalar), plus the length in UTF-16 units of each string and
 * each key. Each object is visited once and its weight remembered, so the walk costs the size of the graph,
 * not of the tree; it stops as soon as the weight passes `limit`. `cyclic` is true when a mapping or
 * sequence contains itself. Iterative, so a deep document does not exhaust the call stack.
 */
export function expandedWeight(value: unknown, limit = Number.POSITIVE_INFINITY): Weight {
  const known = new Map<object, number>();
  const open = new Set<object>();
  interface Frame {
    node: object;
    children: unknown[];
    next: number;
    weight: number;
  }
  const scalarWeight = (v: unknown): number => (typeof v === 'string' ? 1 + v.length : 1);
  const frameOf = (node: object): Frame => {
    let weight = 1;
    let children: unknown[];
    if (Array.isArray(node)) children = node;
    else {
      const keys = Object.keys(node);
      for (const key of keys) weight += key.length;
      children = keys.map((key) => (node as Record<string, unknown>)[key]);
    }
    return { node, children, next: 0, weight };
  };
  if (value === null || typeof value !== 'object') return { weight: scalarWeight(value), cyclic: false };
  const stack: Frame[] = [frameOf(value)];
  open.add(value);
  let total = 0;
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.next < top.children.length) {
      const child = top.children[top.next++];
      if (child === null || typeof child !== 'object') {
        top.weight += scalarWeight(child);
      } else if (open.has(child)) {
        return { weight: top.weight, cyclic: true };
      } else {
        const seen = known.get(child);
        if (seen !== undefined) top.weight += seen;
        else {
          open.add(child);
          stack.push(frameOf(child));
        }
      }
      if (top.weight > limit) return { weight: top.weight, cyclic: false };
      continue;
    }
    stack.pop();
    open.delete(top.node);
    known.set(top.node, top.weight);
    const parent = stack[stack.length - 1];
    if (parent) {
      parent.weight += top.weight;
      if (parent.weight > limit) return { weight: parent.weight, cyclic: false };
    } else total = top.weight;
  }
  return { weight: total, cyclic: false };
}

/** The most {@link expandedWeight} a YAML text of `textLength` UTF-16 units may expand to. */
export function aliasLimit(textLength: number): number {
  return 2 * textLength + ALIAS_ALLOWANCE;
}

/** Line and column of the first alias (`*name`) written in `text`, when the `yaml` library finds one. */
function firstAliasPlace(text: string, lineOffset: number): YamlPlace {
  try {
    const lines = new LineCounter();
    const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: false });
    let found: Node | undefined;
    visit(doc, {
      Alias(_, node) {
        found = node;
        return visit.BREAK;
      },
    });
    if (!found?.range) return {};
    const pos = lines.linePos(found.range[0]);
    return { line: pos.line + lineOffset, column: pos.col };
  } catch {
    // Too deep for the positioned parser: the file alone is named.
    return {};
  }
}

/**
 * Refuses `value`, parsed from `text`, when it contains itself or its aliases expand it past
 * {@link aliasLimit}; a document without aliases always passes. A text without a `*` holds no alias (an
 * alias node is `*` and the anchor's name, YAML 1.2 §7.1), so its value is a tree no larger than
 * the text and is not walked: a build reads a thousand files of content, nearly all without an alias.
 * @throws YamlReadError `YAML_ALIASES_TOO_LARGE` naming `file` and the line of the first alias in `text`
 *   (shifted by `lineOffset`, for front matter inside Markdown).
 */
export function assertAliasesBounded(value: unknown, text: string, file: string, lineOffset = 0): void {
  if (!text.includes('*')) return;
  const limit = aliasLimit(text.length);
  const measured = expandedWeight(value, limit);
  if (measured.cyclic) {
    throw new YamlReadError(
      'YAML_ALIASES_TOO_LARGE',
      file,
      'an alias refers to a mapping or list that contains it (YAML 1.2 §3.2.2.2), which JSON cannot hold; write the value out',
      firstAliasPlace(text, lineOffset),
    );
  }
  if (measured.weight > limit) {
    throw new YamlReadError(
      'YAML_ALIASES_TOO_LARGE',
      file,
      `its aliases (YAML 1.2 §3.2.2.2) expand it past ${limit.toLocaleString('en')} values and characters (twice its text plus ${ALIAS_ALLOWANCE.toLocaleString('en')}); write the repeated values out or use fewer aliases`,
      firstAliasPlace(text, lineOffset),
    );
  }
}

/**
 * Reads the YAML 1.2 text `text` (core schema: JSON-compatible values only, js-yaml) of `file` and checks
 * its aliases ({@link assertAliasesBounded}). Returns the value (`null` for an empty text); shared values
 * stay shared, as the parser made them.
 * @throws YamlReadError `YAML_INVALID` at the parser's line and column when the text does not parse,
 *   `YAML_ALIASES_TOO_LARGE` at the first alias when it expands too far or contains itself.
 * @throws RangeError when the text nests too deeply for the parser (callers report the nesting).
 */
export function readYaml(text: string, file: string, lineOffset = 0): unknown {
  let value: unknown;
  try {
    value = loadJsYaml(text, { schema: CORE_SCHEMA, filename: file });
  } catch (error) {
    if (error instanceof RangeError) throw error;
    const mark = (error as { mark?: { line?: number; column?: number } }).mark;
    const reason = ((error as { reason?: string }).reason ?? (error as Error).message).split('\n')[0]!;
    throw new YamlReadError(
      'YAML_INVALID',
      file,
      reason,
      mark?.line !== undefined ? { line: mark.line + 1 + lineOffset, column: (mark.column ?? 0) + 1 } : {},
    );
  }
  assertAliasesBounded(value, text, file, lineOffset);
  return value ?? null;
}

/**
 * The value of a `yaml` library document `doc` parsed from `text`, with the same bound on aliases as
 * {@link readYaml} (the library returns each anchored value itself for its aliases, so the conversion is
 * linear and the bound is checked after it).
 * @throws YamlReadError `YAML_ALIASES_TOO_LARGE` as {@link assertAliasesBounded}.
 */
export function documentValue(
  doc: { toJS(options: { maxAliasCount: number }): unknown },
  text: string,
  file: string,
  lineOffset = 0,
): unknown {
  const value = doc.toJS({ maxAliasCount: -1 });
  assertAliasesBounded(value, text, file, lineOffset);
  return value;
}

/**
 * What the `yaml` library makes of a YAML text that did not parse (its faults already reported): the
 * document as far as it could be read, duplicate keys allowed, within the alias bound; `undefined` when
 * even that fails (too deep a text, aliases past the bound).
 */
export function readYamlLeniently(text: string): unknown {
  try {
    return documentValue(parseDocument(text, { uniqueKeys: false }), text, '(lenient read)');
  } catch {
    return undefined;
  }
}
