/**
 * The label atop the permission page (DESIGN.md §10 "Truth on pages"): like the privacy labels of app
 * stores, but about actions. For each service the agent reaches: its name, whose it is (one of the visitor's
 * own services, the publisher's, or an outside one), as whom the agent acts there, and each action in the
 * publisher's own words (the RAM proposal's `Operation.description`) with its facts: only reads, changes
 * data, may delete or overwrite (which may not be undone), asks first, optional, higher risk, reaches other
 * services; then the outside services that get data, named. The same facts give one line per service on the
 * index and the agent page.
 *
 * It is made from the page's own view ({@link PermissionView}), which is made from the signed card, its RAM
 * and the permission file: the label says nothing the page below it does not say.
 */
import type { ContentModel } from '../model/content.js';
import type { AgentBuild } from '../site/site-build.js';
import type { PageTree } from '../site/page-paths.js';
import {
  permissionView,
  type AccessView,
  type PageGroup,
  type PermissionView,
  type ResourceView,
} from './permissions.js';
import type { PageWords } from '../i18n/words/index.js';

/** One action of the agent on one service. */
export interface LabelAction {
  /** The access's anchor on the page (`#…`). */
  anchor: string;
  /** The action in the publisher's words, without its final period. */
  text: string;
  /** The language of `text` when it is not the page's (an untranslated text). */
  textLang?: string;
  /** Its facts, in the page's words ("changes data", "asks you first", "optional", …). */
  notes: string[];
  /** True when it acts as the visitor, may change data and does not ask first (DESIGN.md §6). */
  higherRisk: boolean;
  /** True when it may delete or overwrite data. */
  mayDelete: boolean;
  /** True when it may change data. */
  changesData: boolean;
}

/** One service of the label. */
export interface LabelService {
  /** The RAM `Resource.id`. */
  id: string;
  /** The resource's anchor on the page. */
  anchor: string;
  name: string;
  /** The language of `name` when it is not the page's. */
  nameLang?: string;
  group: PageGroup;
  /** Whose it is and as whom the agent acts there: "your account, as you". */
  who: string;
  actions: LabelAction[];
}

/** The label of one agent. */
export interface PermissionLabel {
  heading: string;
  services: LabelService[];
  /** "Some of your data goes to …", naming the outside services (the publisher's own ones included). */
  sendsTo?: string;
  /** The sentence pointing to the details below. */
  details: string;
}

/** The action's text without its final period (it is followed by its facts). */
function actionText(text: string): string {
  return text.trim().replace(/[.。]$/u, '');
}

/** The facts of one action, in `w`'s words, in a fixed order. */
function actionNotes(access: AccessView, w: PageWords['label']): string[] {
  const notes: string[] = [];
  notes.push(access.mayDelete ? w.mayDelete : access.mayChangeData ? w.changesData : w.onlyReads);
  if (access.asksFirst) notes.push(w.asksFirst);
  else if (access.mayChangeData) notes.push(w.withoutAsking);
  if (access.necessity === 'optional') notes.push(w.optional);
  if (access.reachesOutside) notes.push(w.reachesOutside);
  if (access.higherRisk) notes.push(w.higherRisk);
  return notes;
}

/** Whose a service is, and as whom the agent acts there. */
function whoText(
  resource: ResourceView,
  group: PageGroup,
  organization: string,
  w: PageWords['label'],
): string {
  const whose = group === 'yours' ? w.yours : group === 'publisher' ? w.publisher(organization) : w.outside;
  const asYou = resource.accesses.some((a) => a.actsAsYou);
  const asItself = resource.accesses.some((a) => !a.actsAsYou);
  const as = asYou && asItself ? w.asBoth : asYou ? w.asYou : w.asItself;
  return `${whose}, ${as}`;
}

/**
 * The actions of one service: each access's action without its final period, told apart by as whom it acts
 * when another access does the same action with another identity; two accesses whose lines would read the
 * same (the same action and facts) are one line.
 */
function labelActions(resource: ResourceView, words: PageWords): LabelAction[] {
  const seen = new Set<string>();
  const actions: LabelAction[] = [];
  for (const a of resource.accesses) {
    const action = actionText(a.whatItDoes);
    const twoIdentities = resource.accesses.some(
      (o) => o.whatItDoes === a.whatItDoes && o.actsAsYou !== a.actsAsYou,
    );
    const text = twoIdentities
      ? words.permissions.sameActionAs(action, a.actsAsYou ? 'you' : 'itself')
      : action;
    const notes = actionNotes(a, words.label);
    const key = `${text}\u0000${notes.join('\u0000')}`;
    if (seen.has(key)) continue;
    seen.add(key);
    actions.push({
      anchor: a.anchor,
      text,
      ...(a.whatItDoesLang && !twoIdentities ? { textLang: a.whatItDoesLang } : {}),
      notes,
      higherRisk: a.higherRisk,
      mayDelete: a.mayDelete,
      changesData: a.mayChangeData,
    });
  }
  return actions;
}

/**
 * The label of the permission page `view` (its groups in page order: the visitor's own services first).
 * `organization` names the publisher for its own services. Pure; an agent with no access has no service.
 */
export function permissionLabel(view: PermissionView, organization: string): PermissionLabel {
  const w = view.words.label;
  const services: LabelService[] = view.groups.flatMap((group) =>
    group.resources.map((r) => ({
      id: r.id,
      anchor: r.anchor,
      name: r.displayName,
      ...(r.displayNameLang ? { nameLang: r.displayNameLang } : {}),
      group: group.key,
      who: whoText(r, group.key, organization, w),
      actions: labelActions(r, view.words),
    })),
  );
  const outside = services.filter((s) => s.group !== 'yours').map((s) => s.name);
  return {
    heading: w.heading,
    services,
    ...(outside.length > 0 ? { sendsTo: w.sendsTo(outside) } : {}),
    details: w.details,
  };
}

/** A label made by {@link agentLabel}, with the arguments it was made from. */
interface MadeLabel {
  model: object;
  words: PageWords | undefined;
  /** `language NUL prefix` of the tree, or undefined without one. */
  tree: string | undefined;
  label: PermissionLabel | undefined;
}

/**
 * The labels made so far, per agent build: the index page and the agent page show the same label, and
 * making it costs a whole permission view. Held as long as the build is: the labels are small beside it.
 */
const labelsMade = new WeakMap<AgentBuild, MadeLabel[]>();

/**
 * The label of one agent for the index and the agent page (their one line per service), in `words` and the
 * language of `tree` as {@link permissionView} takes them; undefined for an agent with no access (those pages
 * then say so in a sentence). Made once per build, model, words and tree (language and prefix): a second
 * call returns the same object, which callers must not change. Made from the view's summary
 * ({@link permissionView} `'summary'`: no grants, the costliest part of the page). Pure otherwise.
 */
export function agentLabel(
  build: AgentBuild,
  model: Pick<
    ContentModel,
    'resources' | 'operations' | 'permissions' | 'publisher' | 'publisherSource' | 'texts'
  >,
  words?: PageWords,
  tree?: PageTree,
): PermissionLabel | undefined {
  const treeKey = tree && `${tree.language}\u0000${tree.prefix}`;
  const made = labelsMade.get(build) ?? [];
  const found = made.find((m) => m.model === model && m.words === words && m.tree === treeKey);
  if (found) return found.label;
  const view = permissionView(build, model, words, tree, 'summary');
  const label = view.hasAccess ? permissionLabel(view, model.publisher.organization) : undefined;
  made.push({ model, words, tree: treeKey, label });
  labelsMade.set(build, made);
  return label;
}
