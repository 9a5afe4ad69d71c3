/**
 * The view-models of the pages (src/core/pages): the permission page of DESIGN.md §6 (counts, groups,
 * risk marks, per-skill view, the agent with no access), the footprint line, the agent page's words for
 * interfaces and sign-in, and the index. Computed from real builds of the example and of the
 * `pages-edge` fixture (no Astro involved).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { prepareBuild } from '../../../src/core/build/prepare.js';
import { agentPageView } from '../../../src/core/pages/agent-page.js';
import { footprintLine } from '../../../src/core/pages/footprint-line.js';
import { indexView } from '../../../src/core/pages/index-page.js';
import { ENGLISH_WORDS as EN } from '../../../src/core/pages/words.js';
import { PT_BR } from '../../../src/core/i18n/words/pt-BR.js';

const NO_ACCESS_SHORT = 'Does not access any of your accounts or outside services';
const NO_ACCESS_TEXT = EN.footprint.noAccess;
const FOREIGN_ENTRY_NOTE = EN.index.foreignNote;
const DECLARATION_TEXT = EN.permissions.declaration;
import { isHigherRisk, permissionView } from '../../../src/core/pages/permissions.js';
import { mayChangeData } from '../../../src/core/ram/ram-effects.js';
import type { RamOperation, RamResource, RamResourceAccess } from '../../../src/core/schema/ram.js';
import type { SiteBuild } from '../../../src/core/site/site-build.js';
import { EXAMPLE_LIKE, fixture } from '../../helpers/site.js';

/** Proto enum names that must never reach a page (DESIGN.md §6: meanings only). */
const ENUM_NAMES =
  /\b(END_USER|THIRD_PARTY|CONSUMER|AGENT|REST|REQUIRED|RECOMMENDED|OPTIONAL|JSONRPC|GRPC|HTTP\+JSON|[A-Z]+_UNSPECIFIED)\b/;

const env = { ARDSITE_DEV_KEY: '1', CI: '1' };
let example: SiteBuild;
let edge: SiteBuild;

beforeAll(async () => {
  [example, edge] = await Promise.all([
    prepareBuild({ root: EXAMPLE_LIKE, env }).then((p) => p.site),
    prepareBuild({ root: fixture('pages-edge'), env }).then((p) => p.site),
  ]);
});

const agentOf = (site: SiteBuild, slug: string) => site.agents.find((a) => a.agent.slug === slug)!;

describe('mayChangeData and isHigherRisk (DESIGN.md §6)', () => {
  const resource = (interactionProtocol: RamResource['interactionProtocol']): RamResource => ({
    id: 'r',
    interactionProtocol,
    owner: 'CONSUMER',
    displayName: 'R',
    description: 'R.',
  });
  const operation = (httpMethod?: string): RamOperation => ({
    id: 'o',
    resource: 'r',
    description: 'O.',
    ...(httpMethod ? { apiOperationSpec: { httpMethod } } : {}),
  });

  it.each([
    ['GET', false],
    ['HEAD', false],
    ['OPTIONS', false],
    ['POST', true],
    ['PUT', true],
    ['PATCH', true],
    ['DELETE', true],
  ])('a REST %s may change data: %s (readOnly does not override the method)', (method, changes) => {
    expect(mayChangeData(resource('REST'), operation(method), undefined)).toBe(changes);
    expect(mayChangeData(resource('REST'), operation(method), true)).toBe(changes);
  });

  it.each(['MCP', 'A2A'] as const)('%s operations change data unless marked readOnly: true', (protocol) => {
    expect(mayChangeData(resource(protocol), operation(), undefined)).toBe(true);
    expect(mayChangeData(resource(protocol), operation(), false)).toBe(true);
    expect(mayChangeData(resource(protocol), operation(), true)).toBe(false);
  });

  it('marks only an access that acts as the user, may change data and does not ask first', () => {
    const access = (
      identityUsed: RamResourceAccess['identityUsed'],
      confirmationRequired: boolean,
    ): RamResourceAccess => ({
      id: 'a',
      operation: 'o',
      identityUsed,
      confirmationRequired,
      accessJustification: 'J.',
      necessity: 'REQUIRED',
    });
    expect(isHigherRisk(access('END_USER', false), true)).toBe(true);
    expect(isHigherRisk(access('END_USER', true), true)).toBe(false);
    expect(isHigherRisk(access('END_USER', false), false)).toBe(false);
    expect(isHigherRisk(access('AGENT', false), true)).toBe(false);
  });
});

