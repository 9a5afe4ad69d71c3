/**
 * The RAM footprint of an agent as prefixed JSON-LD terms of its ARD entry (DESIGN.md §2; the RAM
 * proposal's third goal: select agents by least privilege without fetching every card). The entry
 * declares the prefix in its `@context`; ARD draft §3.1 layers it on the base context.
 */
import type { Ram } from '../schema/ram.js';

/** The JSON-LD prefix of the footprint terms. */
export const RAM_PREFIX = 'ram';

/** The IRI the `ram:` prefix expands to: the RAM extension URI with a `#`. */
export function ramNamespace(extensionUri: string): string {
  return extensionUri.includes('#') ? extensionUri : `${extensionUri}#`;
}

/** The footprint terms of one RAM. Lists are sorted and unique; empty lists are left out. */
export interface RamFootprint {
  'ram:owners'?: string[];
  'ram:interactionProtocols'?: string[];
  'ram:identitiesUsed'?: string[];
  'ram:resourceIds'?: string[];
  'ram:operationIds'?: string[];
  /** Number of ResourceAccess items. */
  'ram:accessCount': number;
  /** Accesses with `confirmationRequired: true`. */
  'ram:asksFirstCount': number;
  /** Accesses with `necessity: REQUIRED`. */
  'ram:requiredCount': number;
  /** Distinct CONSUMER (2P) resources. */
  'ram:consumerResourceCount': number;
  /** Distinct THIRD_PARTY (3P) resources. */
  'ram:thirdPartyResourceCount': number;
  /** True when some access runs as the user (END_USER). */
  'ram:actsAsEndUser': boolean;
}

const sortedUnique = (values: Iterable<string>): string[] | undefined => {
  const list = [...new Set(values)].sort();
  return list.length > 0 ? list : undefined;
};

/** Computes the footprint terms of `ram` (RAM proposal enums by name). Linear in the RAM's size. */
export function ramFootprint(ram: Ram): RamFootprint {
  const footprint: RamFootprint = {
    'ram:accessCount': ram.resourceAccesses.length,
    'ram:asksFirstCount': ram.resourceAccesses.filter((a) => a.confirmationRequired).length,
    'ram:requiredCount': ram.resourceAccesses.filter((a) => a.necessity === 'REQUIRED').length,
    'ram:consumerResourceCount': ram.resources.filter((r) => r.owner === 'CONSUMER').length,
    'ram:thirdPartyResourceCount': ram.resources.filter((r) => r.owner === 'THIRD_PARTY').length,
    'ram:actsAsEndUser': ram.resourceAccesses.some((a) => a.identityUsed === 'END_USER'),
  };
  const lists: Array<[keyof RamFootprint, string[] | undefined]> = [
    ['ram:owners', sortedUnique(ram.resources.map((r) => r.owner))],
    ['ram:interactionProtocols', sortedUnique(ram.resources.map((r) => r.interactionProtocol))],
    ['ram:identitiesUsed', sortedUnique(ram.resourceAccesses.map((a) => a.identityUsed))],
    ['ram:resourceIds', sortedUnique(ram.resources.map((r) => r.id))],
    ['ram:operationIds', sortedUnique(ram.operations.map((o) => o.id))],
  ];
  const out: Record<string, unknown> = {};
  for (const [key, value] of lists) if (value) out[key] = value;
  return { ...(out as Partial<RamFootprint>), ...footprint };
}

/** The footprint terms of an agent's permission sets (DESIGN.md §9); absent when it has none. */
export interface PermissionFootprint {
  /** Every least-privilege OAuth scope the agent asks for, at any necessity, sorted and unique. */
  'ram:scopes'?: string[];
  /** The scopes asked for by REQUIRED accesses, sorted and unique. */
  'ram:requiredScopes'?: string[];
}

/**
 * The footprint terms of `permissions` (the `permissions` member of a card's RAM extension params,
 * src/core/model/permissions.ts `CardPermissions`), so a registry can filter agents by the scopes they
 * ask for. Tolerates any JSON (a verifier passes what a card carries): what is not a permission set
 * gives no term. Empty lists are left out.
 */
export function permissionFootprint(permissions: unknown): PermissionFootprint {
  const set = (permissions as { permissionSet?: Record<string, unknown> } | undefined)?.permissionSet;
  const scopes = (level: unknown): string[] =>
    (Array.isArray(level) ? level : []).flatMap((grant: unknown) => {
      const list = (grant as { scopes?: unknown } | null)?.scopes;
      return Array.isArray(list) ? list.filter((s): s is string => typeof s === 'string') : [];
    });
  const out: PermissionFootprint = {};
  if (!set || typeof set !== 'object') return out;
  const all = sortedUnique([...scopes(set.required), ...scopes(set.recommended), ...scopes(set.optional)]);
  const required = sortedUnique(scopes(set.required));
  if (all) out['ram:scopes'] = all;
  if (required) out['ram:requiredScopes'] = required;
  return out;
}

/**
 * The release terms of an agent with a release history (DESIGN.md §9 "Releases", docs/releases.md), so a
 * registry can filter agents that gained access without fetching their changes documents:
 * - `ram:gainedAccess`: true when this version added or widened access compared with the previous one;
 * - `ram:previousVersion`: the version it is compared with (absent when none is recorded before it).
 * They are not derived from the card's RAM, so the verifier's footprint check leaves them out and the
 * release check (src/core/verify/release-check.ts) holds them against the changes document.
 */
export interface ReleaseFootprint {
  'ram:gainedAccess': boolean;
  'ram:previousVersion'?: string;
}

/**
 * What {@link changesFootprint} reads of an agent's release changes: the comparison of its latest version
 * with the one before it, when there is one (an agent's changes from its release history have this shape).
 */
export interface LatestRelease {
  latest?: { gainedAccess: boolean; previousVersion: string };
}

/** Computes the release terms of `changes`. */
export function changesFootprint(changes: LatestRelease): ReleaseFootprint {
  return {
    'ram:gainedAccess': changes.latest?.gainedAccess ?? false,
    ...(changes.latest ? { 'ram:previousVersion': changes.latest.previousVersion } : {}),
  };
}
