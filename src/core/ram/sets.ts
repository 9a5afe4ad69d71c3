/**
 * Permission sets (the RAM proposal: "permission sets … derived from the RAM via offline tooling"; DESIGN.md §9):
 * for one agent, what each access needs ({@link AccessPermission}) and the least-privilege grants of the
 * agent and of each of its skills, without a scope the others make redundant, REQUIRED, RECOMMENDED and
 * OPTIONAL kept apart.
 */
import type { AgentModel } from '../model/content.js';
import type { PermissionCatalog } from '../model/permission-catalog.js';
import { alternativeWithScope } from '../model/spec-index.js';
import type {
  AccessPermission,
  AgentPermissions,
  NeededScope,
  PermissionGrant,
  PermissionSet,
  SecurityAlternative,
  SpecSource,
} from '../model/permissions.js';

/** Necessity levels, strongest first (RAM proposal `AccessNecessity`). */
const LEVELS = [
  ['REQUIRED', 'required'],
  ['RECOMMENDED', 'recommended'],
  ['OPTIONAL', 'optional'],
] as const;

/** The key of one scheme of one resource: `resource \0 scheme`. */
type SchemeId = string;

/**
 * The alternatives that satisfy `a` (any one suffices): the spec's accepted ones, after its least-privilege
 * one. An access whose spec names no alternatives (`accepted` absent) is satisfied by its least privilege
 * only, as before alternatives were read. An access with a needed scope (docs/permissions.md "Needed
 * scopes") is satisfied only by its needed scope's alternative and the accepted ones that hold the scope.
 * Pure.
 */
export function alternativesOf(a: AccessPermission): readonly SecurityAlternative[] {
  if (a.neededScope) {
    // The publisher says the access needs this scope: only an alternative that holds it satisfies it.
    const { scope, requirements } = a.neededScope;
    const holding = (a.accepted ?? []).filter((alt) =>
      alt.requirements.some((r) => r.scopes.includes(scope)),
    );
    return [{ requirements }, ...holding];
  }
  const least = { requirements: a.leastPrivilege!.requirements };
  return a.accepted ? [least, ...a.accepted] : [least];
}

/**
 * What the permission set grants for `a`: its needed scope's alternative when the publisher named one
 * (docs/permissions.md "Needed scopes"), else the narrowest the spec lists (its least privilege).
 */
export function grantedFor(a: AccessPermission): SecurityAlternative | undefined {
  if (a.neededScope) return { requirements: a.neededScope.requirements };
  return a.leastPrivilege ? { requirements: a.leastPrivilege.requirements } : undefined;
}

/**
 * True when `granted` (scheme id → its scopes; a scheme is granted when it has an entry, even empty) holds
 * every requirement of one alternative of `a`, each on `a`'s resource.
 */
function satisfied(a: AccessPermission, granted: ReadonlyMap<SchemeId, ReadonlySet<string>>): boolean {
  return alternativesOf(a).some((alt) =>
    alt.requirements.every((r) => {
      const have = granted.get(`${a.resource}\u0000${r.scheme}`);
      return have !== undefined && r.scopes.every((s) => have.has(s));
    }),
  );
}

/**
 * The permission set of `accesses` (the RAM proposal: "permission sets … derived from the RAM via offline tooling";
 * DESIGN.md §9): each scheme of each resource with the scopes that the accesses acting as the person
 * (END_USER) need, by necessity, strongest first. What it guarantees:
 *
 * - Every such access with a least privilege is satisfied by the grants at its necessity and the stronger
 *   ones: some alternative its spec accepts (`accepted`; its least privilege when the spec lists none) has
 *   every requirement granted on its resource (the scheme, and each of its scopes). An access whose
 *   publisher named the scope it needs (`neededScope`) is granted that scope's alternative, and is
 *   satisfied only by an alternative that holds the scope.
 * - A necessity adds only scopes not already granted at a stronger one (a scope needed by a REQUIRED access
 *   and by an OPTIONAL one is listed under `required` only), and an access whose need the stronger grants
 *   already meet adds nothing.
 * - No scope is redundant where it is placed: each necessity starts from the union of its accesses' least
 *   privileges, then drops, in sorted order (resource, scheme, scope), each scope without which every access
 *   of that necessity is still satisfied (list at `calendar.events.readonly` or `calendar.events`, insert at
 *   `calendar.events`, both REQUIRED: `calendar.events` alone). Stronger grants are never dropped, so an
 *   access of a stronger necessity stays satisfied by the stronger grants alone; a weaker access gets its
 *   own grants at its necessity.
 *
 * Grants are sorted by resource, then scheme; a scheme without scopes (an API key) is listed once, at the
 * strongest necessity that needs it. Pure; linear in the accesses times the alternatives of the accesses
 * that name each candidate scope.
 */
