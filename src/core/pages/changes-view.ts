/**
 * The view-models of what changed between an agent's versions (DESIGN.md §9 "Releases"): the permission
 * page's "What changed in <version>" and its earlier changes, and the short "new permissions" notice of
 * the agent page and the index. Computed from the build's {@link AgentChanges} (src/core/releases/), in
 * the words of the page's word table (./words/).
 */
import { byImportance, type RamChange } from '../releases/compare.js';
import type { AgentChanges, VersionChanges } from '../releases/agent-changes.js';
import type { AgentModel } from '../model/content.js';
import type { AgentBuild } from '../site/site-build.js';
import { PageTexts, type PageText, type PageTextsModel } from './page-texts.js';
import { permissionsPagePath } from '../site/page-paths.js';
import type { PageWords } from '../i18n/words/index.js';

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

/**
 * Default-language text → the page's language: the agent's resource names and operation descriptions
 * (DESIGN.md §9 "Languages"), for the names a change's label carries as the release recorded them.
 */
export type PageNames = ReadonlyMap<string, string>;

/**
 * The {@link PageNames} of `agent`'s RAM in `language`: each resource's `displayName` and each operation's
 * `description` given in that language (src/core/pages/page-texts.ts). Empty on a site in one language.
 * Pure.
 */
export function pageNames(
  agent: Pick<AgentModel, 'ram'>,
  model: PageTextsModel,
  language: string,
): Map<string, string> {
  const texts = new PageTexts(model, language);
  const names = new Map<string, string>();
  const add = (text: string, shown: PageText) => {
    if (shown.lang === undefined && shown.text !== text) names.set(text, shown.text);
  };
  for (const r of agent.ram.resources) add(r.displayName, texts.resource(r, 'displayName'));
  for (const o of agent.ram.operations) add(o.description, texts.operation(o));
  return names;
}

/** `change` with the names of its label in the page's language, where `names` knows them. */
function inPageLanguage(change: RamChange, names: PageNames): RamChange {
  const label = change.label;
  if (!label) return change;
  const translated = { ...label };
  if (label.whatItDoes !== undefined) translated.whatItDoes = names.get(label.whatItDoes) ?? label.whatItDoes;
  if (label.resource !== undefined) translated.resource = names.get(label.resource) ?? label.resource;
  return { ...change, label: translated };
}

function items(changes: readonly RamChange[], w: PageWords, names: PageNames): VersionChangesView['items'] {
  return byImportance(changes.filter(visible)).map((c) => ({
    text: w.changes.sentence(inPageLanguage(c, names)),
    gained: c.kind === 'added' || c.kind === 'widened',
  }));
}

function historyView(v: VersionChanges, w: PageWords, names: PageNames): VersionChangesView {
  return {
    text: w.changes.historyVersion(v.version, v.releasedAt, v.previousVersion),
    items: items(v.changes, w, names),
  };
}

/**
 * The changes section of `build`'s permission page, or undefined when the agent has no release history
 * or nothing to show. "What changed in <version>" shows only when this version gained access (an added
 * or widened access); its other changes are listed with it. In the words of `w`, with the resource and
 * operation names of `names` ({@link pageNames}) in the page's language where the publisher gave them.
 */
export function changesView(
  build: Pick<AgentBuild, 'changes'>,
  w: PageWords,
  names: PageNames = new Map(),
): ChangesView | undefined {
  const changes: AgentChanges | undefined = build.changes;
  if (!changes) return undefined;
  const latest = changes.latest?.gainedAccess
    ? {
        heading: w.changes.heading(changes.version),
        intro: w.changes.intro(changes.latest.previousVersion, changes.latest.previousReleasedAt),
        items: items(changes.latest.changes, w, names),
      }
    : undefined;
  const history = changes.history.map((v) => historyView(v, w, names)).filter((v) => v.items.length > 0);
  if (!latest && history.length === 0) return undefined;
  return { ...(latest ? { latest } : {}), history, historyHeading: w.changes.historyHeading };
}

/**
 * The "new permissions" notice of `build`, while its version is new (publisher.yaml `releases.noticeDays`),
 * linking to the permission page of the pages with path prefix `prefix` (`''`, `/pt-br`).
 */
export function newPermissionsNoticeView(
  build: Pick<AgentBuild, 'changes' | 'agent'>,
  w: PageWords,
  prefix = '',
): NewPermissionsNoticeView | undefined {
  const changes = build.changes;
  if (!changes?.notice || !changes.latest) return undefined;
  return {
    text: w.changes.notice(changes.version, changes.latest.releasedAt),
    linkText: w.changes.noticeLink,
    href: `${permissionsPagePath(build.agent.slug, prefix)}#${WHAT_CHANGED_ID}`,
  };
}
