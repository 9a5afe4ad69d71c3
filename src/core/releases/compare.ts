/**
 * The one comparison of two Resource Access Manifests (the RAM proposal) that the build, the pages, `npm run diff`
 * and the verifier share (DESIGN.md §9 "Releases"; docs/releases.md). It says what was added, removed,
 * widened, narrowed or only reworded between a `before` and an `after` {@link RamSnapshot}:
 *
 * - items are matched by id: resources by `Resource.id`, operations by `Operation.id`, accesses by
 *   `ResourceAccess.id` (an access renamed is one removed and one added);
 * - an access widens when it now runs as the user (`identityUsed` AGENT → END_USER), stops asking first
 *   (`confirmationRequired` true → false), becomes more needed (`necessity` OPTIONAL < RECOMMENDED <
 *   REQUIRED), goes from reading to changing data (DESIGN.md §6: the REST method; MCP and A2A unless
 *   `readOnly`), reaches its data through another operation, sends data to an outside service it did not
 *   (owner CONSUMER → THIRD_PARTY), or asks for a scope it did not (the permission set);
 * - a new THIRD_PARTY resource is a widening in itself (a new outside service gets data);
 * - the opposite moves are narrowings; a change of a description, a justification, a display name or a
 *   documentation link is a rewording.
 *
 * "Gains access" ({@link gainsAccess}) is an added access or resource, or a widening: what needs a new
 * `version` and what the pages announce.
 */
import type { Ram, RamOperation, RamResource, RamResourceAccess } from '../schema/ram.js';
import { mayChangeData } from '../ram/ram-effects.js';

/**
 * One side of a comparison: a RAM plus the authoring data the RAM itself does not carry.
 * - `readOnlyOperations`: ids of MCP/A2A operations the author marked `readOnly: true` (DESIGN.md §6);
 *   without it, such operations count as changing data, as on the pages.
 * - `scopes`: the permission set, access id → the scopes it needs; an access with no entry, or
 *   a snapshot without `scopes`, is not compared by scope.
 */
export interface RamSnapshot {
  ram: Ram;
  readOnlyOperations?: readonly string[];
  scopes?: Readonly<Record<string, readonly string[]>>;
}

/** What kind of change: gains are `added` and `widened`. */
export type ChangeKind = 'added' | 'removed' | 'widened' | 'narrowed' | 'reworded';

/** Which item of the RAM changed. */
export type ChangeItem = 'access' | 'resource' | 'operation';

/**
 * The field of a widening or narrowing: the RAM field names of the RAM proposal, plus `effect` (reads or may
 * change data, DESIGN.md §6) and `scope` (the permission set). A rewording names the field reworded.
 */
export type ChangeField =
  'identityUsed' | 'confirmationRequired' | 'necessity' | 'effect' | 'operation' | 'owner' | 'scope' | string;

/** How an access reads in sentences: what it does and where. */
export interface AccessLabel {
  /** The operation's description (RAM proposal `Operation.description`). */
  whatItDoes: string;
  /** The resource's display name. */
  resource: string;
  /** The resource's owner (RAM proposal `ResourceOwner`). */
  owner: string;
  /** True when it runs as the user (`END_USER`). */
  actsAsYou: boolean;
  /** True when it does not ask first. */
  withoutAsking: boolean;
  /** True when it may change data (DESIGN.md §6). */
  changesData: boolean;
}

/**
 * One change. `from` and `to` hold the field's values (enum names, booleans, `read`/`write` for `effect`,
 * sorted scope lists for `scope`). `label` describes the item as it is after the change (before it, for a
 * removal), for sentences.
 */
export interface RamChange {
  kind: ChangeKind;
  item: ChangeItem;
  /** The id of the access, resource or operation. */
  id: string;
  field?: ChangeField;
  from?: string | boolean | string[];
  to?: string | boolean | string[];
  /** For an access: how it reads. For a resource: its display name and owner only. */
  label?: Partial<AccessLabel>;
}

const NECESSITY_RANK: Readonly<Record<string, number>> = { OPTIONAL: 1, RECOMMENDED: 2, REQUIRED: 3 };

/** True for a change that gives the agent more access than before: an addition or a widening. */
export function gainsAccess(change: RamChange): boolean {
  return change.kind === 'added' || change.kind === 'widened';
}

