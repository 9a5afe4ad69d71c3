/**
 * A site in two languages built by the real build command (DESIGN.md §9 "Languages"): `pages-bilingual`
 * (en at `/`, pt-BR at `/pt-br/`) and `example-like`, the same site in English only, both with the fixed
 * TEST-ONLY key. The machine files stay one per agent, byte for byte those of the English-only site; every
 * page exists in both languages with the right `<html lang>`, `hreflang` alternates, `rel="ard"` and a
 * language switcher; and `npm run check` names the file, field and line of a text without its default
 * language.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProject, copyProject, fixedKeyEnv, readTree, removeProjects } from '../helpers/build.js';
import { runCommandInProcess } from '../helpers/cli.js';
import { EXAMPLE_LIKE, fixture, lineOf } from '../helpers/site.js';

const ORIGIN = 'https://agents.example.com';
let bilingual: Map<string, Buffer>;
let english: Map<string, Buffer>;

beforeAll(async () => {
  const [two, one] = await Promise.all([copyProject(fixture('pages-bilingual')), copyProject(EXAMPLE_LIKE)]);
  // One build after the other: the machine is shared.
  for (const [root, into] of [
    [two, (t: Map<string, Buffer>) => (bilingual = t)],
    [one, (t: Map<string, Buffer>) => (english = t)],
  ] as const) {
    const result = await buildProject(root, { env: fixedKeyEnv() });
    if (result.code !== 0) throw new Error(`${root} did not build:\n${result.stderr}`);
    into(await readTree(result.outDir));
  }
}, 240_000);

afterAll(removeProjects);

const html = (p: string) => bilingual.get(p)!.toString('utf8');
const pagesOf = (tree: Map<string, Buffer>) => [...tree.keys()].filter((p) => p.endsWith('.html')).sort();

describe('the machine files of a site in two languages', () => {
  it('are one per agent, byte for byte those of the same site in its default language only', () => {
    const machine = (tree: Map<string, Buffer>) =>
      [...tree.keys()].filter((p) => p.endsWith('.json') && !p.startsWith('_astro/')).sort();
    expect(machine(bilingual)).toEqual(machine(english));
    expect(machine(bilingual)).toContain('.well-known/ard.json');
    // One card per agent, and the primary agent's at /.well-known/.
    expect(machine(bilingual).filter((p) => p.endsWith('agent-card.json'))).toHaveLength(4);
    for (const p of machine(bilingual)) expect(bilingual.get(p)!.equals(english.get(p)!), p).toBe(true);
    expect(machine(bilingual).some((p) => p.startsWith('pt-br/'))).toBe(false);
  });
});

describe('the pages of a site in two languages', () => {
  it('exist in each language: the English ones where the English-only site has them, the others under /pt-br/', () => {
    const pages = pagesOf(bilingual);
    expect(pages.filter((p) => !p.startsWith('pt-br/'))).toEqual(pagesOf(english));
    expect(pages.filter((p) => p.startsWith('pt-br/'))).toEqual(
      pagesOf(english)
        .filter((p) => p !== '404.html')
        .map((p) => `pt-br/${p}`),
    );
  });

  it('say their language, name every version of themselves and advertise the manifest', () => {
    for (const file of pagesOf(bilingual).filter((p) => p !== '404.html')) {
      const page = html(file);
      const portuguese = file.startsWith('pt-br/');
      expect(page, file).toContain(`<html lang="${portuguese ? 'pt-BR' : 'en'}">`);
      expect(page, file).toContain(
        '<link rel="ard" href="/.well-known/ard.json" type="application/ard+json">',
      );
      const pathInDefault = `/${file.replace(/^pt-br\//, '').replace(/index\.html$/, '')}`;
      const alternates = [...page.matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">/g)].map(
        (m) => [m[1], m[2]],
      );
      expect(alternates, file).toEqual([
        ['en', `${ORIGIN}${pathInDefault}`],
        ['pt-BR', `${ORIGIN}/pt-br${pathInDefault}`],
        ['x-default', `${ORIGIN}${pathInDefault}`],
      ]);
      // The switcher: a named nav, each language by its own name, its lang and hreflang; this one current.
      const nav = /<nav class="languages" aria-label="([^"]+)">([\s\S]*?)<\/nav>/.exec(page);
      expect(nav?.[1], file).toBe(portuguese ? 'Idioma' : 'Language');
      const links = [
        ...nav![2]!.matchAll(/<a href="([^"]+)" lang="([^"]+)" hreflang="([^"]+)"( aria-current="page")?>/g),
      ];
      expect(links.map((l) => [l[1], l[2], l[3], Boolean(l[4])])).toEqual([
        [pathInDefault, 'en', 'en', !portuguese],
        [`/pt-br${pathInDefault}`, 'pt-BR', 'pt-BR', portuguese],
      ]);
    }
  });

  it('link within their own language, and mark a text shown untranslated with its language', () => {
    const index = html('pt-br/index.html');
    expect(index).toContain('<a class="site-name" href="/pt-br/">Agentes da Example Travel</a>');
    expect(index).toContain('href="/pt-br/agents/travel-reservation/"');
    expect(index).not.toMatch(/href="\/agents\/[^"]+\/"(?! lang="en")/);
    const helper = html('pt-br/agents/travel-policy-helper/index.html');
    expect(helper).toMatch(/<div class="prose" lang="en">\s*<p>The Travel Policy Helper answers/);
    const concierge = html('pt-br/agents/itinerary-concierge/permissions/index.html');
    expect(concierge).toMatch(/<h4 class="what" lang="en">\s*Finds restaurants that match/);
    expect(concierge).toContain('Para ver quando você está livre');
    // The English pages carry no lang mark but the switcher's.
    const englishPage = html('agents/itinerary-concierge/permissions/index.html');
    expect([...englishPage.matchAll(/ lang="([^"]+)"/g)].map((m) => m[1])).toEqual(['en', 'en', 'pt-BR']);
  });

  it('the 404 page (default language) links each language’s index, without alternates', () => {
    const page = html('404.html');
    expect(page).toContain('<html lang="en">');
    expect(page).not.toContain('hreflang="x-default"');
    expect(page).toContain('<a href="/pt-br/" lang="pt-BR" hreflang="pt-BR">');
  });
});

describe('npm run check on a text without the default language', () => {
  it('exits 1 and names the file, line, column, field and code', async () => {
    const root = await copyProject(fixture('pages-bilingual'));
    const file = path.join(root, 'content', 'agents', 'travel-reservation.md');
    const text = (await readFile(file, 'utf8')).replace('  en: Travel Reservation Agent\n', '');
    await writeFile(file, text);
    const { code, stdout } = await runCommandInProcess('check.ts', '--root', root);
    expect(code).toBe(1);
    expect(stdout).toContain(
      `E  content/agents/travel-reservation.md:${lineOf(text, 'name:')}:1  name  this text is given per language but not in the site's default language "en"`,
    );
    expect(stdout).toMatch(/\[TEXT_LANGUAGE_MISSING\]\n/);
    expect(stdout).toMatch(/, 1 error, /);
  });
});
