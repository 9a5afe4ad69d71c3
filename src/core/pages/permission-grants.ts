/**
 * The "You will be asked to allow:" part of the permission page (issue 15; DESIGN.md §9): for one of the
 * visitor's own services, each permission (OAuth scope) the agent's permission set asks for, with the
 * service's own description of it, what else that permission allows (a count, and the list), and a warning
 * for each broader scope the agent's card asks for. Computed from the agent's permission file and the
 * stored spec; every word comes from the page's word table (./words/).
 */
import type { PermissionCatalog } from '../permissions/catalog-model.js';
import type { BroaderScope } from '../permissions/declared.js';
import type { AgentPermissions } from '../permissions/model.js';
import { grantedOperations, operationName } from '../permissions/spec-index.js';
import type { PageWords } from './words/index.js';

/** One permission the visitor will be asked to allow. */
export interface ScopeView {
  /** The scope as the service names it. */
  scope: string;
  /** The service's own description of it (the consent screen's words), or a sentence saying there is none. */
  description: string;
  /** How many other operations of the service the permission allows. */
  alsoAllowsCount: number;
  alsoAllowsText: string;
  alsoAllowsSummary: string;
  /** Those operations: the spec's name and its own one-line description, when it has one. */
  alsoAllows: Array<{ name: string; description?: string }>;
}

/** What the page says about permissions for one of the visitor's own services. */
export interface GrantView {
  /**
   * "You will be asked to allow:" above {@link GrantView.scopes}; "… at least:" when the card names none of
   * this service's scopes (what it will ask is then only known to include what its declared actions
   * need); when the card asks for more than they ({@link GrantView.broader} not empty), "What its declared
   * actions would need, and no more:".
   */
  heading: string;
  /**
   * Set when the card asks for more than the least privilege: the heading of what the agent actually asks
   * for, shown first, above {@link GrantView.broader}; the least privilege follows under `heading`.
   */
  askedHeading?: string;
  /** The permissions, in the order of the permission set (strongest necessity first). */
  scopes: ScopeView[];
  /**
   * A sentence when there is no scope to show: nothing asked (no access as the visitor), the spec names no
   * permission for the accesses as the visitor, or no stored spec.
   */
  note?: string;
  /** Scopes the card asks for beyond what the agent needs, in words. */
  broader: Array<{ label: string; text: string }>;
}

/**
 * The grant view of own resource `resource` for an agent with `permissions` (its permission file, or
 * undefined) and `broader` (src/core/permissions/declared.ts `broaderScopes`), in the words of `w`.
 * `cardNamesScopes`: whether the agent's card names some scope of this resource (declared.ts
 * `resourcesNamedByCard`). Pure.
 */
export function grantView(
  resource: string,
  catalog: PermissionCatalog | undefined,
  permissions: AgentPermissions | undefined,
  broader: readonly BroaderScope[],
  cardNamesScopes: boolean,
  w: PageWords,
): GrantView {
  const g = w.grants;
  const stored = catalog?.specs.get(resource);
  const view: GrantView = { heading: g.heading, scopes: [], broader: [] };
  if (!stored) {
    view.note = g.unknown;
    return view;
  }
  const set = permissions?.permissionSet;
  const grants = [...(set?.required ?? []), ...(set?.recommended ?? []), ...(set?.optional ?? [])].filter(
    (g) => g.resource === resource,
  );
  const used = new Set(
    (permissions?.accesses ?? []).filter((a) => a.resource === resource).map((a) => a.specOperation),
  );
  const seen = new Set<string>();
  for (const grant of grants) {
    for (const scope of grant.scopes ?? []) {
      if (seen.has(scope)) continue;
      seen.add(scope);
      const scheme = stored.index.schemes.get(grant.scheme);
      const others = grantedOperations(stored.index, {
        requirements: [{ scheme: grant.scheme, type: grant.type, scopes: [scope] }],
      }).filter((op) => !used.has(operationName(op)));
      view.scopes.push({
        scope,
        description: scheme?.scopes.get(scope) || g.scopeWithoutDescription,
        alsoAllowsCount: others.length,
        alsoAllowsText: g.alsoAllows(others.length),
        alsoAllowsSummary: g.alsoAllowsSummary,
        alsoAllows: others.map((op) => ({
          name: operationName(op),
          ...(op.description ? { description: op.description } : {}),
        })),
      });
    }
  }
  // No scope to show: either nothing here acts as the visitor, or the spec names no permission for what does
  // (an MCP tools/list authorises the server as a whole): then the agent does use the visitor's account.
  const asYou = (permissions?.accesses ?? []).some(
    (a) => a.resource === resource && a.identityUsed === 'END_USER',
  );
  if (view.scopes.length === 0) view.note = asYou ? g.scopesNotNamed : g.nothingToAllow;
  for (const b of broader) {
    if (b.resource !== resource) continue;
    const description = [...stored.index.schemes.values()]
      .find((s) => s.scopes.has(b.scope))
      ?.scopes.get(b.scope);
    const asked = description ? `${description} (${b.scope})` : b.scope;
    view.broader.push({ label: g.broaderLabel, text: g.broader(asked, b.needed) });
  }
  // The card's request is what the visitor will see; the least privilege is what it would need. A card
  // that names no scope here leaves the request unknown, but it cannot be less than what the actions need.
  if (view.broader.length > 0) {
    view.askedHeading = g.askedHeading;
    view.heading = g.neededHeading;
  } else if (!cardNamesScopes && view.scopes.length > 0) {
    view.heading = g.atLeastHeading;
  }
  return view;
}
