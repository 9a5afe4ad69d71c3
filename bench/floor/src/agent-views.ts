/**
 * The benchmark floor's page views per agent, by plain templating of its records (./agent-model.ts) in
 * the words ardsite's page components take (src/core/i18n/words/): the agent page's view with its label,
 * the permission page's view with what the visitor is asked to allow on each of their own services, and the
 * label the index shows. The same sentences as ardsite's pages, written out directly: no permission view,
 * no label or grant code of ardsite's runs.
 */
import type { AgentPageView } from '../../../src/core/pages/agent-page';
import type { GrantView, ScopeView } from '../../../src/core/pages/permission-grants';
import type { LabelService, PermissionLabel } from '../../../src/core/pages/permission-label';
import type { AccessView, PermissionView, ResourceView } from '../../../src/core/pages/permissions';
import { ENGLISH_WORDS as W } from '../../../src/core/i18n/words';
import { LEVELS, ORGANIZATION, ORIGIN, type FloorAccess, type FloorModel } from './agent-model';
import { cardSkills, identifierOf, KID, placeholderDigest, UPDATED_AT } from './agent-files';

const level = (x: FloorAccess) => x.necessity.toLowerCase() as 'required' | 'recommended' | 'optional';
const capitalize = (s: string) => `${s[0]!.toUpperCase()}${s.slice(1)}`;
const displayName = (r: FloorAccess['res']) => `Synthetic ${r.word} service ${r.i}`;
const skillName = (x: FloorAccess) => `${capitalize(x.skill)} for agent ${x.skillId.split('-')[1]}`;

/** Whether another access to the same resource does the same action as another identity. */
function twoIdentities(x: FloorAccess, all: readonly FloorAccess[]): boolean {
  return all.some((o) => o.res === x.res && o.operation === x.operation && o.asUser !== x.asUser);
}

/**
 * The access's heading: its action, told apart by as whom it acts when another access to the same
 * resource does the same action, and numbered when that is still the same.
 */
function headingOf(x: FloorAccess, all: readonly FloorAccess[]): string {
  const same = all.filter((o) => o.res === x.res && o.operation === x.operation);
  if (same.length < 2) return x.description;
  const heading = (o: FloorAccess) => W.permissions.sameActionAs(o.description, o.asUser ? 'you' : 'itself');
  const n = same.slice(0, same.indexOf(x) + 1).filter((o) => o.asUser === x.asUser).length;
  return n > 1 ? `${heading(x)} (${n})` : heading(x);
}

/** One access of the permission page. */
function accessView(x: FloorAccess, all: readonly FloorAccess[]): AccessView {
  const yours = x.res.owner === 'CONSUMER';
  const changes = x.operation.endsWith('-create');
  const mcp = x.res.protocol === 'MCP';
  const name = skillName(x);
  return {
    id: x.id,
    anchor: `access-${x.id}`,
    whatItDoes: x.description,
    heading: headingOf(x, all),
    why: x.why,
    actsAsYou: x.asUser,
    asWhom: x.asUser ? W.permissions.asYou : yours ? W.permissions.asItselfOnYours : W.permissions.asItself,
    asksFirst: x.write,
    asksFirstText: x.write ? W.permissions.asksFirstYes : W.permissions.asksFirstNo,
    mayChangeData: changes,
    effectText: changes ? W.permissions.mayChange : W.permissions.onlyReads,
    mayDelete: false,
    reachesOutside: mcp,
    moreEffects: mcp ? [W.permissions.reachesOutside] : [],
    necessity: level(x),
    necessityText: W.permissions.necessityExplanation[level(x)],
    higherRisk: false,
    documentationUrls: [`https://docs.service${x.res.i}.example/${x.res.word}/${x.operation}`],
    skills: [{ id: x.skillId, name }],
    usedByText: W.permissions.usedBy([name]),
  };
}

/** The scopes of one of the visitor's own REST services, strongest necessity first. */
function scopeViews(m: FloorModel, resourceId: string): ScopeView[] {
  return LEVELS.flatMap((l) =>
    (m.permissionSet[l.toLowerCase() as 'required'] ?? [])
      .filter((e) => e.resource === resourceId)
      .flatMap((e) => e.scopes)
      .map((scope): ScopeView => {
        const word = scope.split('.')[0]!;
        const reads = scope.endsWith('.read');
        const necessity = l.toLowerCase() as 'required';
        const also = reads ? Array.from({ length: 19 }, (_, k) => ({ name: `${word}.part${k}.get` })) : [];
        const forActions = m.accesses
          .filter((x) => x.scope === scope && x.res.id === resourceId)
          .map((x) => x.description);
        return {
          scope,
          description: reads ? `See your ${word}` : `Change your ${word}`,
          necessity,
          necessityText: W.permissions.necessityExplanation[necessity],
          forText: W.grants.scopeFor([...new Set(forActions)]),
          basis: 'narrowest',
          basisText: W.grants.narrowest,
          reasons: [],
          alsoAllowsCount: also.length,
          alsoAllowsText: W.grants.alsoAllows(also.length),
          alsoAllowsSummary: W.grants.alsoAllowsSummary,
          alsoAllows: also,
        };
      }),
  );
}

