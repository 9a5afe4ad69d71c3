/**
 * "Least privilege by data, not by method count" (docs/permissions.md "Needed scopes"): Gmail's
 * `users.messages.get` accepts `gmail.metadata`, which Google's own description says leaves out the body;
 * an agent that reads receipt bodies names `gmail.readonly` as its `neededScope`, with the reason. Over the
 * real Gmail v1 Discovery document (test/fixtures/specs/gmail-api.json) and Calendar v3
 * (test/fixtures/specs/calendar-api.json).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareBuild } from '../../../src/core/build/prepare.js';
import { loadAndCheck } from '../../../src/core/content/index.js';
import { permissionView } from '../../../src/core/pages/permissions.js';
import { agentMd, fixture, lineOf, makeSite, removeSites } from '../../helpers/site.js';
import { storedSpec } from '../../helpers/specs.js';

afterAll(removeSites);

const env = { ARDSITE_DEV_KEY: '1', CI: '1' };
const G = 'https://www.googleapis.com/auth/';
const spec = (file: string, name: string) =>
  storedSpec(name, JSON.parse(readFileSync(path.join(fixture('specs'), file), 'utf8')));
const gmail = spec('gmail-api.json', 'gmail.json');

const gmailResource = `id: gmail
interactionProtocol: REST
owner: CONSUMER
displayName: Gmail
description: Your email.
${gmail.pin}operations:
  - id: find-messages
    description: Finds your emails
    apiOperationSpec: { operationId: gmail.users.messages.list, httpMethod: GET }
  - id: read-message
    description: Reads one of your emails
    apiOperationSpec: { operationId: gmail.users.messages.get, httpMethod: GET }
`;

const REASON =
  'The fare and date are in the body of the receipt email, which the metadata permission leaves out.';

/** A fare-support agent whose card asks for `cardScope`, and whose access names `needed` (or nothing). */
function fareAgent(cardScope: string, needed?: string) {
  return agentMd({
    securitySchemes: {
      google: {
        oauth2SecurityScheme: {
          flows: {
            authorizationCode: {
              authorizationUrl: 'https://accounts.google.com/o/oauth2/auth',
              tokenUrl: 'https://oauth2.googleapis.com/token',
              scopes: { [cardScope]: 'Read your receipts' },
            },
          },
        },
      },
    },
    securityRequirements: [{ schemes: { google: { list: [cardScope] } } }],
    resourceAccesses: [
      {
        id: 'find-receipts',
        operation: 'find-messages',
        identityUsed: 'END_USER',
        accessJustification: 'To find the receipt of the fare you ask about.',
        necessity: 'REQUIRED',
      },
      {
        id: 'read-receipts',
        operation: 'read-message',
        identityUsed: 'END_USER',
        accessJustification: 'To read the fare on the receipt.',
        necessity: 'REQUIRED',
        ...(needed ? { neededScope: { scope: needed, reason: REASON } } : {}),
      },
    ],
  });
}

async function gmailSite(md: string) {
  return makeSite({
    'content/resources/gmail.yaml': gmailResource,
    [gmail.file]: gmail.text,
    'content/agents/fare.md': md,
  });
}

async function grantOf(root: string) {
  const site = (await prepareBuild({ root, env })).site;
  const build = site.agents[0]!;
  return { grant: permissionView(build, site.model).groups[0]!.resources[0]!.grant!, build };
}

