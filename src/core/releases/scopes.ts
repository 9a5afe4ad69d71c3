/**
 * The scopes a comparison holds per access (src/core/releases/compare.ts `RamSnapshot.scopes`), taken from
 * the permission data derived from API specs (src/core/model/permissions.ts): each access's least-privilege authorisation,
 * the union of the scopes of its requirements, or of its needed scope's when the publisher named one
 * (docs/permissions.md "Needed scopes"). An access whose spec names no authorisation has no entry (it is
 * not compared by scope).
 */
import type { AgentPermissions } from '../model/permissions.js';

/**
 * Access id → the scopes granted for it (sorted, unique): its needed scope's alternative, else its least
 * privilege, from an agent's permission file.
 */
export function scopesOfPermissions(
  permissions: Pick<AgentPermissions, 'accesses'>,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const access of permissions.accesses) {
    const requirements = access.neededScope?.requirements ?? access.leastPrivilege?.requirements;
    if (!requirements) continue;
    out[access.access] = [...new Set(requirements.flatMap((r) => r.scopes))].sort();
  }
  return out;
}

/**
 * The same from the JSON of a permission file as served (`/agents/<slug>/permissions.json`), read
 * defensively: anything not of the model's shape is left out. `undefined` when no access has scopes data.
 */
export function scopesOfPermissionsJson(doc: unknown): Record<string, string[]> | undefined {
  if (typeof doc !== 'object' || doc === null || !Array.isArray((doc as { accesses?: unknown }).accesses))
    return undefined;
  // A member with requirements is read when its requirements are a list; anything else is left out.
  const readable = (v: unknown) =>
    v === undefined || Array.isArray((v as { requirements?: unknown } | null)?.requirements);
  const accesses = (doc as { accesses: unknown[] }).accesses.filter(
    (a): a is AgentPermissions['accesses'][number] =>
      typeof a === 'object' &&
      a !== null &&
      typeof (a as { access?: unknown }).access === 'string' &&
      readable((a as { leastPrivilege?: unknown }).leastPrivilege) &&
      readable((a as { neededScope?: unknown }).neededScope),
  );
  const clean = <T extends { requirements: Array<{ scopes: unknown }> }>(m: T): T => ({
    ...m,
    requirements: m.requirements.map((r) => ({
      ...r,
      scopes: Array.isArray(r.scopes) ? r.scopes.filter((s) => typeof s === 'string') : [],
    })),
  });
  const scopes = scopesOfPermissions({
    accesses: accesses.map((a) => ({
      ...a,
      ...(a.leastPrivilege ? { leastPrivilege: clean(a.leastPrivilege) } : {}),
      ...(a.neededScope ? { neededScope: clean(a.neededScope) } : {}),
    })),
  });
  return Object.keys(scopes).length > 0 ? scopes : undefined;
}
