/**
 * The pages in Brazilian Portuguese (DESIGN.md §9 "Languages"), in headless Chromium: the `pages-pt-br`
 * fixture (the example-like site with `language: pt-BR`) built with the real build command and served by the
 * preview server. Its index, agent and permission pages say `lang="pt-BR"`, show no English sentence of the
 * English word table, pass axe (WCAG 2.2 AA), and are captured at 320, 360 and 1280 px (screenshots in
 * test-results/screenshots/pages-pt-br/, replaced each run).
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeRun, launchChromium, screenshotFolder } from '../helpers/browser.js';
import { startPreviewServer, type PreviewServer } from '../../src/core/hosting/preview-server.js';
import { EN } from '../../src/core/i18n/words/en.js';
import { PT_BR } from '../../src/core/i18n/words/pt-BR.js';
import { removeProjects } from '../helpers/build.js';
import { sharedBuild } from '../helpers/shared-build.js';
import { fixture } from '../helpers/site.js';

const PAGES = [
  ['index', '/'],
  ['agent', '/agents/travel-reservation/'],
  ['permissions', '/agents/travel-reservation/permissions/'],
  ['permissions-concierge', '/agents/itinerary-concierge/permissions/'],
  ['permissions-none', '/agents/travel-policy-helper/permissions/'],
] as const;

let shots: string;
let server: PreviewServer;
let browser: Browser;

beforeAll(async () => {
  const out = await sharedBuild(fixture('pages-pt-br'), { env: { ARDSITE_DEV_KEY: '1', CI: '1' } });
  server = await startPreviewServer({ dir: out, port: 0 });
  shots = await screenshotFolder('pages-pt-br');
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await removeProjects(); // the copy of the shared build
});

/** Every string (not function) of a word table, by dotted path. */
function strings(table: object, prefix = ''): Map<string, string> {
  const found = new Map<string, string>();
  for (const [key, value] of Object.entries(table)) {
    if (key === 'locale' && prefix === '') continue;
    if (typeof value === 'string') found.set(`${prefix}${key}`, value);
    else if (value !== null && typeof value === 'object')
      for (const [p, v] of strings(value as object, `${prefix}${key}.`)) found.set(p, v);
  }
  return found;
}

async function openPage(p: string, width = 1280, bypassCSP = false): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 800 }, bypassCSP });
  const page = await context.newPage();
  const response = await page.goto(server.origin + p, { waitUntil: 'load' });
  expect(response?.status(), p).toBe(200);
  return page;
}

describe('the Portuguese pages', () => {
  it('say lang="pt-BR" and speak Portuguese', async () => {
    for (const [, p] of PAGES) {
      const page = await openPage(p);
      expect(await page.locator('html').getAttribute('lang'), p).toBe('pt-BR');
      const text = await page.locator('body').innerText();
      expect(text, p).toContain(PT_BR.layout.publishedBy);
      await page.context().close();
    }
    const permissions = await openPage('/agents/travel-reservation/permissions/');
    await expect(permissions.locator('h1').innerText()).resolves.toBe(
      PT_BR.permissions.title('Travel Reservation Agent'),
    );
    await expect(permissions.locator('#summary-heading').innerText()).resolves.toBe('Resumo');
    await permissions.context().close();
    const agent = await openPage('/agents/travel-reservation/');
    // Words and a date next to each other keep their space ("atualizado em 1º de …").
    await expect(agent.locator('p.meta').first().innerText()).resolves.toMatch(
      /^Versão \S+ · por .+ · atualizado em \d{1,2}º? de [a-zç]+ de \d{4}$/,
    );
    await agent.context().close();
  });

  it('show no English sentence of the word table', async () => {
    const portuguese = new Set(strings(PT_BR).values());
    // Sentences of the English table (two words or more) that the Portuguese table does not share.
    const english = [...strings(EN).values()].filter((s) => /\S+ \S+/.test(s) && !portuguese.has(s));
    expect(english.length).toBeGreaterThan(60);
    for (const [, p] of PAGES) {
      const page = await openPage(p);
      const text = await page.locator('body').innerText();
      const title = await page.title();
      const leaked = english.filter((s) => text.includes(s) || title.includes(s));
      expect(leaked, p).toEqual([]);
      await page.context().close();
    }
  });

  it('report no axe violation (WCAG 2.2 AA)', async () => {
    for (const [, p] of PAGES) {
      // axe is injected as an inline script, which the pages' own CSP forbids: bypass it for this run.
      const page = await openPage(p, 1280, true);
      const { violations, passes } = await axeRun(page);
      expect(passes, p).toBeGreaterThan(10);
      expect(violations, p).toEqual([]);
      await page.context().close();
    }
  });

  it('fit 320, 360 and 1280 px without sideways scrolling (screenshots)', async () => {
    for (const width of [320, 360, 1280]) {
      for (const [name, p] of PAGES) {
        const page = await openPage(p, width);
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(scrollWidth, `${p} at ${width}px`).toBeLessThanOrEqual(width);
        await page.screenshot({ path: path.join(shots, `${name}-${width}.png`), fullPage: true });
        // The first screen as a phone shows it, small enough to look at.
        await page.screenshot({ path: path.join(shots, `${name}-${width}-top.png`) });
        // One resource with its accesses, where the long URLs and the facts are.
        if (name === 'permissions-concierge')
          await page
            .locator('section.resource')
            .first()
            .screenshot({ path: path.join(shots, `${name}-${width}-resource.png`) });
        await page.context().close();
      }
    }
  });
});