describe('an agent that reads receipt bodies (Gmail)', () => {
  it('without neededScope: gmail.metadata is only "the narrowest the service lists", with its limit; gmail.readonly asked is broader', async () => {
    const root = await gmailSite(fareAgent(`${G}gmail.readonly`));
    const { diagnostics } = await loadAndCheck({ root });
    expect(diagnostics).toMatchObject([
      {
        code: 'PERMISSION_SCOPE_BROADER',
        message: expect.stringContaining('neededScope'),
      },
    ]);
    const { grant } = await grantOf(root);
    expect(grant.broader).toHaveLength(1);
    expect(grant.heading).toBe('The narrowest permissions the service lists for its declared actions:');
    expect(grant.scopes).toMatchObject([
      {
        scope: `${G}gmail.metadata`,
        basis: 'narrowest',
        basisText: 'The narrowest permission the service lists for these actions.',
        limitText: 'The service’s own description limits it: “but not the email body”.',
        forText: 'For: “Finds your emails” and “Reads one of your emails”.',
        necessity: 'required',
      },
    ]);
  });

  it('with neededScope gmail.readonly and a reason: no warning, no red box; the page shows it and the reason', async () => {
    const root = await gmailSite(fareAgent(`${G}gmail.readonly`, `${G}gmail.readonly`));
    expect((await loadAndCheck({ root })).diagnostics).toEqual([]);
    const { grant, build } = await grantOf(root);
    expect(grant.broader).toEqual([]);
    expect(grant.askedHeading).toBeUndefined();
    expect(grant.heading).toBe('You will be asked to allow:');
    expect(grant.scopes).toHaveLength(1);
    expect(grant.scopes[0]).toMatchObject({
      scope: `${G}gmail.readonly`,
      description: 'View your email messages and settings',
      basis: 'needed',
      basisText: 'The publisher says the agent needs this permission:',
      reasons: [{ text: REASON }],
      narrowerText: `The service lists a narrower permission for these actions, “View your email message metadata such as labels and headers, but not the email body (${G}gmail.metadata)”, which the publisher says is not enough.`,
    });
    expect(grant.scopes[0]!.limitText).toBeUndefined();
    // The permission file and the card's permission set say the same: gmail.readonly, with the reason.
    const access = build.permissions!.accesses[1]!;
    expect(access.neededScope).toEqual({
      scope: `${G}gmail.readonly`,
      requirements: [{ scheme: 'oauth2', type: 'oauth2', scopes: [`${G}gmail.readonly`] }],
      reason: REASON,
    });
    expect(build.permissions!.permissionSet!.required![0]!.scopes).toEqual([`${G}gmail.readonly`]);
  });

  it('a card asking for more than the needed scope (all of Gmail) still asks for more than it needs', async () => {
    const root = await gmailSite(fareAgent('https://mail.google.com/', `${G}gmail.readonly`));
    const { diagnostics } = await loadAndCheck({ root });
    expect(diagnostics).toMatchObject([
      {
        code: 'PERMISSION_SCOPE_BROADER',
        message: expect.stringContaining(`asks for https://mail.google.com/ of Gmail`),
      },
    ]);
    const { grant } = await grantOf(root);
    expect(grant.broader).toHaveLength(1);
    expect(grant.scopes.map((s) => [s.scope, s.basis])).toEqual([[`${G}gmail.readonly`, 'needed']]);
  });

  it('a neededScope the spec does not accept for the operation is an error at its line', async () => {
    const md = fareAgent(`${G}gmail.send`, `${G}gmail.send`);
    const root = await gmailSite(md);
    const { diagnostics } = await loadAndCheck({ root });
    expect(diagnostics.filter((d) => d.severity === 'error')).toMatchObject([
      {
        code: 'ACCESS_SCOPE_NOT_ACCEPTED',
        severity: 'error',
        file: 'content/agents/fare.md',
        path: 'resourceAccesses[1].neededScope.scope',
        line: lineOf(md, `scope: ${G}gmail.send`),
        message: expect.stringContaining(`it accepts https://mail.google.com/, ${G}gmail.addons`),
      },
    ]);
  });

  it('a neededScope on a resource without a stored spec is an error: nothing to check it against', async () => {
    const md = fareAgent(`${G}gmail.readonly`, `${G}gmail.readonly`);
    const root = await makeSite({
      'content/resources/gmail.yaml': gmailResource.replace(gmail.pin, ''),
      'content/agents/fare.md': md,
    });
    const { diagnostics } = await loadAndCheck({ root });
    expect(diagnostics.filter((d) => d.severity === 'error')).toMatchObject([
      { code: 'ACCESS_SCOPE_NOT_ACCEPTED', line: lineOf(md, `scope: ${G}gmail.readonly`) },
    ]);
  });
});

describe('which actions each permission is for, and which are optional', () => {
  const calendar = spec('calendar-api.json', 'calendar.json');
  const resource = `id: calendar
interactionProtocol: REST
owner: CONSUMER
displayName: Calendar
description: Your calendar.
${calendar.pin}operations:
  - id: list
    description: Reads your events
    apiOperationSpec: { operationId: calendar.events.list, httpMethod: GET }
  - id: insert
    description: Adds an event
    apiOperationSpec: { operationId: calendar.events.insert, httpMethod: POST }
`;
  const access = (id: string, operation: string, necessity: string) => ({
    id,
    operation,
    identityUsed: 'END_USER',
    confirmationRequired: true,
    accessJustification: 'To plan your trip.',
    necessity,
  });

  it('a scope needed only by an optional action says so; the required one says which action needs it', async () => {
    const root = await makeSite({
      'content/resources/calendar.yaml': resource,
      [calendar.file]: calendar.text,
      'content/agents/trip.md': agentMd({
        resourceAccesses: [access('read', 'list', 'REQUIRED'), access('add', 'insert', 'OPTIONAL')],
      }),
    });
    const { grant } = await grantOf(root);
    expect(grant.scopes.map((s) => [s.scope, s.forText, s.necessity, s.necessityText])).toEqual([
      [
        `${G}calendar.events.readonly`,
        'For: “Reads your events”.',
        'required',
        'Required: the agent cannot do its job without it.',
      ],
      [
        `${G}calendar.events`,
        'For: “Adds an event”.',
        'optional',
        'Optional: only for an extra feature; the agent works fully without it.',
      ],
    ]);
  });

  it('one scope the set keeps for both actions is for both', async () => {
    const root = await makeSite({
      'content/resources/calendar.yaml': resource,
      [calendar.file]: calendar.text,
      'content/agents/trip.md': agentMd({
        resourceAccesses: [access('read', 'list', 'REQUIRED'), access('add', 'insert', 'REQUIRED')],
      }),
    });
    const { grant } = await grantOf(root);
    expect(grant.scopes.map((s) => [s.scope, s.forText])).toEqual([
      [`${G}calendar.events`, 'For: “Reads your events” and “Adds an event”.'],
    ]);
  });
});
