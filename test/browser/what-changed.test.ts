/**
 * The "What changed" section and the "new permissions" notice (DESIGN.md §9 "Releases") in headless Chromium:
 * the release fixture recorded at 1.0.0, then released as 1.1.0 with a new calendar write as the user. The
 * permission page, the agent page and the index pass axe (WCAG 2.2 AA) in the light and dark schemes, the
 * notice's link lands on the section, and the section is captured at 320, 360 and 1280 px (screenshots in
 * test-results/screenshots/what-changed/, replaced each run).
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeRun, launchChromium, screenshotFolder } from '../helpers/browser.js';
import { startPreviewServer, type PreviewServer } from '../../src/core/hosting/preview-server.js';
import {
  buildProject,
  copyProject,
  fixedKeyEnv,
  removeProjects,
  SOURCE_DATE_EPOCH,
} from '../helpers/build.js';
import { runScriptWithEnv } from '../helpers/cli.js';
import { AGENT, gainCalendarWrite, RELEASES_FIXTURE } from '../helpers/releases.js';

const PERMISSIONS = '/agents/trip-booker/permissions/';
const PAGES = ['/', '/agents/trip-booker/', PERMISSIONS];

let shots: string;
let server: PreviewServer;
let browser: Browser;

beforeAll(async () => {
  const root = await copyProject(RELEASES_FIXTURE);
  const recorded = await runScriptWithEnv('release.ts', ['--root', root], { SOURCE_DATE_EPOCH });
  if (recorded.code !== 0) throw new Error(`npm run release failed:\n${recorded.stderr}`);
  await gainCalendarWrite(root);
  const agent = path.join(root, AGENT);
  await writeFile(agent, (await readFile(agent, 'utf8')).replace('version: 1.0.0', 'version: 1.1.0'));
  const build = await buildProject(root, { env: fixedKeyEnv(), out: 'dist' });
  if (build.code !== 0) throw new Error(`build failed:\n${build.stderr}`);
  server = await startPreviewServer({ dir: build.outDir, port: 0 });
  shots = await screenshotFolder('what-changed');
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await removeProjects();
});

async function open(p: string, options: { width?: number; bypassCSP?: boolean; dark?: boolean } = {}) {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: 800 },
    bypassCSP: options.bypassCSP ?? false,
    colorScheme: options.dark ? 'dark' : 'light',
  });
  const page = await context.newPage();
  const response = await page.goto(server.origin + p, { waitUntil: 'load' });
  expect(response?.status(), p).toBe(200);
  return page;
}

describe('what changed, in a browser', () => {
  it('the pages that show a change pass axe in both colour schemes', async () => {
    for (const dark of [false, true]) {
      for (const p of PAGES) {
        const page = await open(p, { bypassCSP: true, dark });
        const { passes, violations } = await axeRun(page);
        expect(passes, p).toBeGreaterThan(10);
        expect(violations, `${p} (${dark ? 'dark' : 'light'})`).toEqual([]);
        await page.context().close();
      }
    }
  }, 120_000);

  it('the notice on the agent page leads to the section, which is a labelled region', async () => {
    const page = await open('/agents/trip-booker/');
    const notice = page.locator('[data-new-permissions]');
    await expect(notice.innerText()).resolves.toMatch(/new permission/i);
    const link = notice.locator('a').first();
    const href = await link.getAttribute('href');
    expect(href).toMatch(/\/agents\/trip-booker\/permissions\/#what-changed$/);
    await link.click();
    await page.waitForURL(/#what-changed$/);
    const section = page.locator('#what-changed');
    await expect(section.isVisible()).resolves.toBe(true);
    await expect(page.getByRole('region', { name: 'What changed in 1.1.0' }).count()).resolves.toBe(1);
    await page.context().close();
  });

  it('the section fits narrow screens (captured at 320, 360 and 1280 px)', async () => {
    for (const width of [320, 360, 1280]) {
      const page = await open(PERMISSIONS, { width });
      const section = page.locator('[data-what-changed]').first();
      const box = await section.boundingBox();
      expect(box, `${width}px`).not.toBeNull();
      // Nothing of the section sticks out of the viewport: no sideways scrolling to read a change.
      expect(box!.x, `${width}px`).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width, `${width}px`).toBeLessThanOrEqual(width);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${width}px`).toBeLessThanOrEqual(0);
      await section.screenshot({ path: path.join(shots, `section-${width}.png`) });
      await page.context().close();
    }
  }, 60_000);
});