describe('permissionView', () => {
  it('counts, groups and marks the accesses of the edge agent', () => {
    const view = permissionView(agentOf(edge, 'risky-helper'), edge.model);
    expect(view.hasAccess).toBe(true);
    expect(view.counts).toEqual({
      yourServices: 2,
      yourServicesAsYou: 2,
      yourServicesAsItself: 0,
      outsideServices: 1,
      outsideServicesAsYou: 0,
      accesses: 6,
      asksFirst: 1,
      required: 2,
      recommended: 2,
      optional: 2,
      higherRisk: 2,
    });
    expect(view.groups.map((g) => [g.heading, g.resources.map((r) => r.id)])).toEqual([
      ['Your accounts and data', ['notes-api', 'drive-mcp']],
      ['Outside services', ['translator-agent']],
    ]);
    const accesses = new Map(
      view.groups.flatMap((g) => g.resources.flatMap((r) => r.accesses)).map((a) => [a.id, a]),
    );
    expect([...accesses.values()].filter((a) => a.higherRisk).map((a) => a.id)).toEqual([
      'delete-old-notes',
      'write-drive-file',
    ]);
    expect(accesses.get('read-drive-file')).toMatchObject({
      mayChangeData: false,
      higherRisk: false,
      actsAsYou: true,
    });
    expect(accesses.get('translate-note')).toMatchObject({
      mayChangeData: true,
      higherRisk: false,
      actsAsYou: false,
    });
    expect(accesses.get('create-summary-note')).toMatchObject({ asksFirst: true, higherRisk: false });
    expect(accesses.get('delete-old-notes')).toMatchObject({
      whatItDoes: 'Deletes a note <script>alert("op")</script>',
      why: 'To delete notes you no longer need </script><img src=x onerror=alert(4)>.',
      asWhom: 'As you: it uses your own account, with your permissions.',
      asksFirstText: 'No: it does this without asking you first.',
      necessityText: 'Required: the agent cannot do its job without it.',
      skills: [{ id: 'tidy-notes', name: 'Tidy notes' }],
    });
    const [notes, drive] = view.groups[0]!.resources;
    expect(notes!.manageAccessUrl).toBe('https://www.pages.example.test/account/connections');
    expect(drive!.manageAccessUrl).toBeUndefined();
    expect(view.summary.map((s) => s.text)).toEqual([
      'It acts on 2 of your own services, as you.',
      'It shares data with 1 outside service.',
      'It asks you first before 1 of its 6 actions.',
      'How much it needs its actions: 2 required, 2 recommended, 2 optional.',
      '2 actions are marked higher risk: they act as you, may change your data and do not ask you first.',
    ]);
    expect(view.declaration).toBe(DECLARATION_TEXT);
    expect(DECLARATION_TEXT).toBe("This is the publisher's own declaration, not an independent audit.");
  });

  it('gives the per-skill view when accesses are mapped to skills', () => {
    const view = permissionView(agentOf(edge, 'risky-helper'), edge.model);
    expect(view.skills?.map((s) => [s.id, s.footprint, s.accesses.map((a) => a.id)])).toEqual([
      ['tidy-notes', 'Acts on 1 of your services', ['delete-old-notes', 'list-notes', 'create-summary-note']],
      ['manage-files', 'Acts on 1 of your services', ['write-drive-file', 'read-drive-file']],
      [
        'translate',
        'Acts on 1 of your services · shares data with 1 outside service',
        ['list-notes', 'translate-note'],
      ],
    ]);
    expect(permissionView(agentOf(example, 'travel-reservation'), example.model).skills).toBeUndefined();
    expect(permissionView(agentOf(example, 'itinerary-concierge'), example.model).skills).toHaveLength(3);
  });

  it('says so for an agent with no access, with no summary groups', () => {
    for (const [site, slug] of [
      [example, 'travel-policy-helper'],
      [edge, 'quiet-agent'],
    ] as const) {
      const view = permissionView(agentOf(site, slug), site.model);
      expect(view.hasAccess).toBe(false);
      expect(view.groups).toEqual([]);
      expect(view.skills).toBeUndefined();
      expect(view.noAccessText).toBe('This agent does not access any of your accounts or outside services.');
    }
    expect(NO_ACCESS_TEXT).toBe('This agent does not access any of your accounts or outside services.');
  });

  it("summarises the seed's travel agent as the RAM proposal describes it", () => {
    const view = permissionView(agentOf(example, 'travel-reservation'), example.model);
    expect(view.summary.map((s) => s.text)).toEqual([
      'It acts on 2 of your own services: on 1 as you, on 1 with its own account.',
      'It shares data with 1 outside service.',
      'It asks you first before 2 of its 4 actions.',
      'How much it needs its actions: none required, 2 recommended, 2 optional.',
      'No action is marked higher risk.',
    ]);
    // The seed's RAM file carries no readOnly flag for the MCP weather tool; the example's resource file
    // (content/resources/google-maps-lookup-weather.yaml) adds readOnly: true, as its stored tools/list
    // result's readOnlyHint says.
    const weather = view.groups[0]!.resources.find((r) => r.id === 'google-maps-lookup-weather')!;
    expect(weather.accesses[0]).toMatchObject({ mayChangeData: false, actsAsYou: false, higherRisk: false });
    // It sits under "Your accounts and data" and runs as the agent: the sentence says both.
    expect(weather.accesses[0]!.asWhom).toBe(
      'As itself: this is one of your services, but the agent reaches it with its own account, not yours.',
    );
    expect(weather.accesses[0]!.effectText).toBe('It only reads data.');
    expect(weather.kindText).toBe('A tool made for AI agents (an MCP server).');
  });

  it('says "as you" once when every one of your services runs as you, and names the agent\'s own account when none does', () => {
    const ram = agentOf(example, 'travel-reservation').agent.ram;
    const build = (identityUsed: 'END_USER' | 'AGENT') => {
      const base = agentOf(example, 'travel-reservation');
      return {
        ...base,
        agent: {
          ...base.agent,
          ram: { ...ram, resourceAccesses: ram.resourceAccesses.map((a) => ({ ...a, identityUsed })) },
        },
      };
    };
    // Every access here, the outside holidays API's too, runs as you: your own account there is named.
    expect(permissionView(build('END_USER'), example.model).summary[0]!.text).toBe(
      'It acts on 2 of your own services, as you. It also uses your own account at 1 outside service, as you.',
    );
    expect(permissionView(build('AGENT'), example.model).summary[0]!.text).toBe(
      'It acts on 2 of your own services, with its own account, not yours.',
    );
  });
});

