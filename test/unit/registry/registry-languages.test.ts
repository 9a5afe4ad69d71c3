/**
 * `/search` in the site's languages (ARD draft §4.2.2): each language is indexed with its own tokenizer
 * and stemmer (Orama's), and a question is answered in the language the request's `Accept-Language`
 * (RFC 9110 §12.5.4) picks among the site's languages.
 */
import { describe, expect, it } from 'vitest';
import { buildCatalog, type CatalogInput } from '../../../src/core/registry/catalog.js';
import { QueryEngine } from '../../../src/core/registry/search.js';
import { chooseLanguage } from '../../../src/core/registry/text-languages.js';

const inputs: CatalogInput[] = [
  {
    entry: {
      identifier: 'urn:air:example.com:agent:trip-planner',
      displayName: 'Trip planner',
      description: 'Plans trips on public transport.',
      representativeQueries: ['When is my next bus?', 'Plan a trip to the airport'],
      tags: ['transit'],
    },
    verified: true,
    texts: {
      'pt-BR': {
        displayName: 'Planejador de viagens',
        description: 'Planeja viagens de transporte público.',
        representativeQueries: ['Qual é o horário do ônibus?', 'Planeje uma viagem ao aeroporto'],
      },
    },
  },
  {
    entry: {
      identifier: 'urn:air:example.com:agent:hotel-booker',
      displayName: 'Hotel booker',
      description: 'Books hotel rooms.',
      representativeQueries: ['Book a hotel room in Lisbon', 'Find a hotel near the station'],
      tags: ['lodging'],
    },
    verified: true,
    texts: {
      'pt-BR': {
        displayName: 'Reservas de hotel',
        description: 'Reserva quartos de hotel.',
        representativeQueries: ['Reserve um quarto de hotel em Lisboa'],
      },
    },
  },
  {
    entry: {
      identifier: 'urn:air:example.com:agent:weather',
      displayName: 'Weather',
      description: 'Tells the weather forecast.',
      representativeQueries: ['Will it rain tomorrow?'],
    },
    verified: true,
  },
];

const question = 'horários de ônibus';

describe('a Portuguese question on a bilingual site', async () => {
  const catalog = await buildCatalog(inputs, { languages: ['en', 'pt-BR'] });
  const engine = new QueryEngine(catalog, 8);
  const ranked = (text: string, language?: string) =>
    [
      ...engine.rank({ context: new Map(), text, filter: [], ...(language ? { language } : {}) }).positions,
    ].map((p) => catalog.entries[p]!.identifier);

  it('finds the entry whose Portuguese texts say it, through inflected words', () => {
    expect(ranked(question, 'pt-BR')[0]).toBe('urn:air:example.com:agent:trip-planner');
    expect(ranked('reservar quartos', 'pt-BR')[0]).toBe('urn:air:example.com:agent:hotel-booker');
  });

  it('asked in English, finds nothing from the Portuguese texts (and ranks English by English)', () => {
    expect(ranked(question, 'en')).toEqual([]);
    expect(ranked(question)).toEqual([]);
    expect(ranked('next bus')[0]).toBe('urn:air:example.com:agent:trip-planner');
  });

  it('an entry without Portuguese texts is found in Portuguese by its own texts', () => {
    expect(ranked('weather forecast', 'pt-BR')).toEqual(['urn:air:example.com:agent:weather']);
  });

  it('Accept-Language picks the language (best match, default otherwise)', () => {
    const languages = catalog.languages;
    expect(languages).toEqual(['en', 'pt-BR']);
    expect(chooseLanguage('pt-BR,pt;q=0.9,en;q=0.8', languages)).toBe('pt-BR');
    expect(chooseLanguage('pt', languages)).toBe('pt-BR');
    expect(chooseLanguage('pt-br', languages)).toBe('pt-BR');
    expect(chooseLanguage('en-US,en;q=0.9', languages)).toBe('en');
    expect(chooseLanguage('en;q=0.5, pt;q=0.4', languages)).toBe('en');
    expect(chooseLanguage('fr', languages)).toBe('en');
    expect(chooseLanguage('pt-PT', languages)).toBe('en');
    expect(chooseLanguage(null, languages)).toBe('en');
    expect(chooseLanguage('*', languages)).toBe('en');
    expect(ranked(question, chooseLanguage('pt-PT, pt;q=0.8', languages))[0]).toBe(
      'urn:air:example.com:agent:trip-planner',
    );
  });
});

