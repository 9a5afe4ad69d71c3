/**
 * JSON value types as ardsite emits them, and the one helper that drops absent members, so that
 * equality checks and serialisation agree (an `undefined` member is never written, RFC 8259).
 */

/** A JSON object as emitted: no `undefined` members. */
export type JsonObject = { [key: string]: JsonValue };
/** A JSON value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;

/** A shallow copy of `value` without its `undefined` members, keeping the order of the others. */
export function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/**
 * Deepest nesting of arrays and objects the verifier parses in a JSON document it reads (a site's
 * manifest, cards, DID documents, key sets, artifacts). Far above any document ardsite writes (a card
 * nests about ten levels), far below what a recursive walk of the parsed value can follow without
 * exhausting the call stack.
 */
export const MAX_JSON_DEPTH = 512;

/**
 * The deepest nesting of arrays and objects in the JSON text `text` (`0` for a scalar, `1` for `[]`),
 * found by one scan that skips string contents (RFC 8259 §7: a string ends at an unescaped `"`), without
 * parsing. Stops as soon as the depth passes `stopAbove` and returns that depth. Text that is not JSON
 * gives some depth and is left to the parser to refuse.
 */
export function jsonNestingDepth(text: string, stopAbove = Infinity): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Jump to the closing quote: the next `"` preceded by an even number of backslashes.
      let end = i;
      for (;;) {
        end = text.indexOf('"', end + 1);
        if (end < 0) return deepest;
        let slashes = 0;
        while (text.charCodeAt(end - 1 - slashes) === 0x5c) slashes++;
        if (slashes % 2 === 0) break;
      }
      i = end;
    } else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > stopAbove) return deepest;
      }
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}
