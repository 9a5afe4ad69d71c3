/**
 * What changed for one agent across its recorded releases and this build (DESIGN.md §9 "Releases";
 * docs/releases.md): the check that refuses a widening under an unchanged `version`, the changes the
 * permission page shows ("What changed in <version>", the earlier changes), the "new permissions"
 * notice, and the machine-readable changes document published beside the card. Every comparison is
 * {@link compareRam}'s.
 */
import { formatPath, type Diagnostic } from '../util/errors.js';
import { npmCommand } from '../util/shell-word.js';
import type { AgentModel, ContentModel } from '../model/content.js';
import type { AgentPermissions } from '../model/permissions.js';
import { compareRam, gainsAccess, type RamChange, type RamSnapshot } from './compare.js';
import { correctedReadOnly, currentSnapshot, recordSnapshot } from './history.js';
import type { ReleaseHistory, ReleaseRecord } from '../model/release-record.js';

/** The `format` of the published changes document. */
export const CHANGES_FORMAT = 'ardsite-ram-changes/1';

/** The URL path of an agent's changes document, beside its card. */
export function changesPath(slug: string): string {
  return `/agents/${slug}/ram-changes.json`;
}

/** The changes between one version and the one before it. */
export interface VersionChanges {
  version: string;
  /**
   * When this version was released (its record); when not recorded yet, the agent's `updatedAt`, or the
   * previous release's date if that is later.
   */
  releasedAt: string;
  previousVersion: string;
  previousReleasedAt: string;
  changes: RamChange[];
  /** True when some change is an addition or a widening. */
  gainedAccess: boolean;
}

/** Everything the build, the pages and the changes document say about one agent's releases. */
export interface AgentChanges {
  /** The version this build publishes (the agent's `version`). */
  version: string;
  /** The changes of this version against the previous one; absent when no earlier version is recorded. */
  latest?: VersionChanges;
  /** The changes of the earlier versions, newest first. */
  history: VersionChanges[];
  /**
   * The last release recorded in the history file, as the comparison read it: its `readOnlyOperations`
   * without those this build's evidence says write (src/core/releases/history.ts `recordSnapshot`).
   */
  lastRelease: ReleaseRecord;
  /** `readOnlyOperations` of this build's RAM (authoring data a card does not carry). */
  readOnlyOperations: string[];
  /** True while the "new permissions" notice shows: `latest` gained access within `noticeDays`. */
  notice: boolean;
}

function between(
  version: string,
  releasedAt: string,
  previous: ReleaseRecord,
  before: RamSnapshot,
  after: RamSnapshot,
): VersionChanges {
  const changes = compareRam(before, after);
  return {
    version,
    releasedAt,
    previousVersion: previous.version,
    previousReleasedAt: previous.releasedAt,
    changes,
    gainedAccess: changes.some(gainsAccess),
  };
}

/** Options of {@link agentChanges}. */
export interface AgentChangesOptions {
  /** The agent's `updatedAt` (git or SOURCE_DATE_EPOCH): the date of a version not recorded yet. */
  updatedAt: string;
  /** "Now" for the notice: SOURCE_DATE_EPOCH or the build time. */
  now: Date;
  /** publisher.yaml `releases.noticeDays`. */
  noticeDays: number;
  /** The agent's permission file as this build computed it, for the scopes of its accesses. */
  permissions?: Pick<AgentPermissions, 'accesses'>;
}

/**
 * The changes of `agent` given its `history`. This build's version is the newest: when the last record
 * is that version, it is compared with the record before it (the RAM built now may gain no access,
 * which {@link releaseDiagnostics} makes sure of), else with the last record.
 */
