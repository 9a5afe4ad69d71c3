/**
 * What a RAM operation may do to the user's data (DESIGN.md §6), read from the RAM alone: the one rule
 * that the permission pages, llms.txt and the release comparison share.
 */
import type { RamOperation, RamResource } from './schema/ram.js';

/** REST methods that may change data (DESIGN.md §6; RFC 9110 §9.2.1: the others are safe). */
const CHANGING_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Whether an operation may change data (DESIGN.md §6): for a REST resource, its HTTP method is POST,
 * PUT, PATCH or DELETE (a missing method counts as changing); for MCP and A2A, always, unless the
 * author marked the operation `readOnly: true`.
 */
export function mayChangeData(
  resource: RamResource,
  operation: RamOperation,
  readOnly: boolean | undefined,
): boolean {
  if (resource.interactionProtocol === 'REST') {
    const method = operation.apiOperationSpec?.httpMethod?.toUpperCase();
    return method === undefined || CHANGING_METHODS.has(method);
  }
  return readOnly !== true;
}

/**
 * The HTTP method of `operation` when the author marked it `readOnly: true` although the method is not
 * safe (RFC 9110 §9.2.1: only GET, HEAD, OPTIONS and TRACE are), whatever its protocol; else undefined.
 * The content check `RAM_READ_ONLY_WRITE_METHOD` reports it, with or without a stored spec, so the spec's
 * `SPEC_READ_WRITE_MISMATCH` leaves it out (one finding for one contradiction).
 */
export function writeMethodMarkedReadOnly(
  operation: RamOperation,
  readOnly: boolean | undefined,
): string | undefined {
  const method = operation.apiOperationSpec?.httpMethod?.toUpperCase();
  return readOnly === true && method !== undefined && CHANGING_METHODS.has(method) ? method : undefined;
}