export function permissionSet(accesses: readonly AccessPermission[]): PermissionSet {
  // What the stronger necessities grant: scheme id → scopes (an entry, even empty, grants the scheme).
  const placed = new Map<SchemeId, Set<string>>();
  const set: PermissionSet = {};
  for (const [necessity, key] of LEVELS) {
    const tier = accesses.filter(
      (a) => a.necessity === necessity && a.identityUsed === 'END_USER' && grantedFor(a),
    );
    // This necessity's union of needed scopes and least privileges, beyond the stronger grants.
    const grants = new Map<SchemeId, PermissionGrant & { schemeOnly: boolean; fresh: Set<string> }>();
    for (const a of tier) {
      for (const r of grantedFor(a)!.requirements) {
        const id = `${a.resource}\u0000${r.scheme}`;
        const before = placed.get(id);
        const fresh = r.scopes.filter((s) => !before?.has(s));
        const schemeOnly = r.scopes.length === 0 && !before;
        if (fresh.length === 0 && !schemeOnly) continue;
        const grant = grants.get(id) ?? {
          resource: a.resource,
          scheme: r.scheme,
          type: r.type,
          schemeOnly: false,
          fresh: new Set<string>(),
        };
        grant.schemeOnly ||= schemeOnly;
        for (const s of fresh) grant.fresh.add(s);
        grants.set(id, grant);
      }
    }
    // Everything granted at this necessity and the stronger ones; a scheme whose fresh scopes all go is no
    // longer granted here unless an access needs it without scopes.
    const granted = new Map<SchemeId, Set<string>>();
    for (const [id, scopes] of placed) granted.set(id, new Set(scopes));
    for (const [id, grant] of grants) granted.set(id, new Set([...(placed.get(id) ?? []), ...grant.fresh]));
    // The accesses of this necessity that name each candidate scope in some alternative: only they can
    // stop being satisfied when it goes (all of them when its scheme goes with it).
    const naming = new Map<string, Set<AccessPermission>>();
    for (const a of tier)
      for (const alt of alternativesOf(a))
        for (const r of alt.requirements)
          for (const s of r.scopes) {
            const k = `${a.resource}\u0000${r.scheme}\u0000${s}`;
            naming.set(k, (naming.get(k) ?? new Set()).add(a));
          }
    const candidates = [...grants.entries()]
      .sort(([, x], [, y]) => compare(x.resource, y.resource) || compare(x.scheme, y.scheme))
      .flatMap(([id, grant]) => [...grant.fresh].sort().map((scope) => ({ id, grant, scope })));
    for (const { id, grant, scope } of candidates) {
      const scopes = granted.get(id)!;
      scopes.delete(scope);
      const bare = scopes.size === 0 && !placed.has(id) && !grant.schemeOnly;
      if (bare) granted.delete(id);
      const dependants = bare ? tier : [...(naming.get(`${id}\u0000${scope}`) ?? [])];
      if (dependants.every((a) => satisfied(a, granted))) {
        grant.fresh.delete(scope);
      } else {
        scopes.add(scope);
        if (bare) granted.set(id, scopes);
      }
    }
    const kept: PermissionGrant[] = [];
    for (const [id, { schemeOnly, fresh, ...grant }] of grants) {
      if (fresh.size === 0 && !schemeOnly) continue;
      if (fresh.size > 0) grant.scopes = [...fresh].sort();
      kept.push(grant);
      placed.set(id, new Set([...(placed.get(id) ?? []), ...fresh]));
    }
    if (kept.length > 0)
      set[key] = kept.sort(
        (x, y) => x.resource.localeCompare(y.resource) || x.scheme.localeCompare(y.scheme),
      );
  }
  return set;
}

/** Code-unit order, for a sort that does not depend on the locale. */
const compare = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0);

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

/**
 * `{ neededScope }` for an access whose publisher named `named` (docs/permissions.md "Needed scopes"), with
 * the alternative of `accepted` that holds it; `{}` when none was named, or when the spec does not accept it
 * (`npm run check` reports that: ./checks.ts).
 */
function neededScopeOf(
  named: { scope: string; reason: string } | undefined,
  accepted: readonly SecurityAlternative[],
): { neededScope?: NeededScope } {
  const alternative = named && alternativeWithScope(accepted, named.scope);
  if (!named || !alternative) return {};
  const requirements = alternative.requirements.map((r) => ({ ...r, scopes: [...r.scopes] }));
  return { neededScope: { scope: named.scope, requirements, reason: named.reason } };
}

/** The work of {@link agentPermissions}. */
function derive(agent: AgentModel, catalog: PermissionCatalog): AgentPermissions | undefined {
  const accesses: AccessPermission[] = [];
  for (const { access, neededScope } of agent.accesses) {
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
      ...(resolved.spec.destructive !== undefined ? { destructive: resolved.spec.destructive } : {}),
      ...(resolved.spec.openWorld !== undefined ? { openWorld: resolved.spec.openWorld } : {}),
      ...(resolved.accepted.length > 0 ? { accepted: resolved.accepted } : {}),
      ...(resolved.leastPrivilege ? { leastPrivilege: resolved.leastPrivilege } : {}),
      ...neededScopeOf(neededScope, resolved.accepted),
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
