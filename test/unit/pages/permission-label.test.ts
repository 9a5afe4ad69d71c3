/**
 * The label atop the permission page and its lines on the index and agent page (src/core/pages/
 * permission-label.ts), over the example-like fixture and small sites: what each service's actions say,
 * MCP tool annotations (MCP 2025-06-18 "Tool annotations") deciding "may delete or overwrite" and "may reach
 * other services", and the publisher's own MCP server kept out of "Services run by others".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareBuild } from '../../../src/core/build/prepare.js';
import { loadAndCheck } from '../../../src/core/content/index.js';
import { agentPageView } from '../../../src/core/pages/agent-page.js';
import { indexView } from '../../../src/core/pages/index-page.js';
import { permissionLabel } from '../../../src/core/pages/permission-label.js';
import { permissionView } from '../../../src/core/pages/permissions.js';
import { PT_BR } from '../../../src/core/i18n/words/pt-BR.js';
import type { SiteBuild } from '../../../src/core/site/site-build.js';
import { agentMd, DEFAULT_PUBLISHER, EXAMPLE_LIKE, makeSite, removeSites } from '../../helpers/site.js';
import { storedSpec } from '../../helpers/specs.js';

afterAll(removeSites);

const env = { ARDSITE_DEV_KEY: '1', CI: '1' };
let example: SiteBuild;

beforeAll(async () => {
  example = (await prepareBuild({ root: EXAMPLE_LIKE, env })).site;
});

const agentOf = (site: SiteBuild, slug: string) => site.agents.find((a) => a.agent.slug === slug)!;

describe('the label of the example trip planner (itinerary-concierge)', () => {
  it('says, per service, whose it is, as whom, and each action with its facts', () => {
    const view = permissionView(agentOf(example, 'itinerary-concierge'), example.model);
    const label = permissionLabel(view, 'Example Travel Co.');
    expect(label.heading).toBe('At a glance');
    expect(
      label.services.map((s) => [s.name, s.who, s.actions.map((a) => `${a.text}: ${a.notes.join(', ')}`)]),
    ).toEqual([
      [
        'Google Calendar Events',
        'your service, as you',
        [
          'Returns events on the specified calendar: only reads',
          'Creates a new event on a calendar: changes data, asks you first, optional',
        ],
      ],
      [
        'Dining Search find_restaurants MCP Tool',
        'outside service, with its own account',
        ['Finds restaurants that match a location and preferences: only reads, may reach other services'],
      ],
      [
        'Currency Exchange Agent',
        'outside service, with its own account',
        ['Asks the exchange agent for a rate or a conversion: only reads, optional'],
      ],
    ]);
    expect(label.sendsTo).toBe(
      'Some of your data goes to Dining Search find_restaurants MCP Tool and Currency Exchange Agent.',
    );
  });

  it('the RAM proposal’s agent: two accesses doing the same action with the same facts are one line', () => {
    const view = permissionView(agentOf(example, 'travel-reservation'), example.model);
    expect(view.groups[0]!.resources[0]!.accesses).toHaveLength(2);
    const calendar = permissionLabel(view, 'Example Travel Co.').services[0]!;
    expect(calendar.actions.map((a) => `${a.text}: ${a.notes.join(', ')}`)).toEqual([
      'Creates a new event on a calendar: changes data, asks you first, optional',
    ]);
  });

  it('in Portuguese, with the same facts', () => {
    const view = permissionView(agentOf(example, 'itinerary-concierge'), example.model, PT_BR);
    const label = permissionLabel(view, 'Example Travel Co.');
    expect(label.heading).toBe('Visão rápida');
    expect(label.services[0]!.who).toBe('seu serviço, em seu nome');
    expect(label.services[0]!.actions[1]!.notes).toEqual([
      'altera dados',
      'pergunta a você antes',
      'opcional',
    ]);
  });

  it('gives the index and the agent page one line per service instead of counts', () => {
    const build = agentOf(example, 'itinerary-concierge');
    const index = indexView(example).agents.find((a) => a.name === 'Itinerary Concierge')!;
    const page = agentPageView(build, example);
    for (const label of [index.label, page.label]) {
      expect(label?.services.map((s) => s.id)).toEqual([
        'google-calendar-events-v3',
        'dining-search-find-restaurants',
        'fx-rates-agent',
      ]);
    }
    // The agent that touches nothing has no label: its pages keep their sentence.
    expect(indexView(example).agents.find((a) => a.name === 'Travel Policy Helper')!.label).toBeUndefined();
    expect(agentPageView(agentOf(example, 'travel-policy-helper'), example).label).toBeUndefined();
  });
});

/** A tools/list of a reservations server: one read, one writing tool that deletes (no destructiveHint: MCP's default true). */
const RESERVATIONS = storedSpec('reservations.json', {
  tools: [
    { name: 'list_reservations', annotations: { readOnlyHint: true, openWorldHint: false } },
    { name: 'cancel_reservation', annotations: { readOnlyHint: false, openWorldHint: false } },
    { name: 'add_note', annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false } },
  ],
});

