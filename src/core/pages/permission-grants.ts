/**
 * The "You will be asked to allow:" part of the permission page (DESIGN.md §9): for one of the
 * visitor's own services, each permission (OAuth scope) the agent's permission set asks for, with the
 * service's own description of it, what else that permission allows (a count, and the list), and a warning
 * for each broader scope the agent's card asks for. Computed from the agent's permission file and the
 * stored spec; every word comes from the page's word table (./words/).
 */
import type { PermissionCatalog } from '../model/permission-catalog.js';
import type { BroaderScope } from '../ram/declared.js';
import type { AccessPermission, AgentPermissions } from '../model/permissions.js';
import { alternativesOf, grantedFor, permissionSet } from '../ram/sets.js';
import { grantedOperations, operationName } from '../model/spec-index.js';
import { langField, type PageText } from './page-texts.js';
import { limitClause } from './scope-limits.js';
import type { NecessityLevel } from './words.js';
import type { PageWords } from '../i18n/words/index.js';

/** What the grant view needs of one access of the agent: its action and reason in the page's language. */
export interface GrantAction {
  /** What the access does (the operation's description), in the page's language. */
  whatItDoes: string;
  /** Why it needs its named scope (`neededScope.reason`), when it names one. */
  neededReason?: PageText;
}

/** One permission the visitor will be asked to allow. */
export interface ScopeView {
  /** The scope as the service names it. */
  scope: string;
  /** The service's own description of it (the consent screen's words), or a sentence saying there is none. */
  description: string;
  /**
   * The clause of the service's description that limits the permission, in a sentence ("The service’s own
   * description limits it: “but not the email body”."); absent when it states none.
   */
  limitText?: string;
  /** The strongest necessity of the actions it is for (the permission set's level that holds it). */
  necessity: NecessityLevel;
  /** That necessity and what it means, one sentence. */
  necessityText: string;
  /** The actions it is for, in a sentence ("For: “Reads your receipts”."). */
  forText: string;
  /**
   * `needed`: an access names it as needed with a reason ({@link ScopeView.reasons}); `narrowest`: the
   * narrowest the service lists for the actions, nothing more is claimed.
   */
  basis: 'needed' | 'narrowest';
  /** For `narrowest`, the sentence that says so; for `needed`, the words before the reasons. */
  basisText: string;
  /** The publisher's reasons, each with its language when it is not the page's. */
  reasons: Array<{ text: string; textLang?: string }>;
  /** For `needed`: the narrower permission the service lists for those actions, in a sentence. */
  narrowerText?: string;
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
 * True when `scope` is granted for access `a`: it is in what the permission set grants for it (its needed
 * scope, else its least privilege), or, when none of those is shown (`shown`: the scopes the page lists;
 * the set left them out as redundant), it is in an alternative that satisfies the access. Pure.
 */
function isFor(a: AccessPermission, scope: string, shown: ReadonlySet<string>): boolean {
  const own = grantedFor(a)?.requirements.flatMap((r) => r.scopes) ?? [];
  if (own.some((s) => shown.has(s))) return own.includes(scope);
  return alternativesOf(a).some((alt) => alt.requirements.some((r) => r.scopes.includes(scope)));
}

/**
 * The grant view of own resource `resource` for an agent with `permissions` (its permission file, or
 * undefined) and `broader` (src/core/ram/declared.ts `broaderScopes`), in the words of `w`.
 * `cardNamesScopes`: whether the agent's card names some scope of this resource (declared.ts
 * `resourcesNamedByCard`). `actions`: access id → its action and needed scope's reason in the page's
 * language. Each scope says which actions it is for and how much they need it, whether the publisher names
 * it as needed (with the reason) or it is the narrowest the spec lists for them (nothing more claimed), and
 * what the service's own description says it leaves out. Pure.
 */
export function grantView(
  resource: string,
  catalog: PermissionCatalog | undefined,
  permissions: AgentPermissions | undefined,
  broader: readonly BroaderScope[],
  cardNamesScopes: boolean,
  w: PageWords,
  actions: ReadonlyMap<string, GrantAction> = new Map(),
): GrantView {
  const g = w.grants;
  const stored = catalog?.specs.get(resource);
  const view: GrantView = { heading: g.heading, scopes: [], broader: [] };
  if (!stored) {
    view.note = g.unknown;
    return view;
  }
  const set = permissions?.permissionSet;
  const levels = [
    ['required', set?.required],
    ['recommended', set?.recommended],
    ['optional', set?.optional],
  ] as const;
  const grants = levels.flatMap(([level, list]) =>
    (list ?? []).filter((x) => x.resource === resource).map((grant) => ({ level, grant })),
  );
  const mine = (permissions?.accesses ?? []).filter(
    (a) => a.resource === resource && a.identityUsed === 'END_USER',
  );
  const used = new Set(
    (permissions?.accesses ?? []).filter((a) => a.resource === resource).map((a) => a.specOperation),
  );
  const shown = new Set(grants.flatMap(({ grant }) => grant.scopes ?? []));
  // What the set would hold on the spec's word alone: the narrowest scopes it lists for these actions.
  const specOnly = permissionSet(mine.map(({ neededScope: _, ...a }) => a));
  const narrowest = [
    ...new Set(
      [...(specOnly.required ?? []), ...(specOnly.recommended ?? []), ...(specOnly.optional ?? [])].flatMap(
        (x) => x.scopes ?? [],
      ),
    ),
  ];
  const described = (scope: string) =>
    [...stored.index.schemes.values()].find((x) => x.scopes.has(scope))?.scopes.get(scope);
  const seen = new Set<string>();
  for (const { level, grant } of grants) {
    for (const scope of grant.scopes ?? []) {
      if (seen.has(scope)) continue;
      seen.add(scope);
      const scheme = stored.index.schemes.get(grant.scheme);
      const others = grantedOperations(stored.index, {
        requirements: [{ scheme: grant.scheme, type: grant.type, scopes: [scope] }],
      }).filter((op) => !used.has(operationName(op)));
      const description = scheme?.scopes.get(scope);
      const limit = limitClause(description);
      const forAccesses = mine.filter((a) => isFor(a, scope, shown));
      const needing = forAccesses.filter((a) => a.neededScope?.scope === scope);
      const reasons = needing.flatMap((a) => {
        const reason = actions.get(a.access)?.neededReason ?? { text: a.neededScope!.reason };
        return [{ text: reason.text, ...langField('text', reason) }];
      });
      const narrower = needing.length > 0 ? narrowest.filter((x) => !shown.has(x)) : [];
      const names = [...new Set(forAccesses.map((a) => actions.get(a.access)?.whatItDoes ?? a.operation))];
      view.scopes.push({
        scope,
        description: description || g.scopeWithoutDescription,
        ...(limit ? { limitText: g.leavesOut(limit) } : {}),
        necessity: level,
        necessityText: w.permissions.necessityExplanation[level],
        forText: names.length > 0 ? g.scopeFor(names) : '',
        basis: needing.length > 0 ? 'needed' : 'narrowest',
        basisText: needing.length > 0 ? g.neededBecause : g.narrowest,
        reasons: [...new Map(reasons.map((r) => [r.text, r])).values()],
        ...(narrower.length > 0
          ? {
              narrowerText: g.narrowerListed(narrower.map((x) => `${described(x) || x} (${x})`).join('”, “')),
            }
          : {}),
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
