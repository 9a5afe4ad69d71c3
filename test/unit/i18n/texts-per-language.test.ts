/**
 * Texts per language in content (DESIGN.md §9 "Languages", docs/languages.md): publisher.yaml `languages:`,
 * the `{ en: …, pt-BR: … }` maps of the fields the schemas mark, the bodies in `<slug>.<tag>.md`, and every
 * error at its file, field and line: a map without the default language, a language the site does not
 * publish, a text that is not one, an agent `language` on a site with `languages:`, a bad `languages` list.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { loadAndCheck } from '../../../src/core/content/index.js';
import { perLanguageFields } from '../../../src/core/content/texts.js';
import type { Diagnostic } from '../../../src/core/util/errors.js';
import { AgentFrontMatter } from '../../../src/core/schema/agent.js';
import { OtherEntryFile } from '../../../src/core/schema/entry.js';
import { Publisher } from '../../../src/core/schema/publisher.js';
import { ResourceAccessManifest, ResourceFile } from '../../../src/core/schema/ram.js';
import { agentMd, DEFAULT_PUBLISHER, lineOf, makeSite, removeSites } from '../../helpers/site.js';

afterAll(removeSites);

const BILINGUAL = `${DEFAULT_PUBLISHER}languages: [en, pt-BR]\n`;

/** The fields given per language, as `a.b[].c` patterns. */
function fields(schema: Parameters<typeof perLanguageFields>[0]): string[] {
  return perLanguageFields(schema).map((f) => f.pattern.join('.').replace(/\.\[\]/g, '[]'));
}

const errors = (diagnostics: Diagnostic[]) => diagnostics.filter((d) => d.severity === 'error');

describe('the fields given per language', () => {
  it('are the texts people read, and only those', () => {
    expect(fields(Publisher)).toEqual(['siteName', 'description']);
    expect(fields(AgentFrontMatter)).toEqual([
      'name',
      'description',
      'securitySchemes.*.apiKeySecurityScheme.description',
      'securitySchemes.*.httpAuthSecurityScheme.description',
      'securitySchemes.*.oauth2SecurityScheme.description',
      'securitySchemes.*.oauth2SecurityScheme.flows.authorizationCode.scopes.*',
      'securitySchemes.*.oauth2SecurityScheme.flows.clientCredentials.scopes.*',
      'securitySchemes.*.oauth2SecurityScheme.flows.deviceCode.scopes.*',
      'securitySchemes.*.oauth2SecurityScheme.flows.implicit.scopes.*',
      'securitySchemes.*.oauth2SecurityScheme.flows.password.scopes.*',
      'securitySchemes.*.openIdConnectSecurityScheme.description',
      'securitySchemes.*.mtlsSecurityScheme.description',
      'skills[].name',
      'skills[].description',
      'skills[].examples',
      'resources[].displayName',
      'resources[].description',
      'resources[].operations[].description',
      'resourceAccesses[].accessJustification',
      'resourceAccesses[].neededScope.reason',
    ]);
    expect(perLanguageFields(AgentFrontMatter).find((f) => f.pattern.at(-1) === 'examples')?.list).toBe(true);
    expect(fields(ResourceFile)).toEqual(['displayName', 'description', 'operations[].description']);
    expect(fields(ResourceAccessManifest)).toEqual([
      'resources[].displayName',
      'resources[].description',
      'operations[].description',
      'resourceAccesses[].accessJustification',
      'resourceAccesses[].neededScope.reason',
    ]);
    expect(fields(OtherEntryFile)).toEqual(['displayName', 'description']);
  });
});

