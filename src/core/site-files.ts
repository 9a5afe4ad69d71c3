/**
 * The site files beside the pages and the signed JSON (DESIGN.md §2): `/robots.txt` with its
 * `Agentmap:` and `Sitemap:` lines, `/sitemap.xml` of every HTML page, `/_headers` for Netlify and
 * Cloudflare Pages (content types, CORS and a short cache on the JSON files, `Link: rel="ard"` and
 * security headers on the pages), and an empty `/.nojekyll` so that GitHub Pages serves `.well-known/`.
 * Computed as artifacts by `computeSite`, like every other file of the build.
 */
import type { HeaderRule } from './headers-file.js';
import { serializeHeadersFile } from './headers-file.js';
import { agentPagePath, htmlPagePaths, INDEX_PAGE_PATH, permissionsPagePath } from './pages/paths.js';
import type { PublisherConfig } from './schema/publisher.js';
import type { AgentBuild, Artifact, OtherEntryBuild } from './site.js';

/** Site path of the robots file (RFC 9309). */
export const ROBOTS_PATH = '/robots.txt';
/** Site path of the sitemap (sitemaps.org protocol 0.9). */
export const SITEMAP_PATH = '/sitemap.xml';
/** Site path of the headers file of Netlify and Cloudflare Pages. */
export const HEADERS_PATH = '/_headers';
/** Site path of the marker that turns Jekyll off on GitHub Pages. */
export const NOJEKYLL_PATH = '/.nojekyll';

/** The cache policy of the JSON files: short, so a re-signed manifest reaches crawlers quickly. */
export const JSON_CACHE_CONTROL = 'public, max-age=300';

/** The `Link` header that advertises the manifest (DESIGN.md §2; ARD initial contact `rel="ard"`). */
export const ARD_LINK_HEADER = '</.well-known/ard.json>; rel="ard"';

/**
 * The Content-Security-Policy of the generated pages: they ship no script and load only their own
 * stylesheet (`<script type="application/ld+json">` is data, which `script-src` does not govern).
 */
export const PAGE_CSP =
  "default-src 'none'; style-src 'self'; img-src 'self' https: data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The agent card path pattern of `_headers` (one rule for every `/agents/<slug>/agent-card.json`). */
export const CARD_PATH_PATTERN = '/agents/:slug/agent-card.json';

/** The permission file path pattern of `_headers` (every `/agents/<slug>/permissions.json`, DESIGN.md §9). */
export const PERMISSIONS_PATH_PATTERN = '/agents/:slug/permissions.json';

/** What the site files are computed from: the publisher, the built agents and entries, the artifacts so far. */
export interface SiteFilesInput {
  publisher: PublisherConfig;
  agents: readonly AgentBuild[];
  otherEntries: readonly OtherEntryBuild[];
  /** The JSON artifacts already computed (manifest, cards, did.json, jwks.json, …). */
  artifacts: ReadonlyMap<string, Artifact>;
}

