/**
 * The benchmark floor's agents as plain records: the synthetic publisher's own agents
 * (bench/synthetic.ts `syntheticAgents`, the same generator in memory, so the floor writes pages and files
 * about the same resources and accesses as ardsite's build of that publisher), with the facts its pages
 * and files show written out by templating: which scope each access of a REST service needs (`<word>.read`
 * to list, `<word>.write` to create, as the synthetic specs say), and the permission set grouped by
 * necessity. Nothing is read, resolved or checked.
 */
import {
  syntheticAgents,
  syntheticResource,
  type SyntheticAccess,
  type SyntheticResource,
} from '../../synthetic';

/** The synthetic publisher's domain and origin (bench/synthetic.ts default). */
export const DOMAIN = 'bench.example.com';
/** The site's origin, without a final slash. */
export const ORIGIN = `https://${DOMAIN}`;
/** The publisher's name. */
export const ORGANIZATION = 'Bench Example Org';

/** A necessity level in the RAM's words. */
export type Necessity = SyntheticAccess['necessity'];
/** The levels, strongest first. */
export const LEVELS: readonly Necessity[] = ['REQUIRED', 'RECOMMENDED', 'OPTIONAL'];

/** One access of a floor agent, with what its pages and files say of it. */
export interface FloorAccess extends SyntheticAccess {
  /** The access's number (0–7). */
  a: number;
  res: SyntheticResource;
  /** The scope a REST access needs (`<word>.read` or `.write`); undefined for MCP and A2A. */
  scope?: string;
  /** The operation's description, as the resource file gives it. */
  description: string;
  /** The skill's id (`<verb>-<n>`). */
  skillId: string;
}

/** One entry of a permission set: a resource's scopes at one level (the RAM's permission set). */
export interface SetEntry {
  resource: string;
  scheme: 'oauth';
  type: 'oauth2';
  scopes: string[];
}

/** A permission set: its entries by level; a level without any is absent. */
export type PermissionSet = Partial<Record<'required' | 'recommended' | 'optional', SetEntry[]>>;

/** One agent of the floor, as plain records. */
export interface FloorModel {
  n: number;
  slug: string;
  name: string;
  description: string;
  version: string;
  /** The resources it reaches, in the order of their first access. */
  resources: SyntheticResource[];
  /** Its operations, in the order of their first access. */
  operations: Array<{ id: string; res: SyntheticResource; description: string }>;
  accesses: FloorAccess[];
  /** What the visitor grants, over every access as the visitor. */
  permissionSet: PermissionSet;
  /** The same per skill (its id), for the skills that need any. */
  skillSets: Record<string, PermissionSet>;
}

/** The operation's description, as the synthetic resource file gives it. */
function operationDescription(res: SyntheticResource, op: string): string {
  if (op.endsWith('-list')) return `Lists the ${res.word} items of an account.`;
  if (op.endsWith('-create')) return `Creates a ${res.word} item.`;
  return `Calls the ${res.word} ${res.protocol === 'MCP' ? 'tool' : 'agent'}.`;
}

/** The permission set of `accesses`: each scope at the strongest level that needs it, by resource. */
function permissionSet(accesses: readonly FloorAccess[]): PermissionSet {
  const level = new Map<string, number>();
  for (const x of accesses) {
    if (!x.scope || !x.asUser) continue;
    const key = `${x.res.id} ${x.scope}`;
    level.set(key, Math.min(level.get(key) ?? 9, LEVELS.indexOf(x.necessity)));
  }
  const set: PermissionSet = {};
  LEVELS.forEach((l, k) => {
    const byResource = new Map<string, string[]>();
    for (const [key, at] of [...level].sort(([x], [y]) => (x < y ? -1 : 1))) {
      if (at !== k) continue;
      const [resource, scope] = key.split(' ') as [string, string];
      byResource.set(resource, [...(byResource.get(resource) ?? []), scope]);
    }
    if (byResource.size > 0)
      set[l.toLowerCase() as keyof PermissionSet] = [...byResource].map(([resource, scopes]) => ({
        resource,
        scheme: 'oauth',
        type: 'oauth2',
        scopes,
      }));
  });
  return set;
}

/** Every floor agent of a publisher of `count` agents. */
export function floorModels(count: number): FloorModel[] {
  const width = String(count).length;
  // One record per resource, shared by every access to it (pages and files compare them by identity).
  const catalog = new Map<number, SyntheticResource>();
  const resourceOf = (i: number) => catalog.get(i) ?? catalog.set(i, syntheticResource(i)).get(i)!;
  return syntheticAgents(count).map((plan) => {
    const { n } = plan;
    const accesses: FloorAccess[] = plan.accesses.map((x, a) => {
      const res = resourceOf(x.resource);
      const scope =
        res.protocol === 'REST'
          ? `${res.word}.${x.operation.endsWith('-list') ? 'read' : 'write'}`
          : undefined;
      return {
        ...x,
        a,
        res,
        ...(scope ? { scope } : {}),
        description: operationDescription(res, x.operation),
        skillId: `${x.skill}-${n}`,
      };
    });
    const resources = [...new Map(accesses.map((x) => [x.res.id, x.res])).values()];
    const operations = [
      ...new Map(
        accesses.map((x) => [x.operation, { id: x.operation, res: x.res, description: x.description }]),
      ).values(),
    ];
    const skillSets: Record<string, PermissionSet> = {};
    for (const verb of ['plan', 'search', 'summarise']) {
      const set = permissionSet(accesses.filter((x) => x.skill === verb));
      if (Object.keys(set).length > 0) skillSets[`${verb}-${n}`] = set;
    }
    return {
      n,
      slug: `agent-${String(n).padStart(width, '0')}`,
      name: `Synthetic Agent ${n}`,
      description: `Synthetic agent number ${n}, with three skills and eight accesses to five services.`,
      version: `1.${n % 10}.0`,
      resources,
      operations,
      accesses,
      permissionSet: permissionSet(accesses),
      skillSets,
    };
  });
}