/** What the visitor is asked to allow on one of their own services. */
function grantOf(m: FloorModel, r: FloorAccess['res']): GrantView {
  if (r.protocol === 'REST')
    return { heading: W.grants.atLeastHeading, scopes: scopeViews(m, r.id), broader: [] };
  return {
    heading: W.grants.heading,
    scopes: [],
    note: r.protocol === 'MCP' ? W.grants.scopesNotNamed : W.grants.unknown,
    broader: [],
  };
}

/** The resources of one owner group, with their accesses (and, for the visitor's own, the grant). */
function resourceViews(m: FloorModel, yours: boolean, withGrants: boolean): ResourceView[] {
  return m.resources
    .filter((r) => (r.owner === 'CONSUMER') === yours)
    .map((r) => ({
      id: r.id,
      anchor: `resource-${r.id}`,
      displayName: displayName(r),
      description: `A synthetic ${r.word} service used to measure ardsite at scale.`,
      kindText: W.permissions.kind[r.protocol],
      documentationUrl: `https://docs.service${r.i}.example/${r.word}`,
      ...(yours && withGrants ? { grant: grantOf(m, r) } : {}),
      accesses: m.accesses.filter((x) => x.res === r).map((x) => accessView(x, m.accesses)),
    }));
}

/** The footprint line of a set of resources ("acts on 1 of your services · shares data with 2 …"). */
export function footprintOf(resources: ReadonlyArray<FloorAccess['res']>): string {
  const yours = resources.filter((r) => r.owner === 'CONSUMER').length;
  const outside = resources.length - yours;
  const parts = [
    ...(yours > 0 ? [W.footprint.yours(yours)] : []),
    ...(outside > 0 ? [W.footprint.outside(outside)] : []),
  ];
  return W.footprint.join(parts);
}

/** The permission page's view (with grants), or its summary for the label (`withGrants` false). */
export function permissionViewOf(m: FloorModel, withGrants = true): PermissionView {
  const yoursRes = m.resources.filter((r) => r.owner === 'CONSUMER');
  const outsideRes = m.resources.filter((r) => r.owner !== 'CONSUMER');
  const asYouOn = (r: FloorAccess['res']) => m.accesses.some((x) => x.res === r && x.asUser);
  const asItselfOn = (r: FloorAccess['res']) => m.accesses.some((x) => x.res === r && !x.asUser);
  const counts = {
    yourServices: yoursRes.length,
    yourServicesAsYou: yoursRes.filter(asYouOn).length,
    yourServicesAsItself: yoursRes.filter(asItselfOn).length,
    outsideServices: outsideRes.length,
    outsideServicesAsYou: outsideRes.filter(asYouOn).length,
    accesses: m.accesses.length,
    asksFirst: m.accesses.filter((x) => x.write).length,
    required: m.accesses.filter((x) => x.necessity === 'REQUIRED').length,
    recommended: m.accesses.filter((x) => x.necessity === 'RECOMMENDED').length,
    optional: m.accesses.filter((x) => x.necessity === 'OPTIONAL').length,
    higherRisk: 0,
  };
  const p = W.permissions;
  const pagePath = `/agents/${m.slug}/`;
  return {
    language: 'en',
    words: W,
    agentName: m.name,
    homePath: '/',
    agentPath: pagePath,
    pagePath: `${pagePath}permissions/`,
    hasAccess: true,
    noAccessText: '',
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
      { key: 'higher-risk', text: p.summaryHigherRisk(0) },
    ],
    groups: [
      {
        key: 'yours',
        heading: p.groupHeading.yours,
        intro:
          yoursRes.length > 0
            ? p.groupIntro.yours
            : counts.outsideServicesAsYou > 0
              ? p.groupIntro.yoursEmptyAsYouOutside
              : p.groupIntro.yoursEmpty,
        resources: resourceViews(m, true, withGrants),
      },
      {
        key: 'outside',
        heading: p.groupHeading.outside,
        intro: outsideRes.length > 0 ? p.groupIntro.outside : p.groupIntro.outsideEmpty,
        resources: resourceViews(m, false, withGrants),
      },
    ],
    necessityLegend: (['required', 'recommended', 'optional'] as const).map((l) => ({
      label: p.necessityLabel[l],
      text: capitalize(p.necessityMeaning[l]),
    })),
    skills: cardSkills(m).map((s) => {
      const own = m.accesses.filter((x) => x.skillId === s.id);
      return {
        id: s.id,
        name: s.name,
        anchor: `skill-${s.id}`,
        footprint: capitalize(footprintOf([...new Set(own.map((x) => x.res))])),
        accesses: own.map((x) => ({
          id: x.id,
          anchor: `access-${x.id}`,
          resourceName: displayName(x.res),
          whatItDoes: x.description,
          higherRisk: false,
        })),
      };
    }),
    declaration: p.declaration,
  };
}

