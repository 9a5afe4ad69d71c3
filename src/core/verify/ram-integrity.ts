/**
 * RAM integrity of an emitted RAM object (DESIGN.md §4, last paragraph): every reference resolves, ids
 * are unique within their kind, every enum value is one of the RAM proposal’s names and none is `*_UNSPECIFIED`
 * (a proto3 JSON parser refuses an unknown name), `developerDocumentationUrl` is a string
 * on a Resource and a list on an Operation, and no object spells one field both in camelCase and
 * snake_case. Used by the verifier on cards read back from disk or the network.
 */
import type { ErrorCode } from '../util/errors.js';
import { AccessNecessity, IdentityType, InteractionProtocol, ResourceOwner } from '../schema/ram.js';

/** One integrity problem. */
export interface RamProblem {
  code: ErrorCode;
  message: string;
}

/** The enum fields of each RAM list and their values (the RAM proposal’s enum names, `*_UNSPECIFIED` included). */
const ENUM_FIELDS: Record<string, Array<[field: string, values: ReadonlySet<string>]>> = {
  resources: [
    ['interactionProtocol', new Set(InteractionProtocol.options)],
    ['owner', new Set(ResourceOwner.options)],
  ],
  resourceAccesses: [
    ['identityUsed', new Set(IdentityType.options)],
    ['necessity', new Set(AccessNecessity.options)],
  ],
};

/**
 * Where a value sits in the RAM: `RAM`, then `.key` and `[index]` steps. Kept as a chain and spelled out
 * only when a problem names it (a RAM has hundreds of values and almost never a problem).
 */
interface RamPath {
  readonly parent: RamPath | undefined;
  readonly step: string | number;
}

function pathText(path: RamPath | undefined): string {
  if (!path) return 'RAM';
  const { parent, step } = path;
  return typeof step === 'number' ? `${pathText(parent)}[${step}]` : `${pathText(parent)}.${step}`;
}

function snakeCaseTwins(value: unknown, path: RamPath | undefined, out: RamProblem[]): void {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) snakeCaseTwins(value[i], { parent: path, step: i }, out);
  } else if (value && typeof value === 'object') {
    const keys = Object.keys(value);
    for (const key of keys) {
      if (key.includes('_')) {
        const camel = key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
        if (keys.includes(camel)) {
          out.push({
            code: 'RAM_CASE_CONFLICT',
            message: `${pathText(path)} spells "${camel}" also as "${key}"`,
          });
        }
      }
      const child = (value as Record<string, unknown>)[key];
      // Strings, numbers and booleans hold no keys: no step to record.
      if (child && typeof child === 'object') snakeCaseTwins(child, { parent: path, step: key }, out);
    }
  }
}

/** Checks `ram` (the camelCase JSON of the RAM proposal’s ResourceAccessManifest). Returns every problem found. */
export function checkRamIntegrity(ram: unknown): RamProblem[] {
  const out: RamProblem[] = [];
  if (!ram || typeof ram !== 'object' || Array.isArray(ram)) {
    return [{ code: 'SCHEMA_INVALID_TYPE', message: 'the RAM is not an object' }];
  }
  const r = ram as Record<string, unknown>;
  const lists: Record<string, Record<string, unknown>[]> = {};
  for (const kind of ['resources', 'operations', 'resourceAccesses']) {
    const list = r[kind] ?? [];
    if (!Array.isArray(list)) {
      out.push({ code: 'SCHEMA_INVALID_TYPE', message: `RAM ${kind} is not a list` });
      lists[kind] = [];
      continue;
    }
    lists[kind] = list as Record<string, unknown>[];
    const ids = new Set<string>();
    list.forEach((item: Record<string, unknown>, i) => {
      const id = item?.id;
      if (typeof id !== 'string' || id === '')
        out.push({ code: 'SCHEMA_REQUIRED', message: `RAM ${kind}[${i}] has no id` });
      else if (ids.has(id))
        out.push({ code: 'RAM_DUPLICATE_ID', message: `RAM ${kind} id "${id}" appears twice` });
      else ids.add(id);
      for (const [field, values] of ENUM_FIELDS[kind] ?? []) {
        const value = item?.[field];
        if (typeof value === 'string' && values.has(value) && !value.endsWith('_UNSPECIFIED')) continue;
        const known = typeof value === 'string' && values.has(value);
        out.push({
          code: known || value === undefined ? 'RAM_UNSPECIFIED_ENUM' : 'SCHEMA_INVALID_ENUM',
          message: known
            ? `RAM ${kind} "${String(id)}" has ${field} ${JSON.stringify(value)}`
            : value === undefined
              ? `RAM ${kind} "${String(id)}" has no ${field} (it reads as unspecified)`
              : `RAM ${kind} "${String(id)}" has ${field} ${JSON.stringify(value)}, not one of ${[...values].filter((v) => !v.endsWith('_UNSPECIFIED')).join(', ')} (the RAM proposal)`,
        });
      }
    });
  }
  const resourceIds = new Set(lists.resources!.map((x) => x.id));
  const operationIds = new Set(lists.operations!.map((x) => x.id));
  for (const res of lists.resources!) {
    if (res.developerDocumentationUrl !== undefined && typeof res.developerDocumentationUrl !== 'string') {
      out.push({
        code: 'SCHEMA_INVALID_TYPE',
        message: `resource "${String(res.id)}": developerDocumentationUrl must be a string`,
      });
    }
  }
  for (const op of lists.operations!) {
    if (!resourceIds.has(op.resource))
      out.push({
        code: 'RAM_DANGLING_RESOURCE',
        message: `operation "${String(op.id)}" names resource "${String(op.resource)}", which the RAM does not hold`,
      });
    if (op.developerDocumentationUrl !== undefined && !Array.isArray(op.developerDocumentationUrl)) {
      out.push({
        code: 'SCHEMA_INVALID_TYPE',
        message: `operation "${String(op.id)}": developerDocumentationUrl must be a list`,
      });
    }
  }
  for (const access of lists.resourceAccesses!) {
    if (!operationIds.has(access.operation))
      out.push({
        code: 'RAM_DANGLING_OPERATION',
        message: `access "${String(access.id)}" names operation "${String(access.operation)}", which the RAM does not hold`,
      });
  }
  snakeCaseTwins(ram, undefined, out);
  return out;
}
