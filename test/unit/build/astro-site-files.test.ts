/**
 * The files a host Astro site and ardsite both write (src/astro/merge-site-files.ts,
 * src/astro/merge-llms-txt.ts): llms.txt merged with the site's first (llmstxt.org), `_headers` rules
 * appended unless a rule sets one header to two values, robots.txt kept unless it disallows what ardsite
 * publishes (RFC 9309), anything else with different bytes a conflict; every conflict names both files.
 * The site's own home page gets no page header of ardsite's but the `Link: rel="ard"` (RFC 8288).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mergeLlmsTxt } from '../../../src/astro/merge-llms-txt.js';
import {
  MAX_NAMED_BLOCKED_PATHS,
  disallowedPaths,
  mergeSiteFile,
  robotsConflict,
  yieldPageRules,
} from '../../../src/astro/merge-site-files.js';
import { mergeOutput } from '../../../src/astro/merge-output.js';
import { ARDSITE_SITEMAP, ARDSITE_SITEMAP_NOTE } from '../../../src/astro/merge-sitemap.js';
import { sitemapXml } from '../../../src/core/build/site-files.js';
import { SITEMAP_ITEM_NOTE } from '../../../src/core/pages/llms-txt.js';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

const NAMES = { site: 'public/x', ardsite: 'ardsite/x' };
const SITE_LLMS = `# Acme

> Acme makes anvils.

Our catalogue is below.

## Docs

- [Anvils](https://acme.test/anvils/): the range

## Optional

- [Blog](https://acme.test/blog/)
`;
const OUR_LLMS = `# Acme agents

> The agents of Acme.

Signed by did:web:acme.test.

## Trip planner

- [Its page](https://acme.test/agents/trip/)

## Optional

- [Acme](https://acme.test/): the publisher
`;

describe('mergeLlmsTxt', () => {
  it("keeps the site's H1 and summary, then both bodies, both sections, and one Optional section", () => {
    expect(mergeLlmsTxt(SITE_LLMS, OUR_LLMS, 'public/llms.txt', 'ardsite')).toBe(`# Acme

> Acme makes anvils.

Our catalogue is below.

Signed by did:web:acme.test.

## Docs

- [Anvils](https://acme.test/anvils/): the range

## Trip planner

- [Its page](https://acme.test/agents/trip/)

## Optional

- [Blog](https://acme.test/blog/)
- [Acme](https://acme.test/): the publisher
`);
  });

  it('names both files and lines for a section title both have, and a site file without an H1', () => {
    const clash = SITE_LLMS.replace('## Docs', '## Trip planner');
    expect(() => mergeLlmsTxt(clash, OUR_LLMS, 'public/llms.txt', 'ardsite/llms.txt')).toThrow(
      'both public/llms.txt:7 and ardsite/llms.txt:7 have a section "## Trip planner"',
    );
    expect(() => mergeLlmsTxt('Just text\n', OUR_LLMS, 'public/llms.txt', 'ardsite/llms.txt')).toThrow(
      /public\/llms\.txt does not begin with an H1.*ardsite\/llms\.txt/,
    );
  });
});

describe('mergeSiteFile', () => {
  const buf = (s: string) => Buffer.from(s);

  it('merges llms.txt and appends ardsite’s _headers rules after the site’s', () => {
    const llms = mergeSiteFile('llms.txt', buf(SITE_LLMS), buf(OUR_LLMS), NAMES, []);
    expect(llms).toEqual({ write: expect.stringContaining('## Trip planner') });
    const headers = mergeSiteFile(
      '_headers',
      buf('/*\n  X-Frame-Options: DENY\n'),
      buf('/.well-known/ard.json\n  Content-Type: application/ard+json\n'),
      NAMES,
      [],
    );
    expect(headers).toEqual({
      write: expect.stringMatching(
        /^\/\*\n {2}X-Frame-Options: DENY\n\n# ardsite: .*\n\n\/\.well-known\/ard\.json\n {2}Content-Type: application\/ard\+json\n$/,
      ),
    });
  });

  it('is a conflict naming both files and lines when one rule sets a header two ways', () => {
    const out = mergeSiteFile(
      '_headers',
      buf('# mine\n/.well-known/ard.json\n  Content-Type: application/json\n'),
      buf('/.well-known/ard.json\n  Content-Type: application/ard+json\n'),
      { site: 'public/_headers', ardsite: "ardsite's _headers" },
      [],
    );
    expect(out).toEqual({
      conflict: {
        file: '_headers',
        reason:
          "public/_headers:2 sets Content-Type: application/json for /.well-known/ard.json, ardsite's _headers:1 sets Content-Type: application/ard+json",
      },
    });
  });

  it('keeps the site’s robots.txt unless it disallows a path ardsite publishes', () => {
    const published = ['/.well-known/ard.json', '/agents/trip/'];
    expect(
      mergeSiteFile('robots.txt', buf('User-agent: *\nDisallow: /admin/\n'), buf('x'), NAMES, published),
    ).toEqual({
      keep: 'site',
    });
    const blocked = mergeSiteFile(
      'robots.txt',
      buf('User-agent: *\nDisallow: /admin/\nDisallow: /agents/\n'),
      buf('User-agent: *\nAllow: /\n'),
      { site: 'public/robots.txt', ardsite: "ardsite's robots.txt" },
      published,
    );
    expect(blocked).toEqual({
      conflict: {
        file: 'robots.txt',
        reason:
          "public/robots.txt:3 disallows /agents/trip/ for every crawler, which ardsite's robots.txt allows and ardsite publishes",
      },
    });
  });

  it('is a conflict for any other file with different bytes, and nothing for the same bytes', () => {
    expect(mergeSiteFile('sitemap.xml', buf('a'), buf('b'), NAMES, [])).toEqual({
      conflict: { file: 'sitemap.xml', reason: 'both public/x and ardsite/x write it, with different bytes' },
    });
    expect(mergeSiteFile('sitemap.xml', buf('a'), buf('a'), NAMES, [])).toEqual({ keep: 'site' });
  });
});

describe('disallowedPaths (RFC 9309 §2.2.2)', () => {
  it('lets the longest rule win, Allow on a tie, and reads only the groups for every crawler', () => {
    const robots =
      'User-agent: Bot\nDisallow: /\n\nUser-agent: *\nDisallow: /agents/\nAllow: /agents/trip/\n';
    expect(disallowedPaths(robots, ['/agents/trip/'])).toEqual([]);
    expect(disallowedPaths(robots, ['/agents/other/'])).toEqual([{ path: '/agents/other/', line: 5 }]);
    expect(disallowedPaths('User-agent: *\nDisallow: /*.json$\n', ['/.well-known/ard.json'])).toEqual([
      { path: '/.well-known/ard.json', line: 2 },
    ]);
  });

  it('gives every blocked path, in the order asked, each with the line of its rule', () => {
    const robots =
      'User-agent: *\nDisallow: /.well-known/d\nDisallow: /.well-known/a\nAllow: /.well-known/ard\n';
    expect(
      disallowedPaths(robots, [
        '/.well-known/ai-catalog.json',
        '/.well-known/ard.json',
        '/.well-known/did.json',
      ]),
    ).toEqual([
      { path: '/.well-known/ai-catalog.json', line: 3 },
      { path: '/.well-known/did.json', line: 2 },
    ]);
  });
});

describe('robotsConflict', () => {
  const names = { site: 'public/robots.txt', ardsite: "ardsite's robots.txt" };

  it('names every blocked path in one message, grouped by the rule that blocks them', () => {
    const robots = 'User-agent: *\nDisallow: /.well-known/a\nDisallow: /.well-known/j\n';
    const published = [
      '/.well-known/agent-card.json',
      '/.well-known/ard.json',
      '/.well-known/jwks.json',
      '/',
    ];
    expect(robotsConflict(robots, names, published)).toEqual({
      file: 'robots.txt',
      reason:
        "public/robots.txt:2 disallows /.well-known/agent-card.json and /.well-known/ard.json, public/robots.txt:3 disallows /.well-known/jwks.json for every crawler, which ardsite's robots.txt allows and ardsite publishes",
    });
  });

  it(`names at most ${MAX_NAMED_BLOCKED_PATHS} paths, then how many more`, () => {
    const published = Array.from({ length: MAX_NAMED_BLOCKED_PATHS + 3 }, (_, i) => `/agents/a${i}/`);
    const reason = robotsConflict('User-agent: *\nDisallow: /agents/\n', names, published)!.reason;
    expect(reason).toContain(`/agents/a${MAX_NAMED_BLOCKED_PATHS - 1}/ (and 3 more paths) for every crawler`);
    expect(reason).not.toContain(`/agents/a${MAX_NAMED_BLOCKED_PATHS}/`);
    const one = Array.from({ length: MAX_NAMED_BLOCKED_PATHS + 1 }, (_, i) => `/agents/a${i}/`);
    expect(robotsConflict('User-agent: *\nDisallow: /agents/\n', names, one)!.reason).toContain(
      '(and 1 more path) for every crawler',
    );
  });
});

const OUR_HEADERS = `# Response headers, written by ardsite.

/*
  X-Content-Type-Options: nosniff

/
  Link: </.well-known/ard.json>; rel="ard"
  Content-Security-Policy: default-src 'none'
  X-Frame-Options: DENY

/agents/:slug/
  Link: </.well-known/ard.json>; rel="ard"
  Content-Security-Policy: default-src 'none'
  X-Frame-Options: DENY
`;

describe('yieldPageRules', () => {
  it('keeps only the Link header on the paths the site’s own pages take over', () => {
    const out = yieldPageRules(OUR_HEADERS, ['/']);
    expect(out).toBe(`# Response headers, written by ardsite.

/*
  X-Content-Type-Options: nosniff

/
  Link: </.well-known/ard.json>; rel="ard"

/agents/:slug/
  Link: </.well-known/ard.json>; rel="ard"
  Content-Security-Policy: default-src 'none'
  X-Frame-Options: DENY
`);
  });

  it('returns the text unchanged when no rule is of a taken path, and drops a rule left empty', () => {
    expect(yieldPageRules(OUR_HEADERS, ['/about/'])).toBe(OUR_HEADERS);
    expect(yieldPageRules('/\n  X-Frame-Options: DENY\n', ['/'])).toBe('\n');
  });
});

describe('mergeOutput and the site’s own home page', () => {
  it('gives the site’s index.html no CSP or X-Frame-Options of ardsite’s, with or without a _headers of its own', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'ardsite-merge-'));
    try {
      for (const own of [undefined, '/*\n  Referrer-Policy: no-referrer\n']) {
        const [ours, site] = [path.join(root, 'ours'), path.join(root, 'site')];
        await rm(ours, { recursive: true, force: true });
        await rm(site, { recursive: true, force: true });
        await mkdir(path.join(ours, 'agents', 'trip'), { recursive: true });
        await mkdir(site, { recursive: true });
        await writeFile(path.join(ours, '_headers'), OUR_HEADERS);
        await writeFile(path.join(ours, 'index.html'), '<p>ardsite index</p>');
        await writeFile(path.join(ours, 'agents', 'trip', 'index.html'), '<p>trip</p>');
        await writeFile(path.join(site, 'index.html'), '<p>home</p><script>go()</script>');
        const siteFiles = ['index.html'];
        if (own) {
          await writeFile(path.join(site, '_headers'), own);
          siteFiles.push('_headers');
        }
        const result = await mergeOutput(ours, site, siteFiles, { siteRoot: root, project: ours });
        expect(result.conflicts).toEqual([]);
        const headers = await readFile(path.join(site, '_headers'), 'utf8');
        const home = headers.slice(headers.indexOf('\n/\n'), headers.indexOf('/agents/:slug/'));
        expect(home).toContain('Link: </.well-known/ard.json>; rel="ard"');
        expect(home).not.toContain('Content-Security-Policy');
        expect(home).not.toContain('X-Frame-Options');
        expect(headers.slice(headers.indexOf('/agents/:slug/'))).toContain('Content-Security-Policy');
        expect(await readFile(path.join(site, 'index.html'), 'utf8')).toBe(
          '<p>home</p><script>go()</script>',
        );
        if (own) expect(headers.startsWith(own)).toBe(true);
      }
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe('mergeOutput and the sitemap (sitemaps.org 0.9)', () => {
  const ORIGIN = 'https://agents.example.test';
  const ours = sitemapXml([
    { loc: `${ORIGIN}/`, lastmod: '2026-01-02' },
    { loc: `${ORIGIN}/agents/trip/`, lastmod: '2026-01-02' },
  ]);
  const llms = `# Acme agents\n\n## Machine-readable files\n\n- [Sitemap](${ORIGIN}/sitemap.xml): ${SITEMAP_ITEM_NOTE}\n`;
  const robots = `User-agent: *\nAllow: /\n\nSitemap: ${ORIGIN}/sitemap.xml\n`;

  /** Merges ardsite's folder into a site of `index.html`, `about/index.html` and `extra` files. */
  async function merged(extra: Record<string, string>): Promise<(file: string) => Promise<string>> {
    const root = await mkdtemp(path.join(tmpdir(), 'ardsite-sitemap-'));
    roots.push(root);
    const [dir, site] = [path.join(root, 'ours'), path.join(root, 'site')];
    const own: Record<string, string> = {
      'index.html': '<p>home</p>',
      'about/index.html': '<p>about</p>',
      ...extra,
    };
    const theirs: Record<string, string> = {
      'sitemap.xml': ours,
      'llms.txt': llms,
      'robots.txt': robots,
      'index.html': '<p>ardsite index</p>',
      'agents/trip/index.html': '<p>trip</p>',
    };
    for (const [base, files] of [
      [dir, theirs],
      [site, own],
    ] as const) {
      for (const [file, text] of Object.entries(files)) {
        await mkdir(path.dirname(path.join(base, file)), { recursive: true });
        await writeFile(path.join(base, file), text);
      }
    }
    const result = await mergeOutput(dir, site, Object.keys(own).sort(), { siteRoot: root, project: dir });
    expect(result.conflicts).toEqual([]);
    return (file) => readFile(path.join(site, file), 'utf8');
  }
  const roots: string[] = [];
  afterAll(async () => {
    for (const root of roots) await rm(root, { recursive: true, force: true });
  });

  it('lists the site’s own pages with no date when the site has no sitemap, and no date of ardsite’s for its /', async () => {
    const read = await merged({
      'old/index.html': '<head><meta http-equiv="refresh" content="0;url=/about/"></head>',
      'draft/index.html': '<head><meta name="robots" content="noindex, nofollow"></head>',
    });
    const sitemap = await read('sitemap.xml');
    expect(sitemap).toContain(`<url>\n    <loc>${ORIGIN}/</loc>\n  </url>`);
    expect(sitemap).toContain(`<url>\n    <loc>${ORIGIN}/about/</loc>\n  </url>`);
    expect(sitemap).toContain(`<loc>${ORIGIN}/agents/trip/</loc>\n    <lastmod>2026-01-02</lastmod>`);
    expect(sitemap.match(/<loc>/g)).toHaveLength(3);
    expect(await read('llms.txt')).toContain(SITEMAP_ITEM_NOTE);
  });

  it('leaves the site’s own sitemap index alone and puts ardsite’s pages beside it, said so in llms.txt and robots.txt', async () => {
    const index = `<?xml version="1.0"?>\n<sitemapindex><sitemap><loc>${ORIGIN}/sitemap-0.xml</loc></sitemap></sitemapindex>\n`;
    const read = await merged({ 'sitemap-index.xml': index, 'sitemap-0.xml': '<urlset/>' });
    expect(await read('sitemap-index.xml')).toBe(index);
    expect(await read('sitemap-0.xml')).toBe('<urlset/>');
    await expect(read('sitemap.xml')).rejects.toThrow(/ENOENT/);
    const beside = await read(ARDSITE_SITEMAP);
    expect(beside).toContain(`<loc>${ORIGIN}/agents/trip/</loc>`);
    expect(beside).not.toContain(`<loc>${ORIGIN}/</loc>`);
    const text = await read('llms.txt');
    expect(text).not.toContain(SITEMAP_ITEM_NOTE);
    expect(text).toContain(
      `- [Sitemap of the agents' pages](${ORIGIN}/${ARDSITE_SITEMAP}): ${ARDSITE_SITEMAP_NOTE}`,
    );
    expect(await read('robots.txt')).toContain(
      `Sitemap: ${ORIGIN}/sitemap-index.xml\nSitemap: ${ORIGIN}/${ARDSITE_SITEMAP}\n`,
    );
  });

  it('keeps the site’s own sitemap.xml instead of failing on it', async () => {
    const own =
      '<?xml version="1.0"?>\n<urlset><url><loc>https://agents.example.test/about/</loc></url></urlset>\n';
    const read = await merged({ 'sitemap.xml': own });
    expect(await read('sitemap.xml')).toBe(own);
    expect(await read(ARDSITE_SITEMAP)).toContain('/agents/trip/');
  });
});