/** The label of an agent (one line per service on the index and the agent page), from its records. */
export function labelOf(m: FloorModel): PermissionLabel {
  const l = W.label;
  const ordered = [
    ...m.resources.filter((r) => r.owner === 'CONSUMER'),
    ...m.resources.filter((r) => r.owner !== 'CONSUMER'),
  ];
  const services: LabelService[] = ordered.map((r) => {
    const own = m.accesses.filter((x) => x.res === r);
    const asYou = own.some((x) => x.asUser);
    const asItself = own.some((x) => !x.asUser);
    const seen = new Set<string>();
    const actions = own.flatMap((x) => {
      const action = x.description.replace(/\.$/u, '');
      const text = twoIdentities(x, own)
        ? W.permissions.sameActionAs(action, x.asUser ? 'you' : 'itself')
        : action;
      const changes = x.operation.endsWith('-create');
      const notes = [
        changes ? l.changesData : l.onlyReads,
        ...(x.write ? [l.asksFirst] : []),
        ...(x.necessity === 'OPTIONAL' ? [l.optional] : []),
        ...(x.res.protocol === 'MCP' ? [l.reachesOutside] : []),
      ];
      const key = `${text}\u0000${notes.join('\u0000')}`;
      if (seen.has(key)) return [];
      seen.add(key);
      return [
        { anchor: `access-${x.id}`, text, notes, higherRisk: false, mayDelete: false, changesData: changes },
      ];
    });
    const group = r.owner === 'CONSUMER' ? ('yours' as const) : ('outside' as const);
    return {
      id: r.id,
      anchor: `resource-${r.id}`,
      name: displayName(r),
      group,
      who: `${group === 'yours' ? l.yours : l.outside}, ${asYou && asItself ? l.asBoth : asYou ? l.asYou : l.asItself}`,
      actions,
    };
  });
  const outside = services.filter((s) => s.group !== 'yours').map((s) => s.name);
  return {
    heading: l.heading,
    services,
    ...(outside.length > 0 ? { sendsTo: l.sendsTo(outside) } : {}),
    details: l.details,
  };
}

/** The agent page's view, with its label. */
export function agentViewOf(m: FloorModel, label: PermissionLabel): AgentPageView {
  const cardPath = `/agents/${m.slug}/agent-card.json`;
  const asYou = m.resources.filter((r) => m.accesses.some((x) => x.res === r && x.asUser)).map(displayName);
  return {
    language: 'en',
    words: W,
    homePath: '/',
    pagePath: `/agents/${m.slug}/`,
    name: m.name,
    body: `Synthetic agent **${m.n}** exists to measure how ardsite behaves with many agents.\n\n- It has three skills.\n- It reaches five services through eight accesses.\n`,
    description: m.description,
    version: m.version,
    provider: { organization: ORGANIZATION, url: 'https://www.example.com/' },
    footprint: footprintOf(m.resources),
    label,
    skills: cardSkills(m).map((s) => ({ ...s, anchor: `skill-${s.id}` })),
    interfaces: [
      {
        url: `https://api.bench.example.com/a2a/agent-${m.n}`,
        isWebUrl: true,
        transport: 'JSON-RPC 2.0 over HTTPS',
        protocol: 'A2A protocol version 1.0',
      },
    ],
    features: [],
    inputModes: ['text/plain'],
    outputModes: ['text/plain', 'application/json'],
    securitySchemes: [],
    noSignInText: asYou.length > 0 ? W.agent.noSignInDescribed : W.agent.noSignIn,
    signInNotes: asYou.length > 0 ? [W.agent.signInAsYou(asYou)] : [],
    requirements: [],
    identifier: identifierOf(m),
    digest: placeholderDigest(m.n, 'card'),
    kid: KID,
    updatedAt: UPDATED_AT,
    cardPath,
    cardUrl: `${ORIGIN}${cardPath}`,
    manifestPath: '/.well-known/ard.json',
    permissionsPath: `/agents/${m.slug}/permissions/`,
    permissionsLinkText: W.agent.permissionsLink(m.name),
  };
}
