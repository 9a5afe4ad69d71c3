/**
 * Finds a RAM Operation in its resource's spec (RAM proposal `ApiOperationSpec`, `ResourceSpec`): by
 * `apiOperationSpec.operationId` when it is found, else by `spec.resourcePath` plus `httpMethod` (the
 * seed's precedence and fallback); an MCP tool by its name in `spec.resourcePath`, which an
 * `apiOperationSpec.operationId`, when given, must repeat (one tool per resource). Then compares what the
 * author wrote with the spec: the HTTP method (an error when it differs) and `readOnly` (a warning, except
 * for a `readOnly: true` beside the author's own write method, which the content checks already report:
 * `RAM_READ_ONLY_WRITE_METHOD`).
 */
import { suggest } from '../model/issues.js';
import { writeMethodMarkedReadOnly } from './ram-effects.js';
import type { RamOperation, RamResource } from '../schema/ram.js';
import { operationName, type SpecIndex, type SpecOperation } from '../model/spec-index.js';

/** A problem found while resolving one operation, before it is placed in a file. */
export interface ResolutionProblem {
  code:
    | 'SPEC_OPERATION_UNRESOLVED'
    | 'SPEC_HTTP_METHOD_MISMATCH'
    | 'SPEC_READ_WRITE_MISMATCH'
    | 'RAM_MCP_TOOL_MISMATCH';
  severity: 'error' | 'warning';
  message: string;
  /** The field of the operation (or resource) the problem is about, relative to the operation. */
  field:
    | 'apiOperationSpec.operationId'
    | 'apiOperationSpec.httpMethod'
    | 'readOnly'
    | 'resource.spec.resourcePath';
}

/** What {@link resolveOperation} gives: the spec's operation when found, and the problems. */
export interface Resolution {
  found?: SpecOperation;
  problems: ResolutionProblem[];
}

/** A path template with every `{parameter}` made alike and no trailing slash: `/a/{}/b`. */
function pathShape(path: string): string {
  const shaped = path.replace(/\{[^}]*\}/g, '{}').replace(/\/+$/, '');
  return shaped.startsWith('/') ? shaped : `/${shaped}`;
}

const didYouMean = (hint: string | undefined) => (hint === undefined ? '' : ` (did you mean "${hint}"?)`);

/** The names of the tools of a stored tools/list, for messages: `a, b, c` (or "no tool"). */
function toolNames(index: SpecIndex): string {
  const names = index.operations.map(operationName);
  return names.length === 0 ? 'no tool' : names.join(', ');
}

/**
 * Finds the MCP tool of `resource` in a stored tools/list (`index`). The RAM proposal models one MCP tool
 * per resource: `ResourceSpec.resource_path` is "the exact Tool name", and the resource's one operation is
 * its call (the MCP "tools/call" method, so an `ApiOperationSpec` is not needed). An
 * `apiOperationSpec.operationId` that names another tool would describe another resource's operation: an
 * error (`RAM_MCP_TOOL_MISMATCH`), as is a tool the list does not have (`SPEC_OPERATION_UNRESOLVED`); each
 * message names the tools the stored list has.
 */
function resolveTool(resource: RamResource, operation: RamOperation, index: SpecIndex): Resolution {
  const names = index.operations.map(operationName);
  const listed = `the stored ${index.title} lists ${toolNames(index)}`;
  const resourcePath = resource.spec?.resourcePath;
  const named = operation.apiOperationSpec?.operationId;
  if (named !== undefined && named !== resourcePath) {
    const known = index.operations.some((op) => op.id === named);
    return {
      problems: [
        known
          ? {
              code: 'RAM_MCP_TOOL_MISMATCH',
              severity: 'error',
              field: 'apiOperationSpec.operationId',
              message: `operation "${operation.id}" names the tool "${named}", but its resource "${resource.id}" is the tool ${resourcePath === undefined ? '(no spec.resourcePath)' : `"${resourcePath}"`}: an MCP resource is one tool (spec.resourcePath: its name) and its operation is that tool's call, so define a resource for "${named}" (${listed})`,
            }
          : {
              code: 'SPEC_OPERATION_UNRESOLVED',
              severity: 'error',
              field: 'apiOperationSpec.operationId',
              message: `operation "${operation.id}" names the tool "${named}", which is not in the stored ${index.title}${didYouMean(suggest(named, names))}: it lists ${toolNames(index)}`,
            },
      ],
    };
  }
  if (resourcePath === undefined)
    return {
      problems: [
        {
          code: 'SPEC_OPERATION_UNRESOLVED',
          severity: 'error',
          field: 'resource.spec.resourcePath',
          message: `resource "${resource.id}" names no tool: set spec.resourcePath to the tool's name (${listed})`,
        },
      ],
    };
  const found = index.operations.find((op) => op.id === resourcePath);
  if (found) return { found, problems: [] };
  return {
    problems: [
      {
        code: 'SPEC_OPERATION_UNRESOLVED',
        severity: 'error',
        field: 'resource.spec.resourcePath',
        message: `the tool "${resourcePath}" is not in the stored ${index.title}${didYouMean(suggest(resourcePath, names))}: it lists ${toolNames(index)}`,
      },
    ],
  };
}

