/**
 * Scopes an agent's card asks for that its RAM does not need: the card's `securityRequirements`
 * (the agent's, A2A v1.0 `AgentCard.securityRequirements`, and each skill's) compared with the permission
 * sets derived from the specs. A scope of a card requirement belongs to a resource when that resource's
 * stored spec defines the scope and either the scope is an absolute URL (as Google's are) or the card's
 * scheme names one of the spec scheme's OAuth or OpenID Connect URLs (the same provider). Such a scope
 * that the matching permission set does not hold is broader than needed, unless it grants no operation that
 * the set's grants do not (a narrower scope the set left out as redundant).
 */
import type { AgentModel } from '../model/content.js';
import type { PermissionCatalog } from '../model/permission-catalog.js';
import type { AgentPermissions, PermissionSet, SchemeRequirement } from '../model/permissions.js';
import { grantedOperations, type SpecIndex } from '../model/spec-index.js';

/** One scope a card asks for beyond what the RAM needs. */
export interface BroaderScope {
  /** `agent` for the card's own requirements, else the skill id. */
  where: 'agent' | { skill: string };
  /** Field path in the agent's front matter (`securityRequirements[0].schemes.google.list`). */
  path: PropertyKey[];
  /** The RAM resource whose spec defines the scope. */
  resource: string;
  /** The card scheme's name. */
  cardScheme: string;
  /** The scope asked for. */
  scope: string;
  /** The scopes the RAM needs of that resource there (the permission set's), sorted; empty when none. */
  needed: string[];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The OAuth and OpenID Connect URLs a card scheme (A2A v1.0 proto form) names. */
function cardSchemeUrls(scheme: unknown): string[] {
  if (!isObject(scheme)) return [];
  const urls: string[] = [];
  const oauth = scheme.oauth2SecurityScheme;
  if (isObject(oauth)) {
    if (typeof oauth.oauth2MetadataUrl === 'string') urls.push(oauth.oauth2MetadataUrl);
    if (isObject(oauth.flows))
      for (const flow of Object.values(oauth.flows))
        if (isObject(flow))
          for (const v of Object.values(flow)) if (typeof v === 'string' && /^https?:/.test(v)) urls.push(v);
  }
  const oidc = scheme.openIdConnectSecurityScheme;
  if (isObject(oidc) && typeof oidc.openIdConnectUrl === 'string') urls.push(oidc.openIdConnectUrl);
  return urls;
}

/** Every scope of `set` for `resource`, at any necessity. */
function scopesOf(set: PermissionSet | undefined, resource: string): string[] {
  const all = [...(set?.required ?? []), ...(set?.recommended ?? []), ...(set?.optional ?? [])];
  return [...new Set(all.filter((g) => g.resource === resource).flatMap((g) => g.scopes ?? []))].sort();
}

/** One scope a card requirement asks for that a resource's stored spec defines (see the module's doc). */
interface CardScope {
  where: BroaderScope['where'];
  path: PropertyKey[];
  resource: string;
  cardScheme: string;
  scope: string;
  /** The permission set the scope is measured against: the agent's, or the skill's when it has one. */
  set: PermissionSet | undefined;
  /** The resource's stored spec, and the scheme of it that defines the scope (its name and type). */
  index: SpecIndex;
  specScheme: SchemeRequirement;
}

/**
 * Every scope of `agent`'s card requirements (the agent's, then each skill's) that belongs to a resource of
 * its RAM with a stored spec in `catalog`, with the permission set it is measured against. Pure.
 */
function cardScopes(
  agent: AgentModel,
  catalog: PermissionCatalog,
  permissions: AgentPermissions | undefined,
): CardScope[] {
  const out: CardScope[] = [];
  const schemes = (agent.front.securitySchemes ?? {}) as Record<string, unknown>;
  const specs = agent.ram.resources.flatMap((r) => {
    const stored = catalog.specs.get(r.id);
    return stored ? [{ resource: r.id, index: stored.index }] : [];
  });
  if (specs.length === 0) return out;
  const owner = (cardScheme: string, scope: string) => {
    const urls = new Set(cardSchemeUrls(schemes[cardScheme]));
    for (const { resource, index } of specs) {
      for (const [name, scheme] of index.schemes) {
        if (!scheme.scopes.has(scope)) continue;
        if (/^https?:\/\//.test(scope) || scheme.urls.some((u) => urls.has(u)))
          return { resource, index, specScheme: { scheme: name, type: scheme.type, scopes: [scope] } };
      }
    }
    return undefined;
  };
  const visit = (
    requirements: ReadonlyArray<{ schemes: Record<string, { list: string[] }> }> | undefined,
    base: PropertyKey[],
    where: BroaderScope['where'],
    set: PermissionSet | undefined,
  ) => {
    (requirements ?? []).forEach((requirement, i) => {
      for (const [cardScheme, { list }] of Object.entries(requirement.schemes)) {
        for (const scope of list) {
          const owned = owner(cardScheme, scope);
          if (owned === undefined) continue;
          out.push({
            where,
            path: [...base, i, 'schemes', cardScheme, 'list'],
            resource: owned.resource,
            cardScheme,
            scope,
            set,
            index: owned.index,
            specScheme: owned.specScheme,
          });
        }
      }
    });
  };
  visit(agent.front.securityRequirements, ['securityRequirements'], 'agent', permissions?.permissionSet);
  agent.front.skills.forEach((skill, i) => {
    // A skill without mapped accesses is measured against the agent's whole set.
    const set = agent.skillAccesses?.[skill.id]
      ? permissions?.skillPermissionSets?.[skill.id]
      : permissions?.permissionSet;
    visit(skill.securityRequirements, ['skills', i, 'securityRequirements'], { skill: skill.id }, set);
  });
  return out;
}

/**
 * True when the scope of `asked` grants no operation of `index` that `set`'s grants for `resource`, held
 * together, do not grant already: a scope the permission set left out as redundant (`calendar.events.readonly`
 * beside `calendar.events`), which is narrower than what the agent needs, not broader.
 */
function grantsNoMore(
  index: SpecIndex,
  asked: SchemeRequirement,
  set: PermissionSet | undefined,
  resource: string,
): boolean {
  const all = [...(set?.required ?? []), ...(set?.recommended ?? []), ...(set?.optional ?? [])];
  const held = new Map<string, SchemeRequirement>();
  for (const g of all) {
    if (g.resource !== resource) continue;
    const before = held.get(g.scheme);
    const scopes = [...new Set([...(before?.scopes ?? []), ...(g.scopes ?? [])])];
    held.set(g.scheme, { scheme: g.scheme, type: g.type, scopes });
  }
  if (held.size === 0) return false;
  const granted = new Set(grantedOperations(index, { requirements: [...held.values()] }));
  return grantedOperations(index, { requirements: [asked] }).every((op) => granted.has(op));
}

/**
 * The scopes `agent`'s card requirements ask for beyond its permission sets (`permissions`), one item per
 * scope and place. Resources are those of the agent's RAM with a stored spec in `catalog`. Pure.
 */
export function broaderScopes(
  agent: AgentModel,
  catalog: PermissionCatalog,
  permissions: AgentPermissions | undefined,
): BroaderScope[] {
  return cardScopes(agent, catalog, permissions).flatMap(({ set, index, specScheme, ...named }) => {
    const needed = scopesOf(set, named.resource);
    if (needed.includes(named.scope) || grantsNoMore(index, specScheme, set, named.resource)) return [];
    return [{ ...named, needed }];
  });
}

/**
 * The resources of `agent`'s RAM for which its card's requirements (the agent's or a skill's) name at least
 * one scope, by the rule of {@link broaderScopes}: where the card says what it will ask the visitor to
 * allow, rather than leaving it to what its declared actions need. Pure.
 */
export function resourcesNamedByCard(agent: AgentModel, catalog: PermissionCatalog): Set<string> {
  return new Set(cardScopes(agent, catalog, undefined).map((c) => c.resource));
}
