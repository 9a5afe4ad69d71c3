/**
 * Look-alike and hidden-character names (src/core/content/name-checks.ts, UTS #39): `npm run check`
 * reports an exact duplicate, a name with a zero-width space, one with a Cyrillic letter among Latin ones,
 * and one with an unterminated right-to-left override, each at its agent file and `name` line; ordinary
 * names in other scripts, accents and emoji sequences pass.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { loadAndCheck } from '../../../src/core/content/index.js';
import { hiddenCharacter, mixedScriptLetter, skeleton } from '../../../src/core/content/name-checks.js';
import { agentMd, lineOf, makeSite, removeSites } from '../../helpers/site.js';

afterAll(removeSites);

/** The name findings of a site with one agent per name (slugs a0, a1, …). */
async function nameFindings(names: string[]) {
  const files = Object.fromEntries(names.map((name, i) => [`content/agents/a${i}.md`, agentMd({ name })]));
  const root = await makeSite(files);
  const { diagnostics } = await loadAndCheck({ root });
  return {
    files,
    findings: diagnostics.filter((d) => d.code.startsWith('NAME_')),
  };
}

describe('look-alike and hidden-character agent names', () => {
  it('reports a duplicate, a zero-width space, a Cyrillic letter and a right-to-left override', async () => {
    const { files, findings } = await nameFindings([
      'Travel Planner',
      'Travel Planner',
      'Travel\u200B Planner',
      'Trаvel Planner', // Cyrillic а (U+0430)
      'Pay\u202Ereviewer',
    ]);
    const at = (i: number) => ({
      file: `content/agents/a${i}.md`,
      line: lineOf(files[`content/agents/a${i}.md`]!, 'name:'),
    });
    expect(findings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'NAME_LOOKALIKE', severity: 'warning', path: 'name', ...at(1) }),
        expect.objectContaining({ code: 'NAME_HIDDEN_CHARACTER', severity: 'error', ...at(2) }),
        expect.objectContaining({ code: 'NAME_LOOKALIKE', ...at(2) }),
        expect.objectContaining({ code: 'NAME_MIXED_SCRIPT', severity: 'warning', ...at(3) }),
        expect.objectContaining({ code: 'NAME_LOOKALIKE', ...at(3) }),
        expect.objectContaining({ code: 'NAME_HIDDEN_CHARACTER', ...at(4) }),
      ]),
    );
    expect(findings.filter((f) => f.file === 'content/agents/a0.md')).toEqual([]);
    expect(
      findings.find((f) => f.code === 'NAME_HIDDEN_CHARACTER' && f.file === at(4).file)?.message,
    ).toContain('U+202E');
  });

  it('lets distinct names in any script pass, with accents and emoji sequences', async () => {
    const { findings } = await nameFindings([
      'Café Finder',
      'Zürich Guide',
      'Поиск билетов',
      'مساعد السفر',
      'Family 👨‍👩‍👧 Planner',
      'Heart ❤️ Notes',
      'می‌خواهم',
    ]);
    expect(findings).toEqual([]);
  });

  it('skeletons follow UTS #39: a Greek or Cyrillic look-alike maps to the Latin letter', () => {
    expect(skeleton('Рaypal')).toBe(skeleton('Paypal'));
    expect(skeleton('Gοogle')).toBe(skeleton('Google'));
    expect(mixedScriptLetter('Gοogle')).toBe('ο');
    expect(mixedScriptLetter('Straße')).toBeUndefined();
    expect(hiddenCharacter('a\u2066b')).toBe('\u2066');
    expect(hiddenCharacter('soft\u00ADhyphen')).toBe('\u00AD');
  });
});
