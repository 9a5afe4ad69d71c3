/**
 * The pages of a site in several languages (DESIGN.md §9 "Languages"), computed from a real build of the
 * `pages-bilingual` fixture (en at `/`, pt-BR at `/pt-br/`) without Astro: the paths of each language, the
 * `hreflang` alternates, the views in Portuguese with the publisher's Portuguese texts (and the untranslated
 * ones marked `en`), one sitemap with Google's `xhtml:link` alternates, `_headers` and llms.txt.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { prepareBuild } from '../../../src/core/build/prepare.js';
import { agentPageView } from '../../../src/core/pages/agent-page.js';
import { indexView } from '../../../src/core/pages/index-page.js';
import { pageLanguages } from '../../../src/core/pages/language-links.js';
import { PageTexts } from '../../../src/core/pages/page-texts.js';
import {
  alternateLinks,
  htmlPagePaths,
  pagePrefix,
  pageTreeOf,
  pageTrees,
} from '../../../src/core/site/page-paths.js';
import { permissionView } from '../../../src/core/pages/permissions.js';
import { PT_BR } from '../../../src/core/i18n/words/pt-BR.js';
import { sitemapXml } from '../../../src/core/build/site-files.js';
import type { SiteBuild } from '../../../src/core/site/site-build.js';
import { EXAMPLE_LIKE, fixture } from '../../helpers/site.js';

const env = { ARDSITE_DEV_KEY: '1', CI: '1' };
const ORIGIN = 'https://agents.example.com';
let site: SiteBuild;
let single: SiteBuild;

beforeAll(async () => {
  [site, single] = await Promise.all([
    prepareBuild({ root: fixture('pages-bilingual'), env }).then((p) => p.site),
    prepareBuild({ root: EXAMPLE_LIKE, env }).then((p) => p.site),
  ]);
});

const agentOf = (s: SiteBuild, slug: string) => s.agents.find((a) => a.agent.slug === slug)!;
const file = (s: SiteBuild, p: string) => new TextDecoder().decode(s.artifacts.get(p)!.bytes);
/** Every `<x>Lang` member of a view, deep: the texts shown in another language than the page's. */
function marks(value: unknown, at = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => marks(v, `${at}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) =>
    k === 'words' ? [] : k.endsWith('Lang') ? [`${at}.${k}=${String(v)}`] : marks(v, `${at}.${k}`),
  );
}

describe('paths of a site in several languages', () => {
  it('has a page tree per language, the default at / and the others under their lower-case tag', () => {
    const { publisher } = site.model;
    expect(pageTrees(publisher)).toEqual([
      { language: 'en', prefix: '', isDefault: true },
      { language: 'pt-BR', prefix: '/pt-br', isDefault: false },
    ]);
    expect(pageTreeOf(publisher, 'pt-br').language).toBe('pt-BR');
    expect(() => pageTreeOf(publisher, 'de')).toThrow(/no pages in a language "de"/);
    expect(htmlPagePaths(['a'], publisher)).toEqual([
      '/',
      '/agents/a/',
      '/agents/a/permissions/',
      '/pt-br/',
      '/pt-br/agents/a/',
      '/pt-br/agents/a/permissions/',
    ]);
    // A site in one language has one tree; an agent's own language there changes words, not paths.
    expect(htmlPagePaths(['a'], single.model.publisher)).toEqual(htmlPagePaths(['a']));
    expect(pagePrefix('pt-BR', single.model.publisher)).toBe('');
    expect(pagePrefix('PT-br', publisher)).toBe('/pt-br');
  });

  it('puts every page tree under hosting.pagesPrefix, the default language at the prefix itself', () => {
    const under = {
      ...site.model.publisher,
      hosting: { ...site.model.publisher.hosting, pagesPrefix: '/ai' },
    };
    expect(pageTrees(under)).toEqual([
      { language: 'en', prefix: '/ai', isDefault: true },
      { language: 'pt-BR', prefix: '/ai/pt-br', isDefault: false },
    ]);
    expect(pageTreeOf(under, 'ai/pt-br').language).toBe('pt-BR');
    expect(htmlPagePaths(['a'], under)).toEqual([
      '/ai/',
      '/ai/agents/a/',
      '/ai/agents/a/permissions/',
      '/ai/pt-br/',
      '/ai/pt-br/agents/a/',
      '/ai/pt-br/agents/a/permissions/',
    ]);
    expect(alternateLinks('/agents/a/', under, `${ORIGIN}/`)).toEqual([
      { hreflang: 'en', href: `${ORIGIN}/ai/agents/a/` },
      { hreflang: 'pt-BR', href: `${ORIGIN}/ai/pt-br/agents/a/` },
      { hreflang: 'x-default', href: `${ORIGIN}/ai/agents/a/` },
    ]);
    const one = {
      ...single.model.publisher,
      hosting: { ...single.model.publisher.hosting, pagesPrefix: '/ai' },
    };
    expect(pagePrefix('pt-BR', one)).toBe('/ai');
    expect(htmlPagePaths(['a'], one)).toEqual(['/ai/', '/ai/agents/a/', '/ai/agents/a/permissions/']);
    const view = agentPageView(agentOf(single, 'travel-reservation'), {
      ...single,
      model: { ...single.model, publisher: one },
    });
    expect([view.homePath, view.permissionsPath]).toEqual([
      '/ai/',
      '/ai/agents/travel-reservation/permissions/',
    ]);
  });

  it('names every language version of a page, itself and x-default included, by absolute URL', () => {
    expect(alternateLinks('/agents/a/', site.model.publisher, `${ORIGIN}/`)).toEqual([
      { hreflang: 'en', href: `${ORIGIN}/agents/a/` },
      { hreflang: 'pt-BR', href: `${ORIGIN}/pt-br/agents/a/` },
      { hreflang: 'x-default', href: `${ORIGIN}/agents/a/` },
    ]);
    expect(alternateLinks('/agents/a/', single.model.publisher, `${ORIGIN}/`)).toEqual([]);
  });

  it('gives the switcher one link per language, named in that language; the 404 links each index', () => {
    const { publisher } = site.model;
    expect(pageLanguages(publisher, 'pt-BR', '/agents/a/').switcher).toEqual([
      { language: 'en', name: 'English', href: '/agents/a/', current: false },
      {
        language: 'pt-BR',
        name: 'Português (Brasil)',
        href: '/pt-br/agents/a/',
        current: true,
        ariaCurrent: 'page',
      },
    ]);
    expect(pageLanguages(publisher, 'en', undefined)).toEqual({
      alternates: [],
      switcher: [
        // The 404 page's links lead to each index, not to itself: its language is current, not the page.
        { language: 'en', name: 'English', href: '/', current: true, ariaCurrent: 'true' },
        { language: 'pt-BR', name: 'Português (Brasil)', href: '/pt-br/', current: false },
      ],
    });
    expect(pageLanguages(single.model.publisher, 'en', '/')).toEqual({ alternates: [], switcher: [] });
  });
});

describe('the Portuguese views', () => {
  const pt = () => pageTreeOf(site.model.publisher, 'pt-br');

  it('index: Portuguese words, the publisher’s Portuguese texts, links within /pt-br/', () => {
    const view = indexView(site, undefined, pt());
    expect(view.language).toBe('pt-BR');
    expect(view.homePath).toBe('/pt-br/');
    expect(view.title).toBe('Agentes da Example Travel');
    expect(view.description).toMatch(/^Os agentes de IA da Example Travel/);
    expect(view.agents.map((a) => [a.name, a.pagePath])).toEqual([
      ['Concierge de Roteiros', '/pt-br/agents/itinerary-concierge/'],
      ['Assistente da Política de Viagens', '/pt-br/agents/travel-policy-helper/'],
      ['Agente de Reservas de Viagem', '/pt-br/agents/travel-reservation/'],
    ]);
    expect(view.entries.map((e) => e.displayName)).toEqual([
      'Agente de Reservas de Hotel do Parceiro',
      'Servidor MCP Trip Tools',
    ]);
    const w = PT_BR.footprint;
    expect(view.agents[0]!.footprint).toBe(w.join([w.yours(1), w.outside(2)]));
    // The index's label names each action in the publisher's words: the one operation the fixture leaves in
    // English on purpose (dining-search-mcp.yaml) is marked lang="en", and nothing else is.
    expect(marks(view)).toEqual(['.agents[0].label.services[1].actions[0].textLang=en']);
  });

  it('agent page: body, skills, examples, sign-in texts in Portuguese; an untranslated body marked en', () => {
    const view = agentPageView(agentOf(site, 'travel-reservation'), site, pt());
    expect(view.name).toBe('Agente de Reservas de Viagem');
    expect(view.body).toMatch(/^O Agente de Reservas de Viagem busca e reserva voos/);
    expect(view.skills.map((s) => s.name)).toEqual([
      'Buscar voos',
      'Reservar um voo',
      'Avisos sobre o destino',
    ]);
    expect(view.skills[0]!.examples[1]).toBe('Quais são os voos mais baratos para Berlim em março?');
    expect(view.securitySchemes[0]!.description).toBe('Entre com a sua conta da Example Travel.');
    expect(view.securitySchemes[0]!.scopes.map((s) => s.meaning)).toEqual([
      'Ver as suas viagens e reservas',
      'Reservar e alterar viagens para você',
    ]);
    expect(view.requirementSentence).toContain('Ver as suas viagens e reservas (trips.read)');
    expect(view.permissionsPath).toBe('/pt-br/agents/travel-reservation/permissions/');
    expect(view.pagePath).toBe('/agents/travel-reservation/');
    expect(marks(view)).toEqual([]);
    const helper = agentPageView(agentOf(site, 'travel-policy-helper'), site, pt());
    expect(marks(helper)).toEqual(['.bodyLang=en']);
    expect(helper.body).toMatch(/^\nThe Travel Policy Helper answers/);
  });

  it('permission page: resources, actions and reasons in Portuguese; the one untranslated action marked en', () => {
    const view = permissionView(agentOf(site, 'itinerary-concierge'), site.model, undefined, pt());
    expect(view.agentName).toBe('Concierge de Roteiros');
    expect(view.agentPath).toBe('/pt-br/agents/itinerary-concierge/');
    const resources = view.groups.flatMap((g) => g.resources);
    expect(resources.map((r) => r.displayName)).toContain('Eventos do Google Agenda');
    const accesses = resources.flatMap((r) => r.accesses);
    expect(accesses[0]!.why).toBe(
      'Para ver quando você está livre, para que o plano não coincida com as suas reuniões.',
    );
    expect(view.skills?.map((s) => s.name)).toEqual([
      'Montar um roteiro',
      'Encontrar restaurantes',
      'Preços na sua moeda',
    ]);
    expect(marks(view)).toEqual(['.groups[1].resources[0].accesses[0].whatItDoesLang=en']);
    expect(resources.find((r) => r.id === 'dining-search-find-restaurants')!.accesses[0]!.whatItDoes).toBe(
      'Finds restaurants that match a location and preferences.',
    );
    const reservation = permissionView(agentOf(site, 'travel-reservation'), site.model, undefined, pt());
    expect(
      reservation.groups.flatMap((g) => g.resources.flatMap((r) => r.accesses.map((a) => a.why))),
    ).toContain('Para avisar os usuários sobre mau tempo no país de destino.');
  });

  it('the default language’s views show the default texts and mark nothing', () => {
    const reservation = agentOf(site, 'travel-reservation');
    const en = agentPageView(reservation, site);
    expect(en.name).toBe('Travel Reservation Agent');
    expect(en.body).toBe(reservation.agent.body);
    expect(marks(en)).toEqual([]);
    expect(marks(permissionView(agentOf(site, 'itinerary-concierge'), site.model))).toEqual([]);
    expect(marks(indexView(site))).toEqual([]);
  });

  it('a site in one language never marks a text, whatever the language of a page', () => {
    const texts = new PageTexts(single.model, 'pt-BR');
    expect(texts.agentDescription(agentOf(single, 'travel-reservation').agent).lang).toBeUndefined();
    expect(texts.siteName()).toEqual({ text: 'Example Travel Co. agents' });
  });
});

describe('the site files of a site in several languages', () => {
  it('one sitemap: every page of every language, each with its alternates (Google’s xhtml:link)', () => {
    const xml = file(site, '/sitemap.xml');
    expect(xml).toContain(
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    );
    const urls = [...xml.matchAll(/<url>([\s\S]*?)<\/url>/g)].map((m) => m[1]!);
    const locs = urls.map((u) => /<loc>([^<]+)<\/loc>/.exec(u)![1]);
    expect(locs).toEqual(
      htmlPagePaths(
        site.agents.map((a) => a.agent.slug),
        site.model.publisher,
      ).map((p) => `${ORIGIN}${p}`),
    );
    expect(locs).toHaveLength(2 * (1 + 2 * site.agents.length));
    for (const url of urls) {
      const links = [...url.matchAll(/<xhtml:link rel="alternate" hreflang="([^"]+)" href="([^"]+)"\/>/g)];
      expect(links.map((l) => l[1])).toEqual(['en', 'pt-BR', 'x-default']);
      // Each page is among its own alternates.
      expect(links.map((l) => l[2])).toContain(/<loc>([^<]+)<\/loc>/.exec(url)![1]);
    }
    expect(xml).toContain(`<loc>${ORIGIN}/pt-br/agents/travel-reservation/permissions/</loc>`);
  });

  it('a site in one language keeps its sitemap without the xhtml namespace', () => {
    expect(file(single, '/sitemap.xml')).not.toContain('xhtml');
    expect(sitemapXml([{ loc: `${ORIGIN}/` }])).toBe(
      `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n  <url>\n    <loc>${ORIGIN}/</loc>\n  </url>\n</urlset>\n`,
    );
  });

  it('_headers sends the page headers on each language’s pages; llms.txt says where they are', () => {
    const headers = file(site, '/_headers');
    for (const rule of [
      '/',
      '/agents/:slug/',
      '/agents/:slug/permissions/',
      '/pt-br/',
      '/pt-br/agents/:slug/',
    ])
      expect(headers).toMatch(
        new RegExp(
          `^${rule.replace(/[/:]/g, '\\$&')}\\n  Link: </\\.well-known/ard\\.json>; rel="ard"$`,
          'm',
        ),
      );
    expect(headers).toContain('/pt-br/agents/:slug/permissions/\n');
    const llms = file(site, '/llms.txt');
    expect(llms).toContain('## Languages\n\n- [English](https://agents.example.com/): The pages in en');
    expect(llms).toContain(
      '- [Português (Brasil)](https://agents.example.com/pt-br/): The same pages in pt-BR',
    );
    expect(file(single, '/llms.txt')).not.toContain('## Languages');
  });
});
