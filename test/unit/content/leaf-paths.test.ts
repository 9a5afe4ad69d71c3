/**
 * The two renaming walks every agent file goes through (src/core/content/normalize.ts `normalizeRamKeys`
 * and src/core/content/a2a-spellings.ts `rewriteA2aSpellings`) keep a leaf (a string, number, boolean or
 * null) as it is, without making its path: a walk's work grows with the objects and arrays of a document,
 * not with its leaves. The search for per-language maps (src/core/content/texts.ts
 * `takeTextsPerLanguage`) makes a path only for a map it finds, and no rest of its pattern per value. Observed as the arrays iterated during a walk (a path is made by spreading the
 * parent's, `[...path, key]`): the same for a document whatever the number of leaves in its lists and
 * mappings. What the walks return and report is pinned by test/unit/content/content-checks.test.ts and
 * the A2A spelling tests.
 */
import { describe, expect, it } from 'vitest';
import { normalizeRamKeys } from '../../../src/core/content/normalize.js';
import { rewriteA2aSpellings } from '../../../src/core/content/a2a-spellings.js';
import { takeTextsPerLanguage } from '../../../src/core/content/texts.js';
import { AgentFrontMatter } from '../../../src/core/schema/agent.js';
import { TextTable } from '../../../src/core/model/text-table.js';
import { SourceDoc } from '../../../src/core/model/source.js';
import type { Diagnostic } from '../../../src/core/util/errors.js';

/** How many times an array was iterated while `walk` ran. */
function iterationsDuring(walk: () => unknown): number {
  const iterate = Array.prototype[Symbol.iterator];
  let count = 0;
  Array.prototype[Symbol.iterator] = function (this: unknown[]) {
    count += 1;
    return iterate.call(this);
  };
  try {
    walk();
  } finally {
    Array.prototype[Symbol.iterator] = iterate;
  }
  return count;
}

/** A RAM-like document with `n` leaves in a list and `n` in a mapping. */
function ram(n: number): unknown {
  const fields = Object.fromEntries(Array.from({ length: n }, (_, i) => [`field_${i}`, `value ${i}`]));
  return {
    resources: [{ display_name: 'Notes', scopes_used: Array.from({ length: n }, (_, i) => `scope${i}`) }],
    details: fields,
  };
}

/** Front matter with `n` tags and `n` examples on its skill. */
function front(n: number): unknown {
  const list = (word: string) => Array.from({ length: n }, (_, i) => `${word} ${i}`);
  return {
    name: 'Agent',
    description: 'An agent',
    skills: [{ id: 's1', name: 'Skill', description: 'Does it', tags: list('tag'), examples: list('ex') }],
  };
}

describe('the renaming walks keep leaves without making their paths', () => {
  it('normalizeRamKeys: the same arrays iterated for 1 and for 50 leaves per list and mapping', () => {
    const walk = (value: unknown) => () => {
      const diagnostics: Diagnostic[] = [];
      normalizeRamKeys(value, SourceDoc.fromJson('x.json', '{}', value), [], diagnostics);
      expect(diagnostics).toEqual([]);
    };
    expect(iterationsDuring(walk(ram(50)))).toBe(iterationsDuring(walk(ram(1))));
  });

  it('rewriteA2aSpellings: the same arrays iterated for 1 and for 50 tags and examples', () => {
    const walk = (value: unknown) => () => {
      const diagnostics: Diagnostic[] = [];
      rewriteA2aSpellings(value, SourceDoc.fromJson('agent.md', '{}', value), diagnostics);
      expect(diagnostics).toEqual([]);
    };
    expect(iterationsDuring(walk(front(50)))).toBe(iterationsDuring(walk(front(1))));
  });

  it('takeTextsPerLanguage: the same arrays iterated for 1 and for 50 skills without per-language maps', () => {
    const walk = (value: unknown) => () => {
      const diagnostics: Diagnostic[] = [];
      const source = SourceDoc.fromJson('agent.md', '{}', value);
      const context = { settings: { language: 'en' }, table: new TextTable(), diagnostics };
      expect(takeTextsPerLanguage(value, AgentFrontMatter, source, context)).toBe(value);
      expect(diagnostics).toEqual([]);
    };
    const skills = (n: number) => ({
      name: 'Agent',
      skills: Array.from({ length: n }, (_, i) => ({ id: `s${i}`, name: 'Skill', tags: ['a'] })),
    });
    // The schema's per-language fields are read once per schema (a walk of its JSON Schema): not counted.
    walk(skills(1))();
    expect(iterationsDuring(walk(skills(50)))).toBe(iterationsDuring(walk(skills(1))));
  });

  it('takeTextsPerLanguage still finds each per-language map at its path', () => {
    const value = {
      name: 'Agent',
      skills: [
        { id: 's1', name: 'Skill' },
        { id: 's2', name: { en: 'Second', pt: 'Segunda' } },
      ],
    };
    const diagnostics: Diagnostic[] = [];
    const source = SourceDoc.fromJson('agent.md', '{}', value);
    const table = new TextTable();
    const context = { settings: { language: 'en', languages: ['en', 'pt'] }, table, diagnostics };
    const out = takeTextsPerLanguage(value, AgentFrontMatter, source, context) as typeof value;
    expect(diagnostics).toEqual([]);
    expect(out.skills[1]!.name).toBe('Second');
    expect(table.get(source, ['skills', 1, 'name'], 'pt')).toBe('Segunda');
  });
});
