/**
 * JSON value types as ardsite emits them, and the one helper that drops absent members, so that
 * equality checks and serialisation agree (an `undefined` member is never written, RFC 8259).
 */

/** A JSON object as emitted: no `undefined` members. */
export type JsonObject = { [key: string]: JsonValue };
/** A JSON value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;

/**
 * The UTF-8 bytes of `text` (what `new TextEncoder().encode(text)` gives, lone surrogates as U+FFFD
 * included), encoded by `Buffer.from`, which is faster on a card-sized text. A plain `Uint8Array`
 * (not a Buffer); a short text's may be a view into Node's shared buffer pool, so use it with its
 * `byteOffset` and `byteLength`, as every `Uint8Array` should be.
 */
export function utf8Bytes(text: string): Uint8Array {
  const bytes = Buffer.from(text, 'utf8');
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** A shallow copy of `value` without its `undefined` members, keeping the order of the others. */
export function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/**
 * Sets `key` of `target` to `value` as an own, enumerable data property, as `JSON.parse` makes members:
 * unlike `target[key] = value`, a key `__proto__` becomes a member instead of replacing the object's
 * prototype (where the key would vanish and inherited members show through). For copies of objects
 * that came from input (ECMA-262 §25.5.1 JSON.parse CreateDataProperty).
 */
export function setMember(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Deepest nesting of arrays and objects the verifier parses in a JSON document it reads (a site's
 * manifest, cards, DID documents, key sets, artifacts). Far above any document ardsite writes (a card
 * nests about ten levels), far below what a recursive walk of the parsed value can follow without
 * exhausting the call stack.
 */
export const MAX_JSON_DEPTH = 512;

/**
 * One scan of the JSON text `text` that skips string contents (RFC 8259 §7: a string ends at an
 * unescaped `"`), without parsing: the deepest nesting of arrays and objects seen, and the index of the
 * first opening bracket that went past `stopAbove` (where the scan stopped), or -1.
 */
function scanJsonDepth(text: string, stopAbove: number): { deepest: number; pastAt: number } {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Jump to the closing quote: the next `"` preceded by an even number of backslashes.
      let end = i;
      for (;;) {
        end = text.indexOf('"', end + 1);
        if (end < 0) return { deepest, pastAt: -1 };
        let slashes = 0;
        while (text.charCodeAt(end - 1 - slashes) === 0x5c) slashes++;
        if (slashes % 2 === 0) break;
      }
      i = end;
    } else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > stopAbove) return { deepest, pastAt: i };
      }
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return { deepest, pastAt: -1 };
}

/**
 * The deepest nesting of arrays and objects in the JSON text `text` (`0` for a scalar, `1` for `[]`),
 * found without parsing. Stops as soon as the depth passes `stopAbove` and returns that depth. Text that
 * is not JSON gives some depth and is left to the parser to refuse.
 */
export function jsonNestingDepth(text: string, stopAbove = Infinity): number {
  return scanJsonDepth(text, stopAbove).deepest;
}

/**
 * Where the nesting of arrays and objects in the JSON text `text` first goes deeper than `maxDepth`, so
 * that `JSON.parse` and every later recursive step only ever see bounded documents (the content limits
 * of DESIGN.md §9 and verify's {@link MAX_JSON_DEPTH}).
 * @returns the 1-based line and column of the opening bracket past the limit, or undefined.
 */
export function jsonDepthExceeded(
  text: string,
  maxDepth: number,
): { line: number; column: number } | undefined {
  const { pastAt } = scanJsonDepth(text, maxDepth);
  if (pastAt < 0) return undefined;
  const lineStart = text.lastIndexOf('\n', pastAt - 1) + 1;
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < pastAt; i = text.indexOf('\n', i + 1)) line++;
  return { line, column: pastAt - lineStart + 1 };
}

/** A value inside a document that JSON cannot hold, where it is, and what it is in words. */
export interface NonJsonValue {
  /** Field path from the document's root (`['data', 'blob']`). */
  path: PropertyKey[];
  /** What it is, for a message: `binary data (!!binary)`, `NaN (.nan)`, `a date (!!timestamp)`, … */
  what: string;
}

/** What `value` is in words, when JSON cannot hold it (RFC 8259 §3–§7), else undefined. */
function nonJsonKind(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      if (Number.isFinite(value)) return undefined;
      return Number.isNaN(value) ? 'NaN (.nan)' : `${value > 0 ? '' : '-'}Infinity (.inf)`;
    case 'object':
      if (value === null || Array.isArray(value)) return undefined;
      if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return 'binary data (!!binary)';
      if (value instanceof Date) return 'a date (!!timestamp)';
      if (value instanceof Set) return 'a set (!!set)';
      if (value instanceof Map) return 'a mapping with keys that are not strings, or an ordered map (!!omap)';
      {
        const proto: unknown = Object.getPrototypeOf(value);
        return proto === Object.prototype || proto === null ? undefined : 'an object JSON cannot hold';
      }
    default:
      return `a value of type ${typeof value}`;
  }
}

/**
 * The first value of `root` (depth first, members in order) that JSON cannot hold: anything but plain
 * objects, arrays, strings, finite numbers, booleans and null (RFC 8259 §3). A YAML loader gives such
 * values for `!!binary`, `!!timestamp`, `!!set`, `!!omap`, `.nan` and `.inf`; ardsite signs and hashes the
 * JSON (RFC 8785) of what it reads, so they are refused where they are read. Iterative: any depth.
 *
 * @param root a parsed document.
 * @returns where and what the first such value is, or `undefined` when `root` is all JSON.
 */
export function nonJsonValue(root: unknown): NonJsonValue | undefined {
  // Each value with where it sits (its parent's entry and its key); the path is made only for the culprit.
  type At = { value: unknown; parent: At | undefined; key: PropertyKey };
  const stack: At[] = [{ value: root, parent: undefined, key: '' }];
  while (stack.length > 0) {
    const at = stack.pop()!;
    const { value } = at;
    const what = nonJsonKind(value);
    if (what !== undefined) {
      const path: PropertyKey[] = [];
      for (let a: At | undefined = at; a?.parent !== undefined; a = a.parent) path.unshift(a.key);
      return { path, what };
    }
    if (typeof value !== 'object' || value === null) continue;
    // Pushed last first, so that the first member is looked at first.
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], parent: at, key: i });
    } else {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        stack.push({ value: (value as Record<string, unknown>)[key], parent: at, key });
      }
    }
  }
  return undefined;
}