/** The resolved view of one access: its operation, resource and effect. */
interface ResolvedAccess {
  access: RamResourceAccess;
  operation?: RamOperation;
  resource?: RamResource;
  changesData: boolean;
  scopes?: string[];
}

function resolve(snapshot: RamSnapshot): Map<string, ResolvedAccess> {
  const resources = new Map(snapshot.ram.resources.map((r) => [r.id, r]));
  const operations = new Map(snapshot.ram.operations.map((o) => [o.id, o]));
  const readOnly = new Set(snapshot.readOnlyOperations ?? []);
  const out = new Map<string, ResolvedAccess>();
  for (const access of snapshot.ram.resourceAccesses) {
    const operation = operations.get(access.operation);
    const resource = operation ? resources.get(operation.resource) : undefined;
    const changesData =
      operation && resource ? mayChangeData(resource, operation, readOnly.has(operation.id)) : true;
    const scopes = snapshot.scopes?.[access.id];
    out.set(access.id, {
      access,
      ...(operation ? { operation } : {}),
      ...(resource ? { resource } : {}),
      changesData,
      ...(scopes ? { scopes: [...new Set(scopes)].sort() } : {}),
    });
  }
  return out;
}

function accessLabel(r: ResolvedAccess): Partial<AccessLabel> {
  return {
    whatItDoes: r.operation?.description ?? r.access.operation,
    resource: r.resource?.displayName ?? r.operation?.resource ?? '',
    owner: r.resource?.owner ?? '',
    actsAsYou: r.access.identityUsed === 'END_USER',
    withoutAsking: !r.access.confirmationRequired,
    changesData: r.changesData,
  };
}

/** Compares one access present on both sides; pushes its widenings, narrowings and rewordings. */
function compareAccess(before: ResolvedAccess, after: ResolvedAccess, out: RamChange[]): void {
  const a = before.access;
  const b = after.access;
  const label = accessLabel(after);
  const push = (kind: ChangeKind, field: ChangeField, from: RamChange['from'], to: RamChange['to']) =>
    out.push({ kind, item: 'access', id: b.id, field, from, to, label });
  if (a.identityUsed !== b.identityUsed) {
    push(
      b.identityUsed === 'END_USER' ? 'widened' : 'narrowed',
      'identityUsed',
      a.identityUsed,
      b.identityUsed,
    );
  }
  if (Boolean(a.confirmationRequired) !== Boolean(b.confirmationRequired)) {
    push(
      b.confirmationRequired ? 'narrowed' : 'widened',
      'confirmationRequired',
      Boolean(a.confirmationRequired),
      Boolean(b.confirmationRequired),
    );
  }
  const rankA = NECESSITY_RANK[a.necessity] ?? 0;
  const rankB = NECESSITY_RANK[b.necessity] ?? 0;
  if (rankA !== rankB) push(rankB > rankA ? 'widened' : 'narrowed', 'necessity', a.necessity, b.necessity);
  if (before.changesData !== after.changesData) {
    push(
      after.changesData ? 'widened' : 'narrowed',
      'effect',
      before.changesData ? 'write' : 'read',
      after.changesData ? 'write' : 'read',
    );
  }
  if (a.operation !== b.operation) {
    // Another action: on another resource, or of the same effect on the same resource, it reaches what it
    // did not declare (a gain). Between a read and a write of one resource, `effect` above says which way.
    const sameResource = before.resource?.id === after.resource?.id;
    if (!sameResource || before.changesData === after.changesData)
      push('widened', 'operation', a.operation, b.operation);
    const ownerA = before.resource?.owner;
    const ownerB = after.resource?.owner;
    if (ownerA !== ownerB && ownerA !== undefined && ownerB !== undefined) {
      push(ownerB === 'THIRD_PARTY' ? 'widened' : 'narrowed', 'owner', ownerA, ownerB);
    }
  }
  if (before.scopes && after.scopes) {
    const had = new Set(before.scopes);
    const has = new Set(after.scopes);
    if (after.scopes.some((s) => !had.has(s))) push('widened', 'scope', before.scopes, after.scopes);
    else if (before.scopes.some((s) => !has.has(s))) push('narrowed', 'scope', before.scopes, after.scopes);
  }
  if (a.accessJustification !== b.accessJustification) {
    push('reworded', 'accessJustification', a.accessJustification, b.accessJustification);
  }
}