function reservationTool(tool: string, specUrl: string, owner = 'THIRD_PARTY'): string {
  return `id: ${tool}
interactionProtocol: MCP
owner: ${owner}
displayName: Reservations ${tool}
description: Your reservations.
spec:
  specUrl: ${specUrl}
  resourcePath: ${tool}
${RESERVATIONS.pin}operations:
  - id: ${tool}-call
    description: Does ${tool}.
`;
}

const access = (tool: string) => ({
  id: `use-${tool}`,
  operation: `${tool}-call`,
  identityUsed: 'END_USER',
  confirmationRequired: false,
  accessJustification: 'To manage your trips.',
  necessity: 'REQUIRED',
});

describe('MCP tool annotations on the page and its label', () => {
  let site: SiteBuild;
  beforeAll(async () => {
    const root = await makeSite({
      'content/resources/cancel.yaml': reservationTool(
        'cancel_reservation',
        'https://mcp.reservations.example/mcp',
      ),
      'content/resources/note.yaml': reservationTool('add_note', 'https://mcp.reservations.example/mcp'),
      [RESERVATIONS.file]: RESERVATIONS.text,
      'content/agents/a.md': agentMd({
        resourceAccesses: [access('cancel_reservation'), access('add_note')],
      }),
    });
    expect((await loadAndCheck({ root })).diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    site = (await prepareBuild({ root, env })).site;
  });

  it('a destructive tool (destructiveHint absent: MCP’s default) may delete; an additive one only changes data', () => {
    const view = permissionView(site.agents[0]!, site.model);
    const accesses = view.groups.flatMap((g) => g.resources.flatMap((r) => r.accesses));
    expect(accesses.map((a) => [a.id, a.mayChangeData, a.mayDelete, a.reachesOutside])).toEqual([
      ['use-cancel_reservation', true, true, false],
      ['use-add_note', true, false, false],
    ]);
    expect(accesses[0]!.moreEffects).toEqual(['It may delete or overwrite data, which may not be undone.']);
    const label = permissionLabel(view, 'Example Test Ltd.');
    expect(label.services.map((s) => s.actions[0]!.notes)).toEqual([
      ['may delete or overwrite: may not be undone', 'without asking you first', 'higher risk'],
      ['changes data', 'without asking you first', 'higher risk'],
    ]);
  });

  it('the permission file records the annotations the page reads', () => {
    const file = site.agents[0]!.permissions!;
    expect(file.accesses.map((a) => [a.access, a.destructive, a.openWorld])).toEqual([
      ['use-cancel_reservation', true, false],
      ['use-add_note', false, false],
    ]);
  });
});

describe('the publisher’s own MCP server', () => {
  it('is not filed under services run by others when its address is on the publisher’s domain', async () => {
    const root = await makeSite({
      'content/publisher.yaml': DEFAULT_PUBLISHER,
      'content/resources/mine.yaml': reservationTool(
        'list_reservations',
        'https://mcp.agents.example.test/mcp',
      ),
      'content/resources/theirs.yaml': reservationTool('add_note', 'https://mcp.reservations.example/mcp'),
      [RESERVATIONS.file]: RESERVATIONS.text,
      'content/agents/a.md': agentMd({
        resourceAccesses: [access('list_reservations'), access('add_note')],
      }),
    });
    const site = (await prepareBuild({ root, env })).site;
    const view = permissionView(site.agents[0]!, site.model);
    expect(view.groups.map((g) => [g.key, g.heading, g.resources.map((r) => r.id)])).toEqual([
      ['yours', 'Your accounts and data', []],
      ['publisher', 'Services of Example Test Ltd.', ['list_reservations']],
      ['outside', 'Outside services', ['add_note']],
    ]);
    expect(view.groups[1]!.intro).not.toContain('run by others');
    const label = permissionLabel(view, 'Example Test Ltd.');
    expect(label.services.map((s) => [s.id, s.group, s.who])).toEqual([
      ['list_reservations', 'publisher', 'run by Example Test Ltd., as you'],
      ['add_note', 'outside', 'outside service, as you'],
    ]);
  });
});