describe('the summary and the group intros never deny what an access says of your account', () => {
  type Owner = RamResource['owner'];
  type Identity = RamResourceAccess['identityUsed'];
  /**
   * The seed's travel agent cut down to its resources of `owner` (CONSUMER: its calendar and the weather
   * tool; THIRD_PARTY: the holidays API), every access to them run as `identityUsed`.
   */
  const only = (owner: Owner, identityUsed: Identity) => {
    const base = agentOf(example, 'travel-reservation');
    const { ram } = base.agent;
    const resources = ram.resources.filter((r) => r.owner === owner);
    const operations = ram.operations.filter((o) => resources.some((r) => r.id === o.resource));
    const resourceAccesses = ram.resourceAccesses
      .filter((a) => operations.some((o) => o.id === a.operation))
      .map((a) => ({ ...a, identityUsed }));
    return { ...base, agent: { ...base.agent, ram: { ...ram, resources, operations, resourceAccesses } } };
  };

  it('says that an access as you to an outside service uses your own account there (the bug: "It does not act on any of your own accounts or services")', () => {
    const view = permissionView(only('THIRD_PARTY', 'END_USER'), example.model);
    const [yours, outside] = view.groups;
    expect(outside!.resources[0]!.accesses.map((a) => a.asWhom)).toEqual([EN.permissions.asYou]);
    expect(view.counts).toMatchObject({ yourServices: 0, outsideServices: 1, outsideServicesAsYou: 1 });
    expect(view.summary[0]!.text).toBe(
      'It acts on none of your own services, but it uses your own account at 1 outside service, as you.',
    );
    expect(yours!.intro).toBe(
      'It uses none of your own services. But where an outside service below says “As you”, it uses your own account on that service.',
    );
    const pt = permissionView(only('THIRD_PARTY', 'END_USER'), example.model, PT_BR);
    expect(pt.summary[0]!.text).toBe(
      'Não usa nenhum serviço seu, mas usa a sua conta em 1 serviço externo, em seu nome.',
    );
    expect(pt.groups[0]!.intro).toBe(
      'Ele não usa nenhum serviço seu. Mas, quando um serviço externo abaixo diz “Em seu nome”, ele usa a sua conta nesse serviço.',
    );
  });

  it.each([
    ['CONSUMER', 'END_USER', 'It acts on 2 of your own services, as you.'],
    ['CONSUMER', 'AGENT', 'It acts on 2 of your own services, with its own account, not yours.'],
    [
      'THIRD_PARTY',
      'END_USER',
      'It acts on none of your own services, but it uses your own account at 1 outside service, as you.',
    ],
    ['THIRD_PARTY', 'AGENT', 'It does not act on any of your own accounts or services.'],
  ] as const)(
    '%s × %s: "%s", and the denials only with no service of yours and no access as you',
    (owner, identity, sentence) => {
      expect(permissionView(only(owner, identity), example.model).summary[0]!.text).toBe(sentence);
      for (const w of [EN, PT_BR]) {
        const view = permissionView(only(owner, identity), example.model, w);
        const p = w.permissions;
        const asWhom = view.groups.flatMap((g) =>
          g.resources.flatMap((r) => r.accesses.map((a) => a.asWhom)),
        );
        const usesYourAccount = asWhom.includes(p.asYou);
        expect(usesYourAccount, w.locale.tag).toBe(identity === 'END_USER');
        const shown = [...view.summary.map((s) => s.text), ...view.groups.map((g) => g.intro)];
        const denials = [p.summaryYours(0, 0, 0, 0), p.groupIntro.yoursEmpty];
        expect(
          shown.filter((t) => denials.includes(t)),
          w.locale.tag,
        ).toEqual(owner === 'THIRD_PARTY' && !usesYourAccount ? denials : []);
      }
    },
  );
});