export function agentChanges(
  agent: AgentModel,
  model: ContentModel,
  history: ReleaseHistory,
  options: AgentChangesOptions,
): AgentChanges {
  const releases = history.releases;
  const last = releases[releases.length - 1]!;
  const current = currentSnapshot(agent, model, options.permissions);
  const version = agent.front.version;
  const recorded = last.version === version;
  const previous = recorded ? releases[releases.length - 2] : last;
  // A version not recorded yet dates from its last commit (updatedAt), never before the release it follows.
  const releasedAt = recorded
    ? last.releasedAt
    : previous && Date.parse(previous.releasedAt) > Date.parse(options.updatedAt)
      ? previous.releasedAt
      : options.updatedAt;
  // Records are read with this build's evidence on what writes (recordSnapshot): a correction is no change.
  const now = { agent, model };
  const latest = previous
    ? between(version, releasedAt, previous, recordSnapshot(previous, now), current)
    : undefined;
  const history_: VersionChanges[] = [];
  const olderEnd = recorded ? releases.length - 2 : releases.length - 1;
  for (let i = olderEnd; i >= 1; i--) {
    const r = releases[i]!;
    const p = releases[i - 1]!;
    history_.push(between(r.version, r.releasedAt, p, recordSnapshot(p, now), recordSnapshot(r, now)));
  }
  const lastReadOnly = correctedReadOnly(last, agent, model);
  const { readOnlyOperations: _recorded, ...lastRest } = last;
  const lastRelease: ReleaseRecord = {
    ...lastRest,
    ...(lastReadOnly && lastReadOnly.length > 0 ? { readOnlyOperations: lastReadOnly } : {}),
  };
  const age = options.now.getTime() - Date.parse(releasedAt);
  const notice =
    latest !== undefined && latest.gainedAccess && age >= 0 && age < options.noticeDays * 86_400_000;
  return {
    version,
    ...(latest ? { latest } : {}),
    history: history_,
    lastRelease,
    readOnlyOperations: current.readOnlyOperations ? [...current.readOnlyOperations] : [],
    notice,
  };
}

/**
 * The release checks of `agent` (`npm run check` and the build): when its last recorded release has the
 * same `version`, every gain since it (an added access or resource, a widening) is a
 * `RELEASE_WIDENED_WITHOUT_VERSION` error at the access it concerns (file, field path, line), naming the
 * agent, the access and the field. Narrowings and rewordings are fine. A `version` that an earlier
 * release, not the last, recorded is a `RELEASE_VERSION_BEHIND` error at `version`.
 */
