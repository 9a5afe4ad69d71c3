/**
 * The label atop the permission page, and its lines on the index and the agent page, in headless Chromium:
 * the example-like site (English) and the `pages-pt-br` fixture (the same site in Brazilian Portuguese),
 * built with the real build command and served by the preview server. At 360 and 1280 px the trip planner's
 * (itinerary-concierge) calendar actions are on the first screen, without scrolling; every fact is text; axe
 * (WCAG 2.2 AA) finds nothing. Screenshots in test-results/screenshots/permission-label/, replaced each run.
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
import { EXAMPLE_LIKE, fixture } from '../helpers/site.js';

const env = { ARDSITE_DEV_KEY: '1', CI: '1' };
const PLANNER = '/agents/itinerary-concierge/permissions/';
const CALENDAR = '[data-label-service="google-calendar-events-v3"]';
/** The first screen of a phone and of a laptop. */
const SCREENS = [
  { width: 360, height: 640 },
  { width: 1280, height: 720 },
] as const;

interface Site {
  language: 'en' | 'pt-BR';
  words: typeof EN;
  server: PreviewServer;
}

const sites: Site[] = [];
let browser: Browser;
let shots: string;

beforeAll(async () => {
  const [en, pt] = await Promise.all([
    sharedBuild(EXAMPLE_LIKE, { env }),
    sharedBuild(fixture('pages-pt-br'), { env }),
  ]);
  sites.push({ language: 'en', words: EN, server: await startPreviewServer({ dir: en, port: 0 }) });
  sites.push({ language: 'pt-BR', words: PT_BR, server: await startPreviewServer({ dir: pt, port: 0 }) });
  shots = await screenshotFolder('permission-label');
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  for (const site of sites) await site.server.close();
  await removeProjects();
});

async function open(site: Site, p: string, screen: { width: number; height: number }, bypassCSP = false) {
  const context = await browser.newContext({ viewport: screen, bypassCSP });
  const page: Page = await context.newPage();
  const response = await page.goto(site.server.origin + p, { waitUntil: 'load' });
  expect(response?.status(), p).toBe(200);
  return page;
}

describe('the label on the trip planner’s permission page', () => {
  it('shows its calendar actions on the first screen at 360 and 1280 px, in both languages', async () => {
    for (const site of sites) {
      const w = site.words.label;
      for (const screen of SCREENS) {
        const page = await open(site, PLANNER, screen);
        const where = `${site.language} at ${screen.width} px`;
        await expect(page.locator('#label-heading').innerText(), where).resolves.toBe(w.heading);
        const actions = page.locator(`${CALENDAR} [data-label-action]`);
        await expect(actions.count(), where).resolves.toBe(2);
        for (const action of await actions.all()) {
          const box = (await action.boundingBox())!;
          expect(box.y + box.height, where).toBeLessThanOrEqual(screen.height);
        }
        // Every fact is text: whose it is, as whom, and what each action does with its facts.
        const calendar = await page.locator(CALENDAR).innerText();
        expect(calendar, where).toContain(`${w.yours}, ${w.asYou}`);
        expect(calendar, where).toContain(`${w.onlyReads}`);
        expect(calendar, where).toContain(`${w.changesData}, ${w.asksFirst}, ${w.optional}`);
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(scrollWidth, where).toBeLessThanOrEqual(screen.width);
        await page.screenshot({ path: path.join(shots, `planner-${site.language}-${screen.width}-top.png`) });
        await page.context().close();
      }
    }
  });

  it('names the outside services that get data', async () => {
    for (const site of sites) {
      const page = await open(site, PLANNER, SCREENS[1]);
      await expect(page.locator('[data-label-sends]').innerText()).resolves.toBe(
        site.words.label.sendsTo(['Dining Search find_restaurants MCP Tool', 'Currency Exchange Agent']),
      );
      await page.context().close();
    }
  });

  it('gives the index and the agent page one line per service, not counts', async () => {
    for (const site of sites) {
      for (const [name, p] of [
        ['index', '/'],
        ['agent', '/agents/itinerary-concierge/'],
      ] as const) {
        for (const screen of SCREENS) {
          const page = await open(site, p, screen);
          const lines = page.locator('[data-label-lines]').first().locator('li');
          await expect(lines.count(), `${site.language} ${p}`).resolves.toBe(3);
          await expect(lines.first().innerText()).resolves.toContain(
            `Google Calendar Events (${site.words.label.yours}, ${site.words.label.asYou})`,
          );
          await page.screenshot({
            path: path.join(shots, `${name}-${site.language}-${screen.width}-top.png`),
          });
          await page.context().close();
        }
      }
    }
  });

  it('reports no axe violation (WCAG 2.2 AA) on the permission page at 360 and 1280 px', async () => {
    for (const site of sites) {
      for (const screen of SCREENS) {
        // axe is injected as an inline script, which the pages' own CSP forbids: bypass it for this run.
        const page = await open(site, PLANNER, screen, true);
        const { violations, passes } = await axeRun(page);
        expect(passes, site.language).toBeGreaterThan(10);
        expect(violations, `${site.language} at ${screen.width} px`).toEqual([]);
        await page.context().close();
      }
    }
  }, 300_000);

  it('reports no axe violation on the index and the agent page with their lines', async () => {
    for (const site of sites) {
      for (const p of ['/', '/agents/itinerary-concierge/']) {
        const page = await open(site, p, SCREENS[0], true);
        const { violations } = await axeRun(page);
        expect(violations, `${site.language} ${p}`).toEqual([]);
        await page.context().close();
      }
    }
  }, 300_000);
});
