/**
 * JSON Canonicalization Scheme (JCS, RFC 8785): the one deterministic JSON serialisation used for
 * everything ardsite signs or hashes (trustManifest payloads, JWS protected headers, card signatures,
 * RFC 7638 thumbprint input). This module adds no JCS rules of its own: it takes the text from two
 * libraries and adds the coded error and the UTF-8 step.
 *
 * RFC 8785 is ECMAScript's `JSON.stringify` (§3.2.2: literals, strings and numbers as ECMAScript writes
 * them) with object members sorted by their names' UTF-16 code units (§3.2.3), refusing what has no I-JSON
 * form (§3.1, RFC 7493: lone surrogates, NaN and ±Infinity). `safe-stable-stringify` set `deterministic`
 * writes exactly that for JSON data (it sorts member names by code units, writes strings and numbers as
 * `JSON.stringify` does) faster than `canonicalize` on an agent card (docs/benchmarks-archive.md, "JCS for
 * verify"). It refuses NaN, ±Infinity, BigInt and cycles (`strict`), but writes a lone surrogate
 * as `JSON.stringify` does, as an escape: every value it refuses, and every text with such an escape in
 * it, is left to `canonicalize`, which decides and words the refusal, so the two agree on all JSON data
 * (test/unit/trust/jcs.test.ts checks it on generated values).
 */
import canonicalize from 'canonicalize';
import { configure } from 'safe-stable-stringify';
import { ArdsiteError } from '../util/errors.js';
import { utf8Bytes } from '../util/json.js';

/** `JSON.stringify` with members sorted by UTF-16 code units, throwing for what JSON cannot hold. */
const sortedStringify = configure({
  deterministic: true,
  strict: true,
  bigint: false,
  circularValue: Error,
});

/**
 * The escape `JSON.stringify` writes for a surrogate code unit (`\ud800` to `\udfff`), which it writes
 * only for a lone one (RFC 8785 §3.2.2.2 refuses it). Also matched after an escaped backslash
 * (`\\ud800`, text that merely looks like one): such a text is left to `canonicalize`, which writes it.
 */
const SURROGATE_ESCAPE = /\\ud[89a-f]/;

/** `canonicalize`'s text, or its refusal as a coded error. */
function libraryCanonicalJson(value: unknown): string | undefined {
  try {
    return canonicalize(value);
  } catch (err) {
    // The library's messages are fixed strings ("NaN is not allowed", "Circular reference detected",
    // …) and never echo the value, so they are safe to pass on.
    const reason = err instanceof Error ? err.message : 'unknown reason';
    throw new ArdsiteError(
      'SCHEMA_INVALID_VALUE',
      `The value cannot be written as JSON (RFC 8785): ${reason}.`,
    );
  }
}

/**
 * Serialises `value` as RFC 8785 canonical JSON: object members sorted by UTF-16 code units, no
 * whitespace, ECMAScript number formatting (RFC 8785 §3.2.2.3), minimal string escaping.
 *
 * As with `JSON.stringify`, object members whose value is `undefined` are left out and `toJSON()` is
 * honoured. Meant for JSON data (parsed JSON; plain objects and arrays of strings, finite numbers,
 * booleans and null), which is all that reaches it: content read from YAML is refused where it is read
 * when it holds anything else (src/core/model/source.ts, `!!binary` and the like). A sparse array, a
 * typed array (its members in index order, not sorted) or a `toJSON` that reads its key argument is
 * written the way `safe-stable-stringify` writes it, not as `canonicalize` would.
 *
 * @param value any JSON-representable value (object, array, string, finite number, boolean, null).
 * @returns the canonical JSON text (a JS string; see {@link canonicalBytes} for the UTF-8 bytes).
 * @throws ArdsiteError `SCHEMA_INVALID_VALUE` when the value has no JSON form: `undefined`, a function
 *   or symbol at the top level, `NaN`/`±Infinity`, a `BigInt`, a lone surrogate in a string, or a cycle.
 */
export function canonicalJson(value: unknown): string {
  let text: string | undefined;
  try {
    text = sortedStringify(value);
  } catch {
    text = undefined;
  }
  if (text === undefined || SURROGATE_ESCAPE.test(text)) text = libraryCanonicalJson(value);
  if (typeof text !== 'string') {
    throw new ArdsiteError(
      'SCHEMA_INVALID_VALUE',
      `The value cannot be written as JSON (RFC 8785): a ${typeof value} has no JSON form.`,
    );
  }
  return text;
}

/**
 * The UTF-8 bytes of {@link canonicalJson}`(value)`: the exact octets RFC 8785 §3.2.4 says to hash or
 * sign.
 *
 * @param value any JSON-representable value.
 * @returns a `Uint8Array` of UTF-8 bytes (src/core/util/json.ts `utf8Bytes`).
 * @throws ArdsiteError `SCHEMA_INVALID_VALUE` as {@link canonicalJson}.
 */
export function canonicalBytes(value: unknown): Uint8Array {
  return utf8Bytes(canonicalJson(value));
}
