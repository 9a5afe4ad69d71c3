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
