/**
 * The view-models of what changed between an agent's versions (DESIGN.md §9 "Releases"): the permission
 * page's "What changed in <version>" and its earlier changes, and the short "new permissions" notice of
 * the agent page and the index. Computed from the build's {@link AgentChanges} (src/core/releases/), in
 * the words of ./words.ts.
 */
import { byImportance, type RamChange } from '../releases/compare.js';
import type { AgentChanges, VersionChanges } from '../releases/agent-changes.js';
import type { AgentBuild } from '../site.js';
import { permissionsPagePath } from './paths.js';
import {
  changeSentence,
  CHANGE_HISTORY_HEADING,
  historyVersionText,
  NEW_PERMISSIONS_LINK,
  newPermissionsNotice,
  whatChangedHeading,
  whatChangedIntro,
} from './words.js';

/** The HTML id of the permission page's "What changed" section (the notice links to it). */
export const WHAT_CHANGED_ID = 'what-changed';

/** The sentences of one version's changes. */
export interface VersionChangesView {
  /** "Version 1.1.0 (3 March 2026), compared with 1.0.0:" (earlier changes only). */
  text: string;
  /** One sentence per change that a visitor cares about: gains and removals first. */
  items: Array<{ text: string; gained: boolean }>;
}

/** The permission page's changes section. */
export interface ChangesView {
  /** Present when this version added or widened access: "What changed in 1.1.0" and its sentences. */
  latest?: { heading: string; intro: string; items: VersionChangesView['items'] };
  /** The earlier versions' changes, newest first (only those with changes a visitor sees). */
  history: VersionChangesView[];
  historyHeading: string;
}

/** The short notice on the agent page and the index. */
export interface NewPermissionsNoticeView {
  text: string;
  linkText: string;
  /** The permission page's "What changed" section. */
  href: string;
}

/** Changes a visitor sees on the permission page: not the bare definition of an operation. */
function visible(change: RamChange): boolean {
  return change.item !== 'operation';
}

function items(changes: readonly RamChange[]): VersionChangesView['items'] {
  return byImportance(changes.filter(visible)).map((c) => ({
    text: changeSentence(c),
    gained: c.kind === 'added' || c.kind === 'widened',
  }));
}

function historyView(v: VersionChanges): VersionChangesView {
  return { text: historyVersionText(v.version, v.releasedAt, v.previousVersion), items: items(v.changes) };
}

/**
 * The changes section of `build`'s permission page, or undefined when the agent has no release history
 * or nothing to show. "What changed in <version>" shows only when this version gained access (an added
 * or widened access), as the issue asks; its other changes are listed with it.
 */
export function changesView(build: Pick<AgentBuild, 'changes'>): ChangesView | undefined {
  const changes: AgentChanges | undefined = build.changes;
  if (!changes) return undefined;
  const latest = changes.latest?.gainedAccess
    ? {
        heading: whatChangedHeading(changes.version),
        intro: whatChangedIntro(changes.latest.previousVersion, changes.latest.previousReleasedAt),
        items: items(changes.latest.changes),
      }
    : undefined;
  const history = changes.history.map(historyView).filter((v) => v.items.length > 0);
  if (!latest && history.length === 0) return undefined;
  return { ...(latest ? { latest } : {}), history, historyHeading: CHANGE_HISTORY_HEADING };
}

/** The "new permissions" notice of `build`, while its version is new (publisher.yaml `releases.noticeDays`). */
export function newPermissionsNoticeView(
  build: Pick<AgentBuild, 'changes' | 'agent'>,
): NewPermissionsNoticeView | undefined {
  const changes = build.changes;
  if (!changes?.notice || !changes.latest) return undefined;
  return {
    text: newPermissionsNotice(changes.version, changes.latest.releasedAt),
    linkText: NEW_PERMISSIONS_LINK,
    href: `${permissionsPagePath(build.agent.slug)}#${WHAT_CHANGED_ID}`,
  };
}
