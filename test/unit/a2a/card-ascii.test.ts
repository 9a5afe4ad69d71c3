/**
 * Text that ardsite itself writes into an agent card is ASCII, so that a consumer that canonicalises a
 * card with `\u` escapes for non-ASCII (older a2a-python releases did) computes the same bytes as
 * everyone else for every card whose publisher wrote ASCII; the publisher's own text stays as written.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { buildAgentCard } from '../../../src/core/a2a/card.js';
import { loadAndCheck } from '../../../src/core/content/index.js';
import { agentMd, makeSite, removeSites } from '../../helpers/site.js';

afterAll(removeSites);

const NON_ASCII = /[^\t\n\r -~]/u;

async function cardOf(fields: Record<string, unknown>): Promise<string> {
  const { model, diagnostics } = await loadAndCheck({
    root: await makeSite({ 'content/agents/main.md': agentMd(fields) }),
  });
  expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return JSON.stringify(buildAgentCard(model!.agents[0]!, model!, { did: 'did:web:agents.example.test' }));
}

describe('the text ardsite writes into a card', () => {
  it('is ASCII when the publisher’s text is', async () => {
    const card = await cardOf({});
    expect(card.match(NON_ASCII)?.[0]).toBeUndefined();
  });

  it('leaves the publisher’s own non-ASCII text as written', async () => {
    const description = 'Reserva viagens em São Paulo — rápido, sem “surpresas”.';
    const card = await cardOf({ description });
    expect(card).toContain(description);
    expect(card.split(description).join('').match(NON_ASCII)?.[0]).toBeUndefined();
  });
});
