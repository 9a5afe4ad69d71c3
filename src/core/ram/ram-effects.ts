/**
 * What a RAM operation may do to the user's data (DESIGN.md §6), read from the RAM alone: the one rule
 * that the permission pages, llms.txt and the release comparison share; and which operations the card
 * signs as only reading ({@link readOnlyOperationIds}): the author's `readOnly: true` where neither the
 * operation's own method nor its stored spec says it writes.
 */
import type { PermissionCatalog } from '../model/permission-catalog.js';
import type { RamOperation, RamResource } from '../schema/ram.js';

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

/**
 * True when the evidence says `operation` may change data, whatever its author says: its own
 * `httpMethod` is POST, PUT, PATCH or DELETE, or its stored spec (`catalog`, src/core/ram/) says it
 * is no read (an MCP tool without `annotations.readOnlyHint: true`, an unsafe method in OpenAPI or Discovery).
 */
export function writesByEvidence(
  operation: RamOperation,
  catalog: Pick<PermissionCatalog, 'operations'> | undefined,
): boolean {
  return (
    writeMethodMarkedReadOnly(operation, true) !== undefined ||
    catalog?.operations.get(operation.id)?.spec.readOnly === false
  );
}

/**
 * The ids of `operations` that only read, in RAM order: those the author marked `readOnly: true`
 * (`authored`, operation id → its authoring data) unless the evidence says they write
 * ({@link writesByEvidence}). The evidence wins over the author's word (DESIGN.md §6: the REST method
 * decides, not the flag; §9: the stored, pinned spec describes the operation): the contradiction stays the
 * warning `RAM_READ_ONLY_WRITE_METHOD` or `SPEC_READ_WRITE_MISMATCH`, and no page, card or comparison says
 * "only reads" of it. A spec that says an operation only reads never adds it: only the author may say so.
 * This list is what the card signs (`readOnlyOperations`), what a release records and what the pages and
 * the release comparison read.
 */
export function readOnlyOperationIds(
  operations: readonly RamOperation[],
  authored: ReadonlyMap<string, { readOnly?: boolean | undefined }>,
  catalog: Pick<PermissionCatalog, 'operations'> | undefined,
): string[] {
  return operations
    .filter((o) => authored.get(o.id)?.readOnly === true && !writesByEvidence(o, catalog))
    .map((o) => o.id);
}
