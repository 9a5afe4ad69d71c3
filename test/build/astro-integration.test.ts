/**
 * The Astro integration (src/astro/integration.ts) in a real Astro site that has pages of its own: an
 * `astro build` with `integrations: [ardsite()]` adds the signed manifest, cards and permission files
 * (ARD draft §3.5, A2A §8.4), which `verify()`, the A2A SDK and the A2A v0.3 schema accept; the site's own
 * pages are unchanged but for the `rel="ard"` link; the site's robots.txt is kept, its llms.txt and
 * `_headers` merged with ardsite's; a robots.txt that disallows what ardsite publishes, and broken content,
 * fail the build naming the files and lines, before Astro renders anything. `astro dev` serves ardsite's files and pages, and answers
 * 503 with the file and line while the content is broken.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verify } from '../../src/index.js';
import { ARD_LINK_TAG } from '../../src/astro/merge-output.js';
import { astroBuild, astroDev, OWN_PAGES, writeAstroSite } from '../helpers/astro-site.js';
import { siteCardVerdicts } from '../helpers/consumers.js';
import { REPO_ROOT } from '../helpers/site.js';

const ASTRO_BIN = path.join(REPO_ROOT, 'node_modules', 'astro', 'astro.js');
const INTEGRATION = pathToFileURL(path.join(REPO_ROOT, 'src', 'astro', 'integration.ts')).href;
/**
 * Node loads the integration's TypeScript through tsx, as it would load the compiled `ardsite/astro` of an
 * installed package: natively, not through the Vite module runner Astro closes once the config is read.
 */
const TSX = ['--import', 'tsx'];
const ROBOTS = 'User-agent: *\nDisallow: /admin/\n';
const LLMS = '# The publisher\n\n> What we do.\n\n## Docs\n\n- [Docs](https://agents.example.test/docs/)\n';
const HEADERS = '/*\n  X-Frame-Options: DENY\n';

let sites: string;

beforeAll(async () => {
  // Inside the repository, so that the site resolves `astro` from its node_modules.
  sites = await mkdtemp(path.join(REPO_ROOT, '.astro-site-test-'));
});
afterAll(async () => {
  if (sites) await rm(sites, { recursive: true, force: true });
});

