/**
 * The pages people read, in headless Chromium (DESIGN.md §6): the example publisher and the
 * `pages-edge` fixture are built with the real build command and served by `npm run preview`'s server
 * (so with the `_headers` headers, Content-Security-Policy included). Expectations about the permission
 * pages are computed here from each card's RAM JSON and the authored `readOnly` flags, not through
 * src/core, so one misreading of §6 cannot pass both the page and its test. Screenshots of the permission
 * pages in test-results/screenshots/pages/, replaced each run.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fg from 'fast-glob';
import matter from 'gray-matter';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeRun, launchChromium, screenshotFolder } from '../helpers/browser.js';
import { parse as parseYaml } from 'yaml';
import { EN } from '../../src/core/i18n/words/en.js';
import { startPreviewServer, type PreviewServer } from '../../src/core/hosting/preview-server.js';
import { removeProjects } from '../helpers/build.js';
import { sharedBuild } from '../helpers/shared-build.js';
import { EXAMPLE_LIKE, fixture } from '../helpers/site.js';

/** The RAM as a card carries it (the RAM proposal, proto3 JSON). */
interface CardRam {
  resources: Array<{ id: string; owner: string; interactionProtocol: string; displayName: string }>;
  operations: Array<{ id: string; resource: string; apiOperationSpec?: { httpMethod?: string } }>;
  resourceAccesses: Array<{
    id: string;
    operation: string;
    identityUsed: string;
    confirmationRequired?: boolean;
    accessJustification: string;
    necessity: string;
  }>;
}

interface Site {
  name: string;
  project: string;
  out: string;
  server: PreviewServer;
  slugs: string[];
  /** Operation ids the author marked `readOnly: true` (signed beside the RAM as `readOnlyOperations`; read here from the content). */
  readOnly: Set<string>;
  /** Resource id → the author's manageAccessUrl. */
  manageAccess: Map<string, string>;
}

const sites: Site[] = [];
let browser: Browser;
let shots: string;

/** Reads the authoring-only flags of §6 straight from the content files. */
async function authoringData(project: string): Promise<Pick<Site, 'readOnly' | 'manageAccess'>> {
  const readOnly = new Set<string>();
  const manageAccess = new Map<string, string>();
  type Res = { id: string; manageAccessUrl?: string; operations?: Array<{ id: string; readOnly?: boolean }> };
  const resources: Res[] = [];
  for (const file of await fg('content/resources/*.{yaml,yml}', { cwd: project, absolute: true })) {
    resources.push(parseYaml(await readFile(file, 'utf8')) as Res);
  }
  for (const file of await fg('content/agents/*.md', { cwd: project, absolute: true })) {
    resources.push(
      ...(((matter(await readFile(file, 'utf8')).data as { resources?: Res[] }).resources ?? []) as Res[]),
    );
  }
  for (const r of resources) {
    if (r.manageAccessUrl) manageAccess.set(r.id, r.manageAccessUrl);
    for (const o of r.operations ?? []) if (o.readOnly === true) readOnly.add(o.id);
  }
  return { readOnly, manageAccess };
}

/**
 * Serves a copy of the build of `project`, built in place (the build test/build/pages-build.test.ts
 * checks too, shared for the run: test/helpers/shared-build.ts).
 */
async function buildAndServe(name: string, project: string): Promise<Site> {
  const out = await sharedBuild(project, { env: { ARDSITE_DEV_KEY: '1', CI: '1' } });
  const slugs = (await fg('content/agents/*.md', { cwd: project }))
    .map((f) => path.basename(f, '.md'))
    .sort();
  const server = await startPreviewServer({ dir: out, port: 0 });
  return { name, project, out, server, slugs, ...(await authoringData(project)) };
}

beforeAll(async () => {
  const [example, edge] = await Promise.all([
    buildAndServe('example', EXAMPLE_LIKE),
    buildAndServe('pages-edge', fixture('pages-edge')),
  ]);
  shots = await screenshotFolder('pages');
  sites.push(example, edge);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await Promise.all(sites.map((s) => s.server.close()));
  await removeProjects();
});

const siteNamed = (name: string) => sites.find((s) => s.name === name)!;