function absolute(siteUrl: string, sitePath: string): string {
  return new URL(sitePath.replace(/^\//, ''), siteUrl).toString();
}

function xmlEscape(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** `/robots.txt`: allows every crawler, names the manifest (`Agentmap:`) and the sitemap. */
export function robotsTxt(siteUrl: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    '',
    `Agentmap: ${absolute(siteUrl, '/.well-known/ard.json')}`,
    `Sitemap: ${absolute(siteUrl, SITEMAP_PATH)}`,
    '',
  ].join('\n');
}

/** One page of the sitemap: absolute URL and optional last modification (W3C datetime). */
export interface SitemapPage {
  loc: string;
  lastmod?: string;
}

/** `/sitemap.xml` (sitemaps.org 0.9) listing `pages` in order. */
export function sitemapXml(pages: readonly SitemapPage[]): string {
  const urls = pages.map(
    (p) =>
      `  <url>\n    <loc>${xmlEscape(p.loc)}</loc>\n${p.lastmod ? `    <lastmod>${xmlEscape(p.lastmod)}</lastmod>\n` : ''}  </url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

/** The sitemap pages of a site: the index, then each agent's page and permission page. */
export function sitemapPages(input: Pick<SiteFilesInput, 'publisher' | 'agents'>): SitemapPage[] {
  const updated = new Map(input.agents.map((a) => [a.agent.slug, a.entry.updatedAt]));
  const dates = [...updated.values()].filter((d): d is string => typeof d === 'string').sort();
  return htmlPagePaths(input.agents.map((a) => a.agent.slug)).map((p) => {
    const slug = /^\/agents\/([^/]+)\//.exec(p)?.[1];
    const lastmod = slug ? updated.get(slug) : dates[dates.length - 1];
    const page: SitemapPage = { loc: absolute(input.publisher.siteUrl, p) };
    if (typeof lastmod === 'string') page.lastmod = lastmod;
    return page;
  });
}

const jsonHeaders = (mediaType: string): HeaderRule['headers'] => [
  ['Content-Type', mediaType],
  ['Access-Control-Allow-Origin', '*'],
  ['Cache-Control', JSON_CACHE_CONTROL],
];

/**
 * The rules of `/_headers`: security headers on every path; the content type (DESIGN.md §2), CORS and
 * a short cache on each JSON file; `Link: rel="ard"` and the page CSP on the HTML pages; a long cache on
 * Astro's hashed assets. No header name is given twice for one path, so hosts that merge and hosts that
 * override agree.
 */
export function headerRules(input: SiteFilesInput): HeaderRule[] {
  const rules: HeaderRule[] = [
    {
      path: '/*',
      headers: [
        ['X-Content-Type-Options', 'nosniff'],
        ['Referrer-Policy', 'strict-origin-when-cross-origin'],
      ],
    },
  ];
  const cardPaths = new Set(input.agents.map((a) => a.cardPath));
  const permissionPaths = new Set(
    input.agents.flatMap((a) => (a.permissionsPath ? [a.permissionsPath] : [])),
  );
  for (const artifact of input.artifacts.values()) {
    if (
      !/json$/.test(artifact.mediaType) ||
      cardPaths.has(artifact.path) ||
      permissionPaths.has(artifact.path)
    )
      continue;
    rules.push({ path: artifact.path, headers: jsonHeaders(artifact.mediaType) });
  }
  if (cardPaths.size > 0) rules.push({ path: CARD_PATH_PATTERN, headers: jsonHeaders('application/json') });
  if (permissionPaths.size > 0)
    rules.push({ path: PERMISSIONS_PATH_PATTERN, headers: jsonHeaders('application/json') });
  // Own entries served from public/ (an MCP server card, …) are fetched by crawlers too.
  for (const { model } of input.otherEntries) {
    const url = model.entry.url;
    if (!model.own || !model.publicFile || !url?.startsWith('/') || input.artifacts.has(url)) continue;
    const headers = jsonHeaders('application/json');
    rules.push({ path: url, headers: url.endsWith('.json') ? headers : headers.slice(1) });
  }
  const pageHeaders: HeaderRule['headers'] = [
    ['Link', ARD_LINK_HEADER],
    ['Content-Security-Policy', PAGE_CSP],
    ['X-Frame-Options', 'DENY'],
  ];
  rules.push({ path: INDEX_PAGE_PATH, headers: pageHeaders });
  if (input.agents.length > 0) {
    rules.push({ path: agentPagePath(':slug'), headers: pageHeaders });
    rules.push({ path: permissionsPagePath(':slug'), headers: pageHeaders });
  }
  rules.push({ path: '/_astro/*', headers: [['Cache-Control', 'public, max-age=31536000, immutable']] });
  return rules;
}

/** The site files of DESIGN.md §2 as artifacts: robots.txt, sitemap.xml, _headers, .nojekyll. */
export function siteFileArtifacts(input: SiteFilesInput): Artifact[] {
  const text = (s: string) => new TextEncoder().encode(s);
  return [
    {
      path: ROBOTS_PATH,
      bytes: text(robotsTxt(input.publisher.siteUrl)),
      mediaType: 'text/plain; charset=utf-8',
    },
    { path: SITEMAP_PATH, bytes: text(sitemapXml(sitemapPages(input))), mediaType: 'application/xml' },
    {
      path: HEADERS_PATH,
      bytes: text(
        serializeHeadersFile(headerRules(input), [
          'Response headers for Netlify and Cloudflare Pages, written by ardsite (DESIGN.md §2).',
          'npm run preview serves dist/ with exactly these headers.',
        ]),
      ),
      mediaType: 'text/plain; charset=utf-8',
    },
    { path: NOJEKYLL_PATH, bytes: new Uint8Array(0), mediaType: 'text/plain' },
  ];
}
