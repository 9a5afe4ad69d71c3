/**
 * A per-language text written in a one-line YAML map with a comma in it (`{ en: a, b, pt-BR: c }`): YAML
 * 1.2 §7.4 ends a flow entry at the comma, so `b` is read as a key. One error, at the line, with the hint
 * to quote the text, instead of one per piece plus "not a language" for every key after it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { loadAndCheck } from '../../../src/core/content/index.js';
import { agentMd, DEFAULT_PUBLISHER, lineOf, makeSite, removeSites } from '../../helpers/site.js';

afterAll(removeSites);

async function diagnosticsOf(description: string, languages = '[en, pt-BR]') {
  const md = agentMd().replace(/^description: .*$/m, `description: ${description}`);
  const root = await makeSite({
    'content/publisher.yaml': `${DEFAULT_PUBLISHER}languages: ${languages}\n`,
    'content/agents/a.md': md,
  });
  return { md, diagnostics: (await loadAndCheck({ root })).diagnostics };
}

describe('a comma in a text of a one-line per-language map', () => {
  it('is one error at the line, with the text to quote', async () => {
    const { md, diagnostics } = await diagnosticsOf(
      '{ en: Plans trips, buses and trains, pt-BR: Planeja viagens }',
    );
    expect(diagnostics).toEqual([
      expect.objectContaining({
        code: 'TEXT_UNQUOTED_COMMA',
        severity: 'error',
        file: 'content/agents/a.md',
        line: lineOf(md, 'description:'),
        path: 'description.buses and trains',
        message: expect.stringContaining('Quote the text: en: "Plans trips, buses and trains"'),
      }),
    ]);
  });

  it('names every piece of a text cut at two commas, once', async () => {
    const { diagnostics } = await diagnosticsOf('{ en: Buses, trains, ferries, pt-BR: Ônibus }');
    expect(diagnostics.map((d) => d.code)).toEqual(['TEXT_UNQUOTED_COMMA']);
    expect(diagnostics[0]!.message).toContain('en: "Buses, trains, ferries"');
  });

  it('on a site in one language too: one error, not one per key', async () => {
    const { diagnostics } = await diagnosticsOf(
      '{ en: Plans trips, buses and trains, pt-BR: Planeja viagens }',
      '[en]',
    );
    expect(diagnostics.map((d) => d.code)).toEqual(['TEXT_UNQUOTED_COMMA']);
  });

  it('the same text quoted is clean', async () => {
    const { diagnostics } = await diagnosticsOf(
      '{ en: "Plans trips, buses and trains", pt-BR: Planeja viagens }',
    );
    expect(diagnostics).toEqual([]);
  });
});
