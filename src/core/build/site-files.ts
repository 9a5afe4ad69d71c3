/**
 * The site files beside the pages and the signed JSON (DESIGN.md §2, §9): `/robots.txt` with its
 * `Sitemap:` line (and an `Agentmap:` line when `hosting.agentmap` asks for one), `/llms.txt`
 * (./llms-txt.ts), `/sitemap.xml` of every HTML page, `/_headers` for Netlify and Cloudflare Pages
 * (content types, CORS and a short cache on the JSON files, `Link: rel="ard"` and security headers on
 * the pages), and an empty `/.nojekyll` so that GitHub Pages serves `.well-known/`. Computed as
 * artifacts by `computeSite`, like every other file of the build.
 */
import type { ContentModel } from '../model/content.js';
import type { HeaderRule } from '../hosting/headers-file.js';
import { serializeHeadersFile } from '../hosting/headers-file.js';
import { JSON_CACHE_CONTROL } from '../hosting/http-cache.js';
import { LLMS_TXT_PATH, llmsTxt } from '../pages/llms-txt.js';
import {
  agentPagePath,
  alternateLinks,
  indexPagePath,
  INDEX_PAGE_PATH,
  pageTrees,
  permissionsPagePath,
  type AlternateLink,
} from '../site/page-paths.js';
import type { AgentmapChoice, PublisherConfig } from '../schema/publisher.js';
import type { AgentBuild, ArdEntry, Artifact, OtherEntryBuild } from '../site/site-build.js';
import { AI_CATALOG_PATH, MANIFEST_PATH } from '../ard/well-known.js';

export { LLMS_TXT_PATH };

/** Site path of the robots file (RFC 9309). */
export const ROBOTS_PATH = '/robots.txt';
/** Site path of the sitemap (sitemaps.org protocol 0.9). */
export const SITEMAP_PATH = '/sitemap.xml';
/** Site path of the headers file of Netlify and Cloudflare Pages. */
export const HEADERS_PATH = '/_headers';
/** Site path of the marker that turns Jekyll off on GitHub Pages. */
export const NOJEKYLL_PATH = '/.nojekyll';

/** The `Link` header that advertises the manifest (DESIGN.md §2; ARD initial contact `rel="ard"`). */
export const ARD_LINK_HEADER = '</.well-known/ard.json>; rel="ard"';

/**
 * The Content-Security-Policy of the generated pages: they ship no script and load only their own
 * stylesheet (`<script type="application/ld+json">` is data, which `script-src` does not govern).
 *
 * `connect-src 'self'` is the one widening of `default-src 'none'`, and the least that Lighthouse 13
 * allows: its robots-txt, llms-txt and ard-schema audits fetch `/robots.txt`, `/llms.txt`,
 * `/.well-known/ai-catalog.json` and the page itself from the page's own context (DevTools
 * `Network.loadNetworkResource`), which the page's `connect-src` governs; under `default-src 'none'`
 * each fetch is a "CSP violation" and the audits fail (SEO 91, agentic browsing 67). A CSP source cannot
 * name a path without a host, and the host differs between the deployed site and a preview, so
 * `'self'` (same origin only) is as narrow as it can be. It gives the pages nothing they could use:
 * `connect-src` governs only what scripts fetch (fetch, XHR, WebSocket, EventSource, beacons) and
 * `<a ping>`, and no script may run (`script-src` falls back to `default-src 'none'`).
 */
export const PAGE_CSP =
  "default-src 'none'; connect-src 'self'; style-src 'self'; img-src 'self' https: data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The content type of the text files robots.txt and llms.txt (RFC 9309 §2.3: UTF-8 plain text). */
export const TEXT_CONTENT_TYPE = 'text/plain; charset=utf-8';

/** The agent card path pattern of `_headers` (one rule for every `/agents/<slug>/agent-card.json`). */
export const CARD_PATH_PATTERN = '/agents/:slug/agent-card.json';

/** The permission file path pattern of `_headers` (every `/agents/<slug>/permissions.json`, DESIGN.md §9). */
export const PERMISSIONS_PATH_PATTERN = '/agents/:slug/permissions.json';

/** What the site files are computed from: the publisher, the built agents and entries, the artifacts so far. */
export interface SiteFilesInput {
  publisher: PublisherConfig;
  agents: readonly AgentBuild[];
  otherEntries: readonly OtherEntryBuild[];
  /**
   * The JSON artifacts already computed (manifest, cards, did.json, jwks.json, …), by URL path: their
   * media type is what `_headers` needs, not their bytes (those of cards and permission files may be
   * written already, src/core/site/site-options.ts `ComputeSiteOptions.sink`).
   */
  artifacts: ReadonlyMap<string, Pick<Artifact, 'path' | 'mediaType'>>;
  /** The content model (llms.txt reads the RAM catalog's authoring data through the pages' views). */
  model: ContentModel;
  /** `did:web:<domain>`. */
  did: string;
  /** The registry entry, in registry mode. */
  registryEntry?: ArdEntry;
}

