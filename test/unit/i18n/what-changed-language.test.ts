/**
 * The Portuguese "What changed" box names the operation and the resource in Portuguese when the publisher
 * translated them (DESIGN.md §9 "Languages"): a release records the default-language texts, and the page
 * shows the page language's.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { prepareBuild } from '../../../src/core/build/prepare.js';
import { changesView, pageNames } from '../../../src/core/pages/changes-view.js';
import { wordsFor } from '../../../src/core/i18n/words/index.js';
import type { AgentChanges } from '../../../src/core/releases/agent-changes.js';
import { agentMd, DEFAULT_PUBLISHER, makeSite, removeSites } from '../../helpers/site.js';

afterAll(removeSites);

const CALENDAR = `id: calendar
interactionProtocol: REST
owner: CONSUMER
displayName:
  en: Calendar Events
  pt-BR: Eventos da agenda
description:
  en: Your calendar.
  pt-BR: A sua agenda.
operations:
  - id: insert
    description:
      en: Creates a new event on a calendar
      pt-BR: Cria um evento na agenda
    apiOperationSpec: { httpMethod: POST }
`;

const ADD = {
  id: 'add',
  operation: 'insert',
  identityUsed: 'END_USER',
  accessJustification: { en: 'To put your trip in your calendar.', 'pt-BR': 'Para pôr a viagem na agenda.' },
  necessity: 'RECOMMENDED',
};

describe('What changed, in Portuguese', () => {
  it('names the translated operation and resource', async () => {
    const root = await makeSite({
      'content/publisher.yaml': `${DEFAULT_PUBLISHER}languages: [en, pt-BR]\n`,
      'content/resources/calendar.yaml': CALENDAR,
      'content/agents/a.md': agentMd({ resourceAccesses: [ADD] }),
    });
    const { site } = await prepareBuild({ root, env: { ARDSITE_DEV_KEY: '1', CI: '1' } });
    const { agent } = site.agents[0]!;
    // The change as a release history gives it: its label in the default language, as recorded.
    const changes = {
      version: '1.0.0',
      latest: {
        version: '1.0.0',
        releasedAt: '2026-03-01T00:00:00Z',
        previousVersion: '0.9.0',
        previousReleasedAt: '2026-02-01T00:00:00Z',
        gainedAccess: true,
        changes: [
          {
            kind: 'added',
            item: 'access',
            id: 'add',
            label: {
              whatItDoes: 'Creates a new event on a calendar',
              resource: 'Calendar Events',
              owner: 'CONSUMER',
              actsAsYou: true,
              withoutAsking: true,
              changesData: true,
            },
          },
        ],
      },
      history: [],
    } as unknown as AgentChanges;
    const pt = changesView({ changes }, wordsFor('pt-BR'), pageNames(agent, site.model, 'pt-BR'))!;
    const text = pt.latest!.items[0]!.text;
    expect(text).toContain('“Cria um evento na agenda”');
    expect(text).toContain('Eventos da agenda');
    expect(text).not.toContain('Creates a new event');
    // The English page keeps the recorded names.
    const en = changesView({ changes }, wordsFor('en'), pageNames(agent, site.model, 'en'))!;
    expect(en.latest!.items[0]!.text).toContain('“Creates a new event on a calendar” in Calendar Events');
  });
});
