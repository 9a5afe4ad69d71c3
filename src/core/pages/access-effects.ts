/**
 * What one access may do beyond reading, as the page and its label say it (DESIGN.md §6, §10 "Truth on
 * pages"): whether it may change data (the RAM and what the card signs, src/core/ram/ram-effects.ts), whether it
 * may delete or overwrite, and whether it reaches beyond the service. For an MCP tool the stored `tools/list`
 * decides the last two through its annotations (MCP 2025-06-18 "Tool annotations": `destructiveHint`,
 * `openWorldHint`), as the agent's permission file records them (src/core/model/permissions.ts); for a REST
 * operation a `DELETE` (RFC 9110 §9.3.5) deletes.
 */
import type { AccessPermission } from '../model/permissions.js';
import { mayChangeData } from '../ram/ram-effects.js';
import type { RamOperation, RamResource } from '../schema/ram.js';

/** What one access may do, beyond reading. */
export interface AccessEffects {
  /** It may change data ({@link mayChangeData} with what the card signs as only reading). */
  changesData: boolean;
  /** It may delete or overwrite data: a REST `DELETE`, or an MCP tool that changes data with `destructiveHint`. */
  mayDelete: boolean;
  /** The MCP tool may reach entities outside its server (`openWorldHint`, MCP's default true). */
  reachesOutside: boolean;
}

/**
 * The effects of one access to `operation` of `resource`. `signedReadOnly`: the card signs the operation as
 * only reading (`readOnlyOperations`); `permission`: the access's entry of the permission file, when its
 * resource has a stored spec. Pure; never throws.
 */
export function accessEffects(
  resource: RamResource,
  operation: RamOperation,
  signedReadOnly: boolean,
  permission: AccessPermission | undefined,
): AccessEffects {
  const changesData = mayChangeData(resource, operation, signedReadOnly);
  const method = operation.apiOperationSpec?.httpMethod?.toUpperCase();
  const mayDelete =
    resource.interactionProtocol === 'REST'
      ? method === 'DELETE'
      : resource.interactionProtocol === 'MCP' && changesData && permission?.destructive === true;
  const reachesOutside = resource.interactionProtocol === 'MCP' && permission?.openWorld === true;
  return { changesData, mayDelete, reachesOutside };
}
