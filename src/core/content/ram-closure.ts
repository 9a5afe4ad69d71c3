/** The RAM closure of an agent (DESIGN.md §1): what of the shared catalog its accesses use. */
import { formatPath, type Diagnostic } from '../util/errors.js';
import type { Ram } from '../schema/ram.js';
import { suggest } from '../model/issues.js';
import type { AgentAccess, CatalogOperation, CatalogResource } from '../model/content.js';

/** ` (did you mean "<hint>"?)` for a suggestion, or nothing. */
function didYouMean(hint: string | undefined): string {
  return hint === undefined ? '' : ` (did you mean "${hint}"?)`;
}

/**
 * The RAM closure of one agent: exactly the resources and operations its accesses use, each once, in
 * order of first use (DESIGN.md §1; the RAM proposal's `ResourceAccessManifest`). An access naming an
 * operation no file defines is a `RAM_DANGLING_OPERATION` error pushed to `diagnostics` and is left out;
 * one naming an operation of `inBrokenFiles` (ids defined in resource files with errors, which are
 * reported there) is left out without another error;
 * an operation whose resource is missing is left without it (the checks report that once).
 *
 * @returns the agent's RAM and the content files (project-relative) its resources and operations come
 *   from. Never throws.
 */
export function ramClosure(
  accesses: readonly AgentAccess[],
  resources: ReadonlyMap<string, CatalogResource>,
  operations: ReadonlyMap<string, CatalogOperation>,
  diagnostics: Diagnostic[],
  inBrokenFiles: ReadonlySet<string> = new Set(),
): { ram: Ram; files: Set<string> } {
  const ram: Ram = { resources: [], operations: [], resourceAccesses: [] };
  const seenResources = new Set<string>();
  const seenOperations = new Set<string>();
  const files = new Set<string>();
  for (const { access, origin } of accesses) {
    const op = operations.get(access.operation);
    if (!op && inBrokenFiles.has(access.operation)) continue;
    if (!op) {
      diagnostics.push(
        origin.source.diagnostic(
          {
            code: 'RAM_DANGLING_OPERATION',
            severity: 'error',
            message: `access "${access.id}" names operation "${access.operation}", which no resource file, ramFile or inline resource defines${didYouMean(suggest(access.operation, [...operations.keys()]))}`,
            path: formatPath([...origin.path, 'operation']),
          },
          [...origin.path, 'operation'],
        ),
      );
      continue;
    }
    ram.resourceAccesses.push(access);
    if (seenOperations.has(op.operation.id)) continue;
    seenOperations.add(op.operation.id);
    ram.operations.push(op.operation);
    files.add(op.origin.source.file);
    const res = resources.get(op.operation.resource);
    if (!res) continue; // reported once per operation by the checks
    if (seenResources.has(res.resource.id)) continue;
    seenResources.add(res.resource.id);
    ram.resources.push(res.resource);
    files.add(res.origin.source.file);
  }
  return { ram, files };
}
