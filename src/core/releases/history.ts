/**
 * The release history a publisher keeps in git (DESIGN.md §9 "Releases"; the format is documented in
 * docs/releases.md): one file per agent, `content/releases/<slug>.json`, holding the releases recorded by
 * `npm run release`, oldest first. Each release is the agent's `version`, the time it was recorded, the RAM
 * the card published (the RAM proposal, camelCase JSON) and the authoring data a RAM does not carry but a
 * comparison needs (`readOnlyOperations`, the permission set's `scopes`). Append-only: a recorded version
 * is never rewritten.
 */
import { lstat, readFile, readdir, realpath } from 'node:fs/promises';
import { writeContained } from '../project/contained-write.js';
import { pathSlug } from '../project/path-slug.js';
import { isWithin } from '../util/within.js';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { z } from 'zod';
import type { Diagnostic } from '../util/errors.js';
import { invalidJsonDiagnostic } from '../util/json-position.js';
import { jsonDepthExceeded } from '../util/json.js';
import { DEFAULT_LIMITS } from '../schema/publisher.js';
import type { AgentModel, ContentModel } from '../model/content.js';
import { SourceDoc } from '../model/source.js';
import type { Ram } from '../schema/ram.js';
import { RELEASE_HISTORY_FORMAT, ReleaseHistorySchema, type ReleaseRecordSchema } from '../schema/release.js';
import type { AgentPermissions } from '../model/permissions.js';
import { agentPermissions } from '../ram/sets.js';
import { readOnlyOperationIds, writesByEvidence } from '../ram/ram-effects.js';
import type { RamSnapshot } from './compare.js';
import { scopesOfPermissions } from './scopes.js';
import type { ReleaseHistory, ReleaseRecord } from '../model/release-record.js';

export { RELEASE_HISTORY_FORMAT };

/** The project-relative folder of the release histories. */
export const RELEASES_DIR = 'content/releases';

/** Largest release history file read, in bytes (a history of hundreds of versions fits). */
const MAX_HISTORY_BYTES = 8 * 1024 * 1024;

/** The project-relative path of `slug`'s history. */
export function historyFile(slug: string): string {
  return `${RELEASES_DIR}/${slug}.json`;
}

/**
 * The comparison side of a recorded release. With this build's `now` (the agent and its model), an
 * operation the record lists as only reading is left out of its `readOnlyOperations` when the agent still
 * has the very same operation and this build's evidence says it writes (src/core/ram/ram-effects.ts
 * `writesByEvidence`: its method, its stored spec): the record repeated the author's word, which the
 * evidence contradicts, and the operation was no read then either. Telling it truly now is a correction, not
 * a widening, so it is neither a "What changed" line nor `RELEASE_WIDENED_WITHOUT_VERSION`.
 */
export function recordSnapshot(
  record: ReleaseRecord,
  now?: { agent: AgentModel; model: Pick<ContentModel, 'permissions'> },
): RamSnapshot {
  const readOnly = now ? correctedReadOnly(record, now.agent, now.model) : record.readOnlyOperations;
  return {
    ram: record.ram,
    ...(readOnly && readOnly.length > 0 ? { readOnlyOperations: readOnly } : {}),
    ...(record.scopes ? { scopes: record.scopes } : {}),
  };
}

/** `record.readOnlyOperations` without those this build's evidence says write ({@link recordSnapshot}). */
export function correctedReadOnly(
  record: ReleaseRecord,
  agent: AgentModel,
  model: Pick<ContentModel, 'permissions'>,
): string[] | undefined {
  if (!record.readOnlyOperations) return undefined;
  const current = new Map(agent.ram.operations.map((o) => [o.id, o]));
  const recorded = new Map(record.ram.operations.map((o) => [o.id, o]));
  return record.readOnlyOperations.filter((id) => {
    const op = current.get(id);
    const same = op !== undefined && isDeepStrictEqual(JSON.parse(JSON.stringify(op)), recorded.get(id));
    return !(same && writesByEvidence(op, model.permissions));
  });
}

/**
 * The comparison side of `agent` as this build publishes it: its emitted RAM, the ids of its operations
 * the author marked `readOnly: true`, and each access's least-privilege scopes from its permission data
 * (`permissions` when given, else derived from the stored specs in `model.permissions`).
 */
export function currentSnapshot(
  agent: AgentModel,
  model: ContentModel,
  permissions?: Pick<AgentPermissions, 'accesses'>,
): RamSnapshot {
  const readOnly = readOnlyOperationIds(agent.ram.operations, model.operations, model.permissions);
  const derived = permissions ?? (model.permissions ? agentPermissions(agent, model.permissions) : undefined);
  const scopes = derived ? scopesOfPermissions(derived) : undefined;
  return {
    ram: agent.ram,
    ...(readOnly.length > 0 ? { readOnlyOperations: readOnly } : {}),
    ...(scopes && Object.keys(scopes).length > 0 ? { scopes } : {}),
  };
}

function toRecord(input: z.infer<typeof ReleaseRecordSchema>): ReleaseRecord {
  const ram = input.ram as Partial<Ram>;
  return {
    version: input.version,
    releasedAt: input.releasedAt,
    ram: {
      resources: ram.resources ?? [],
      operations: ram.operations ?? [],
      resourceAccesses: (ram.resourceAccesses ?? []).map((a) => ({
        ...a,
        confirmationRequired: a.confirmationRequired ?? false,
      })),
    } as Ram,
    ...(input.readOnlyOperations ? { readOnlyOperations: input.readOnlyOperations } : {}),
    ...(input.scopes ? { scopes: input.scopes } : {}),
  };
}

