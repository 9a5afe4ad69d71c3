/**
 * Sign-in from the card and the RAM together (src/core/ram/sign-in.ts): a card that asks the user
 * to sign in with OAuth 2.0 but has no RAM is never "does not access any of your accounts", and an agent
 * that acts as the user is never "declares no sign-in"; `npm run check` warns where the two disagree.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { prepareBuild } from '../../../src/core/build/prepare.js';
import { loadAndCheck } from '../../../src/core/content/index.js';
import { agentPageView } from '../../../src/core/pages/agent-page.js';
import { indexView } from '../../../src/core/pages/index-page.js';
import { permissionView } from '../../../src/core/pages/permissions.js';
import { wordsFor } from '../../../src/core/i18n/words/index.js';
import { agentMd, lineOf, makeSite, removeSites } from '../../helpers/site.js';

afterAll(removeSites);

const env = { ARDSITE_DEV_KEY: '1', CI: '1' };

const OAUTH = {
  securitySchemes: {
    google: {
      oauth2SecurityScheme: {
        flows: {
          authorizationCode: {
            authorizationUrl: 'https://accounts.google.com/o/oauth2/auth',
            tokenUrl: 'https://oauth2.googleapis.com/token',
            scopes: { 'https://www.googleapis.com/auth/calendar.events': 'Your events' },
          },
        },
      },
    },
  },
  securityRequirements: [
    { schemes: { google: { list: ['https://www.googleapis.com/auth/calendar.events'] } } },
  ],
};

const CALENDAR = `id: calendar
interactionProtocol: REST
owner: CONSUMER
displayName: Google Calendar
description: Your calendar.
operations:
  - id: list
    description: Reads your events
    apiOperationSpec: { httpMethod: GET }
`;

const READ_AS_YOU = {
  id: 'read',
  operation: 'list',
  identityUsed: 'END_USER',
  accessJustification: 'To see when you are free.',
  necessity: 'REQUIRED',
};

async function views(root: string, language = 'en') {
  const site = (await prepareBuild({ root, env })).site;
  const build = site.agents[0]!;
  const w = wordsFor(language);
  return {
    agent: agentPageView(build, site),
    permissions: permissionView(build, site.model),
    index: indexView(site, w),
  };
}

describe('a card that asks the user to sign in with OAuth 2.0, and no RAM', () => {
  const md = agentMd(OAUTH);

  it('check warns SIGN_IN_WITHOUT_RAM_ACCESS at the scheme', async () => {
    const root = await makeSite({ 'content/agents/a.md': md });
    const { diagnostics } = await loadAndCheck({ root });
    expect(diagnostics).toMatchObject([
      {
        code: 'SIGN_IN_WITHOUT_RAM_ACCESS',
        severity: 'warning',
        path: 'securitySchemes.google',
        line: lineOf(md, 'google:'),
      },
    ]);
  });

  it('no page says it does not access any of your accounts', async () => {
    const root = await makeSite({ 'content/agents/a.md': md });
    const { agent, permissions, index } = await views(root);
    expect(permissions.hasAccess).toBe(false);
    expect(permissions.noAccessText).toBe(
      'Its card asks you to sign in with your own account, but its publisher does not declare what the agent then does with your accounts and data, so that is not known here.',
    );
    expect(agent.footprint).toBe(
      'Asks you to sign in with your account, but does not declare what it does there',
    );
    expect(index.agents[0]!.footprint).not.toContain('does not access');
    expect(agent.noSignInText).toBeUndefined();
    expect(agent.signInNotes).toEqual([
      'Its card asks you to sign in with your own account, but its publisher does not declare what the agent does with it.',
    ]);
  });

  it('…with a RAM that reaches the user’s service only with its own account: the summary says what is not declared', async () => {
    const root = await makeSite({
      'content/resources/calendar.yaml': CALENDAR,
      'content/agents/a.md': agentMd({
        ...OAUTH,
        resourceAccesses: [{ ...READ_AS_YOU, identityUsed: 'AGENT' }],
      }),
    });
    const { permissions } = await views(root);
    expect(permissions.summary.find((s) => s.key === 'sign-in')?.text).toBe(
      'Its card asks you to sign in with your own account, but no action below is declared as done with it: what it does with your account is not declared.',
    );
  });
});

describe('an agent that acts as the user, whose card declares no sign-in', () => {
  const md = agentMd({ resourceAccesses: [READ_AS_YOU] });

  it('check is quiet: a card silent on sign-in does not contradict the RAM (the page says what is known)', async () => {
    const root = await makeSite({ 'content/resources/calendar.yaml': CALENDAR, 'content/agents/a.md': md });
    const { diagnostics } = await loadAndCheck({ root });
    expect(diagnostics.filter((d) => d.code.startsWith('SIGN_IN'))).toEqual([]);
  });

  it('the agent page does not say "declares no sign-in"; it says where it acts as you', async () => {
    const root = await makeSite({ 'content/resources/calendar.yaml': CALENDAR, 'content/agents/a.md': md });
    const { agent } = await views(root);
    expect(agent.noSignInText).toBe('Its card does not describe how you sign in.');
    expect(agent.signInNotes).toEqual([
      'It acts as you, with your own account, on Google Calendar: you will be asked to let it use your account there.',
    ]);
  });

  it('in Portuguese too', async () => {
    const root = await makeSite({
      'content/publisher.yaml': `domain: agents.example.test
siteUrl: https://agents.example.test/
organization: Example Test Ltd.
organizationUrl: https://www.example.test/
language: pt-BR
`,
      'content/resources/calendar.yaml': CALENDAR,
      'content/agents/a.md': md,
    });
    const { agent } = await views(root, 'pt-BR');
    expect(agent.noSignInText).toBe('O cartão do agente não descreve como você faz login.');
    expect(agent.signInNotes).toEqual([
      'Ele age em seu nome, com a sua própria conta, em Google Calendar: você vai ter que autorizar o uso da sua conta lá.',
    ]);
  });

  it('an agent that signs in nobody and reaches nothing as the user still "declares no sign-in"', async () => {
    const root = await makeSite({ 'content/agents/a.md': agentMd() });
    const { agent, permissions } = await views(root);
    expect(agent.noSignInText).toBe('The agent declares no sign-in.');
    expect(agent.signInNotes).toEqual([]);
    expect(permissions.noAccessText).toBe(
      'This agent does not access any of your accounts or outside services.',
    );
  });
});
