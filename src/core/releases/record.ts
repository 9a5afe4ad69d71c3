/**
 * `npm run release` (DESIGN.md §9 "Releases"; docs/releases.md): appends to each agent's release history
 * the version it publishes now, with its RAM and the authoring data a comparison needs. A version already
 * recorded is never rewritten: the same RAM again is nothing to do; a narrower RAM under the last recorded
 * version stays unrecorded until the next version (the build accepts narrowing); a version recorded
 * earlier in the history (not last) is refused.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ContentModel } from '../content/model.js';
import type { Diagnostic } from '../errors.js';
import { isoSeconds } from '../git-time.js';
import { compareRam, gainsAccess } from './compare.js';
import { currentSnapshot, historyFile, recordSnapshot, writeHistory } from './history.js';
import type { ReleaseRecord } from './release-record.js';

/** What {@link recordReleases} did for one agent. */
export interface ReleaseOutcome {
  slug: string;
  version: string;
  /** `recorded`: appended; `unchanged`: this version is already recorded with this RAM; `narrowed`: already
   * recorded, the RAM built now is narrower and is not recorded; `refused`: see `diagnostic`. */
  status: 'recorded' | 'unchanged' | 'narrowed' | 'refused';
  /** Project-relative history file. */
  file: string;
  diagnostic?: Diagnostic;
}

/**
 * Records the current release of every agent of `model` (checked content, with `model.releases` read by
 * `loadAndCheck`) at `releasedAt` (SOURCE_DATE_EPOCH or now). With `write: false` nothing is written
 * (`--dry-run`). Returns one outcome per agent, in the model's order.
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
      const same =
        isDeepStrictEqual(lastSnapshot.ram, current.ram) &&
        isDeepStrictEqual(last.readOnlyOperations ?? [], current.readOnlyOperations ?? []);
      const gained = compareRam(lastSnapshot, current).some(gainsAccess);
      if (gained) {
        outcomes.push(refused('recorded with less access than it has now'));
      } else outcomes.push({ slug: agent.slug, version, file, status: same ? 'unchanged' : 'narrowed' });
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