export function releaseDiagnostics(
  agent: AgentModel,
  model: ContentModel,
  history: ReleaseHistory,
): Diagnostic[] {
  const last = history.releases[history.releases.length - 1]!;
  const earlier = history.releases.slice(0, -1).find((r) => r.version === agent.front.version);
  if (earlier) {
    // Going back to an earlier release would compare this RAM with the last one as if it were new,
    // so a widening since the release it names would go unchecked (and "What changed" would be wrong).
    const message = `agent ${agent.slug}'s version ${earlier.version} is an earlier release: ${history.file} records it on ${earlier.releasedAt}, then ${last.version} on ${last.releasedAt}. A build publishes the last release or a newer version: set "version" in ${agent.file} to ${last.version}, or raise it above and run ${npmCommand('release', model.root)}`;
    return [
      agent.source.diagnostic(
        { code: 'RELEASE_VERSION_BEHIND', severity: 'error', message, path: 'version' },
        ['version'],
      ),
    ];
  }
  if (last.version !== agent.front.version) return [];
  const current = currentSnapshot(agent, model);
  const gains = compareRam(recordSnapshot(last, { agent, model }), current).filter(gainsAccess);
  const out: Diagnostic[] = [];
  const accessOf = (id: string) => agent.accesses.find((a) => a.access.id === id);
  const operations = new Map(agent.ram.operations.map((o) => [o.id, o]));
  // A widening made in a resource file (an operation's method, a resource's owner) is reported at the
  // access it widens, in the agent file; the message names the file where it was made.
  const changedElsewhere = (change: RamChange): string => {
    const operation = change.item === 'access' ? accessOf(change.id)?.access.operation : undefined;
    const resource =
      change.item === 'resource' ? change.id : operation ? operations.get(operation)?.resource : undefined;
    const file =
      change.field === 'effect' && operation
        ? model.operations.get(operation)?.origin.source.file
        : change.field === 'owner' && resource
          ? model.resources.get(resource)?.origin.source.file
          : undefined;
    return file && file !== agent.file ? ` (changed in ${file})` : '';
  };
  for (const change of gains) {
    if (change.item === 'operation') continue; // an added operation comes with the access that uses it
    let found = change.item === 'access' ? accessOf(change.id) : undefined;
    if (change.item === 'resource') {
      found = agent.accesses.find((a) => operations.get(a.access.operation)?.resource === change.id);
    }
    const what =
      change.kind === 'added'
        ? change.item === 'access'
          ? `access ${change.id} was added`
          : `resource ${change.id} was added${change.label?.owner === 'THIRD_PARTY' ? ' (a new outside service)' : ''}`
        : `${change.item} ${change.id}: ${change.field} widened from ${JSON.stringify(change.from)} to ${JSON.stringify(change.to)}${changedElsewhere(change)}`;
    const message = `agent ${agent.slug} gained access since its release ${last.version} of ${last.releasedAt} (${history.file}) without a new version: ${what}; raise "version" in ${agent.file}, then run ${npmCommand('release', model.root)}`;
    const field =
      change.field &&
      ['identityUsed', 'confirmationRequired', 'necessity', 'operation'].includes(change.field)
        ? [change.field]
        : change.field === 'effect' || change.field === 'owner'
          ? ['operation']
          : [];
    if (found) {
      const at = [...found.origin.path, ...field];
      out.push(
        found.origin.source.diagnostic(
          { code: 'RELEASE_WIDENED_WITHOUT_VERSION', severity: 'error', message, path: formatPath(at) },
          at,
        ),
      );
    } else {
      out.push(
        agent.source.diagnostic(
          { code: 'RELEASE_WIDENED_WITHOUT_VERSION', severity: 'error', message, path: 'version' },
          ['version'],
        ),
      );
    }
  }
  return out;
}

/**
 * The changes document published at {@link changesPath} (docs/releases.md): JSON with the agent's
 * identifier and version, the changes of this version (`previousVersion`, `changes`, `gainedAccess`), the
 * earlier ones (`history`), the last recorded release in full (so a verifier can hold it against the
 * card) and the `readOnlyOperations` of the card's RAM (so a reader can tell reads from writes of MCP and
 * A2A operations). Absent members are left out; no list is empty.
 */
export function changesDocument(identifier: string, changes: AgentChanges): Record<string, unknown> {
  const version = (v: VersionChanges) => ({
    version: v.version,
    releasedAt: v.releasedAt,
    previousVersion: v.previousVersion,
    previousReleasedAt: v.previousReleasedAt,
    gainedAccess: v.gainedAccess,
    ...(v.changes.length > 0 ? { changes: v.changes } : {}),
  });
  const { lastRelease } = changes;
  return {
    format: CHANGES_FORMAT,
    identifier,
    version: changes.version,
    gainedAccess: changes.latest?.gainedAccess ?? false,
    ...(changes.latest ? { latest: version(changes.latest) } : {}),
    ...(changes.history.length > 0 ? { history: changes.history.map(version) } : {}),
    ...(changes.readOnlyOperations.length > 0 ? { readOnlyOperations: changes.readOnlyOperations } : {}),
    lastRelease: {
      version: lastRelease.version,
      releasedAt: lastRelease.releasedAt,
      ram: lastRelease.ram,
      ...(lastRelease.readOnlyOperations ? { readOnlyOperations: lastRelease.readOnlyOperations } : {}),
      ...(lastRelease.scopes ? { scopes: lastRelease.scopes } : {}),
    },
  };
}
