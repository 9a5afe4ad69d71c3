/**
 * Permission sets (seed 000: "permission sets … derived from the RAM via offline tooling"; DESIGN.md §9):
 * for one agent, what each access needs ({@link AccessPermission}) and the union of the least-privilege
 * grants of the agent and of each of its skills, REQUIRED, RECOMMENDED and OPTIONAL kept apart.
 */
import type { AgentModel } from '../content/model.js';
import type { PermissionCatalog } from './catalog-model.js';
import type {
  AccessPermission,
  AgentPermissions,
  PermissionGrant,
  PermissionSet,
  SpecSource,
} from './model.js';

/** Necessity levels, strongest first (seed 000 `AccessNecessity`). */
const LEVELS = [
  ['REQUIRED', 'required'],
  ['RECOMMENDED', 'recommended'],
  ['OPTIONAL', 'optional'],
] as const;

/**
 * The permission set of `accesses`: each scheme of each resource with the scopes the least privilege of
 * the accesses that act as the person (END_USER) needs, placed at the strongest necessity that needs it (a scope needed by a REQUIRED access
 * and by an OPTIONAL one is listed under `required` only). Grants are sorted by resource, then scheme.
 */
export function permissionSet(accesses: readonly AccessPermission[]): PermissionSet {
  const placed = new Set<string>(); // resource \0 scheme \0 scope already at a stronger level
  const set: PermissionSet = {};
  for (const [necessity, key] of LEVELS) {
    const grants = new Map<string, PermissionGrant>();
    for (const a of accesses) {
      if (a.necessity !== necessity || a.identityUsed !== 'END_USER' || !a.leastPrivilege) continue;
      for (const r of a.leastPrivilege.requirements) {
        const id = `${a.resource}\u0000${r.scheme}`;
        const fresh = r.scopes.filter((s) => !placed.has(`${id}\u0000${s}`));
        const schemeOnly = r.scopes.length === 0 && !placed.has(`${id}\u0000`);
        if (fresh.length === 0 && !schemeOnly) continue;
        const grant = grants.get(id) ?? { resource: a.resource, scheme: r.scheme, type: r.type };
        if (fresh.length > 0) grant.scopes = [...new Set([...(grant.scopes ?? []), ...fresh])].sort();
        grants.set(id, grant);
      }
    }
    for (const [id, grant] of grants) {
      placed.add(`${id}\u0000`);
      for (const s of grant.scopes ?? []) placed.add(`${id}\u0000${s}`);
    }
    if (grants.size > 0)
      set[key] = [...grants.values()].sort(
        (x, y) => x.resource.localeCompare(y.resource) || x.scheme.localeCompare(y.scheme),
      );
  }
  return set;
}

const isEmpty = (set: PermissionSet) => !set.required && !set.recommended && !set.optional;

/** {@link agentPermissions} already derived, per catalog and agent (the checks and the build both ask). */
const derived = new WeakMap<PermissionCatalog, WeakMap<AgentModel, AgentPermissions | undefined>>();

/**
 * What `agent` needs, derived from `catalog` (DESIGN.md §9): one {@link AccessPermission} per access whose
 * operation resolved in a stored spec, the specs used, the agent's permission set and each mapped skill's.
 * Returns undefined when no access of the agent has a stored spec. Pure and linear in the agent's RAM;
 * derived once per agent and catalog (`npm run check`'s findings and the build's files ask for the same
 * agent), so the object returned is shared and must not be changed.
 */
export function agentPermissions(
  agent: AgentModel,
  catalog: PermissionCatalog,
): AgentPermissions | undefined {
  let known = derived.get(catalog);
  if (!known) derived.set(catalog, (known = new WeakMap()));
  if (known.has(agent)) return known.get(agent);
  const result = derive(agent, catalog);
  known.set(agent, result);
  return result;
}

/** The work of {@link agentPermissions}. */
function derive(agent: AgentModel, catalog: PermissionCatalog): AgentPermissions | undefined {
  const accesses: AccessPermission[] = [];
  for (const { access } of agent.accesses) {
    const resolved = catalog.operations.get(access.operation);
    if (
      !resolved ||
      access.necessity === 'ACCESS_NECESSITY_UNSPECIFIED' ||
      access.identityUsed === 'IDENTITY_TYPE_UNSPECIFIED'
    )
      continue;
    accesses.push({
      access: access.id,
      operation: access.operation,
      resource: resolved.resource,
      necessity: access.necessity,
      identityUsed: access.identityUsed,
      specOperation: resolved.specOperation,
      readOnly: resolved.spec.readOnly,
      ...(resolved.accepted.length > 0 ? { accepted: resolved.accepted } : {}),
      ...(resolved.leastPrivilege ? { leastPrivilege: resolved.leastPrivilege } : {}),
    });
  }
  if (accesses.length === 0) return undefined;
  const specs: SpecSource[] = [];
  for (const resource of agent.ram.resources) {
    const stored = catalog.specs.get(resource.id);
    if (!stored || !accesses.some((a) => a.resource === resource.id)) continue;
    specs.push({
      resource: resource.id,
      format: stored.index.format,
      ...(resource.spec?.specUrl ? { specUrl: resource.spec.specUrl } : {}),
      digest: stored.digest,
    });
  }
  const result: AgentPermissions = { agent: agent.identifier, specs, accesses };
  const all = permissionSet(accesses);
  if (!isEmpty(all)) result.permissionSet = all;
  if (agent.skillAccesses) {
    const skills: Record<string, PermissionSet> = {};
    for (const [skill, ids] of Object.entries(agent.skillAccesses)) {
      const set = permissionSet(accesses.filter((a) => ids.includes(a.access)));
      if (!isEmpty(set)) skills[skill] = set;
    }
    if (Object.keys(skills).length > 0) result.skillPermissionSets = skills;
  }
  return result;
}
