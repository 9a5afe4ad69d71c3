/**
 * `npm run dev` over a project outside the app (`--root`, as a publisher keeps one) whose agent file has an
 * error, in headless Chromium: Astro's error overlay names the content file and line, shows that file's
 * lines around the fault and the hint (also when the message names `window`, for which Astro has advice of
 * its own), and no frame of ardsite's own code (src/lib/dev-error.ts). Fixing
 * the file and saving brings the page back. Screenshot in test-results/screenshots/dev-overlay/.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_CONTENT_HINT } from '../../src/lib/dev-error.js';
import { launchChromium, screenshotFolder } from '../helpers/browser.js';
import { copyProject, removeProjects } from '../helpers/build.js';
import { startServerScript, type RunningServer } from '../helpers/cli.js';
import { freePorts } from '../helpers/registry.js';

const GOOD_URL = '  - url: https://api.agents.example.com/a2a/travel-policy-helper';
let browser: Browser;
let server: RunningServer;
let agentFile: string;
let shots: string;

beforeAll(async () => {
  const root = await copyProject();
  agentFile = path.join(root, 'content', 'agents', 'travel-policy-helper.md');
  const text = await readFile(agentFile, 'utf8');
  expect(text).toContain(GOOD_URL);
  await writeFile(agentFile, text.replace(GOOD_URL, '  - url: see the window'));
  shots = await screenshotFolder('dev-overlay');
  // A port the system has just handed out and let go: browser files run two at a time, so a random one
  // may be held by the other file's servers or Chromium.
  const port = String((await freePorts(1))[0]);
  [browser, server] = await Promise.all([
    launchChromium(),
    // A throw-away key: under CI (as .ci/run sets it) no key is ever created, and the fixed page needs one.
    startServerScript('dev.ts', ['--root', root, '--port', port], /(http:\/\/127\.0\.0\.1:\d+)\//, {
      env: { ARDSITE_DEV_KEY: '1' },
    }),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all([browser?.close(), server?.stop()]);
  await removeProjects();
});

describe('npm run dev, a content error in the overlay', () => {
  it('points at the content file and line, shows its lines and the hint, and no ardsite frame', async () => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const response = await page.goto(`${server.origin}/agents/travel-policy-helper/`);
    expect(response?.status()).toBe(500);
    const overlay = page.locator('vite-error-overlay');
    await overlay.waitFor({ state: 'attached', timeout: 30_000 });
    // The overlay fills itself in from the dev server's message: wait for the code frame.
    await expect
      .poll(() => overlay.evaluate((el) => el.shadowRoot?.querySelector('#code')?.textContent ?? ''), {
        timeout: 30_000,
      })
      .toContain('url: see the window');
    const shown = await overlay.evaluate((el) => {
      const root = el.shadowRoot!;
      const text = (selector: string) => root.querySelector(selector)?.textContent?.trim() ?? '';
      return {
        message: text('#message'),
        hint: text('#hint'),
        file: text('#code h2'),
        stack: text('#stack-content'),
      };
    });
    await page.screenshot({ path: path.join(shots, 'overlay.png') });
    expect(shown.message).toContain(
      'content/agents/travel-policy-helper.md:6:5  interfaces[0].url  "see the window" is not an absolute URL',
    );
    // Not Astro's "Browser APIs are not available on the server", which a message naming `window` gets.
    expect(shown.hint).toContain(DEV_CONTENT_HINT.slice(0, 40));
    expect(shown.file).toContain('travel-policy-helper.md:6:5');
    expect(shown.stack).not.toMatch(/src\/core|node_modules|\bat /);
    // The dev server's log says the same, with the hint.
    expect(server.output()).toContain('E  content/agents/travel-policy-helper.md:6:5  interfaces[0].url');
    expect(server.output()).not.toMatch(/at \/\S*src\/core\//);
    await page.close();
  });

  it('serves the page again once the file is fixed', async () => {
    await writeFile(
      agentFile,
      (await readFile(agentFile, 'utf8')).replace('  - url: see the window', GOOD_URL),
    );
    await expect
      .poll(async () => (await fetch(`${server.origin}/agents/travel-policy-helper/`)).status, {
        timeout: 30_000,
        interval: 500,
      })
      .toBe(200);
  });
});
