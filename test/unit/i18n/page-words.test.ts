/**
 * The page words per language (DESIGN.md §9 "Languages"): one table per language with one shape, checked word
 * by word; the language a page uses (publisher, agent override, regional tags); numbers, dates and plural
 * forms through `Intl`; an unknown language is a coded content error.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { loadAndCheck } from '../../../src/core/content/index.js';
import {
  checkWordTables,
  findWords,
  PAGE_WORDS,
  wordPaths,
  wordsFor,
} from '../../../src/core/i18n/words/index.js';
import { urlParts } from '../../../src/core/pages/url-breaks.js';
import { EN } from '../../../src/core/i18n/words/en.js';
import { PT_BR } from '../../../src/core/i18n/words/pt-BR.js';
import { agentMd, makeSite, removeSites } from '../../helpers/site.js';

afterAll(removeSites);

describe('the word tables', () => {
  it('have the same words in every language, and a table missing one is PAGE_WORDS_MISSING', () => {
    expect(checkWordTables()).toEqual([]);
    expect(wordPaths(PT_BR)).toEqual(wordPaths(EN));
    const { grants: _dropped, ...partial } = PT_BR;
    const missing = checkWordTables({ 'pt-BR': partial });
    expect(missing.length).toBeGreaterThan(0);
    expect(missing.every((d) => d.code === 'PAGE_WORDS_MISSING' && d.severity === 'error')).toBe(true);
    expect(missing.map((d) => d.path)).toContain('grants.heading');
    expect(missing[0]!.file).toBe('src/core/i18n/words/pt-BR.ts');
  });

  it('differ in every sentence the two languages do not share (no English left in the Portuguese table)', () => {
    const en = EN as unknown as Record<string, Record<string, unknown>>;
    const pt = PT_BR as unknown as Record<string, Record<string, unknown>>;
    const same: string[] = [];
    for (const path of wordPaths(EN)) {
      const [group, ...rest] = path.split('.');
      let a: unknown = en[group!];
      let b: unknown = pt[group!];
      for (const k of rest) {
        a = (a as Record<string, unknown>)[k];
        b = (b as Record<string, unknown>)[k];
      }
      if (typeof a === 'string' && a === b && / [a-z]+ /.test(a)) same.push(path);
    }
    expect(same).toEqual([]);
  });

  it('picks a table by BCP 47 tag: case-insensitive, a region of a bare-language table, never another region', () => {
    expect(findWords('pt-br')).toBe(PT_BR);
    expect(findWords('en-GB')).toBe(EN);
    expect(findWords('EN')).toBe(EN);
    expect(findWords('pt-PT')).toBeUndefined();
    expect(findWords('pt')).toBeUndefined();
    expect(() => wordsFor('de')).toThrow(/PAGE_LANGUAGE_UNSUPPORTED/);
    expect(Object.keys(PAGE_WORDS)).toEqual(['en', 'pt-BR']);
  });
});

describe('numbers, dates and plurals through Intl', () => {
  it('says one action in the singular (no "any of its 1 action", no "1 action is … they act")', () => {
    expect(EN.permissions.summaryAsksFirst(0, 1)).toBe('It does not ask you first before its one action.');
    expect(EN.permissions.summaryAsksFirst(0, 3)).toBe(
      'It does not ask you first before any of its 3 actions.',
    );
    expect(EN.permissions.summaryHigherRisk(1)).toBe(
      'One action is marked higher risk: it acts as you, may change your data and does not ask you first.',
    );
    expect(EN.permissions.summaryHigherRisk(2)).toMatch(/^2 actions are marked higher risk: they act as you/);
    expect(PT_BR.permissions.summaryHigherRisk(1)).toMatch(
      /^Uma ação está marcada como “Risco maior”: nela,/,
    );
    expect(PT_BR.permissions.summaryOutside(1)).toBe('Compartilha dados com 1 serviço externo.');
    expect(PT_BR.permissions.summaryOutside(2)).toBe('Compartilha dados com 2 serviços externos.');
    expect(PT_BR.permissions.summaryNecessity(1, 0, 2)).toBe(
      'Quanto ele precisa dessas ações: 1 obrigatória, nenhuma recomendada, 2 opcionais.',
    );
  });

  it('writes numbers and dates the way each language does', () => {
    expect(PT_BR.footprint.outside(1234)).toBe('compartilha dados com 1.234 serviços externos');
    expect(EN.footprint.outside(1234)).toBe('shares data with 1,234 outside services');
    expect(PT_BR.locale.date('2025-11-22T10:00:00Z')).toBe('22 de novembro de 2025');
    expect(EN.locale.date('2025-11-22T10:00:00Z')).toBe('22 November 2025');
    expect(PT_BR.changes.notice('1.1.0', '2026-03-03T00:00:00Z')).toBe(
      'Novas permissões na versão 1.1.0 (3 de março de 2026).',
    );
  });

  it('reads "Used by" as a sentence', () => {
    expect(EN.permissions.usedBy(['Plan a trip'])).toBe('The skill “Plan a trip”.');
    expect(EN.permissions.usedBy(['A', 'B', 'C'])).toBe('The skills “A”, “B”, and “C”.');
    expect(PT_BR.permissions.usedBy(['A', 'B'])).toBe('As funções “A” e “B”.');
  });
});

describe('the Portuguese words for 0, 1, 2 and many (CLDR puts 0 in `one` for pt)', () => {
  const p = PT_BR.permissions;
  /** Every sentence of the Portuguese table that holds a count, for `n`. */
  const counted = (n: number) => [
    PT_BR.footprint.yours(n),
    PT_BR.footprint.outside(n),
    p.summaryYours(n, n, 0, 0),
    p.summaryYours(0, 0, 0, n),
    p.summaryYours(n, n, 0, n),
    p.summaryOutside(n),
    p.summaryAsksFirst(0, n),
    p.summaryAsksFirst(n, n),
    p.summaryAsksFirst(1, n + 1),
    p.summaryNecessity(n, n, n),
    p.summaryHigherRisk(n),
    PT_BR.grants.alsoAllows(n),
  ];

  it('never puts a singular noun after 0 or 2+, nor a plural one after 1', () => {
    expect(new Intl.PluralRules('pt-BR').select(0)).toBe('one');
    for (const n of [0, 1, 2, 3, 11, 1_000_000]) {
      for (const sentence of counted(n)) {
        expect(sentence, `${n}`).not.toMatch(
          /(^|[^\d.])(0|[2-9]|\d{2,}|\d{1,3}(\.\d{3})+) (ação|serviço|obrigatória|recomendada|opcional)(?![a-zà-úç])/,
        );
        expect(sentence, `${n}`).not.toMatch(
          /(^|[^\d.])1 (ações|serviços|obrigatórias|recomendadas|opcionais)/,
        );
      }
    }
    expect(PT_BR.footprint.outside(0)).toBe('compartilha dados com 0 serviços externos');
    expect(PT_BR.footprint.yours(1)).toBe('usa 1 serviço seu');
    expect(PT_BR.footprint.yours(2)).toBe('usa 2 serviços seus');
    expect(p.summaryNecessity(0, 1, 0)).toBe('Quanto ele precisa da única ação dele: recomendada.');
  });

  it('names your own account at outside services reached as you, in the singular and the plural', () => {
    expect(p.summaryYours(0, 0, 0, 1)).toBe(
      'Não usa nenhum serviço seu, mas usa a sua conta em 1 serviço externo, em seu nome.',
    );
    expect(p.summaryYours(0, 0, 0, 2)).toBe(
      'Não usa nenhum serviço seu, mas usa as suas contas em 2 serviços externos, em seu nome.',
    );
    expect(p.summaryYours(2, 1, 1, 1)).toBe(
      'Usa 2 serviços seus: 1 em seu nome, 1 com a conta do agente. Também usa a sua conta em 1 serviço externo, em seu nome.',
    );
    expect(EN.permissions.summaryYours(0, 0, 0, 2)).toBe(
      'It acts on none of your own services, but it uses your own accounts at 2 outside services, as you.',
    );
    expect(EN.permissions.summaryYours(1, 0, 1, 1)).toBe(
      'It acts on 1 of your own services, with its own account, not yours. It also uses your own account at 1 outside service, as you.',
    );
  });

  it('puts "outras" before the number and says "mais uma" for one ("outras 11 ações", never "1 outra ação")', () => {
    expect(PT_BR.grants.alsoAllows(1)).toBe('Esta permissão também libera mais uma ação neste serviço.');
    expect(PT_BR.grants.alsoAllows(11)).toBe('Esta permissão também libera outras 11 ações neste serviço.');
    expect(PT_BR.grants.alsoAllows(1234)).toBe(
      'Esta permissão também libera outras 1.234 ações neste serviço.',
    );
  });

  it('contracts "em" with an article, writes the first of a month as "1º" and joins lists with "e"', () => {
    const a = PT_BR.agent;
    expect(a.apiKey('key', a.apiKeyPlace.query!)).toBe(
      'Uma chave chamada “key”, enviada no endereço (query string).',
    );
    for (const place of Object.values(a.apiKeyPlace))
      expect(a.apiKey('k', place)).not.toMatch(/\bem (o|a|os|as) /);
    expect(PT_BR.locale.date('2026-03-01T00:00:00Z')).toBe('1º de março de 2026');
    expect(PT_BR.locale.date('2026-03-11T00:00:00Z')).toBe('11 de março de 2026');
    expect(PT_BR.changes.intro('1.0.0', '2026-03-01T00:00:00Z')).toBe(
      'Mudanças em relação à versão 1.0.0, de 1º de março de 2026:',
    );
    expect(PT_BR.grants.broader('x', ['a', 'b', 'c'])).toMatch(/é “a”, “b” e “c”, e quem publica/);
  });

  it('lower-cases a sign-in kind inside a sentence and joins alternatives with "ou"', () => {
    const a = PT_BR.agent;
    const oauth = a.requirement(a.schemeKind.oauth2, ['Ver suas viagens (trips.read)']);
    expect(a.requirementOne(oauth)).toBe(
      'Para usar o agente, é preciso: login com OAuth 2.0, com permissão para: Ver suas viagens (trips.read).',
    );
    expect(a.toUseSkill(a.needsOr([a.schemeKind.apiKey, a.schemeKind.bearer]))).toBe(
      'Para usar esta função, é preciso: chave de API; ou token de acesso.',
    );
  });

  it('joins English sign-in alternatives in one sentence, keeping names and acronyms as written', () => {
    const a = EN.agent;
    expect(a.toUseSkill(a.needsOr([a.schemeKind.oauth2, a.schemeKind.apiKey, a.schemeKind.bearer]))).toBe(
      'To use this skill: OAuth 2.0 sign-in; or API key; or access token.',
    );
    expect(a.needsOr([a.schemeKind.apiKey, a.schemeKind.openIdConnect, a.schemeKind.other])).toBe(
      'API key; or OpenID Connect sign-in; or sign-in',
    );
  });

  it('says how much an agent needs its only action without counting the others as zero', () => {
    expect(EN.permissions.summaryNecessity(0, 1, 0)).toBe('How much it needs its one action: recommended.');
    expect(EN.permissions.summaryNecessity(1, 0, 2)).toBe(
      'How much it needs its actions: 1 required, none recommended, 2 optional.',
    );
  });

  it('answers the English grants heading with "Nothing", not with a sentence that contradicts it', () => {
    expect(EN.grants.heading).toBe('You will be asked to allow:');
    expect(EN.grants.nothingToAllow).toMatch(/^Nothing: /);
  });

  it('says what changed in sentences with one subject (no "A ação uma ação", no "outra coisa do que")', () => {
    const label = { whatItDoes: 'Cria um evento.', resource: 'Agenda', owner: 'CONSUMER', actsAsYou: true };
    const sentence = (field: string, kind: 'widened' | 'narrowed' = 'widened', l: object = label) =>
      PT_BR.changes.sentence({ kind, item: 'access', id: 'a', field, label: l });
    expect(sentence('operation')).toBe(
      'A ação “Cria um evento” em Agenda agora faz algo diferente do que fazia antes.',
    );
    expect(sentence('identityUsed', 'widened', {})).toBe(
      'Uma ação agora é feita em seu nome, com a sua conta (antes: com a conta do agente).',
    );
    expect(sentence('confirmationRequired')).not.toMatch(/antes \(antes/);
    expect(
      PT_BR.changes.sentence({ kind: 'reworded', item: 'resource', id: 'r', field: 'displayName', label }),
    ).toBe('Texto alterado: o nome de Agenda.');
  });
});

