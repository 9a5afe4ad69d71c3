/**
 * The view-model of the permission disclosure page (DESIGN.md §6): everything the page shows, computed
 * from an agent's emitted RAM and what its card signs beside the RAM (`readOnlyOperations`,
 * `manageAccessUrls`, the skill → access map: src/core/a2a/card.ts), already in words. The Astro page only lays it out.
 */
import { pagesBase } from '../i18n/languages.js';
import type { ContentModel } from '../model/content.js';
import type { RamResource, RamResourceAccess } from '../schema/ram.js';
import type { AgentBuild } from '../site/site-build.js';
import { pageFacts } from '../a2a/card.js';
import { broaderScopes, resourcesNamedByCard } from '../ram/declared.js';
import { footprintLine } from './footprint-line.js';
import { signInFacts } from '../ram/sign-in.js';
import { grantView, type GrantAction, type GrantView } from './permission-grants.js';
import { langField, PageTexts } from './page-texts.js';
import {
  agentPagePath,
  fragmentId,
  indexPagePath,
  permissionsPagePath,
  type PageTree,
} from '../site/page-paths.js';
import { accessEffects } from './access-effects.js';
import { runByPublisher } from './publisher-service.js';
import {
  actsAsYou,
  agentLanguage,
  asksFirstText,
  asWhomText,
  capitalize,
  necessityLevel,
  ownerGroup,
  resourceKindText,
  wordsFor,
  type OwnerGroup,
  type PageWords,
} from './words.js';
import type {
  AccessView,
  PageGroup,
  PermissionCounts,
  PermissionView,
  ResourceGroupView,
  ResourceView,
} from './permission-view-shapes.js';

export type {
  AccessView,
  PageGroup,
  PermissionCounts,
  PermissionView,
  ResourceGroupView,
  ResourceView,
  SkillPermissionView,
  SummaryItem,
  SummaryKey,
} from './permission-view-shapes.js';

/**
 * Whether an access is higher risk (DESIGN.md §6): it acts as the user (`END_USER`), may change data
 * ({@link mayChangeData}) and does not ask first (`confirmationRequired` false).
 */
export function isHigherRisk(access: RamResourceAccess, changesData: boolean): boolean {
  return actsAsYou(access) && changesData && !access.confirmationRequired;
}

/**
 * Computes the permission page of one agent (DESIGN.md §6) from its emitted RAM (`build.agent.ram`,
 * the object its card carries), the catalog's authoring data in `model`, and its permission sets
 * (`build.permissions`, `model.permissions`: what the visitor will be asked to allow, DESIGN.md §9).
 * In the language of `tree` (DESIGN.md §9 "Languages"), or, without one, the agent's (its `language`, else
 * the publisher's): its page words, or `words` when given (llms.txt asks for English), and the publisher's
 * texts in it (src/core/pages/page-texts.ts). Pure and deterministic; never throws on a model that passed
 * the content checks (a dangling reference, which the checks refuse, is skipped).
 *
 * `detail` `'summary'` makes only what the one-line-per-service label and llms.txt read (the groups with
 * their resources and accesses, the counts and the summary) and leaves out what only the page shows: each
 * own service's {@link ResourceView.grant} (what the visitor will be asked to allow, the costliest part),
 * the skills, {@link AccessView.usedByText} (empty) and the headings told apart (each access's `heading`
 * is its `whatItDoes`). `'page'` (the default) makes the whole view.
 */
