/**
 * Content loading and checking in one call: what `npm run check`, the build and the dev server use.
 */
import type { Diagnostic } from '../util/errors.js';
import { checkPermissions } from '../ram/checks.js';
import { loadPermissionCatalog } from '../ram/catalog.js';
import { signInFindings } from '../ram/sign-in.js';
import type { PhaseTimer } from '../util/timings.js';
import { checkContent } from './checks.js';
import { checkNamedFiles } from './file-checks.js';
import { loadContent, type LoadOptions } from './load.js';
import type { ContentModel } from '../model/content.js';
import { releaseDiagnostics } from '../releases/agent-changes.js';
import { loadReleaseHistories } from '../releases/history.js';
import { publishedHistoryDiagnostics } from '../releases/published-history.js';

/** The model (when loadable) and every diagnostic of loading and checking, sorted by file and line. */
export interface CheckedContent {
  model: ContentModel | undefined;
  diagnostics: Diagnostic[];
}

/**
 * Loads `content/` and runs every check (DESIGN.md §1, §5), stored specs and permissions included (§9),
 * and reads the agents' release histories into `model.releases` (§9). Diagnostics are sorted by file, then line,
 * so one run lists every fault of every file in a stable order. Never throws on bad content.
 */
export async function loadAndCheck(
  options: LoadOptions & {
    /** Receives the time of reading the stored specs and resolving every operation (`specs/resolution`). */
    timer?: PhaseTimer;
    /**
     * A built site already published (the previous build's output folder): a release history that lost
     * a version it records is an error (`RELEASE_HISTORY_LOST`, src/core/releases/published-history.ts).
     */
    publishedDir?: string;
  },
): Promise<CheckedContent> {
  const { model, diagnostics } = await loadContent(options);
  if (model) {
    diagnostics.push(...checkContent(model), ...checkNamedFiles(model));
    for (const agent of model.agents) diagnostics.push(...signInFindings(agent));
    const loaded = await (options.timer
      ? options.timer.time('specs/resolution', () => loadPermissionCatalog(model))
      : loadPermissionCatalog(model));
    model.permissions = loaded.catalog;
    diagnostics.push(...loaded.diagnostics, ...checkPermissions(model));
    // The release histories (DESIGN.md §9 "Releases"): a widening under an unchanged version is an error.
    const { histories, diagnostics: historyProblems } = await loadReleaseHistories(
      model.root,
      model.agents.map((a) => a.slug),
    );
    diagnostics.push(...historyProblems);
    if (options.publishedDir !== undefined)
      diagnostics.push(...publishedHistoryDiagnostics(model, histories, options.publishedDir));
    model.releases = histories;
    for (const agent of model.agents) {
      const history = histories.get(agent.slug);
      if (history) diagnostics.push(...releaseDiagnostics(agent, model, history));
    }
  }
  diagnostics.sort(
    (a, b) =>
      (a.file ?? '').localeCompare(b.file ?? '') ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.column ?? 0) - (b.column ?? 0),
  );
  return { model, diagnostics };
}

/**
 * Lets go of the text and parsed value of every source document of `model` (./source.ts
 * `SourceDoc.release`): the agent files, their RAM files, the resource catalog, the entries and
 * publisher.yaml. What the pages render comes from the model's own fields, never from these; on a large
 * site they would otherwise stay in the heap through rendering. Diagnostics made
 * afterwards name the file without a line.
 */
export function releaseSourceTexts(model: ContentModel): void {
  model.publisherSource.release();
  for (const agent of model.agents) {
    agent.source.release();
    for (const access of agent.accesses) access.origin.source.release();
  }
  for (const r of model.resources.values()) r.origin.source.release();
  for (const o of model.operations.values()) o.origin.source.release();
  for (const e of model.entries) e.source.release();
}