/**
 * Resolves `operation` of `resource` against `index`. `readOnly` is the author's flag (authoring data),
 * undefined when not given. Pure; linear in the spec's operations.
 */
export function resolveOperation(
  resource: RamResource,
  operation: RamOperation,
  readOnly: boolean | undefined,
  index: SpecIndex,
): Resolution {
  const problems: ResolutionProblem[] = [];
  const resourcePath = resource.spec?.resourcePath;
  const api = operation.apiOperationSpec;
  let found: SpecOperation | undefined;

  if (index.format === 'mcp-tools') {
    const mcp = resolveTool(resource, operation, index);
    if (!mcp.found) return mcp;
    found = mcp.found;
  } else {
    if (api?.operationId !== undefined) found = index.operations.find((op) => op.id === api.operationId);
    const method = api?.httpMethod?.toUpperCase();
    // The spec's operations at the resource path (in any spelling of its parameters), when the operationId
    // found none.
    const shape = resourcePath === undefined ? undefined : pathShape(resourcePath);
    const atPath =
      found || shape === undefined
        ? []
        : index.operations.filter((op) =>
            [op.path, ...(op.pathAliases ?? [])].some((p) => p !== undefined && pathShape(p) === shape),
          );
    if (!found && method !== undefined) found = atPath.find((op) => op.method === method);
    // A path the spec has, with another method: the method is what is wrong, and said where it is written.
    if (!found && api?.operationId === undefined && method !== undefined) {
      const methods = [...new Set(atPath.flatMap((op) => (op.method === undefined ? [] : [op.method])))];
      if (methods.length > 0) {
        problems.push({
          code: 'SPEC_HTTP_METHOD_MISMATCH',
          severity: 'error',
          field: 'apiOperationSpec.httpMethod',
          message: `operation "${operation.id}" says ${method} ${resourcePath}, but the stored ${index.title} has only ${methods.sort().join(', ')} there`,
        });
        return { problems };
      }
    }
    if (!found) {
      const ids = index.operations.flatMap((op) => (op.id === undefined ? [] : [op.id]));
      const byPath = index.operations.map((op) => `${op.method ?? ''} ${op.path ?? ''}`);
      const wanted = api?.operationId
        ? `operationId "${api.operationId}"${didYouMean(suggest(api.operationId, ids))}`
        : `${method ?? '(no httpMethod)'} ${resourcePath ?? '(no resource spec.resourcePath)'}` +
          didYouMean(suggest(`${method ?? ''} ${resourcePath ?? ''}`, byPath));
      const fallback =
        api?.operationId && resourcePath !== undefined && method !== undefined
          ? `, nor is ${method} ${resourcePath}`
          : '';
      problems.push({
        code: 'SPEC_OPERATION_UNRESOLVED',
        severity: 'error',
        field: api?.operationId ? 'apiOperationSpec.operationId' : 'resource.spec.resourcePath',
        message: `operation "${operation.id}": ${wanted} is not in the stored ${index.title}${fallback}`,
      });
      return { problems };
    }
    if (method !== undefined && found.method !== undefined && method !== found.method) {
      problems.push({
        code: 'SPEC_HTTP_METHOD_MISMATCH',
        severity: 'error',
        field: 'apiOperationSpec.httpMethod',
        message:
          `operation "${operation.id}" says ${method}, but the spec's ${operationName(found)} is ${found.method} ${found.path ?? ''}`.trimEnd(),
      });
    }
  }

  // The author's view: readOnly as written; for REST without it, the method decides (DESIGN.md §6).
  // readOnly: true beside the author's own POST, PUT, PATCH or DELETE is the content check's
  // RAM_READ_ONLY_WRITE_METHOD whatever the spec says: not reported twice.
  const authorReadOnly = index.format === 'mcp-tools' ? readOnly === true : readOnly;
  if (
    authorReadOnly !== undefined &&
    authorReadOnly !== found.readOnly &&
    writeMethodMarkedReadOnly(operation, readOnly) === undefined
  ) {
    problems.push({
      code: 'SPEC_READ_WRITE_MISMATCH',
      severity: 'warning',
      field: 'readOnly',
      message: found.readOnly
        ? `operation "${operation.id}": the spec says ${operationName(found)} only reads, but the operation is not marked readOnly: true (the permission page then says it may change data)`
        : `operation "${operation.id}" is marked readOnly: true, but the spec says ${operationName(found)} may change data${found.destructive ? ' (destructive)' : ''}`,
    });
  }
  return { found, problems };
}