export function permissionView(
  build: AgentBuild,
  model: Pick<
    ContentModel,
    'resources' | 'operations' | 'permissions' | 'publisher' | 'publisherSource' | 'texts'
  >,
  words?: PageWords,
  tree?: PageTree,
  detail: PermissionViewDetail = 'page',
): PermissionView {
  const page = detail === 'page';
  const { agent } = build;
  const language = tree?.language ?? agentLanguage(agent, model.publisher);
  const prefix = tree?.prefix ?? pagesBase(model.publisher);
  const w = words ?? wordsFor(language);
  const texts = new PageTexts(model, language);
  const p = w.permissions;
  const { ram } = agent;
  // What the page says beyond the RAM comes from the facts the card signs beside it (src/core/a2a/card.ts).
  const facts = pageFacts(agent, model);
  const signedReadOnly = new Set(facts.readOnlyOperations ?? []);
  const resources = new Map(ram.resources.map((r) => [r.id, r]));
  const operations = new Map(ram.operations.map((o) => [o.id, o]));
  const skillNames = new Map(agent.front.skills.map((s, i) => [s.id, texts.skill(agent, i, 'name')]));
  const skillsOfAccess = new Map<string, Array<{ id: string; name: string }>>();
  for (const [skillId, accessIds] of Object.entries(agent.skillAccesses ?? {})) {
    for (const accessId of accessIds) {
      const list = skillsOfAccess.get(accessId) ?? [];
      list.push({ id: skillId, name: skillNames.get(skillId)?.text ?? skillId });
      skillsOfAccess.set(accessId, list);
    }
  }

  const accessViews = new Map<string, { view: AccessView; resource: RamResource }>();
  for (const access of ram.resourceAccesses) {
    const operation = operations.get(access.operation);
    const resource = operation && resources.get(operation.resource);
    if (!operation || !resource) continue;
    const permission = build.permissions?.accesses.find((a) => a.access === access.id);
    const effects = accessEffects(resource, operation, signedReadOnly.has(operation.id), permission);
    const changes = effects.changesData;
    const level = necessityLevel(access.necessity);
    const whatItDoes = texts.operation(operation);
    const why = texts.justification(agent, access.id, access.accessJustification);
    accessViews.set(access.id, {
      resource,
      view: {
        id: access.id,
        anchor: fragmentId('access', access.id),
        whatItDoes: whatItDoes.text,
        ...langField('whatItDoes', whatItDoes),
        heading: whatItDoes.text,
        why: why.text,
        ...langField('why', why),
        actsAsYou: actsAsYou(access),
        asWhom: asWhomText(access, ownerGroup(resource), w),
        asksFirst: access.confirmationRequired,
        asksFirstText: asksFirstText(access, w),
        mayChangeData: changes,
        effectText: changes
          ? resource.interactionProtocol === 'REST'
            ? p.mayChange
            : model.operations.get(operation.id)?.readOnly === true
              ? p.mayChangeServiceSays
              : p.mayChangeUnsaid
          : p.onlyReads,
        mayDelete: effects.mayDelete,
        reachesOutside: effects.reachesOutside,
        moreEffects: [
          ...(effects.mayDelete ? [p.mayDelete] : []),
          ...(effects.reachesOutside ? [p.reachesOutside] : []),
        ],
        necessity: level,
        necessityText: p.necessityExplanation[level],
        higherRisk: isHigherRisk(access, changes),
        documentationUrls: operation.developerDocumentationUrl ?? [],
        skills: skillsOfAccess.get(access.id) ?? [],
        usedByText: '',
      },
    });
  }

  if (page) disambiguate(accessViews, p, w);
  const views = [...accessViews.values()].map((a) => a.view);
  const grants = page ? grantsOf(build, model, texts, views, w) : undefined;
  const resourceNames = new Map(ram.resources.map((r) => [r.id, texts.resource(r, 'displayName')]));
  const resourceViews: ResourceView[] = ram.resources.map((resource) => {
    const displayName = resourceNames.get(resource.id)!;
    const description = texts.resource(resource, 'description');
    const view: ResourceView = {
      id: resource.id,
      anchor: fragmentId('resource', resource.id),
      displayName: displayName.text,
      ...langField('displayName', displayName),
      description: description.text,
      ...langField('description', description),
      kindText: resourceKindText(resource, w),
      accesses: [...accessViews.values()].filter((a) => a.resource.id === resource.id).map((a) => a.view),
    };
    if (resource.developerDocumentationUrl) view.documentationUrl = resource.developerDocumentationUrl;
    const manageAccessUrl = facts.manageAccessUrls?.[resource.id];
    if (ownerGroup(resource) === 'yours' && manageAccessUrl) view.manageAccessUrl = manageAccessUrl;
    if (grants && ownerGroup(resource) === 'yours') view.grant = grants(resource.id);
    return view;
  });
  const own = ram.resources.filter((r) => ownerGroup(r) === 'yours');
  const outside = ram.resources.filter((r) => ownerGroup(r) === 'outside');
  const reachedAs = (group: readonly RamResource[], asYou: boolean) =>
    group.filter((r) =>
      [...accessViews.values()].some((a) => a.resource.id === r.id && a.view.actsAsYou === asYou),
    ).length;
  const counts: PermissionCounts = {
    yourServices: own.length,
    yourServicesAsYou: reachedAs(own, true),
    yourServicesAsItself: reachedAs(own, false),
    outsideServices: outside.length,
    outsideServicesAsYou: reachedAs(outside, true),
    accesses: views.length,
    asksFirst: views.filter((v) => v.asksFirst).length,
    required: views.filter((v) => v.necessity === 'required').length,
    recommended: views.filter((v) => v.necessity === 'recommended').length,
    optional: views.filter((v) => v.necessity === 'optional').length,
    higherRisk: views.filter((v) => v.higherRisk).length,
  };

  // Each resource's section, found once: every section looks at every resource (two URLs parsed each).
  const groupOf = new Map<RamResource, PageGroup>();
  const pageGroup = (r: RamResource): PageGroup => {
    let found = groupOf.get(r);
    if (found === undefined) {
      found = runByPublisher(r, model.publisher) ? 'publisher' : ownerGroup(r);
      groupOf.set(r, found);
    }
    return found;
  };
  const group = (key: OwnerGroup): ResourceGroupView => {
    const members = resourceViews.filter((r) => pageGroup(resources.get(r.id)!) === key);
    // An empty "Your accounts and data" says it uses none of your accounts only when no outside service is
    // reached as you either: acting as you there is using your own account there.
    const intro =
      key === 'yours'
        ? members.length === 0
          ? counts.outsideServicesAsYou === 0
            ? p.groupIntro.yoursEmpty
            : p.groupIntro.yoursEmptyAsYouOutside
          : p.groupIntro.yours
        : members.length === 0
          ? p.groupIntro.outsideEmpty
          : p.groupIntro.outside;
    return { key, heading: p.groupHeading[key], intro, resources: members };
  };

  // The publisher's own services, when some outside resource is one: not filed as "run by others".
  const publisherGroup = (): ResourceGroupView[] => {
    const members = resourceViews.filter((r) => pageGroup(resources.get(r.id)!) === 'publisher');
    if (members.length === 0) return [];
    const org = model.publisher.organization;
    return [
      {
        key: 'publisher',
        heading: p.publisherGroupHeading(org),
        intro: p.publisherGroupIntro(org),
        resources: members,
      },
    ];
  };

  const agentName = texts.agentName(agent);
  // The card signs the visitor in, but no access acts as them: the summary says so (sign-in.ts).
  const signIn = signInFacts(agent);
  const view: PermissionView = {
    language: words && !tree ? w.locale.tag : language,
    words: w,
    agentName: agentName.text,
    ...langField('agentName', agentName),
    homePath: indexPagePath(prefix),
    agentPath: agentPagePath(agent.slug, prefix),
    pagePath: permissionsPagePath(agent.slug),
    hasAccess: views.length > 0,
    noAccessText: signIn.userSchemes.length > 0 ? w.footprint.signInUndeclared : w.footprint.noAccess,
    counts,
    summary: [
      {
        key: 'yours',
        text: p.summaryYours(
          counts.yourServices,
          counts.yourServicesAsYou,
          counts.yourServicesAsItself,
          counts.outsideServicesAsYou,
        ),
      },
      { key: 'outside', text: p.summaryOutside(counts.outsideServices) },
      { key: 'asks-first', text: p.summaryAsksFirst(counts.asksFirst, counts.accesses) },
      { key: 'necessity', text: p.summaryNecessity(counts.required, counts.recommended, counts.optional) },
      { key: 'higher-risk', text: p.summaryHigherRisk(counts.higherRisk) },
      ...(signIn.userSchemes.length > 0 && signIn.asUserResources.length === 0
        ? [{ key: 'sign-in' as const, text: p.summarySignInUndeclared }]
        : []),
    ],
    groups: views.length > 0 ? [group('yours'), ...publisherGroup(), group('outside')] : [],
    necessityLegend: (['required', 'recommended', 'optional'] as const).map((level) => ({
      label: p.necessityLabel[level],
      text: capitalize(p.necessityMeaning[level]),
    })),
    declaration: p.declaration,
  };

  if (page && agent.skillAccesses && Object.keys(agent.skillAccesses).length > 0 && views.length > 0) {
    view.skills = agent.front.skills.map((skill, i) => {
      const used = (agent.skillAccesses?.[skill.id] ?? []).flatMap((id) => {
        const a = accessViews.get(id);
        return a ? [a] : [];
      });
      const usedResources = [...new Map(used.map((a) => [a.resource.id, a.resource])).values()];
      const name = skillNames.get(skill.id) ?? texts.skill(agent, i, 'name');
      return {
        id: skill.id,
        name: name.text,
        ...langField('name', name),
        anchor: fragmentId('skill', skill.id),
        footprint: footprintLine({ resources: usedResources }, w),
        accesses: used.map((a) => ({
          id: a.view.id,
          anchor: a.view.anchor,
          resourceName: resourceNames.get(a.resource.id)?.text ?? a.resource.displayName,
          whatItDoes: a.view.whatItDoes,
          higherRisk: a.view.higherRisk,
        })),
      };
    });
  }
  return view;
}