/** Every HTML page of a site. */
function pagesOf(site: Site): string[] {
  return ['/', ...site.slugs.flatMap((s) => [`/agents/${s}/`, `/agents/${s}/permissions/`]), '/404.html'];
}

/** A page with its collected console errors, page errors and failed requests. */
interface Tab {
  page: Page;
  errors: string[];
}

/** A fresh context and page (with `options`); listeners collect every error into `errors`. */
async function newTab(options: BrowserContextOptions = {}): Promise<Tab> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => errors.push(`requestfailed: ${r.url()} ${r.failure()?.errorText ?? ''}`));
  return { page, errors };
}

/** Navigates `tab` to `url`, clearing the errors first; returns the HTTP status. */
async function go(tab: Tab, url: string): Promise<number> {
  tab.errors.length = 0;
  const response = await tab.page.goto(url, { waitUntil: 'load' });
  return response?.status() ?? 0;
}

/** Opens `url` in a fresh tab. */
async function open(url: string, options: BrowserContextOptions = {}): Promise<Tab & { status: number }> {
  const tab = await newTab(options);
  return { ...tab, status: await go(tab, url) };
}

async function close(page: Page): Promise<void> {
  await page.context().close();
}

async function fetchCard(
  site: Site,
  slug: string,
): Promise<{ bytes: Buffer; card: Record<string, unknown> }> {
  const res = await fetch(`${site.server.origin}/agents/${slug}/agent-card.json`);
  const bytes = Buffer.from(await res.arrayBuffer());
  return { bytes, card: JSON.parse(bytes.toString('utf8')) as Record<string, unknown> };
}

/** The RAM of a card: its top-level copy, else the RAM extension's params. */
function ramOf(card: Record<string, unknown>): CardRam | undefined {
  if (card.resourceAccessManifest) return card.resourceAccessManifest as CardRam;
  const extensions =
    (card.capabilities as { extensions?: Array<{ params?: Partial<CardRam> }> })?.extensions ?? [];
  const params = extensions.find((e) => Array.isArray(e.params?.resourceAccesses))?.params;
  return params as CardRam | undefined;
}

/** DESIGN.md §6, read independently: the accesses that must carry the higher-risk mark. */
function expectedHigherRisk(ram: CardRam, readOnly: ReadonlySet<string>): Set<string> {
  const risky = new Set<string>();
  for (const a of ram.resourceAccesses) {
    const op = ram.operations.find((o) => o.id === a.operation)!;
    const res = ram.resources.find((r) => r.id === op.resource)!;
    const changes =
      res.interactionProtocol === 'REST'
        ? ['POST', 'PUT', 'PATCH', 'DELETE'].includes(op.apiOperationSpec?.httpMethod ?? 'POST')
        : !readOnly.has(op.id);
    if (a.identityUsed === 'END_USER' && changes && a.confirmationRequired !== true) risky.add(a.id);
  }
  return risky;
}

describe('every page', () => {
  it('loads with no console error, failed request or page error, under the site CSP, and has the ard link', async () => {
    const tab = await newTab();
    for (const site of sites) {
      for (const p of pagesOf(site)) {
        const status = await go(tab, site.server.origin + p);
        const { page } = tab;
        expect(status, `${site.name} ${p}`).toBe(200);
        expect(tab.errors, `${site.name} ${p}`).toEqual([]);
        expect(await page.locator('link[rel="ard"]').getAttribute('href'), p).toBe('/.well-known/ard.json');
        expect(await page.locator('script:not([type="application/ld+json"])').count(), p).toBe(0);
        expect(await page.locator('html').getAttribute('lang'), p).toBe(
          site.name === 'example' ? 'en' : 'en-GB',
        );
      }
    }
    await close(tab.page);
  });

  it('answers an unknown path with the 404 page and status 404', async () => {
    const site = siteNamed('example');
    const { page, status } = await open(`${site.server.origin}/agents/no-such-agent/`);
    expect(status).toBe(404);
    await expect(page.locator('h1').textContent()).resolves.toBe('Page not found');
    expect(await page.locator('link[rel="ard"]').count()).toBe(1);
    await close(page);
  });

  it('can be read with JavaScript off', async () => {
    const site = siteNamed('example');
    const { page } = await open(`${site.server.origin}/agents/travel-reservation/permissions/`, {
      javaScriptEnabled: false,
    });
    await expect(page.locator('h1').textContent()).resolves.toContain('Travel Reservation Agent');
    expect(await page.locator('[data-access-id]').count()).toBe(4);
    await close(page);
  });

  it('reflows at 320 CSS px without horizontal scrolling', async () => {
    const tab = await newTab({ viewport: { width: 320, height: 640 } });
    for (const site of sites) {
      for (const p of pagesOf(site)) {
        await go(tab, site.server.origin + p);
        const width = await tab.page.evaluate(() => document.documentElement.scrollWidth);
        expect(width, `${site.name} ${p}`).toBeLessThanOrEqual(320);
      }
    }
    await close(tab.page);
  });
});

