/**
 * The JSON-LD block of an agent page (DESIGN.md §6): the exact signed entry of `ard.json` with its
 * `@context` layered on the ARD base context (ARD draft §3.1: an entry exchanged outside a manifest
 * SHOULD carry `@context`), serialised so that no content can close the `<script>` element.
 */
import type { JsonObject, JsonValue } from '../a2a/card.js';

/** The authoritative ARD base context (ARD draft §3.1). */
export const ARD_BASE_CONTEXT = 'https://agenticresourcediscovery.org/context/v1';

const SCRIPT_ESCAPES: Readonly<Record<string, string>> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/**
 * Makes JSON text safe inside an HTML `<script>` element (DESIGN.md §6): `<`, `>`, `&`, U+2028 and
 * U+2029 become `\uXXXX` escapes. Outside strings JSON never contains these characters, and inside a
 * string the escape denotes the same character, so `JSON.parse` of the result gives the same value,
 * while `</script>` and `<!--` can no longer appear in the markup.
 */
export function escapeJsonForScript(json: string): string {
  return json.replace(/[<>&\u2028\u2029]/g, (c) => SCRIPT_ESCAPES[c]!);
}

/**
 * The JSON-LD object of an entry: `@context` first, the ARD base context followed by the entry's own
 * context (ARD draft §3.1 layering; the base is not repeated if the entry already names it), then every
 * other member of the entry unchanged and in its order. No member is added or rewritten, so removing
 * `@context` gives back the signed entry.
 */
export function entryJsonLd(entry: JsonObject): JsonObject {
  const { '@context': own, ...rest } = entry;
  const layers: JsonValue[] = own === undefined ? [] : Array.isArray(own) ? own : [own];
  const context = [ARD_BASE_CONTEXT, ...layers.filter((c) => c !== ARD_BASE_CONTEXT)];
  return { '@context': context.length === 1 ? ARD_BASE_CONTEXT : context, ...rest };
}

/** The text of the `<script type="application/ld+json">` element of an entry: {@link entryJsonLd}, escaped. */
export function entryJsonLdScript(entry: JsonObject): string {
  return escapeJsonForScript(JSON.stringify(entryJsonLd(entry), null, 2));
}