/**
 * Parses one history file's `text` (`file` is its project-relative path). Returns the history, or the
 * `JSON_INVALID` (at the line and column of the first error, ../json-position.ts) or
 * `RELEASE_HISTORY_INVALID` (at its field's line) diagnostics, or `CONTENT_TOO_DEEP` at the first bracket
 * nested past the content limit (`limits.depth`'s default), found before the text is parsed.
 * A version recorded twice is `RELEASE_HISTORY_INVALID` (the history is append-only, one record a version).
 */
export function parseHistory(file: string, text: string): ReleaseHistory | Diagnostic[] {
  // Bounded as content is (DESIGN.md §9): the nesting is measured on the text, before any parser recurses.
  const deep = jsonDepthExceeded(text, DEFAULT_LIMITS.depth);
  if (deep)
    return [
      {
        code: 'CONTENT_TOO_DEEP',
        severity: 'error',
        message: `lists and objects are nested more than ${DEFAULT_LIMITS.depth} levels deep here; a release history nests a few levels`,
        file,
        ...deep,
      },
    ];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // As a ramFile's (../content/read.ts): the place of the error, never V8's words, which quote the text.
    return [invalidJsonDiagnostic(file, text, error)];
  }
  const source = SourceDoc.fromJson(file, text, value);
  const parsed = ReleaseHistorySchema.safeParse(value);
  if (!parsed.success) {
    return parsed.error.issues.map((issue) =>
      source.diagnostic(
        {
          code: 'RELEASE_HISTORY_INVALID',
          severity: 'error',
          message: `${issue.message} (docs/releases.md describes the format)`,
          path: issue.path.map(String).join('.') || '(document)',
        },
        issue.path,
      ),
    );
  }
  const seen = new Map<string, number>();
  const problems: Diagnostic[] = [];
  parsed.data.releases.forEach((r, i) => {
    const first = seen.get(r.version);
    if (first !== undefined) {
      problems.push(
        source.diagnostic(
          {
            code: 'RELEASE_HISTORY_INVALID',
            severity: 'error',
            message: `version ${r.version} is recorded twice (releases[${first}] and releases[${i}]); a history holds one record per version`,
            path: `releases[${i}].version`,
          },
          ['releases', i, 'version'],
        ),
      );
    } else seen.set(r.version, i);
  });
  if (problems.length > 0) return problems;
  return { file, identifier: parsed.data.identifier, releases: parsed.data.releases.map(toRecord), source };
}

/**
 * Reads the histories of `slugs` from `<root>/content/releases/` (a missing folder or file: no history).
 * A file that is a symbolic link, resolves outside the project or is larger than 8 MiB is refused (the
 * project is a jail, DESIGN.md §9). Returns slug → history and the diagnostics of the files that failed.
 */
export async function loadReleaseHistories(
  root: string,
  slugs: Iterable<string>,
): Promise<{ histories: Map<string, ReleaseHistory>; diagnostics: Diagnostic[] }> {
  const histories = new Map<string, ReleaseHistory>();
  const diagnostics: Diagnostic[] = [];
  const folder = path.join(root, RELEASES_DIR);
  let names: Set<string>;
  try {
    names = new Set(await readdir(folder));
  } catch {
    return { histories, diagnostics };
  }
  const realRoot = await realpath(root);
  for (const slug of slugs) {
    if (!names.has(`${slug}.json`)) continue;
    const file = historyFile(slug);
    const absolute = path.join(root, file);
    try {
      const stat = await lstat(absolute);
      const real = await realpath(absolute);
      if (stat.isSymbolicLink() || !isWithin(realRoot, real))
        throw new Error('it is a link or resolves outside the project');
      if (stat.size > MAX_HISTORY_BYTES) throw new Error(`it is larger than ${MAX_HISTORY_BYTES} bytes`);
      const parsed = parseHistory(file, await readFile(absolute, 'utf8'));
      if (Array.isArray(parsed)) diagnostics.push(...parsed);
      else histories.set(slug, parsed);
    } catch (error) {
      diagnostics.push({
        code: 'FILE_UNREADABLE',
        severity: 'error',
        message: `cannot read the release history: ${(error as Error).message}`,
        file,
      });
    }
  }
  return { histories, diagnostics };
}

/** The stable text of a history file: 2-space JSON, key order as the format lists it, a final newline. */
export function serializeHistory(identifier: string, releases: readonly ReleaseRecord[]): string {
  const ordered = releases.map((r) => ({
    version: r.version,
    releasedAt: r.releasedAt,
    ram: r.ram,
    ...(r.readOnlyOperations ? { readOnlyOperations: r.readOnlyOperations } : {}),
    ...(r.scopes ? { scopes: r.scopes } : {}),
  }));
  return `${JSON.stringify({ format: RELEASE_HISTORY_FORMAT, identifier, releases: ordered }, null, 2)}\n`;
}

/** Writes `slug`'s history under `root` (creating `content/releases/`). */
export async function writeHistory(
  root: string,
  slug: string,
  identifier: string,
  releases: readonly ReleaseRecord[],
): Promise<void> {
  writeContained(root, historyFile(pathSlug(slug, 'agent slug')), serializeHistory(identifier, releases));
}