function absolute(siteUrl: string, sitePath: string): string {
  return new URL(sitePath.replace(/^\//, ''), siteUrl).toString();
}

function xmlEscape(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The path an `Agentmap:` line names for each `hosting.agentmap` choice (none for `none`). */
const AGENTMAP_TARGET: Readonly<Record<AgentmapChoice, string | undefined>> = {
  none: undefined,
  ard: MANIFEST_PATH,
  'ai-catalog': AI_CATALOG_PATH,
};

/**
 * `/robots.txt` (RFC 9309): allows every crawler and names the sitemap. `Agentmap:` (ARD v0.9; not in
 * the ARD draft, draft-bu-dawn-ard-discovery-00) is written only when `agentmap` asks for it (`hosting.agentmap`, default
 * `none`): Lighthouse's robots-txt audit reports it as an unknown directive.
 */
export function robotsTxt(siteUrl: string, agentmap: AgentmapChoice = 'none'): string {
  const target = AGENTMAP_TARGET[agentmap];
  return [
    'User-agent: *',
    'Allow: /',
    '',
    ...(target ? [`Agentmap: ${absolute(siteUrl, target)}`] : []),
    `Sitemap: ${absolute(siteUrl, SITEMAP_PATH)}`,
    '',
  ].join('\n');
}

/** One page of the sitemap: absolute URL, optional last modification (W3C datetime) and its language versions. */
export interface SitemapPage {
  loc: string;
  lastmod?: string;
  /** Every language version of the page, itself and `x-default` included, on a site in several languages. */
  alternates?: AlternateLink[];
}

/** The XML namespace of the sitemap's `xhtml:link` alternates (Google's hreflang in sitemaps). */
const XHTML_NAMESPACE = 'http://www.w3.org/1999/xhtml';

/**
 * `/sitemap.xml` (sitemaps.org 0.9) listing `pages` in order. A page with language versions lists each,
 * itself included, as `<xhtml:link rel="alternate" hreflang="…" href="…"/>` (Google Search Central,
 * "Localized versions of your page": the sitemap method), under the `xhtml` namespace declared only then.
 */
export function sitemapXml(pages: readonly SitemapPage[]): string {
  const urls = pages.map((p) => {
    const links = (p.alternates ?? []).map(
      (a) =>
        `    <xhtml:link rel="alternate" hreflang="${xmlEscape(a.hreflang)}" href="${xmlEscape(a.href)}"/>\n`,
    );
    return `  <url>\n    <loc>${xmlEscape(p.loc)}</loc>\n${p.lastmod ? `    <lastmod>${xmlEscape(p.lastmod)}</lastmod>\n` : ''}${links.join('')}  </url>`;
  });
  const xhtml = pages.some((p) => p.alternates?.length) ? ` xmlns:xhtml="${XHTML_NAMESPACE}"` : '';
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"${xhtml}>\n${urls.join('\n')}\n</urlset>\n`;
}

/**
 * The sitemap pages of a site, one sitemap for every language (DESIGN.md §9 "Languages"): for each
 * language, the default first, its index, then each agent's page and permission page; an agent's pages
 * dated by its `updatedAt`, an index by the latest of them. On a site in several languages each page
 * carries its language versions.
 */
export function sitemapPages(input: Pick<SiteFilesInput, 'publisher' | 'agents'>): SitemapPage[] {
  const { publisher } = input;
  const dates = input.agents
    .map((a) => a.entry.updatedAt)
    .filter((d): d is string => typeof d === 'string')
    .sort();
  const page = (path: string, prefix: string, lastmod: unknown): SitemapPage => {
    const out: SitemapPage = { loc: absolute(publisher.siteUrl, `${prefix}${path}`) };
    if (typeof lastmod === 'string') out.lastmod = lastmod;
    const alternates = alternateLinks(path, publisher, publisher.siteUrl);
    if (alternates.length > 0) out.alternates = alternates;
    return out;
  };
  return pageTrees(publisher).flatMap(({ prefix }) => [
    page(INDEX_PAGE_PATH, prefix, dates[dates.length - 1]),
    ...input.agents.flatMap(({ agent, entry }) => [
      page(agentPagePath(agent.slug), prefix, entry.updatedAt),
      page(permissionsPagePath(agent.slug), prefix, entry.updatedAt),
    ]),
  ]);
}

const jsonHeaders = (mediaType: string): HeaderRule['headers'] => [
  ['Content-Type', mediaType],
  ['Access-Control-Allow-Origin', '*'],
  ['Cache-Control', JSON_CACHE_CONTROL],
];

/**
 * The attestations of the site's own entries (agents' and own other entries', ARD draft §3.5) that the
 * site serves itself: a `file` under `public/` whose `uri` is the same file on the site's origin. Each as
 * its site path and the media type the author declared (undefined when none).
 */
export function servedAttestations(
  input: Pick<SiteFilesInput, 'publisher' | 'agents' | 'otherEntries'>,
): Array<{ path: string; mediaType: string | undefined }> {
  const site = new URL(input.publisher.siteUrl);
  const listed = [
    ...input.agents.flatMap((a) => a.agent.front.attestations ?? []),
    ...input.otherEntries.flatMap((o) => (o.model.own ? (o.model.entry.attestations ?? []) : [])),
  ];
  const out = new Map<string, string | undefined>();
  for (const { file, uri, mediaType } of listed) {
    const served = file?.replace(/^\.\//, '');
    if (!served?.startsWith('public/')) continue;
    let url: URL;
    let urlPath: string;
    try {
      url = new URL(uri);
      urlPath = decodeURIComponent(url.pathname);
    } catch {
      continue;
    }
    const sitePath = `/${served.slice('public/'.length)}`;
    if (url.origin !== site.origin || urlPath !== sitePath) continue;
    if (!out.has(sitePath)) out.set(sitePath, mediaType);
  }
  return [...out].map(([p, mediaType]) => ({ path: p, mediaType }));
}

/**
 * The rules of `/_headers`: security headers on every path; the content type (DESIGN.md §2), CORS and
 * a short cache on each JSON file and on each attestation the site serves ({@link servedAttestations},
 * typed as declared); `Link: rel="ard"` and the page CSP on the HTML pages; a long cache on
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
  // Attestation documents served from public/ (ARD draft §6.4): a verifier on another origin fetches one
  // to check the digest the signed trustManifest pins, and reads it as its declared media type.
  for (const { path: p, mediaType } of servedAttestations(input)) {
    if (input.artifacts.has(p) || rules.some((r) => r.path === p)) continue;
    const headers = jsonHeaders(mediaType ?? '');
    rules.push({ path: p, headers: mediaType ? headers : headers.slice(1) });
  }
  const pageHeaders: HeaderRule['headers'] = [
    ['Link', ARD_LINK_HEADER],
    ['Content-Security-Policy', PAGE_CSP],
    ['X-Frame-Options', 'DENY'],
  ];
  // The pages of each language (DESIGN.md §9 "Languages"): `/`, `/pt-br/`, …
  for (const { prefix } of pageTrees(input.publisher)) {
    rules.push({ path: indexPagePath(prefix), headers: pageHeaders });
    if (input.agents.length > 0) {
      rules.push({ path: agentPagePath(':slug', prefix), headers: pageHeaders });
      rules.push({ path: permissionsPagePath(':slug', prefix), headers: pageHeaders });
    }
  }
  // Text files: typed UTF-8 explicitly, as agent names and descriptions need not be ASCII.
  for (const p of [ROBOTS_PATH, LLMS_TXT_PATH])
    rules.push({ path: p, headers: [['Content-Type', TEXT_CONTENT_TYPE]] });
  rules.push({ path: '/_astro/*', headers: [['Cache-Control', 'public, max-age=31536000, immutable']] });
  return rules;
}

/** The site files of DESIGN.md §2 and §9 as artifacts: robots.txt, llms.txt, sitemap.xml, _headers, .nojekyll. */
export function siteFileArtifacts(input: SiteFilesInput): Artifact[] {
  const text = (s: string) => new TextEncoder().encode(s);
  return [
    {
      path: ROBOTS_PATH,
      bytes: text(robotsTxt(input.publisher.siteUrl, input.publisher.hosting.agentmap)),
      mediaType: TEXT_CONTENT_TYPE,
    },
    {
      path: LLMS_TXT_PATH,
      bytes: text(
        llmsTxt({
          model: input.model,
          agents: [...input.agents],
          otherEntries: [...input.otherEntries],
          did: input.did,
          ...(input.registryEntry ? { registryEntry: input.registryEntry } : {}),
          sitemapPath: SITEMAP_PATH,
        }),
      ),
      mediaType: TEXT_CONTENT_TYPE,
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