describe('the permission pages', () => {
  it('show every resource and every justification of the RAM, grouped by owner, with the §6 risk marks', async () => {
    const tab = await newTab();
    for (const site of sites) {
      for (const slug of site.slugs) {
        const { card } = await fetchCard(site, slug);
        const ram = ramOf(card);
        await go(tab, `${site.server.origin}/agents/${slug}/permissions/`);
        const { page } = tab;
        const shown = await page.evaluate(() =>
          [...document.querySelectorAll('section[data-group]')].map((g) => ({
            group: g.getAttribute('data-group'),
            heading: g.querySelector('h2')?.textContent?.trim(),
            resources: [...g.querySelectorAll('section[data-resource-id]')].map((r) => ({
              id: r.getAttribute('data-resource-id'),
              name: r.querySelector('h3')?.textContent?.trim(),
              manage: r.querySelector('a[data-manage-access]')?.getAttribute('href') ?? null,
              accesses: [...r.querySelectorAll('li[data-access-id]')].map((li) => ({
                id: li.getAttribute('data-access-id'),
                text: (li as HTMLElement).innerText,
                marked: li.querySelector('[data-risk-mark]') !== null,
              })),
            })),
          })),
        );
        const where = `${site.name} ${slug}`;
        if (!ram) {
          expect(shown, where).toEqual([]);
          await expect(page.locator('main').innerText()).resolves.toContain(
            'This agent does not access any of your accounts or outside services.',
          );
          continue;
        }
        const risky = expectedHigherRisk(ram, site.readOnly);
        const groupOf = (owner: string) => (owner === 'CONSUMER' ? 'yours' : 'outside');
        for (const resource of ram.resources) {
          const group = shown.find((g) => g.group === groupOf(resource.owner));
          expect(group?.heading, where).toBe(
            groupOf(resource.owner) === 'yours' ? 'Your accounts and data' : 'Outside services',
          );
          const section = group?.resources.find((r) => r.id === resource.id);
          expect(section?.name, `${where} ${resource.id}`).toBe(resource.displayName);
          const manage = resource.owner === 'CONSUMER' ? (site.manageAccess.get(resource.id) ?? null) : null;
          expect(section?.manage ?? null, `${where} ${resource.id} manage link`).toBe(manage);
          const accesses = ram.resourceAccesses.filter(
            (a) => ram.operations.find((o) => o.id === a.operation)?.resource === resource.id,
          );
          expect(
            section?.accesses.map((a) => a.id),
            `${where} ${resource.id}`,
          ).toEqual(accesses.map((a) => a.id));
          for (const access of accesses) {
            const li = section!.accesses.find((a) => a.id === access.id)!;
            expect(li.text, `${where} ${access.id}`).toContain(access.accessJustification);
            expect(li.marked, `${where} ${access.id} higher risk`).toBe(risky.has(access.id));
          }
        }
        expect(shown.flatMap((g) => g.resources).length, where).toBe(ram.resources.length);
        expect(await page.locator('[data-risk-mark]').count(), where).toBe(risky.size);
      }
    }
    // The fixture exercises both kinds of mark: a REST DELETE and an MCP tool without readOnly.
    const edge = siteNamed('pages-edge');
    const { card } = await fetchCard(edge, 'risky-helper');
    expect([...expectedHigherRisk(ramOf(card)!, edge.readOnly)].sort()).toEqual([
      'delete-old-notes',
      'write-drive-file',
    ]);
    await close(tab.page);
  });

  it('summarise the RAM with the right counts', async () => {
    const tab = await newTab();
    for (const site of sites) {
      for (const slug of site.slugs) {
        const ram = ramOf((await fetchCard(site, slug)).card);
        if (!ram) continue;
        await go(tab, `${site.server.origin}/agents/${slug}/permissions/`);
        const { page } = tab;
        const text = async (key: string) =>
          (await page.locator(`[data-summary="${key}"]`).innerText()).trim();
        const where = `${site.name} ${slug}`;
        const own = ram.resources.filter((r) => r.owner === 'CONSUMER');
        const outside = ram.resources.filter((r) => r.owner === 'THIRD_PARTY').length;
        const resourceOf = (a: CardRam['resourceAccesses'][number]) =>
          ram.operations.find((o) => o.id === a.operation)!.resource;
        const ownWith = (identity: string) =>
          own.filter((r) =>
            ram.resourceAccesses.some((a) => resourceOf(a) === r.id && a.identityUsed === identity),
          ).length;
        const yours = await text('yours');
        if (own.length === 0) expect(yours, where).toMatch(/does not act on any of your own/);
        else {
          const [asYou, asItself] = [ownWith('END_USER'), ownWith('AGENT')];
          const services = `It acts on ${own.length} of your own services`;
          expect(yours, where).toBe(
            asItself === 0
              ? `${services}, as you.`
              : asYou === 0
                ? `${services}, with its own account, not yours.`
                : `${services}: on ${asYou} as you, on ${asItself} with its own account.`,
          );
        }
        expect(await text('outside'), where).toBe(
          outside === 0
            ? 'It does not share data with any outside service.'
            : `It shares data with ${outside} outside service${outside === 1 ? '' : 's'}.`,
        );
        const total = ram.resourceAccesses.length;
        const asks = ram.resourceAccesses.filter((a) => a.confirmationRequired === true).length;
        const asksText = await text('asks-first');
        if (asks === 0)
          expect(asksText, where).toContain(`does not ask you first before any of its ${total} action`);
        else if (asks === total) expect(asksText, where).toContain(`before each of its ${total} action`);
        else expect(asksText, where).toContain(`It asks you first before ${asks} of its ${total} action`);
        const count = (n: string) => ram.resourceAccesses.filter((a) => a.necessity === n).length;
        // The counts the RAM gives, in the sentence the English word table makes of them.
        expect(await text('necessity'), where).toBe(
          EN.permissions.summaryNecessity(count('REQUIRED'), count('RECOMMENDED'), count('OPTIONAL')),
        );
        const risky = expectedHigherRisk(ram, site.readOnly).size;
        const riskText = await text('higher-risk');
        if (risky === 0) expect(riskText, where).toBe('No action is marked higher risk.');
        else expect(riskText, where).toMatch(new RegExp(`^${risky} actions? (is|are) marked higher risk`));
      }
    }
    await close(tab.page);
  });

  it('carry the declaration, the publisher links, and the card with its digest', async () => {
    const tab = await newTab();
    for (const site of sites) {
      const publisher = parseYaml(
        await readFile(path.join(site.project, 'content', 'publisher.yaml'), 'utf8'),
      ) as Record<string, string>;
      for (const slug of site.slugs) {
        const { bytes } = await fetchCard(site, slug);
        const digest = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
        await go(tab, `${site.server.origin}/agents/${slug}/permissions/`);
        const { page } = tab;
        const main = await page.locator('main').innerText();
        expect(main).toContain("This is the publisher's own declaration, not an independent audit.");
        expect(main).toContain(digest);
        const hrefs = await page.locator('main a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
        expect(hrefs).toContain(`/agents/${slug}/agent-card.json`);
        expect(hrefs).toContain('/.well-known/ard.json');
        for (const key of ['privacyPolicyUrl', 'termsUrl', 'contactUrl'])
          if (publisher[key]) expect(hrefs, key).toContain(publisher[key]);
        if (publisher.contactEmail) expect(hrefs).toContain(`mailto:${publisher.contactEmail}`);
      }
    }
    await close(tab.page);
  });

  it('show the per-skill view when the author mapped accesses to skills', async () => {
    const site = siteNamed('example');
    const { page } = await open(`${site.server.origin}/agents/itinerary-concierge/permissions/`);
    expect(await page.locator('[data-skill-id]').count()).toBe(3);
    await expect(page.locator('[data-skill-id="convert-prices"]').innerText()).resolves.toContain(
      'Currency Exchange Agent',
    );
    await close(page);
    const other = await open(`${site.server.origin}/agents/travel-reservation/permissions/`);
    expect(await other.page.locator('[data-skill-id]').count()).toBe(0);
    await close(other.page);
  });

  it('are captured at 375 and 1280 px, as wide as the screen (test-results/screenshots/pages/)', async () => {
    for (const width of [375, 1280]) {
      const tab = await newTab({ viewport: { width, height: 900 } });
      for (const site of sites) {
        for (const slug of site.slugs) {
          await go(tab, `${site.server.origin}/agents/${slug}/permissions/`);
          const file = path.join(shots, `${site.name}-${slug}-permissions-${width}.png`);
          const png = await tab.page.screenshot({ path: file, fullPage: true });
          // A PNG's IHDR chunk (PNG §11.2.2) gives the picture's width and height at bytes 16 and 20: the
          // whole page fits the screen's width (nothing to scroll sideways) and is taller than nothing.
          const shown = `${site.name} ${slug} at ${width}px`;
          expect(png.subarray(12, 16).toString('latin1'), shown).toBe('IHDR');
          expect(png.readUInt32BE(16), shown).toBe(width);
          expect(png.readUInt32BE(20), shown).toBeGreaterThan(0);
          const scrollWidth = await tab.page.evaluate(() => document.documentElement.scrollWidth);
          expect(scrollWidth, shown).toBeLessThanOrEqual(width);
          expect(await tab.page.locator('h1').first().textContent(), shown).toMatch(/\S/);
        }
      }
      await close(tab.page);
    }
  });
});

describe('accessibility (axe-core, WCAG 2.2 AA)', () => {
  const cases = [
    ['example', '/'],
    ['example', '/agents/travel-reservation/'],
    ['example', '/agents/travel-reservation/permissions/'],
    ['example', '/agents/travel-policy-helper/permissions/'],
    ['pages-edge', '/agents/risky-helper/permissions/'],
  ] as const;

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`reports no violation in the ${colorScheme} scheme`, async () => {
      // axe is injected as an inline script, which the pages' own CSP forbids: bypass it for this run.
      const tab = await newTab({ bypassCSP: true, colorScheme });
      for (const [name, p] of cases) {
        await go(tab, siteNamed(name).server.origin + p);
        const { violations, passes } = await axeRun(tab.page);
        // axe really ran (color-contrast, landmarks, … passed), and found nothing.
        expect(passes, `${name} ${p}`).toBeGreaterThan(10);
        expect(violations, `${name} ${p} (${colorScheme})`).toEqual([]);
      }
      await close(tab.page);
    });
  }
});