describe('/explore with a Portuguese text on a bilingual site (ARD draft §4.2.3)', async () => {
  const catalog = await buildCatalog(inputs, { languages: ['en', 'pt-BR'] });
  const engine = new QueryEngine(catalog, 8);
  const facets = (text: string, language?: string, filter: Array<{ key: string; values: string[] }> = []) =>
    engine.facets({ context: new Map(), text, filter, ...(language ? { language } : {}) }, [
      { field: 'identifier', limit: 100 },
      { field: 'tags', limit: 10 },
    ]);
  const identifiers = (text: string, language?: string) =>
    facets(text, language).identifier!.buckets.map((b) => b.value);

  it('counts over the entries the Portuguese texts match, through the Portuguese stemmer', () => {
    const found = facets(question, 'pt-BR');
    expect(found.identifier!.buckets).toEqual([
      { value: 'urn:air:example.com:agent:trip-planner', count: 1 },
    ]);
    expect(found.tags).toEqual({ buckets: [{ value: 'transit', count: 1 }], otherCount: 0 });
    expect(identifiers('reservar quartos', 'pt-BR')).toEqual(['urn:air:example.com:agent:hotel-booker']);
  });

  it('in English (or with no language) the same words match nothing', () => {
    expect(identifiers(question, 'en')).toEqual([]);
    expect(identifiers(question)).toEqual([]);
    expect(facets(question).tags).toEqual({ buckets: [], otherCount: 0 });
  });

  it('matches exactly the entries /search ranks for the same text, language and filter', () => {
    const ranked = (text: string, language?: string) =>
      [...engine.rank({ context: new Map(), text, filter: [], ...(language ? { language } : {}) }).positions]
        .map((p) => catalog.entries[p]!.identifier)
        .sort();
    for (const [text, language] of [
      [question, 'pt-BR'],
      ['viagem hotel', 'pt-BR'],
      ['hotel trip weather', 'en'],
      ['weather forecast', 'pt-BR'],
    ] as const) {
      expect(identifiers(text, language).sort()).toEqual(ranked(text, language));
    }
    expect(identifiers('viagem hotel', 'pt-BR').sort()).toEqual([
      'urn:air:example.com:agent:hotel-booker',
      'urn:air:example.com:agent:trip-planner',
    ]);
  });

  it('applies the filter to the text matches', () => {
    const found = facets('viagem hotel', 'pt-BR', [{ key: 'tags', values: ['lodging'] }]);
    expect(found.identifier!.buckets).toEqual([
      { value: 'urn:air:example.com:agent:hotel-booker', count: 1 },
    ]);
    expect(found.tags!.buckets).toEqual([{ value: 'lodging', count: 1 }]);
  });
});

describe('a site whose default language is Portuguese', async () => {
  const catalog = await buildCatalog(
    inputs.map(({ entry, verified, texts }) => ({ entry: { ...entry, ...texts?.['pt-BR'] }, verified })),
    { languages: ['pt-BR'] },
  );
  it('indexes its own texts with the Portuguese stemmer', () => {
    const engine = new QueryEngine(catalog);
    const top = (text: string) =>
      catalog.entries[engine.rank({ context: new Map(), text, filter: [] }).positions[0] ?? -1]?.identifier;
    expect(top(question)).toBe('urn:air:example.com:agent:trip-planner');
    // "reservar" is no prefix of "reserva" or "reserve": only a Portuguese stemmer brings them together.
    expect(top('reservar')).toBe('urn:air:example.com:agent:hotel-booker');
  });
});