describe('the language of the pages in content', () => {
  it('is PAGE_LANGUAGE_UNSUPPORTED, at the field, for a publisher or agent language without words', async () => {
    const root = await makeSite({
      'content/publisher.yaml': `domain: agents.example.test
siteUrl: https://agents.example.test/
organization: Example Test Ltd.
organizationUrl: https://www.example.test/
language: de
`,
      'content/agents/helper.md': agentMd({ language: 'fr' }),
    });
    const { diagnostics } = await loadAndCheck({ root });
    const found = diagnostics.filter((d) => d.code === 'PAGE_LANGUAGE_UNSUPPORTED');
    expect(found.map((d) => [d.file, d.path]).sort()).toEqual([
      ['content/agents/helper.md', 'language'],
      ['content/publisher.yaml', 'language'],
    ]);
    expect(found.every((d) => d.line !== undefined)).toBe(true);
  });
});

describe('urlParts', () => {
  it('cuts a long URL after / . _ - and before ? & = #, never inside the scheme, and joins back to it', () => {
    const url = 'https://developers.google.com/calendar/api/v3/reference/events_list?alt=json&x=1#top';
    const parts = urlParts(url);
    expect(parts.join('')).toBe(url);
    expect(parts[0]).toBe('https://developers.');
    expect(parts).toContain('reference/');
    expect(parts).toContain('events_');
    expect(parts).toContain('?alt');
    expect(parts).toContain('=json');
    expect(parts.at(-1)).toBe('#top');
    expect(urlParts('host:443')).toEqual(['host:443']);
  });
});
