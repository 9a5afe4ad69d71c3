/**
 * The permission page's "You will be asked to allow:" (DESIGN.md §6, §9 "Permissions from specs"), and the
 * warning for a card that asks for broader scopes than its RAM needs, in `npm run check` and on the page.
 * Over test/fixtures/example-like (the Calendar v3 Discovery document) and small sites with the real
 * Discovery document (test/fixtures/specs/calendar-api.json). Counts computed by hand from the document.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareBuild } from '../../../src/core/build/prepare.js';
import { loadAndCheck } from '../../../src/core/content/index.js';
import { pageFacts } from '../../../src/core/a2a/card.js';
import { permissionView } from '../../../src/core/pages/permissions.js';
import { agentChanges, releaseDiagnostics } from '../../../src/core/releases/agent-changes.js';
import { currentSnapshot } from '../../../src/core/releases/history.js';
import type { ReleaseHistory } from '../../../src/core/model/release-record.js';
import type { SiteBuild } from '../../../src/core/site/site-build.js';
import { agentMd, EXAMPLE_LIKE, fixture, lineOf, makeSite, removeSites } from '../../helpers/site.js';
import { FILE_GITHUB_ISSUE, githubIssuesResource, storedSpec } from '../../helpers/specs.js';

afterAll(removeSites);

const env = { ARDSITE_DEV_KEY: '1', CI: '1' };
const G = 'https://www.googleapis.com/auth/';
let example: SiteBuild;

beforeAll(async () => {
  example = (await prepareBuild({ root: EXAMPLE_LIKE, env })).site;
});

function calendarView(site: SiteBuild, slug: string) {
  const build = site.agents.find((a) => a.agent.slug === slug)!;
  const view = permissionView(build, site.model);
  return view.groups[0]!.resources.find((r) => r.id === 'google-calendar-events-v3')!;
}

describe('You will be asked to allow (the example)', () => {
  it('travel-reservation: calendar.events, in Google’s words, and the 11 other methods it allows', () => {
    const { grant } = calendarView(example, 'travel-reservation');
    // Its card names none of Google's scopes: what it asks for is not known, only that it includes these.
    expect(grant!.heading).toBe('You will be asked to allow at least:');
    expect(grant!.scopes).toHaveLength(1);
    const [scope] = grant!.scopes;
    expect(scope).toMatchObject({
      scope: `${G}calendar.events`,
      description: 'View and edit events on all your calendars',
      alsoAllowsCount: 11,
      alsoAllowsText: 'This permission also allows 11 other actions on this service.',
    });
    expect(scope!.alsoAllows).toContainEqual({
      name: 'calendar.events.delete',
      description: 'Deletes an event.',
    });
    expect(grant!.broader).toEqual([]);
  });

  it('itinerary-concierge: the read-only scope first, each with what else it allows', () => {
    const { grant } = calendarView(example, 'itinerary-concierge');
    expect(grant!.scopes.map((s) => [s.scope, s.alsoAllowsCount])).toEqual([
      [`${G}calendar.events.readonly`, 4],
      [`${G}calendar.events`, 10],
    ]);
    expect(grant!.scopes[0]!.description).toBe('View events on all your calendars');
  });

  it('an own service reached with the agent’s own account asks nothing of the visitor', () => {
    const build = example.agents.find((a) => a.agent.slug === 'travel-reservation')!;
    const weather = permissionView(build, example.model).groups[0]!.resources.find(
      (r) => r.id === 'google-maps-lookup-weather',
    )!;
    expect(weather.grant).toMatchObject({
      scopes: [],
      note: expect.stringContaining('does not use your account'),
    });
  });
});

describe('a card that asks for more than its RAM needs', () => {
  const calendar = storedSpec(
    'calendar.json',
    JSON.parse(readFileSync(path.join(fixture('specs'), 'calendar-api.json'), 'utf8')),
  );
  const resource = `id: calendar
interactionProtocol: REST
owner: CONSUMER
displayName: Calendar
description: The user's calendar.
${calendar.pin}operations:
  - id: calendar-list
    description: Lists events.
    apiOperationSpec: { operationId: calendar.events.list, httpMethod: GET }
`;
  const agent = (scope: string) =>
    agentMd({
      securitySchemes: {
        google: {
          oauth2SecurityScheme: {
            flows: {
              authorizationCode: {
                authorizationUrl: 'https://accounts.google.com/o/oauth2/auth',
                tokenUrl: 'https://oauth2.googleapis.com/token',
                scopes: { [scope]: 'Calendar' },
              },
            },
          },
        },
      },
      securityRequirements: [{ schemes: { google: { list: [scope] } } }],
      resourceAccesses: [
        {
          id: 'read',
          operation: 'calendar-list',
          identityUsed: 'END_USER',
          accessJustification: 'To see when you are free.',
          necessity: 'REQUIRED',
        },
      ],
    });

  it('check warns PERMISSION_SCOPE_BROADER at the requirement; the page says it in words', async () => {
    const md = agent(`${G}calendar`);
    const root = await makeSite({
      'content/resources/calendar.yaml': resource,
      [calendar.file]: calendar.text,
      'content/agents/a.md': md,
    });
    const { diagnostics } = await loadAndCheck({ root });
    expect(diagnostics).toMatchObject([
      {
        code: 'PERMISSION_SCOPE_BROADER',
        severity: 'warning',
        file: 'content/agents/a.md',
        path: 'securityRequirements[0].schemes.google.list',
        line: lineOf(md, 'list:'),
        message: expect.stringContaining(
          `the narrowest scopes the stored spec lists for its accesses are ${G}calendar.events.readonly`,
        ),
      },
    ]);
    const site = (await prepareBuild({ root, env })).site;
    const view = permissionView(site.agents[0]!, site.model).groups[0]!.resources[0]!;
    // What the card asks for comes first, under its own heading; the narrowest the spec lists follows,
    // never called what the agent needs.
    expect(view.grant).toMatchObject({
      askedHeading: 'What the agent asks you to allow:',
      heading: 'The narrowest permissions the service lists for its declared actions:',
      scopes: [{ scope: `${G}calendar.events.readonly` }],
    });
    expect(view.grant!.broader).toEqual([
      {
        label: 'Asks for more than it needs',
        text: `The agent asks for “See, edit, share, and permanently delete all the calendars you can access using Google Calendar (${G}calendar)”, which allows more: the narrowest the service lists for its declared actions is “${G}calendar.events.readonly”, and the publisher does not say why it needs more.`,
      },
    ]);
  });

  it('is quiet when the card also asks for a narrower scope the permission set left out as redundant', async () => {
    const readAndWrite = `${resource}  - id: calendar-insert
    description: Adds an event.
    apiOperationSpec: { operationId: calendar.events.insert, httpMethod: POST }
`;
    const md = (scopes: string[]) =>
      agent(scopes[0]!)
        .replace(`list: ['${scopes[0]}']`, `list: [${scopes.map((s) => `'${s}'`).join(', ')}]`)
        .replace(
          '    necessity: REQUIRED\n',
          `    necessity: REQUIRED
  - id: write
    operation: calendar-insert
    identityUsed: END_USER
    confirmationRequired: true
    accessJustification: To add what you plan.
    necessity: REQUIRED
`,
        );
    const site = (scopes: string[]) =>
      makeSite({
        'content/resources/calendar.yaml': readAndWrite,
        [calendar.file]: calendar.text,
        'content/agents/a.md': md(scopes),
      });
    // calendar.events alone lets the agent list and add: the read-only scope asked beside it is narrower.
    const quiet = await loadAndCheck({
      root: await site([`${G}calendar.events.readonly`, `${G}calendar.events`]),
    });
    expect(quiet.diagnostics).toEqual([]);
    // The whole calendar is still broader than calendar.events.
    const broad = await loadAndCheck({ root: await site([`${G}calendar`]) });
    expect(broad.diagnostics.map((d) => d.code)).toEqual(['PERMISSION_SCOPE_BROADER']);
  });

  it('is quiet when the card asks for exactly the least-privilege scope, and the page says it will be asked', async () => {
    const root = await makeSite({
      'content/resources/calendar.yaml': resource,
      [calendar.file]: calendar.text,
      'content/agents/a.md': agent(`${G}calendar.events.readonly`),
    });
    expect((await loadAndCheck({ root })).diagnostics).toEqual([]);
    const site = (await prepareBuild({ root, env })).site;
    const view = permissionView(site.agents[0]!, site.model).groups[0]!.resources[0]!;
    expect(view.grant).toMatchObject({
      heading: 'You will be asked to allow:',
      scopes: [{ scope: `${G}calendar.events.readonly` }],
      broader: [],
    });
    expect(view.grant!.askedHeading).toBeUndefined();
  });
});

/** GitHub's MCP server (test/fixtures/specs/github-tools-list.json): create_issue has readOnlyHint: false. */
describe('an MCP service: the stored spec and the author disagree, and it names no scopes', () => {
  const github = storedSpec(
    'github.json',
    JSON.parse(readFileSync(path.join(fixture('specs'), 'github-tools-list.json'), 'utf8')),
  );
  const resource = (readOnly: boolean) => githubIssuesResource(github.pin, { readOnly });
  const agent = agentMd({ resourceAccesses: [FILE_GITHUB_ISSUE] });
  let site: SiteBuild;
  beforeAll(async () => {
    const root = await makeSite({
      'content/resources/github.yaml': resource(true),
      [github.file]: github.text,
      'content/agents/a.md': agent,
    });
    const { diagnostics } = await loadAndCheck({ root });
    expect(diagnostics.map((d) => d.code)).toContain('SPEC_READ_WRITE_MISMATCH');
    site = (await prepareBuild({ root, env })).site;
  });

  it('marked readOnly: true but the spec says it writes: the page says it may change data, higher risk', () => {
    const view = permissionView(site.agents[0]!, site.model);
    const access = view.groups[0]!.resources[0]!.accesses[0]!;
    expect(access).toMatchObject({ mayChangeData: true, higherRisk: true });
    expect(access.effectText).toBe(
      'It may change data: the publisher says it only reads, but the service’s own description says it may change data.',
    );
    expect(view.counts.higherRisk).toBe(1);
  });

  it('…and the card does not sign it as only reading (readOnlyOperations), nor does a release record it', () => {
    const { agent } = site.agents[0]!;
    expect(pageFacts(agent, site.model).readOnlyOperations).toBeUndefined();
    expect(currentSnapshot(agent, site.model).readOnlyOperations).toBeUndefined();
  });

  it('a release that recorded it as only reading: telling it truly now is no change, nor a widening', () => {
    const { agent } = site.agents[0]!;
    const record = {
      version: '0.9.0',
      releasedAt: '2026-01-01T00:00:00Z',
      ram: JSON.parse(JSON.stringify(agent.ram)) as typeof agent.ram,
      readOnlyOperations: ['create-issue'],
    };
    const history = { file: 'content/releases/a.json', identifier: agent.identifier, releases: [record] };
    const options = {
      updatedAt: '2026-02-01T00:00:00Z',
      now: new Date('2026-02-02T00:00:00Z'),
      noticeDays: 30,
    };
    const changes = agentChanges(agent, site.model, history as unknown as ReleaseHistory, options);
    expect(changes.latest).toMatchObject({ changes: [], gainedAccess: false });
    expect(changes.lastRelease.readOnlyOperations).toBeUndefined();
    const same = { ...history, releases: [{ ...record, version: agent.front.version }] };
    expect(releaseDiagnostics(agent, site.model, same as unknown as ReleaseHistory)).toEqual([]);
  });

  it('used as you with no scope in its spec: the page does not say the agent does not use your account', () => {
    const { grant } = permissionView(site.agents[0]!, site.model).groups[0]!.resources[0]!;
    expect(grant!.scopes).toEqual([]);
    expect(grant!.note).not.toContain('does not use your account');
    expect(grant!.note).toBe(
      'This service does not say which permissions it asks for, so they are not known here. The agent uses your account on it, as below.',
    );
  });
});
