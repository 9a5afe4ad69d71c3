/**
 * A release history cannot silently lose what is already published (DESIGN.md §10; docs/releases.md
 * "History that cannot vanish"). The history files are content, so a pull request could delete
 * `content/releases/<slug>.json` or rewrite its last release to hide a widening. What was published is
 * outside its reach: the changes document of each agent (`/agents/<slug>/ram-changes.json`) in the
 * previous build's output folder, which names every recorded version with its date and holds the last
 * recorded release in full. Each version it names must still be recorded, on the same date, and its last
 * release with the same RAM and scopes; else `RELEASE_HISTORY_LOST`.
 */
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { ContentModel } from '../model/content.js';
import type { Diagnostic } from '../util/errors.js';
import { readRegularFile } from '../project/regular-file.js';
import { changesPath } from './agent-changes.js';
import { historyFile } from './history.js';
import type { ReleaseHistory } from '../model/release-record.js';

/** Largest changes document read (as the history files, 8 MiB). */
const MAX_CHANGES_BYTES = 8 * 1024 * 1024;

/** What a published changes document says was recorded: version → date, and the last release. */
interface PublishedReleases {
  /** Where it was read, for messages. */
  shown: string;
  recorded: Map<string, string>;
  last?: { version: string; ram: unknown; scopes?: unknown };
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads the recorded versions out of a changes document (format `ardsite-ram-changes/1`), loosely. */
function recordedIn(document: unknown, shown: string): PublishedReleases | undefined {
  if (!isObject(document)) return undefined;
  const recorded = new Map<string, string>();
  const note = (version: unknown, at: unknown) => {
    if (typeof version === 'string' && typeof at === 'string') recorded.set(version, at);
  };
  const last = isObject(document.lastRelease) ? document.lastRelease : undefined;
  note(last?.version, last?.releasedAt);
  const versions = [
    ...(isObject(document.latest) ? [document.latest] : []),
    ...(Array.isArray(document.history) ? document.history.filter(isObject) : []),
  ];
  for (const v of versions) {
    note(v.previousVersion, v.previousReleasedAt);
    // The latest version is recorded only when it is the last release (else it was a build's version).
    if (v !== document.latest || v.version === last?.version) note(v.version, v.releasedAt);
  }
  return {
    shown,
    recorded,
    ...(last && typeof last.version === 'string'
      ? { last: { version: last.version, ram: last.ram, scopes: last.scopes } }
      : {}),
  };
}

/** The changes document of `slug` in `publishedDir`, when there is a readable one. */
function publishedReleases(publishedDir: string, slug: string): PublishedReleases | undefined {
  const file = path.join(publishedDir, ...changesPath(slug).split('/').filter(Boolean));
  const shown = path.join(path.basename(publishedDir), changesPath(slug));
  try {
    const read = readRegularFile(file, MAX_CHANGES_BYTES);
    if (read.kind !== 'bytes') return undefined;
    return recordedIn(JSON.parse(read.bytes.toString('utf8')) as unknown, shown);
  } catch {
    return undefined;
  }
}

/** The JSON value of `value` (what a document would hold), for comparing with a parsed one. */
const asJson = (value: unknown): unknown =>
  value === undefined ? undefined : JSON.parse(JSON.stringify(value));

/**
 * The `RELEASE_HISTORY_LOST` errors of `model`'s agents against the site published in `publishedDir`
 * (a built output folder): for each agent of the model whose changes document is there, its history file
 * must exist and record every version the document names, on the same date, and the document's last
 * release with the same RAM and scopes. An agent that is gone from the content is not checked (it is no
 * longer published), nor one without a document there. Never throws.
 * @param histories slug → history as `loadReleaseHistories` read them.
 */
export function publishedHistoryDiagnostics(
  model: ContentModel,
  histories: ReadonlyMap<string, ReleaseHistory>,
  publishedDir: string,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const agent of model.agents) {
    const published = publishedReleases(publishedDir, agent.slug);
    if (!published || published.recorded.size === 0) continue;
    const history = histories.get(agent.slug);
    const file = history?.file ?? historyFile(agent.slug);
    const lost = (why: string) =>
      out.push({
        code: 'RELEASE_HISTORY_LOST',
        severity: 'error',
        message: `${why}, but the published site (${published.shown}) records it: a release history only grows. Restore ${file} from git (git log -- ${file}); compare with the live site with npm run diff`,
        file,
      });
    if (!history) {
      lost(
        `agent ${agent.slug} has no release history any more (versions ${[...published.recorded.keys()].join(', ')})`,
      );
      continue;
    }
    const byVersion = new Map(history.releases.map((r) => [r.version, r]));
    for (const [version, releasedAt] of published.recorded) {
      const record = byVersion.get(version);
      if (!record) lost(`version ${version} of ${releasedAt} is no longer recorded`);
      else if (record.releasedAt !== releasedAt)
        lost(`version ${version} is recorded on ${record.releasedAt} now, not ${releasedAt}`);
    }
    const last = published.last;
    const record = last && byVersion.get(last.version);
    if (last && record) {
      if (!isDeepStrictEqual(asJson(record.ram), last.ram))
        lost(`the RAM recorded for version ${last.version} was rewritten`);
      else if (!isDeepStrictEqual(asJson(record.scopes), last.scopes))
        lost(`the scopes recorded for version ${last.version} were rewritten`);
    }
  }
  return out;
}