/** Fields of a resource or operation whose change is only a rewording. */
const WORDING_FIELDS = ['displayName', 'description', 'developerDocumentationUrl'] as const;

function wordingChanges(
  item: ChangeItem,
  before: RamResource | RamOperation,
  after: RamResource | RamOperation,
  out: RamChange[],
): void {
  for (const field of WORDING_FIELDS) {
    const a = (before as unknown as Record<string, unknown>)[field];
    const b = (after as unknown as Record<string, unknown>)[field];
    if (JSON.stringify(a) !== JSON.stringify(b)) {
      const text = (v: unknown) => (Array.isArray(v) ? v.map(String) : v === undefined ? '' : String(v));
      out.push({ kind: 'reworded', item, id: after.id, field, from: text(a), to: text(b) });
    }
  }
}

function resourceLabel(r: RamResource): Partial<AccessLabel> {
  return { resource: r.displayName, owner: r.owner };
}

/**
 * Compares `before` with `after` (RAMs of the RAM proposal, with their authoring data). Returns every change, in a
 * stable order: resources, then operations, then accesses, each in the order of `after` (removals after
 * the items of `after`, in the order of `before`). Never throws; a reference that does not resolve counts
 * as changing data (the safe reading).
 */
export function compareRam(before: RamSnapshot, after: RamSnapshot): RamChange[] {
  const out: RamChange[] = [];
  const resourcesBefore = new Map(before.ram.resources.map((r) => [r.id, r]));
  const resourcesAfter = new Map(after.ram.resources.map((r) => [r.id, r]));
  for (const r of after.ram.resources) {
    const old = resourcesBefore.get(r.id);
    if (!old) {
      out.push({ kind: 'added', item: 'resource', id: r.id, label: resourceLabel(r) });
      continue;
    }
    if (old.owner !== r.owner) {
      out.push({
        kind: r.owner === 'THIRD_PARTY' ? 'widened' : 'narrowed',
        item: 'resource',
        id: r.id,
        field: 'owner',
        from: old.owner,
        to: r.owner,
        label: resourceLabel(r),
      });
    }
    wordingChanges('resource', old, r, out);
  }
  for (const r of before.ram.resources) {
    if (!resourcesAfter.has(r.id))
      out.push({ kind: 'removed', item: 'resource', id: r.id, label: resourceLabel(r) });
  }
  const operationsBefore = new Map(before.ram.operations.map((o) => [o.id, o]));
  const operationsAfter = new Map(after.ram.operations.map((o) => [o.id, o]));
  for (const o of after.ram.operations) {
    const old = operationsBefore.get(o.id);
    if (!old) out.push({ kind: 'added', item: 'operation', id: o.id });
    else wordingChanges('operation', old, o, out);
  }
  for (const o of before.ram.operations) {
    if (!operationsAfter.has(o.id)) out.push({ kind: 'removed', item: 'operation', id: o.id });
  }
  const accessesBefore = resolve(before);
  const accessesAfter = resolve(after);
  for (const [id, now] of accessesAfter) {
    const old = accessesBefore.get(id);
    if (!old) out.push({ kind: 'added', item: 'access', id, label: accessLabel(now) });
    else compareAccess(old, now, out);
  }
  for (const [id, old] of accessesBefore) {
    if (!accessesAfter.has(id)) out.push({ kind: 'removed', item: 'access', id, label: accessLabel(old) });
  }
  return out;
}

/**
 * The snapshot of an agent's RAM as a card carries it plus the authoring data a consumer can read beside
 * it (the changes document's `readOnlyOperations`, a permission set's scopes).
 */
export function snapshotOf(
  ram: Ram,
  readOnlyOperations?: readonly string[],
  scopes?: Readonly<Record<string, readonly string[]>>,
): RamSnapshot {
  return {
    ram,
    ...(readOnlyOperations && readOnlyOperations.length > 0 ? { readOnlyOperations } : {}),
    ...(scopes ? { scopes } : {}),
  };
}

/** Sorts changes for display: gains first (widened before added), then removals, narrowings, rewordings. */
export function byImportance(changes: readonly RamChange[]): RamChange[] {
  const order: Record<ChangeKind, number> = { widened: 0, added: 1, removed: 2, narrowed: 3, reworded: 4 };
  return [...changes].sort((x, y) => order[x.kind] - order[y.kind]);
}
