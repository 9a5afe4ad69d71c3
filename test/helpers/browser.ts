/**
 * What the browser tests share: Debian's Chromium driven by playwright-core (never a downloaded
 * browser), axe-core's WCAG 2.2 AA run over a loaded page, and the folder each test's screenshots go to.
 */
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { REPO_ROOT } from './site.js';

/** Chromium's flags for a container: no sandbox, no GPU, no background traffic. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** The axe-core rule tags run: WCAG 2.0, 2.1 and 2.2, levels A and AA. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** Where browser tests put their screenshots, a folder each (git-ignored: .gitignore has test-results/). */
const SCREENSHOTS = path.join(REPO_ROOT, 'test-results', 'screenshots');

/**
 * The screenshot folder of the browser test `name` (its file name without `.test.ts`):
 * `test-results/screenshots/<name>/` in the repository, for developers to look at after a run. Emptied
 * first, so it holds this run's screenshots only, and never in the system temp folder, which a run must
 * leave as it found it.
 * @returns the folder's absolute path. @throws the file-system error when it cannot be made.
 */
export async function screenshotFolder(name: string): Promise<string> {
  const dir = path.join(SCREENSHOTS, name);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  return dir;
}

/** Starts headless Chromium from `/usr/bin/chromium` (Debian's package, installed by .ci/run). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

/**
 * Runs axe-core over `page` with {@link AXE_TAGS}. The page must have been opened with `bypassCSP: true`:
 * axe is injected as a script, which the pages' own CSP forbids.
 * @returns how many rules passed (a run that checked nothing passes few) and each violation as
 *   `<rule id>: <targets>`.
 */
export async function axeRun(page: Page): Promise<{ passes: number; violations: string[] }> {
  await page.addScriptTag({ path: path.join(REPO_ROOT, 'node_modules', 'axe-core', 'axe.min.js') });
  return page.evaluate(async (tags) => {
    type AxeResults = {
      passes: unknown[];
      violations: Array<{ id: string; nodes: Array<{ target: unknown }> }>;
    };
    type Axe = { run: (context: Document, options: object) => Promise<AxeResults> };
    const result = await (window as unknown as { axe: Axe }).axe.run(document, {
      runOnly: { type: 'tag', values: tags },
    });
    return {
      passes: result.passes.length,
      violations: result.violations.map(
        (v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`,
      ),
    };
  }, AXE_TAGS);
}
