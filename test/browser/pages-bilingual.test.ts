/**
 * A site in two languages in headless Chromium (DESIGN.md §9 "Languages"): the `pages-bilingual` fixture
 * (en at `/`, pt-BR at `/pt-br/`) built with the real build command and served by the preview server with
 * its `_headers`. The Portuguese index, agent and permission pages say `lang="pt-BR"`, show no English
 * sentence of the word table outside the texts marked as English (every string, and every function called
 * with sample inputs: test/helpers/english-words.ts), and show the publisher's Portuguese texts; the pages
 * of both languages pass axe (WCAG 2.2 AA); the Portuguese ones fit 320, 360 and 1280 px. Screenshots
 * (each page whole and its first screen) in test-results/screenshots/pages-bilingual/, replaced each run.
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPreviewServer, type PreviewServer } from '../../src/core/hosting/preview-server.js';
import { EN } from '../../src/core/i18n/words/en.js';
import { PT_BR } from '../../src/core/i18n/words/pt-BR.js';
import { axeRun, launchChromium, screenshotFolder } from '../helpers/browser.js';
import { removeProjects } from '../helpers/build.js';
import { sharedBuild } from '../helpers/shared-build.js';
import { englishSentences, functionPaths, SAMPLES } from '../helpers/english-words.js';
import { fixture } from '../helpers/site.js';

const PORTUGUESE = [
  ['index', '/pt-br/'],
  ['agent', '/pt-br/agents/travel-reservation/'],
  ['permissions', '/pt-br/agents/travel-reservation/permissions/'],
  ['permissions-concierge', '/pt-br/agents/itinerary-concierge/permissions/'],
  ['agent-untranslated-body', '/pt-br/agents/travel-policy-helper/'],
] as const;
const ENGLISH = [
  ['index', '/'],
  ['agent', '/agents/travel-reservation/'],
  ['permissions', '/agents/itinerary-concierge/permissions/'],
  ['not-found', '/no-such-page/'],
] as const;

let shots: string;
let server: PreviewServer;
let browser: Browser;

beforeAll(async () => {
  shots = await screenshotFolder('pages-bilingual');
  const out = await sharedBuild(fixture('pages-bilingual'), { env: { ARDSITE_DEV_KEY: '1', CI: '1' } });
  server = await startPreviewServer({ dir: out, port: 0 });
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await removeProjects(); // the copy of the shared build
});

async function openPage(p: string, width = 1280, bypassCSP = false): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 800 }, bypassCSP });
  const page = await context.newPage();
  const response = await page.goto(server.origin + p, { waitUntil: 'load' });
  expect(response?.status(), p).toBe(p.startsWith('/no-such') ? 404 : 200);
  return page;
}

/**
 * The page's text in its own language: the body's rendered text with every element whose `lang` is another
 * language hidden (a text the publisher did not translate, the switcher's other languages), and the title.
 */
async function ownLanguageText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const own = document.documentElement.lang.toLowerCase();
    for (const el of document.body.querySelectorAll<HTMLElement>('[lang]'))
      if (el.lang.toLowerCase() !== own) el.style.display = 'none';
    return `${document.title}\n${document.body.innerText}`;
  });
}

describe('the Portuguese pages of a site in two languages', () => {
  it('say lang="pt-BR", show the publisher’s Portuguese texts and switch to the same page in English', async () => {
    for (const [, p] of PORTUGUESE) {
      const page = await openPage(p);
      expect(await page.locator('html').getAttribute('lang'), p).toBe('pt-BR');
      const nav = page.getByRole('navigation', { name: PT_BR.layout.languages });
      await expect(nav.getByRole('link', { name: 'English' }).getAttribute('href')).resolves.toBe(
        p.replace(/^\/pt-br/, ''),
      );
      await expect(nav.locator('[aria-current="page"]').innerText()).resolves.toBe(PT_BR.layout.languageName);
      expect(await page.locator('.site-name').innerText(), p).toBe('Agentes da Example Travel');
      await page.context().close();
    }
    const agent = await openPage('/pt-br/agents/travel-reservation/');
    await expect(agent.locator('h1').innerText()).resolves.toBe('Agente de Reservas de Viagem');
    await expect(agent.locator('.prose').innerText()).resolves.toMatch(
      /^O Agente de Reservas de Viagem busca/,
    );
    await agent.context().close();
    const helper = await openPage('/pt-br/agents/travel-policy-helper/');
    await expect(helper.locator('.prose').getAttribute('lang')).resolves.toBe('en');
    await helper.context().close();
  });

  it('show no English sentence of the word table outside texts marked as English', async () => {
    // Every function of the English table is called (a new one without samples fails here).
    expect(functionPaths(EN).filter((p) => !(p in SAMPLES))).toEqual([]);
    const english = englishSentences(PT_BR);
    expect(english.length).toBeGreaterThan(150);
    expect(english).toContain('You will be asked to allow:');
    expect(english).toContain('It does not ask you first before any of its');
    for (const [, p] of PORTUGUESE) {
      const page = await openPage(p);
      const text = await ownLanguageText(page);
      expect(text, p).toContain(PT_BR.layout.publishedBy);
      expect(
        english.filter((s) => text.includes(s)),
        p,
      ).toEqual([]);
      await page.context().close();
    }
    // The same check finds the English sentences on an English page: it can fail.
    const englishPage = await openPage('/agents/itinerary-concierge/permissions/');
    const englishText = await ownLanguageText(englishPage);
    expect(english.filter((s) => englishText.includes(s)).length).toBeGreaterThan(30);
    await englishPage.context().close();
  });

  it('fit 320, 360 and 1280 px without sideways scrolling (screenshots)', async () => {
    for (const width of [320, 360, 1280]) {
      for (const [name, p] of PORTUGUESE) {
        const page = await openPage(p, width);
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(scrollWidth, `${p} at ${width}px`).toBeLessThanOrEqual(width);
        const file = `pt-br-${name}-${width}`;
        await page.screenshot({ path: path.join(shots, `${file}.png`), fullPage: true });
        // The first screen, as a phone shows it: the header with the language switcher.
        await page.screenshot({ path: path.join(shots, `${file}-top.png`) });
        await page.context().close();
      }
    }
  });
});

describe('both languages', () => {
  it.each([...PORTUGUESE, ...ENGLISH])('%s (%s): no axe violation (WCAG 2.2 AA)', async (_name, p) => {
    // axe is injected as a script, which the pages' own CSP forbids: bypass it for this run.
    const page = await openPage(p, 1280, true);
    const { violations, passes } = await axeRun(page);
    expect(passes, p).toBeGreaterThan(10);
    expect(violations, p).toEqual([]);
    await page.context().close();
  });
});