describe('a site with languages:', () => {
  it('reads the maps: the model holds the default text, the table the others; bodies by file', async () => {
    const root = await makeSite({
      'content/publisher.yaml': `${BILINGUAL}description:\n  en: Our agents.\n  pt-BR: Nossos agentes.\n`,
      'content/agents/helper.md': agentMd({
        description: { en: 'Helps.', 'pt-br': '  Ajuda.  ' },
        skills: [
          {
            id: 'answer',
            name: { en: 'Answer', 'pt-BR': 'Responder' },
            description: 'Answers questions.',
            tags: ['test'],
            examples: { en: ['What is it?', 'Tell me'], 'pt-BR': ['O que é?'] },
          },
        ],
      }),
      'content/agents/helper.pt-BR.md': 'O agente dos testes.\n',
    });
    const { model, diagnostics } = await loadAndCheck({ root });
    expect(errors(diagnostics)).toEqual([]);
    const agent = model!.agents[0]!;
    expect(model!.agentFiles).toEqual(['helper']);
    expect(model!.publisher.language).toBe('en');
    expect(model!.publisher.description).toBe('Our agents.');
    expect(agent.front.description).toBe('Helps.');
    expect(agent.front.skills[0]!.examples).toEqual(['What is it?', 'Tell me']);
    const texts = model!.texts!;
    expect(texts.get(model!.publisherSource, ['description'], 'pt-BR')).toBe('Nossos agentes.');
    // The key is the site's spelling of the tag; the text is trimmed like the default one.
    expect(texts.get(agent.source, ['description'], 'pt-BR')).toBe('Ajuda.');
    expect(texts.get(agent.source, ['skills', 0, 'name'], 'pt-BR')).toBe('Responder');
    expect(texts.get(agent.source, ['skills', 0, 'examples'], 'pt-BR')).toEqual(['O que é?']);
    expect(texts.body('helper', 'pt-BR')).toBe('O agente dos testes.\n');
  });

  it('takes the first of languages as the default when language is absent, and refuses a language not listed', async () => {
    const first = await makeSite({
      'content/publisher.yaml': `${DEFAULT_PUBLISHER}languages: [pt-BR, en]\n`,
    });
    expect((await loadAndCheck({ root: first })).model!.publisher.language).toBe('pt-BR');
    const text = `${DEFAULT_PUBLISHER}language: en\nlanguages: [pt-BR, pt-br, 'x y']\n`;
    const root = await makeSite({ 'content/publisher.yaml': text });
    const found = errors((await loadAndCheck({ root })).diagnostics);
    expect(found.map((d) => [d.code, d.path, d.line])).toEqual([
      ['LANGUAGES_INVALID', 'languages[1]', lineOf(text, 'languages:')],
      ['LANGUAGES_INVALID', 'languages[2]', lineOf(text, 'languages:')],
    ]);
    const unlisted = `${DEFAULT_PUBLISHER}language: en\nlanguages: [pt-BR]\n`;
    const third = await makeSite({ 'content/publisher.yaml': unlisted });
    expect(
      errors((await loadAndCheck({ root: third })).diagnostics).map((d) => [d.code, d.path, d.line]),
    ).toEqual([['LANGUAGES_INVALID', 'language', lineOf(unlisted, 'language: en')]]);
  });

  it('says TEXT_LANGUAGE_MISSING at the file, field and line of a map without the default language', async () => {
    const agent = agentMd({ description: { 'pt-BR': 'Ajuda.' } });
    const root = await makeSite({ 'content/publisher.yaml': BILINGUAL, 'content/agents/helper.md': agent });
    const found = errors((await loadAndCheck({ root })).diagnostics);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      code: 'TEXT_LANGUAGE_MISSING',
      file: 'content/agents/helper.md',
      path: 'description',
      line: lineOf(agent, 'description:'),
    });
    expect(found[0]!.message).toContain('"en"');
  });

  it('finds a missing default text in a resource, a RAM file and publisher.yaml too', async () => {
    const resource = `id: notes
interactionProtocol: REST
owner: CONSUMER
displayName: Notes
description: Your notes.
operations:
  - id: notes-list
    description:
      pt-BR: Lista as notas.
    apiOperationSpec: { httpMethod: GET }
`;
    const ram = JSON.stringify(
      {
        resourceAccesses: [
          {
            id: 'read',
            operation: 'notes-list',
            identityUsed: 'END_USER',
            accessJustification: { 'pt-BR': 'Para ler.' },
            necessity: 'REQUIRED',
          },
        ],
      },
      null,
      2,
    );
    const publisher = `${BILINGUAL}siteName:\n  pt-BR: Agentes\n`;
    const root = await makeSite({
      'content/publisher.yaml': publisher,
      'content/resources/notes.yaml': resource,
      'content/agents/helper.md': agentMd({ ramFile: './helper.ram.json' }),
      'content/agents/helper.ram.json': ram,
    });
    const found = errors((await loadAndCheck({ root })).diagnostics).map((d) => [
      d.code,
      d.file,
      d.path,
      d.line,
    ]);
    expect(found).toEqual([
      [
        'TEXT_LANGUAGE_MISSING',
        'content/agents/helper.ram.json',
        'resourceAccesses[0].accessJustification',
        lineOf(ram, 'accessJustification'),
      ],
      ['TEXT_LANGUAGE_MISSING', 'content/publisher.yaml', 'siteName', lineOf(publisher, 'siteName:')],
      [
        'TEXT_LANGUAGE_MISSING',
        'content/resources/notes.yaml',
        'operations[0].description',
        lineOf(resource, 'description:', 2),
      ],
    ]);
  });

  it('refuses a language the site does not publish, a text given twice, and a text that is not one', async () => {
    const agent = agentMd({
      description: { en: 'Helps.', de: 'Hilft.' },
      skills: [
        {
          id: 'answer',
          name: { en: 'Answer', 'pt-BR': 'Responder', 'PT-br': 'De novo' },
          description: { en: 'Answers.', 'pt-BR': '' },
          tags: ['test'],
          examples: { en: ['What?'], 'pt-BR': 'O quê?' },
        },
      ],
    });
    const root = await makeSite({ 'content/publisher.yaml': BILINGUAL, 'content/agents/helper.md': agent });
    const found = errors((await loadAndCheck({ root })).diagnostics).map((d) => [d.code, d.path]);
    expect(found).toEqual([
      ['TEXT_LANGUAGE_UNKNOWN', 'description.de'],
      ['TEXT_LANGUAGE_UNKNOWN', 'skills[0].name.PT-br'],
      ['SCHEMA_INVALID_TYPE', 'skills[0].description.pt-BR'],
      ['SCHEMA_INVALID_TYPE', 'skills[0].examples.pt-BR'],
    ]);
  });

  it('refuses an agent language (AGENT_LANGUAGE_WITH_LANGUAGES) and the wrong body files', async () => {
    const root = await makeSite({
      'content/publisher.yaml': BILINGUAL,
      'content/agents/helper.md': agentMd({ language: 'pt-BR' }),
      'content/agents/helper.en.md': 'The default body is in helper.md.\n',
      'content/agents/helper.de.md': 'Der Agent.\n',
      'content/agents/other.md': agentMd(),
      'content/agents/other.pt-BR.md': '---\nname: Outro\n---\nO outro.\n',
    });
    const found = errors((await loadAndCheck({ root })).diagnostics).map((d) => [
      d.code,
      d.file,
      d.path ?? '',
    ]);
    expect(found).toEqual([
      ['TEXT_LANGUAGE_UNKNOWN', 'content/agents/helper.de.md', ''],
      ['LANGUAGE_FILE_INVALID', 'content/agents/helper.en.md', ''],
      ['AGENT_LANGUAGE_WITH_LANGUAGES', 'content/agents/helper.md', 'language'],
      ['LANGUAGE_FILE_INVALID', 'content/agents/other.pt-BR.md', ''],
    ]);
  });
});