describe('the JSON files over HTTP', () => {
  it('come with the _headers content types, CORS and cache, and pages with the Link header', async () => {
    const site = siteNamed('example');
    const expected: Record<string, string> = {
      '/.well-known/ard.json': 'application/ard+json',
      '/.well-known/did.json': 'application/did+json',
      '/.well-known/jwks.json': 'application/jwk-set+json',
      '/.well-known/agent-card.json': 'application/json',
      ...Object.fromEntries(site.slugs.map((s) => [`/agents/${s}/agent-card.json`, 'application/json'])),
    };
    for (const [p, type] of Object.entries(expected)) {
      const res = await fetch(site.server.origin + p, { headers: { Origin: 'https://elsewhere.example' } });
      expect(res.status, p).toBe(200);
      expect(res.headers.get('content-type'), p).toBe(type);
      expect(res.headers.get('access-control-allow-origin'), p).toBe('*');
      expect(res.headers.get('cache-control'), p).toBe('public, max-age=300');
      JSON.parse(await res.text());
    }
    for (const p of pagesOf(site).filter((x) => x.endsWith('/'))) {
      const res = await fetch(site.server.origin + p);
      expect(res.headers.get('link'), p).toBe('</.well-known/ard.json>; rel="ard"');
      expect(res.headers.get('content-type'), p).toBe('text/html; charset=utf-8');
    }
  });
});