/** How much of the permission view {@link permissionView} makes: the whole page, or its summary only. */
export type PermissionViewDetail = 'page' | 'summary';

/**
 * The page's parts of the access views: which skills use each access, in a sentence, and the headings of
 * two accesses of one resource doing the same action (as you, and with its own account) told apart; the
 * same action twice with the same identity is numbered.
 */
function disambiguate(
  accessViews: ReadonlyMap<string, { view: AccessView; resource: RamResource }>,
  p: PageWords['permissions'],
  w: PageWords,
): void {
  for (const { view } of accessViews.values()) {
    if (view.skills.length > 0) view.usedByText = p.usedBy(view.skills.map((sk) => sk.name));
  }
  const byResourceAction = new Map<string, AccessView[]>();
  for (const { view, resource } of accessViews.values()) {
    const key = `${resource.id}\u0000${view.whatItDoes}`;
    byResourceAction.set(key, [...(byResourceAction.get(key) ?? []), view]);
  }
  for (const same of byResourceAction.values()) {
    if (same.length < 2) continue;
    for (const v of same) v.heading = p.sameActionAs(v.whatItDoes, v.actsAsYou ? 'you' : 'itself');
    const seen = new Map<string, number>();
    for (const v of same) {
      const n = (seen.get(v.heading) ?? 0) + 1;
      seen.set(v.heading, n);
      if (n > 1) v.heading = `${v.heading} (${w.locale.number(n)})`;
    }
  }
}

/**
 * The grant view of each of the visitor's own services (DESIGN.md §9, ./permission-grants.ts), given
 * the agent's access views in the page's words: what each access does and why it needs its named scope.
 */
function grantsOf(
  build: AgentBuild,
  model: Pick<ContentModel, 'permissions'>,
  texts: PageTexts,
  views: readonly AccessView[],
  w: PageWords,
): (resourceId: string) => GrantView {
  const { agent } = build;
  const actions = new Map<string, GrantAction>();
  for (const view of views) actions.set(view.id, { whatItDoes: view.whatItDoes });
  for (const a of build.permissions?.accesses ?? []) {
    const action = actions.get(a.access);
    if (action && a.neededScope)
      action.neededReason = texts.neededReason(agent, a.access, a.neededScope.reason);
  }
  const broader = model.permissions ? broaderScopes(agent, model.permissions, build.permissions) : [];
  const named = model.permissions ? resourcesNamedByCard(agent, model.permissions) : new Set<string>();
  return (resourceId) =>
    grantView(resourceId, model.permissions, build.permissions, broader, named.has(resourceId), w, actions);
}