describe('a site in one language', () => {
  it('takes a map of its one language, refuses another with the line that would publish it, keeps <slug>.<x>.md agents', async () => {
    const agent = agentMd({ description: { en: 'Helps.', 'pt-BR': 'Ajuda.' } });
    const root = await makeSite({
      'content/agents/helper.md': agent,
      'content/agents/helper.old.md': agentMd({ name: 'Old Helper', description: { en: 'Helped.' } }),
    });
    const { model, diagnostics } = await loadAndCheck({ root });
    const found = errors(diagnostics);
    expect(found.map((d) => [d.code, d.path, d.line])).toEqual([
      ['TEXT_LANGUAGE_UNKNOWN', 'description.pt-BR', lineOf(agent, 'pt-BR:')],
    ]);
    expect(found[0]!.message).toContain('languages: [en, pt-BR]');
    // Without languages:, a file named like a body file is an agent of its own, as it always was.
    expect(model!.agents.map((a) => [a.slug, a.front.description])).toEqual([
      ['helper', 'Helps.'],
      ['helper.old', 'Helped.'],
    ]);
  });
});

describe('a resource defined twice', () => {
  const resource = (texts: string) => `id: notes
interactionProtocol: REST
owner: CONSUMER
displayName:${texts}
description: Your notes.
operations:
  - id: notes-list
    description: Lists your notes.
    apiOperationSpec: { httpMethod: GET }
`;
  const ram = JSON.stringify({
    resources: [
      {
        id: 'notes',
        interactionProtocol: 'REST',
        owner: 'CONSUMER',
        displayName: 'Notes',
        description: 'Your notes.',
      },
    ],
    operations: [
      {
        id: 'notes-list',
        resource: 'notes',
        description: 'Lists your notes.',
        apiOperationSpec: { httpMethod: 'GET' },
      },
    ],
    resourceAccesses: [
      {
        id: 'read',
        operation: 'notes-list',
        identityUsed: 'END_USER',
        accessJustification: 'To read.',
        necessity: 'REQUIRED',
      },
    ],
  });
  const files = (displayName: string, ramText = ram) => ({
    'content/publisher.yaml': BILINGUAL,
    'content/resources/notes.yaml': resource(displayName),
    'content/agents/helper.md': agentMd({ ramFile: './helper.ram.json' }),
    'content/agents/helper.ram.json': ramText,
  });

  it('merges when one side gives the texts in other languages (they are authoring data)', async () => {
    const { model, diagnostics } = await loadAndCheck({
      root: await makeSite(files('\n  en: Notes\n  pt-BR: Notas')),
    });
    expect(errors(diagnostics)).toEqual([]);
    const { origin } = model!.resources.get('notes')!;
    expect(model!.texts!.get(origin.source, [...origin.path, 'displayName'], 'pt-BR')).toBe('Notas');
  });

  it('is RAM_CONFLICTING_DEFINITION when both sides give different texts in one language', async () => {
    const other = ram.replace('"displayName":"Notes"', '"displayName":{"en":"Notes","pt-BR":"Anotações"}');
    const root = await makeSite(files('\n  en: Notes\n  pt-BR: Notas', other));
    const found = errors((await loadAndCheck({ root })).diagnostics);
    expect(found.map((d) => [d.code, d.file])).toEqual([
      ['RAM_CONFLICTING_DEFINITION', 'content/agents/helper.ram.json'],
    ]);
  });
});