describe('footprintLine', () => {
  it('reads as the index shows it', () => {
    expect(footprintLine(agentOf(example, 'travel-reservation').agent.ram, EN)).toBe(
      'Acts on 2 of your services · shares data with 1 outside service',
    );
    expect(footprintLine(agentOf(example, 'itinerary-concierge').agent.ram, EN)).toBe(
      'Acts on 1 of your services · shares data with 2 outside services',
    );
    expect(footprintLine(agentOf(example, 'travel-policy-helper').agent.ram, EN)).toBe(NO_ACCESS_SHORT);
    expect(footprintLine({ resources: [{ id: 'x', owner: 'THIRD_PARTY' } as RamResource] }, EN)).toBe(
      'Shares data with 1 outside service',
    );
    // After the index's label, which ends in a colon, the line goes on in lower case.
    expect(footprintLine(agentOf(example, 'travel-reservation').agent.ram, EN, 'after-label')).toBe(
      'acts on 2 of your services · shares data with 1 outside service',
    );
    expect(footprintLine({ resources: [] }, PT_BR, 'after-label')).toBe(
      'não acessa suas contas nem serviços externos',
    );
  });
});

describe('agentPageView', () => {
  it('promises the details of its accesses only when there are some', () => {
    expect(agentPageView(agentOf(example, 'travel-reservation'), example).permissionsLinkText).toBe(
      'See everything Travel Reservation Agent may access, as whom and why',
    );
    expect(agentPageView(agentOf(edge, 'quiet-agent'), edge).permissionsLinkText).toBe(
      'The permission page of Quiet Agent',
    );
  });

  it('puts interfaces and sign-in in words', () => {
    const view = agentPageView(agentOf(example, 'travel-reservation'), example);
    expect(view.interfaces).toEqual([
      {
        url: 'https://api.agents.example.com/a2a/travel-reservation/v1',
        isWebUrl: true,
        transport: 'JSON-RPC 2.0 over HTTPS',
        protocol: 'A2A protocol version 1.0',
      },
      {
        url: 'https://api.agents.example.com/a2a/travel-reservation/v0',
        isWebUrl: true,
        transport: 'JSON-RPC 2.0 over HTTPS',
        protocol: 'A2A protocol version 0.3',
      },
    ]);
    expect(view.securitySchemes[0]).toMatchObject({
      name: 'example_oauth',
      kind: 'OAuth 2.0 sign-in',
      description: 'Sign in with your Example Travel account.',
      scopes: [
        { scope: 'trips.read', meaning: 'See your trips and bookings' },
        { scope: 'trips.write', meaning: 'Book and change trips for you' },
      ],
    });
    expect(view.requirementSentence).toBe(
      'To use the agent, a caller needs OAuth 2.0 sign-in, with permission to: See your trips and bookings (trips.read); Book and change trips for you (trips.write).',
    );
    // The scheme's key is an id, not a word for people (DESIGN.md §6): the heading is the kind.
    expect(view.securitySchemes[0]!.heading).toBe('OAuth 2.0 sign-in');
    const { words: _words, ...shown } = view;
    expect(
      JSON.stringify({
        ...shown,
        securitySchemes: view.securitySchemes.map(({ name: _n, anchor: _a, ...rest }) => rest),
      }),
    ).not.toContain('example_oauth');
    expect(view.skills.find((s) => s.id === 'book-flight')?.needs).toContain('Book and change trips for you');
    // The author's documentationUrl is this page itself: not shown as a separate link.
    expect(view.documentationUrl).toBeUndefined();
    expect(view.digest).toBe(agentOf(example, 'travel-reservation').digest);
    expect(view.kid).toBe(example.kid);
    const concierge = agentPageView(agentOf(example, 'itinerary-concierge'), example);
    expect(concierge.interfaces[1]).toMatchObject({
      url: 'agents.example.com:8443',
      isWebUrl: false,
      transport: 'gRPC',
    });
    expect(concierge.securitySchemes[0]).toMatchObject({
      kind: 'Access token',
      details: ['A bearer token (JWT) sent with each request.'],
    });
  });
});

