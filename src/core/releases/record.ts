/**
 * `npm run release` (DESIGN.md §9 "Releases"; docs/releases.md): appends to each agent's release history
 * the version it publishes now, with its RAM and the authoring data a comparison needs. A version already
 * recorded is never rewritten: the same RAM again is nothing to do; a RAM under the last recorded version
 * that gains no access (narrower, corrected, reworded, or differing only where no access changes) stays
 * unrecorded until the next version (the build accepts it), and the outcome says which; a version recorded
 * earlier in the history (not last), or one recorded with less access than the agent has now, is refused.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ContentModel } from '../model/content.js';
import type { Diagnostic } from '../util/errors.js';
import { isoSeconds } from '../project/git-time.js';
import { writeMethodMarkedReadOnly } from '../ram/ram-effects.js';
import { compareRam, gainsAccess, type RamChange } from './compare.js';
import { currentSnapshot, historyFile, recordSnapshot, writeHistory } from './history.js';
import type { ReleaseRecord } from '../model/release-record.js';

/**
 * An operation the last release recorded as only reading (`readOnlyOperations`) that this build's evidence
 * says may change data, while it is still the very same operation (history.ts `correctedReadOnly`). The
 * card now says it may change data: a correction of what the record said, not a change of what the agent
 * can do (it could always change data through it), so neither a narrowing nor a gain.
 */
export interface CorrectedOperation {
  /** The operation's id. */
  id: string;
  /** Its own HTTP method (POST, PUT, PATCH, DELETE) when that says it writes; absent: its stored spec does. */
  method?: string;
}

/**
 * What {@link recordReleases} did for one agent. The statuses of a version already recorded as the last
 * release, with a RAM built now that gains no access (`unchanged` … `differs`), are exclusive and name the
 * strongest fact, in this order: something was removed or narrowed (`narrowed`), else the record was
 * corrected (`corrected`), else only wording changed (`reworded`), else the RAM differs where no
 * comparison of docs/releases.md looks (`differs`: an order, an `operationId`, a spec link).
 */
export interface ReleaseOutcome {
  slug: string;
  version: string;
  /**
   * `recorded`: appended; `unchanged`: this version is already recorded with this RAM; `narrowed`: already
   * recorded, the RAM built now has an access, operation or resource removed or narrowed (compare.ts) and is
   * not recorded; `corrected`: already recorded, the RAM built now only tells truly what `corrected` lists;
   * `reworded`: already recorded, only descriptions, justifications, names or links changed; `differs`:
   * already recorded, the RAM differs without any change compare.ts counts; `refused`: see `diagnostic`.
   */
  status: 'recorded' | 'unchanged' | 'narrowed' | 'corrected' | 'reworded' | 'differs' | 'refused';
  /** Project-relative history file. */
  file: string;
  /** On an already recorded version: the operations its record lists as only reading that change data. */
  corrected?: CorrectedOperation[];
  diagnostic?: Diagnostic;
}

/** The status of an already recorded version whose RAM built now gains nothing ({@link ReleaseOutcome}). */
function keptStatus(
  changes: readonly RamChange[],
  corrected: readonly CorrectedOperation[],
  same: boolean,
): ReleaseOutcome['status'] {
  if (changes.some((c) => c.kind === 'removed' || c.kind === 'narrowed')) return 'narrowed';
  if (corrected.length > 0) return 'corrected';
  if (changes.length > 0) return 'reworded';
  return same ? 'unchanged' : 'differs';
}

/**
 * Records the current release of every agent of `model` (checked content, with `model.releases` read by
 * `loadAndCheck`) at `releasedAt` (SOURCE_DATE_EPOCH or now). With `write: false` nothing is written
 * (`--dry-run`). Returns one outcome per agent, in the model's order. Throws only when a history file
 * cannot be written.
 */
export async function recordReleases(
  model: ContentModel,
  releasedAt: Date,
  options: { write?: boolean } = {},
): Promise<ReleaseOutcome[]> {
  const outcomes: ReleaseOutcome[] = [];
  for (const agent of model.agents) {
    const version = agent.front.version;
    const file = historyFile(agent.slug);
    const history = model.releases?.get(agent.slug);
    const releases: ReleaseRecord[] = history ? [...history.releases] : [];
    const current = currentSnapshot(agent, model);
    const index = releases.findIndex((r) => r.version === version);
    const refused = (why: string): ReleaseOutcome => ({
      slug: agent.slug,
      version,
      file,
      status: 'refused',
      diagnostic: {
        code: 'RELEASE_VERSION_RECORDED',
        severity: 'error',
        message: `agent ${agent.slug}: version ${version} is ${why}; give the agent a new version`,
        file: agent.file,
        path: 'version',
      },
    });
    if (index >= 0 && index < releases.length - 1) {
      outcomes.push(refused(`already recorded, before ${releases[releases.length - 1]!.version}`));
      continue;
    }
    if (index >= 0) {
      const last = releases[index]!;
      const lastSnapshot = recordSnapshot(last, { agent, model });
      const changes = compareRam(lastSnapshot, current);
      if (changes.some(gainsAccess)) {
        outcomes.push(refused('recorded with less access than it has now'));
        continue;
      }
      // Read as the comparison reads it, the record lists fewer reads when this build's evidence says one
      // of them writes: that is a correction (history.ts recordSnapshot), not a narrowing.
      const kept = new Set(lastSnapshot.readOnlyOperations ?? []);
      const operations = new Map(agent.ram.operations.map((o) => [o.id, o]));
      const corrected = (last.readOnlyOperations ?? [])
        .filter((id) => !kept.has(id))
        .map((id): CorrectedOperation => {
          const method = writeMethodMarkedReadOnly(operations.get(id)!, true);
          return { id, ...(method ? { method } : {}) };
        });
      const same =
        isDeepStrictEqual(last.ram, current.ram) &&
        isDeepStrictEqual(last.readOnlyOperations ?? [], current.readOnlyOperations ?? []);
      outcomes.push({
        slug: agent.slug,
        version,
        file,
        status: keptStatus(changes, corrected, same),
        ...(corrected.length > 0 ? { corrected } : {}),
      });
      continue;
    }
    releases.push({
      version,
      releasedAt: isoSeconds(releasedAt),
      ram: current.ram,
      ...(current.readOnlyOperations ? { readOnlyOperations: [...current.readOnlyOperations] } : {}),
      ...(current.scopes
        ? { scopes: Object.fromEntries(Object.entries(current.scopes).map(([k, v]) => [k, [...v]])) }
        : {}),
    });
    if (options.write !== false) await writeHistory(model.root, agent.slug, agent.identifier, releases);
    outcomes.push({ slug: agent.slug, version, file, status: 'recorded' });
  }
  return outcomes;
}
