/**
 * Vercel's Build Output (src/core/hosting/vercel-output.ts) gives every URL path the headers the build's `_headers`
 * gives it: for each kind of path (every path, an exact JSON file, a placeholder pattern, the pages of
 * another language, a splat folder, an absolute pattern), the headers of the matching `config.json`
 * routes, applied as Vercel applies routes with `continue: true`, equal `headersForPath` over the rules.
 */
import { mkdtemp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  headersForPath,
  parseHeadersFile,
  serializeHeadersFile,
  type HeaderRule,
} from '../../../src/core/hosting/headers-file.js';
import {
  vercelOutputConfig,
  writeVercelOutput,
  type VercelOutputConfig,
} from '../../../src/core/hosting/vercel-output.js';

/** Rules of each kind the build writes (src/core/build/site-files.ts `headerRules`). */
const RULES: HeaderRule[] = [
  {
    path: '/*',
    headers: [
      ['X-Content-Type-Options', 'nosniff'],
      ['Referrer-Policy', 'strict-origin-when-cross-origin'],
    ],
  },
  {
    path: '/.well-known/ard.json',
    headers: [
      ['Content-Type', 'application/ard+json'],
      ['Access-Control-Allow-Origin', '*'],
    ],
  },
  {
    path: '/agents/:slug/agent-card.json',
    headers: [
      ['Content-Type', 'application/json'],
      ['Cache-Control', 'public, max-age=300'],
    ],
  },
  {
    path: '/',
    headers: [
      ['Link', '</.well-known/ard.json>; rel="ard"'],
      ['X-Frame-Options', 'DENY'],
    ],
  },
  { path: '/agents/:slug/', headers: [['Link', '</.well-known/ard.json>; rel="ard"']] },
  { path: '/pt-br/agents/:slug/', headers: [['Link', '</.well-known/ard.json>; rel="ard"']] },
  { path: '/mcp/trip-tools.json', headers: [['Content-Type', 'application/json']] },
  { path: '/_astro/*', headers: [['Cache-Control', 'public, max-age=31536000, immutable']] },
  { path: 'https://agents.example.com/robots.txt', headers: [['Content-Type', 'text/plain; charset=utf-8']] },
];

/** Paths of every kind, and some that only the catch-all rule matches. */
const PATHS = [
  '/',
  '/.well-known/ard.json',
  '/.well-known/ardXjson',
  '/agents/trip-planner/agent-card.json',
  '/agents/a/b/agent-card.json',
  '/agents/trip-planner/',
  '/agents/trip-planner',
  '/pt-br/agents/trip-planner/',
  '/pt-br/',
  '/mcp/trip-tools.json',
  '/_astro/page.1a2b.css',
  '/_astro/deep/x.js',
  '/robots.txt',
  '/llms.txt',
];

/** The headers Vercel sends for `urlPath` under `config`: every header route that matches, in order. */
function vercelHeaders(config: VercelOutputConfig, urlPath: string): Array<[string, string]> {
  const headers = new Map<string, [string, string]>();
  for (const route of config.routes) {
    if ('handle' in route) break;
    if (!new RegExp(route.src).test(urlPath)) continue;
    for (const [name, value] of Object.entries(route.headers)) {
      const seen = headers.get(name.toLowerCase());
      headers.set(name.toLowerCase(), seen ? [seen[0], `${seen[1]}, ${value}`] : [name, value]);
    }
  }
  return [...headers.values()];
}

describe("Vercel's Build Output from the _headers rules", () => {
  const config = vercelOutputConfig(RULES);

  it.each(PATHS)('%s gets the headers _headers gives it', (urlPath) => {
    expect(vercelHeaders(config, urlPath)).toEqual(headersForPath(RULES, urlPath));
  });

  it('is version 3, one route per rule in order, then the filesystem', () => {
    expect(config.version).toBe(3);
    expect(config.routes).toHaveLength(RULES.length + 1);
    expect(config.routes.at(-1)).toEqual({ handle: 'filesystem' });
    expect(config.routes[2]).toEqual({
      src: '^/agents/[^/]+/agent-card\\.json$',
      headers: { 'Content-Type': 'application/json', 'Cache-Control': 'public, max-age=300' },
      continue: true,
    });
  });

  it('writeVercelOutput copies the site into static/ (without _headers) and writes config.json from its _headers', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'ardsite-vercel-'));
    const dist = path.join(root, 'dist');
    await mkdir(path.join(dist, '.well-known'), { recursive: true });
    await writeFile(path.join(dist, '_headers'), serializeHeadersFile(RULES, ['a comment']));
    await writeFile(path.join(dist, '.well-known', 'ard.json'), '{}\n');
    await writeFile(path.join(dist, 'index.html'), '<p>hi</p>\n');
    const output = await writeVercelOutput(root, dist);
    expect(output).toBe(path.join(root, '.vercel', 'output'));
    const written = JSON.parse(
      await readFile(path.join(output, 'config.json'), 'utf8'),
    ) as VercelOutputConfig;
    expect(written).toEqual(vercelOutputConfig(parseHeadersFile(serializeHeadersFile(RULES))));
    expect(await readFile(path.join(output, 'static', '.well-known', 'ard.json'), 'utf8')).toBe('{}\n');
    expect(await readFile(path.join(output, 'static', 'index.html'), 'utf8')).toBe('<p>hi</p>\n');
    await expect(readFile(path.join(output, 'static', '_headers'))).rejects.toThrow(/ENOENT/);
  });
});