describe('indexView', () => {
  it('lists the agents with their footprint and marks the foreign entry', () => {
    const view = indexView(example);
    expect(view.agents.map((a) => [a.name, a.pagePath, a.permissionsPath])).toEqual([
      ['Itinerary Concierge', '/agents/itinerary-concierge/', '/agents/itinerary-concierge/permissions/'],
      ['Travel Policy Helper', '/agents/travel-policy-helper/', '/agents/travel-policy-helper/permissions/'],
      ['Travel Reservation Agent', '/agents/travel-reservation/', '/agents/travel-reservation/permissions/'],
    ]);
    expect(view.entries.map((e) => [e.displayName, e.own, e.publisherDomain, e.kind])).toEqual([
      ['Partner Hotel Booking Agent', false, 'hotels.example.org', 'AI agent'],
      ['Trip Tools MCP Server', true, 'agents.example.com', 'Model Context Protocol server'],
    ]);
    expect(FOREIGN_ENTRY_NOTE).toBe('Listed, not published by us');
  });
});

describe('no enum names in the words of any view', () => {
  it('holds for every sentence the views compose (author text aside)', () => {
    for (const site of [example, edge]) {
      const words: string[] = indexView(site).agents.map((a) => a.footprint);
      words.push(...indexView(site).entries.map((e) => e.kind));
      for (const a of site.agents) {
        const p = permissionView(a, site.model);
        words.push(p.noAccessText, p.declaration, ...p.summary.map((s) => s.text));
        words.push(...p.necessityLegend.flatMap((l) => [l.label, l.text]));
        for (const g of p.groups) {
          words.push(g.heading, g.intro, ...g.resources.map((r) => r.kindText));
          for (const x of g.resources.flatMap((r) => r.accesses)) {
            words.push(x.asWhom, x.asksFirstText, x.effectText, x.necessityText);
          }
        }
        words.push(...(p.skills ?? []).map((s) => s.footprint));
        const v = agentPageView(a, site);
        words.push(v.footprint, ...v.features, ...v.interfaces.flatMap((i) => [i.transport, i.protocol]));
        words.push(...v.securitySchemes.flatMap((s) => [s.kind, ...s.details]), v.requirementSentence ?? '');
      }
      expect(words.filter((w) => ENUM_NAMES.test(w))).toEqual([]);
    }
  });
});