describe('ardsite() in an Astro site of its own', () => {
  it('puts ardsite\'s pages under pagesPrefix, keeps the site\'s robots.txt, merges llms.txt and _headers; own pages gain only rel="ard"', async () => {
    const plain = path.join(sites, 'plain');
    const site = path.join(sites, 'site');
    const files = { 'public/robots.txt': ROBOTS, 'public/llms.txt': LLMS, 'public/_headers': HEADERS };
    await writeAstroSite(plain, { files });
    await writeAstroSite(site, { integration: INTEGRATION, files, options: { pagesPrefix: '/ai' } });
    const before = await astroBuild(ASTRO_BIN, plain, TSX);
    expect(before.code, before.output).toBe(0);
    const built = await astroBuild(ASTRO_BIN, site, TSX);
    expect(built.code, built.output).toBe(0);
    const dist = path.join(site, 'dist');

    const report = await verify({ folder: dist });
    expect(report.failed).toBe(0);
    expect(report.entries).toBeGreaterThan(0);
    const verdicts = await siteCardVerdicts(dist);
    expect(verdicts.length).toBeGreaterThan(0);
    for (const v of verdicts) {
      expect([v.file, v.sdkSignature, v.wholeCard, v.v1Resolver]).toEqual([v.file, '', '', '']);
    }
    for (const file of ['.well-known/did.json', '.well-known/jwks.json', 'sitemap.xml']) {
      await expect(readFile(path.join(dist, file))).resolves.toBeDefined();
    }
    expect(await readFile(path.join(dist, 'robots.txt'), 'utf8')).toBe(ROBOTS);
    const llms = await readFile(path.join(dist, 'llms.txt'), 'utf8');
    expect(llms.startsWith('# The publisher\n\n> What we do.\n')).toBe(true);
    expect(llms).toMatch(/\n## Docs\n[\s\S]*\n## Machine-readable files\n/);
    const headers = await readFile(path.join(dist, '_headers'), 'utf8');
    expect(headers.startsWith(HEADERS)).toBe(true);
    expect(headers).toMatch(/\n\/\.well-known\/ard\.json\n {2}Content-Type: application\/ard\+json/);
    for (const page of OWN_PAGES) {
      const own = await readFile(path.join(plain, 'dist', page), 'utf8');
      const now = await readFile(path.join(dist, page), 'utf8');
      expect(now.split(ARD_LINK_TAG)).toHaveLength(2);
      expect(now.replace(ARD_LINK_TAG, '')).toBe(own);
    }
    // ardsite's pages under the prefix (pagesPrefix), linking within it; its index no longer gives way.
    const index = await readFile(path.join(dist, 'ai', 'index.html'), 'utf8');
    expect(index).toContain('href="/ai/agents/note-taker/permissions/"');
    expect(index).not.toMatch(/href="\/agents\/note-taker\/(permissions\/)?"/);
    await expect(
      readFile(path.join(dist, 'ai', 'agents', 'note-taker', 'permissions', 'index.html')),
    ).resolves.toBeDefined();
    await expect(readFile(path.join(dist, 'agents', 'note-taker', 'index.html'))).rejects.toThrow(/ENOENT/);
    // The site has no 404 page of its own: ardsite's, at the root where hosts look for it, leads to /ai/.
    const notFound = await readFile(path.join(dist, '404.html'), 'utf8');
    expect(notFound).toContain('href="/ai/"');
    expect(notFound).not.toContain('href="/"');
    // The site has no sitemap: ardsite's lists the site's own pages too, with no date ardsite cannot know,
    // so llms.txt's "Every page of this site" is true.
    const sitemap = await readFile(path.join(dist, 'sitemap.xml'), 'utf8');
    expect(sitemap).toContain('https://agents.valid.example/ai/agents/note-taker/');
    expect(built.output).toContain("the site's pages listed in sitemap.xml");
    for (const own of ['/', '/about/']) {
      expect(sitemap).toContain(`<url>\n    <loc>https://agents.valid.example${own}</loc>\n  </url>`);
    }
  }, 600_000);

  it('fails the build when the site’s robots.txt disallows what ardsite publishes, naming both', async () => {
    const site = path.join(sites, 'robots');
    const robots = 'User-agent: *\nDisallow: /.well-known/\n';
    await writeAstroSite(site, { integration: INTEGRATION, files: { 'public/robots.txt': robots } });
    const built = await astroBuild(ASTRO_BIN, site, TSX);
    expect(built.code).not.toBe(0);
    expect(built.output).toMatch(
      /robots\.txt: public\/robots\.txt:2 disallows \/\.well-known\/ai-catalog\.json, \/\.well-known\/ard\.json, \/\.well-known\/did\.json and \/\.well-known\/jwks\.json for every crawler, which ardsite's robots\.txt \(made from ardsite\/content\) allows/,
    );
    // Refused at the config step, before Astro rendered a page or ardsite built: no output folder at all,
    // and the site's robots.txt as it was.
    expect(await readFile(path.join(site, 'public', 'robots.txt'), 'utf8')).toBe(robots);
    await expect(stat(path.join(site, 'dist'))).rejects.toThrow(/ENOENT/);
    expect(built.output).not.toMatch(/building client|generating static routes/i);
  }, 300_000);

  it('fails the build on broken content, naming the file and line', async () => {
    const site = path.join(sites, 'broken');
    await writeAstroSite(site, { integration: INTEGRATION });
    const publisher = path.join(site, 'ardsite', 'content', 'publisher.yaml');
    const text = await readFile(publisher, 'utf8');
    await writeFile(publisher, `${text}\nsiteUrl: [not, a, url\n`);
    const built = await astroBuild(ASTRO_BIN, site, TSX);
    expect(built.code).not.toBe(0);
    expect(built.output).toMatch(/ardsite[/\\]content[/\\]publisher\.yaml:\d+/);
    await expect(stat(path.join(site, 'dist'))).rejects.toThrow(/ENOENT/);
  }, 300_000);

  it('astro dev serves the manifest, cards, keys and agent pages, and 503 with file:line for broken content', async () => {
    const site = path.join(sites, 'dev');
    await writeAstroSite(site, { integration: INTEGRATION });
    const dev = astroDev(ASTRO_BIN, site, await freePort(), TSX);
    try {
      const base = await dev.ready;
      const get = async (p: string) => {
        const res = await fetch(new URL(p, base));
        return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
      };
      const manifest = await get('/.well-known/ard.json');
      expect([manifest.status, manifest.type], dev.output()).toEqual([200, 'application/ard+json']);
      const entries = (JSON.parse(manifest.text) as { entries: { identifier: string }[] }).entries;
      expect(entries.map((e) => e.identifier)).toContain('urn:air:agents.valid.example:demo:note-taker');
      for (const p of [
        '/agents/note-taker/agent-card.json',
        '/.well-known/did.json',
        '/.well-known/jwks.json',
      ]) {
        expect([p, (await get(p)).status]).toEqual([p, 200]);
      }
      const permissions = await get('/agents/note-taker/permissions/');
      expect([permissions.status, permissions.type]).toEqual([200, 'text/html; charset=utf-8']);
      const home = await get('/');
      expect(home.text).toContain('Home of the publisher');

      const publisher = path.join(site, 'ardsite', 'content', 'publisher.yaml');
      const text = await readFile(publisher, 'utf8');
      const line = text.replace(/\n*$/, '').split('\n').length + 1;
      await writeFile(publisher, `${text.replace(/\n*$/, '\n')}siteUrl: [not, a, url\n`);
      let broken = await get('/.well-known/ard.json');
      for (let i = 0; i < 600 && broken.status === 200; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        broken = await get('/.well-known/ard.json');
      }
      expect(broken.status, dev.output()).toBe(503);
      expect(broken.text).toContain(`ardsite/content/publisher.yaml:${line}`);
      expect(dev.output()).toContain(`ardsite/content/publisher.yaml:${line}`);
      expect((await get('/agents/note-taker/permissions/')).status).toBe(503);
      expect((await get('/about/')).text).toContain('About us');
      // Vite's watcher ignores ardsite's temporary build folders, and the log names ardsite once a line.
      expect(dev.output()).not.toContain('.ardsite-tmp-');
      expect(dev.output()).not.toMatch(/\[ardsite\] ardsite:/);
      expect(dev.output()).toMatch(/\[ardsite\] built \d+ files from ardsite\/content/);
    } finally {
      await dev.stop();
    }
  }, 300_000);
});

/** A TCP port free on this machine now (the kernel's pick for port 0). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
