/**
 * `_headers` (src/core/hosting/headers-file.ts) and the site files of DESIGN.md §2 (src/core/build/site-files.ts):
 * the syntax both ways, path matching as Netlify and Cloudflare Pages do it, and the rules the build
 * writes: content types, CORS and cache on the JSON files, `Link: rel="ard"` on the pages.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { prepareBuild } from '../../../src/core/build/prepare.js';
import { ArdsiteError } from '../../../src/core/util/errors.js';
import {
  headersForPath,
  matchesHeaderPath,
  parseHeadersFile,
  serializeHeadersFile,
  type HeaderRule,
} from '../../../src/core/hosting/headers-file.js';
import { htmlPagePaths } from '../../../src/core/site/page-paths.js';
import type { SiteBuild } from '../../../src/core/site/site-build.js';
import { EXAMPLE_LIKE } from '../../helpers/site.js';

describe('the _headers syntax', () => {
  const text = [
    '# a comment',
    '/*',
    '  X-Content-Type-Options: nosniff',
    '',
    '/.well-known/ard.json',
    '  Content-Type: application/ard+json',
    '  Access-Control-Allow-Origin: *',
    '/agents/:slug/agent-card.json',
    '  Content-Type: application/json',
    '/static/*',
    '  Cache-Control: max-age=60',
    '/static/*.css',
    '  Cache-Control: immutable',
    '',
  ].join('\n');

  it('parses rules, and serialises them back to the same rules', () => {
    const rules = parseHeadersFile(text);
    expect(rules.map((r) => r.path)).toEqual([
      '/*',
      '/.well-known/ard.json',
      '/agents/:slug/agent-card.json',
      '/static/*',
      '/static/*.css',
    ]);
    expect(rules[1]!.headers).toEqual([
      ['Content-Type', 'application/ard+json'],
      ['Access-Control-Allow-Origin', '*'],
    ]);
    expect(parseHeadersFile(serializeHeadersFile(rules, ['round trip']))).toEqual(rules);
  });

  it('matches splats across segments and placeholders within one segment', () => {
    expect(matchesHeaderPath('/*', '/')).toBe(true);
    expect(matchesHeaderPath('/*', '/a/b/c.json')).toBe(true);
    expect(matchesHeaderPath('/agents/:slug/agent-card.json', '/agents/x/agent-card.json')).toBe(true);
    expect(matchesHeaderPath('/agents/:slug/agent-card.json', '/agents/x/y/agent-card.json')).toBe(false);
    expect(matchesHeaderPath('/agents/:slug/', '/agents/x/')).toBe(true);
    expect(matchesHeaderPath('/agents/:slug/', '/agents/x/permissions/')).toBe(false);
    expect(matchesHeaderPath('/.well-known/ard.json', '/.well-known/ardXjson')).toBe(false);
    expect(matchesHeaderPath('/', '/index.html')).toBe(false);
    expect(matchesHeaderPath('https://example.com/a', '/a')).toBe(true);
  });

  it('gives a request every matching rule, joining a repeated header with ", "', () => {
    const rules = parseHeadersFile(text);
    expect(headersForPath(rules, '/.well-known/ard.json')).toEqual([
      ['X-Content-Type-Options', 'nosniff'],
      ['Content-Type', 'application/ard+json'],
      ['Access-Control-Allow-Origin', '*'],
    ]);
    expect(headersForPath(rules, '/static/a.css')).toContainEqual(['Cache-Control', 'max-age=60, immutable']);
  });

  it.each([
    ['a header before any path', '  X-A: b\n'],
    ['an indented line without a colon', '/a\n  no colon here\n'],
    ['an unindented line that is not a path', '/a\n  X-A: b\nnot a path\n'],
    ['an invalid header name', '/a\n  X A: b\n'],
  ])('refuses %s with HEADERS_FILE_INVALID and the line', (_name, bad) => {
    try {
      parseHeadersFile(bad);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ArdsiteError);
      expect((error as ArdsiteError).code).toBe('HEADERS_FILE_INVALID');
      expect((error as ArdsiteError).message).toMatch(/line \d+/);
    }
  });

  it('refuses to write a value that would inject a header', () => {
    const rules: HeaderRule[] = [{ path: '/a', headers: [['X-A', 'b\r\nSet-Cookie: x=1']] }];
    expect(() => serializeHeadersFile(rules)).toThrow(/spans lines/);
  });
});

describe('the site files of a build', () => {
  let site: SiteBuild;
  const file = (p: string) => new TextDecoder().decode(site.artifacts.get(p)!.bytes);

  beforeAll(async () => {
    site = (await prepareBuild({ root: EXAMPLE_LIKE, env: { ARDSITE_DEV_KEY: '1', CI: '1' } })).site;
  });

  it('robots.txt names the sitemap, and no Agentmap by default (DESIGN.md §9)', () => {
    expect(file('/robots.txt')).not.toMatch(/agentmap/i);
    expect(file('/robots.txt')).toContain('Sitemap: https://agents.example.com/sitemap.xml\n');
  });

  it('sitemap.xml lists every HTML page, and only those', () => {
    const locs = [...file('/sitemap.xml').matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    const pages = htmlPagePaths(site.agents.map((a) => a.agent.slug)).map(
      (p) => `https://agents.example.com${p}`,
    );
    expect(locs).toEqual(pages);
    expect(pages).toHaveLength(1 + 2 * site.agents.length);
  });

  it('.nojekyll is there and empty', () => {
    expect(site.artifacts.get('/.nojekyll')?.bytes.byteLength).toBe(0);
  });

  it('_headers gives each JSON file its media type of DESIGN.md §2, CORS and a short cache', () => {
    const rules = parseHeadersFile(file('/_headers'));
    const expected: Record<string, string> = {
      '/.well-known/ard.json': 'application/ard+json',
      '/.well-known/did.json': 'application/did+json',
      '/.well-known/jwks.json': 'application/jwk-set+json',
      '/.well-known/ai-catalog.json': 'application/ai-catalog+json',
      '/.well-known/agent-card.json': 'application/json',
      '/.well-known/agent.json': 'application/json',
      '/mcp/trip-tools.json': 'application/json',
      // The attestation the signed trustManifest pins, as its declared type (ARD draft §6.4).
      '/attestations/travel-reservation-review.json': 'application/vnd.in-toto+json',
      ...Object.fromEntries(site.agents.map((a) => [a.cardPath, 'application/json'])),
      // The permission files beside the cards (DESIGN.md §9), of the agents with stored specs.
      ...Object.fromEntries(
        site.agents.flatMap((a) => (a.permissionsPath ? [[a.permissionsPath, 'application/json']] : [])),
      ),
    };
    for (const [p, type] of Object.entries(expected)) {
      const headers = Object.fromEntries(headersForPath(rules, p));
      expect(headers, p).toMatchObject({
        'Content-Type': type,
        'Access-Control-Allow-Origin': '*',
        'Cache-Control': 'public, max-age=300',
        'X-Content-Type-Options': 'nosniff',
      });
    }
    // Every JSON artifact of the build is covered.
    for (const a of site.artifacts.values())
      if (a.mediaType.endsWith('json')) expect(expected).toHaveProperty([a.path]);
  });

  it('_headers sends Link rel="ard" and the page policy on every HTML page, and no header twice', () => {
    const rules = parseHeadersFile(file('/_headers'));
    for (const p of htmlPagePaths(site.agents.map((a) => a.agent.slug))) {
      const headers = headersForPath(rules, p);
      expect(Object.fromEntries(headers), p).toMatchObject({
        Link: '</.well-known/ard.json>; rel="ard"',
        'X-Content-Type-Options': 'nosniff',
      });
      expect(Object.fromEntries(headers)['Content-Security-Policy']).toContain("default-src 'none'");
      expect(Object.fromEntries(headers)['Content-Type']).toBeUndefined();
    }
    // Hosts that merge and hosts that override agree only if no path gets one header from two rules.
    for (const p of [
      ...site.artifacts.keys(),
      ...htmlPagePaths(site.agents.map((a) => a.agent.slug)),
      '/_astro/x.css',
    ]) {
      const names = rules
        .filter((r) => matchesHeaderPath(r.path, p))
        .flatMap((r) => r.headers.map(([n]) => n.toLowerCase()));
      expect(new Set(names).size, p).toBe(names.length);
    }
  });
});
