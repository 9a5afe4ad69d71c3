/**
 * The Astro integration (src/astro/integration.ts) in a real Astro site that has pages of its own: an
 * `astro build` with `integrations: [ardsite()]` adds the signed manifest, cards and permission files
 * (ARD draft §3.5, A2A §8.4), which `verify()`, the A2A SDK and the A2A v0.3 schema accept; the site's own
 * pages are unchanged but for the `rel="ard"` link; broken content fails the build naming file and line;
 * a file both the site and ardsite would write fails it naming both.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verify } from '../../src/index.js';
import { ARD_LINK_TAG } from '../../src/astro/merge-output.js';
import { TEST_KEY_ES256 } from '../helpers/build.js';
import { siteCardVerdicts } from '../helpers/consumers.js';
import { REPO_ROOT } from '../helpers/site.js';

const ASTRO_BIN = path.join(REPO_ROOT, 'node_modules', 'astro', 'astro.js');
const INTEGRATION = pathToFileURL(path.join(REPO_ROOT, 'src', 'astro', 'integration.ts')).href;
const ROBOTS = 'User-agent: *\nAllow: /\n';
const OWN_PAGES = ['index.html', 'about/index.html'];

let sites: string;

/** Writes an Astro site with two pages (and a robots.txt when `robots`) of its own into `dir`, using ardsite when `withArdsite`. */
async function makeAstroSite(dir: string, withArdsite: boolean, robots = false): Promise<void> {
  await mkdir(path.join(dir, 'src', 'pages', 'about'), { recursive: true });
  await mkdir(path.join(dir, 'public'), { recursive: true });
  const page = (title: string) =>
    `---\n---\n<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1></body></html>\n`;
  await writeFile(path.join(dir, 'src', 'pages', 'index.astro'), page('Home of the publisher'));
  await writeFile(path.join(dir, 'src', 'pages', 'about', 'index.astro'), page('About us'));
  if (robots) await writeFile(path.join(dir, 'public', 'robots.txt'), ROBOTS);
  const config = withArdsite
    ? `import { defineConfig } from 'astro/config';\nimport ardsite from ${JSON.stringify(INTEGRATION)};\nexport default defineConfig({ integrations: [ardsite()] });\n`
    : `import { defineConfig } from 'astro/config';\nexport default defineConfig({});\n`;
  await writeFile(path.join(dir, 'astro.config.mjs'), config);
  if (withArdsite) {
    await cp(path.join(REPO_ROOT, 'test', 'fixtures', 'content-valid'), path.join(dir, 'ardsite'), {
      recursive: true,
    });
  }
}

/**
 * Runs `astro build` in `dir`, with the TEST-ONLY key; never throws. Node loads the integration's
 * TypeScript through tsx, as it would load the compiled `ardsite/astro` of an installed package: natively,
 * not through the Vite module runner Astro closes once the config is read.
 */
function astroBuild(dir: string): Promise<{ code: number; output: string }> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !/^(CI|ARDSITE_.*|VITEST.*|NODE_ENV|TEST)$/.test(k)) env[k] = v;
  }
  env.ARDSITE_SIGNING_KEY = TEST_KEY_ES256;
  env.SOURCE_DATE_EPOCH = '1764000000';
  env.ASTRO_TELEMETRY_DISABLED = '1';
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', ASTRO_BIN, 'build'],
      { cwd: dir, env, timeout: 300_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, output: `${stdout}${stderr}` });
      },
    );
  });
}

beforeAll(async () => {
  // Inside the repository, so that the site resolves `astro` from its node_modules.
  sites = await mkdtemp(path.join(REPO_ROOT, '.astro-site-test-'));
});
afterAll(async () => {
  if (sites) await rm(sites, { recursive: true, force: true });
});

describe('ardsite() in an Astro site of its own', () => {
  it('adds the signed files, which verify() and the A2A consumers accept; own pages only gain rel="ard"', async () => {
    const plain = path.join(sites, 'plain');
    const site = path.join(sites, 'site');
    await makeAstroSite(plain, false);
    await makeAstroSite(site, true);
    const before = await astroBuild(plain);
    expect(before.code, before.output).toBe(0);
    const built = await astroBuild(site);
    expect(built.code, built.output).toBe(0);
    const dist = path.join(site, 'dist');

    const report = await verify({ folder: dist });
    expect(report.failed).toBe(0);
    expect(report.entries).toBeGreaterThan(0);
    const verdicts = await siteCardVerdicts(dist);
    expect(verdicts.length).toBeGreaterThan(0);
    for (const v of verdicts) {
      expect([v.file, v.sdkSignature, v.wholeCard, v.v1Resolver]).toEqual([v.file, '', '', '']);
      if (v.offersV03) expect([v.file, v.v03Schema]).toEqual([v.file, '']);
    }
    for (const file of ['.well-known/did.json', '.well-known/jwks.json', 'robots.txt']) {
      await expect(readFile(path.join(dist, file))).resolves.toBeDefined();
    }
    // The site's own pages: identical but for the link.
    for (const page of OWN_PAGES) {
      const own = await readFile(path.join(plain, 'dist', page), 'utf8');
      const now = await readFile(path.join(dist, page), 'utf8');
      expect(now).toContain(ARD_LINK_TAG);
      expect(now.replace(ARD_LINK_TAG, '')).toBe(own);
    }
  }, 600_000);

  it("fails the build when the site has a file ardsite also writes, naming both, and keeps the site's", async () => {
    const site = path.join(sites, 'robots');
    await makeAstroSite(site, true, true);
    const built = await astroBuild(site);
    expect(built.code).not.toBe(0);
    expect(built.output).toMatch(/dist\/robots\.txt: the site's own .* and ardsite's/);
    expect(await readFile(path.join(site, 'dist', 'robots.txt'), 'utf8')).toBe(ROBOTS);
  }, 300_000);

  it('fails the build on broken content, naming the file and line', async () => {
    const site = path.join(sites, 'broken');
    await makeAstroSite(site, true);
    const agentDir = path.join(site, 'ardsite', 'content', 'publisher.yaml');
    const text = await readFile(agentDir, 'utf8');
    await writeFile(agentDir, `${text}\nsiteUrl: [not, a, url\n`);
    const built = await astroBuild(site);
    expect(built.code).not.toBe(0);
    expect(built.output).toMatch(/ardsite[/\\]content[/\\]publisher\.yaml:\d+/);
  }, 300_000);
});
