/**
 * JSON Canonicalization Scheme (JCS, RFC 8785): the one deterministic JSON serialisation used for
 * everything ardsite signs or hashes (trustManifest payloads, JWS protected headers, RFC 7638
 * thumbprint input). The work is done by the `canonicalize` package; this module only adds the coded
 * error and the UTF-8 step.
 */
import canonicalize from 'canonicalize';
import { ArdsiteError } from '../errors.js';
import { utf8Bytes } from '../json.js';

/**
 * Serialises `value` as RFC 8785 canonical JSON: object members sorted by UTF-16 code units, no
 * whitespace, ECMAScript number formatting (RFC 8785 §3.2.2.3), minimal string escaping.
 *
 * As with `JSON.stringify`, object members whose value is `undefined`, a function or a symbol are left
 * out, those inside arrays become `null`, and `toJSON()` is honoured.
 *
 * @param value any JSON-representable value (object, array, string, finite number, boolean, null).
 * @returns the canonical JSON text (a JS string; see {@link canonicalBytes} for the UTF-8 bytes).
 * @throws ArdsiteError `SCHEMA_INVALID_VALUE` when the value has no JSON form: `undefined`, a function
 *   or symbol at the top level, `NaN`/`±Infinity`, a `BigInt`, a lone surrogate in a string, or a cycle.
 */
export function canonicalJson(value: unknown): string {
  let text: string | undefined;
  try {
    text = canonicalize(value);
  } catch (err) {
    // The library's messages are fixed strings ("NaN is not allowed", "Circular reference detected",
    // …) and never echo the value, so they are safe to pass on.
    const reason = err instanceof Error ? err.message : 'unknown reason';
    throw new ArdsiteError(
      'SCHEMA_INVALID_VALUE',
      `The value cannot be written as JSON (RFC 8785): ${reason}.`,
    );
  }
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
 * @returns a `Uint8Array` of UTF-8 bytes (src/core/json.ts `utf8Bytes`).
 * @throws ArdsiteError `SCHEMA_INVALID_VALUE` as {@link canonicalJson}.
 */
export function canonicalBytes(value: unknown): Uint8Array {
  return utf8Bytes(canonicalJson(value));
}
