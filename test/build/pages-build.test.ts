/**
 * The built pages, read back as a browser parses them (parse5): builds the example and the
 * `pages-edge` fixture (whose texts try to break out of the page: `</script><script>alert(1)</script>`
 * in a description, HTML in names, justifications and skill examples) with the real build command, then
 * checks every HTML page: `lang`, `rel="ard"`, the JSON-LD block is the exact signed entry plus
 * `@context` (DESIGN.md §6), no script element but that one, hostile content shown as text, and no proto
 * enum name in the visible text.
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARD_BASE_CONTEXT } from '../../src/core/pages/json-ld.js';
import { removeProjects } from '../helpers/build.js';
import { attr, elements, parseHtml, textContent, visibleText, type HtmlDocument } from '../helpers/html.js';
import { sharedBuild } from '../helpers/shared-build.js';
import { EXAMPLE_LIKE, fixture } from '../helpers/site.js';

/** Proto enum names that must never reach a page (DESIGN.md §6: meanings only). */
const ENUM_NAMES =
  /\b(END_USER|THIRD_PARTY|CONSUMER|AGENT|REST|REQUIRED|RECOMMENDED|OPTIONAL|JSONRPC|GRPC|HTTP\+JSON|[A-Z]+_UNSPECIFIED)\b/;

interface BuiltSite {
  name: string;
  out: string;
  language: string;
  /** HTML page path (`/`, `/agents/x/`, …, `/404.html`) → parsed document. */
  pages: Map<string, HtmlDocument>;
  entries: Array<Record<string, unknown>>;
  cards: Map<string, Record<string, unknown>>;
}

const sites: BuiltSite[] = [];

async function htmlFiles(dir: string, rel = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(path.join(dir, rel), { withFileTypes: true })) {
    const r = `${rel}/${e.name}`;
    if (e.isDirectory()) out.push(...(await htmlFiles(dir, r)));
    else if (e.name.endsWith('.html')) out.push(r);
  }
  return out;
}

/**
 * A copy of the build of the project at `src`, built in place (the build the browser tests of these
 * pages check too, shared for the run: test/helpers/shared-build.ts). The project stays inside this
 * repository (the example, or a fixture folder), so Astro's output stays inside its working folder: a
 * project outside it makes Astro 5 bundle in the app's shared `.astro/` folder, where parallel builds
 * collide.
 */
async function buildSite(name: string, src: string, language: string): Promise<BuiltSite> {
  const result = { outDir: await sharedBuild(src, { env: { ARDSITE_DEV_KEY: '1', CI: '1' } }) };
  const pages = new Map<string, HtmlDocument>();
  for (const file of await htmlFiles(result.outDir)) {
    const page = file.endsWith('/index.html') ? file.slice(0, -'index.html'.length) : file;
    pages.set(page, parseHtml(await readFile(path.join(result.outDir, file), 'utf8')));
  }
  const manifest = JSON.parse(
    await readFile(path.join(result.outDir, '.well-known', 'ard.json'), 'utf8'),
  ) as {
    entries: Array<Record<string, unknown>>;
  };
  const cards = new Map<string, Record<string, unknown>>();
  for (const page of pages.keys()) {
    const slug = /^\/agents\/([^/]+)\/$/.exec(page)?.[1];
    if (slug)
      cards.set(
        slug,
        JSON.parse(await readFile(path.join(result.outDir, 'agents', slug, 'agent-card.json'), 'utf8')),
      );
  }
  return { name, out: result.outDir, language, pages, entries: manifest.entries, cards };
}

beforeAll(async () => {
  sites.push(
    ...(await Promise.all([
      buildSite('example', EXAMPLE_LIKE, 'en'),
      buildSite('pages-edge', fixture('pages-edge'), 'en-GB'),
    ])),
  );
});

afterAll(removeProjects);

/** Every string value inside `value`, deep. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

/** `text` without the author's own strings (which may say "REST", as the seed's resource does). */
function withoutAuthorText(text: string, site: BuiltSite): string {
  const authored = [...strings(site.entries), ...strings([...site.cards.values()])]
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter((s) => s.length > 0 && !/^[A-Z_+]+$/.test(s))
    .sort((a, b) => b.length - a.length);
  let out = text;
  for (const s of authored) out = out.split(s).join(' ');
  return out;
}

describe.each(['example', 'pages-edge'])('the built pages of %s', (name) => {
  const site = () => sites.find((s) => s.name === name)!;

  it('has the index, an agent page and a permission page per agent, and the 404 page', () => {
    const slugs = [...site().cards.keys()];
    expect(slugs.length).toBeGreaterThan(1);
    expect([...site().pages.keys()].sort()).toEqual(
      ['/', '/404.html', ...slugs.flatMap((s) => [`/agents/${s}/`, `/agents/${s}/permissions/`])].sort(),
    );
  });

  it('gives every page its lang and the rel="ard" link, and ships no script', () => {
    for (const [page, doc] of site().pages) {
      expect(attr(elements(doc, 'html')[0]!, 'lang'), page).toBe(site().language);
      const ard = elements(doc, 'link').filter((l) => attr(l, 'rel') === 'ard');
      expect(
        ard.map((l) => [attr(l, 'href'), attr(l, 'type')]),
        page,
      ).toEqual([['/.well-known/ard.json', 'application/ard+json']]);
      for (const script of elements(doc, 'script'))
        expect(attr(script, 'type'), page).toBe('application/ld+json');
      for (const el of elements(doc, 'a'))
        expect(attr(el, 'href') ?? '', page).not.toMatch(/^\s*javascript:/i);
    }
  });

  it('embeds the exact signed entry of ard.json plus @context in each agent page, and links the card', () => {
    for (const slug of site().cards.keys()) {
      const entry = site().entries.find((e) => String(e.url).endsWith(`/agents/${slug}/agent-card.json`))!;
      expect(entry, slug).toBeDefined();
      for (const page of [`/agents/${slug}/`, `/agents/${slug}/permissions/`]) {
        const doc = site().pages.get(page)!;
        const scripts = elements(doc, 'script');
        expect(scripts, page).toHaveLength(1);
        const ld = JSON.parse(textContent(scripts[0]!)) as Record<string, unknown>;
        const { '@context': context, ...rest } = ld;
        const { '@context': own, ...signed } = entry;
        expect(rest, page).toEqual(signed);
        expect(context, page).toEqual(own === undefined ? ARD_BASE_CONTEXT : [ARD_BASE_CONTEXT, own]);
        const alternate = elements(doc, 'link').filter((l) => attr(l, 'rel') === 'alternate');
        expect(
          alternate.map((l) => [attr(l, 'type'), attr(l, 'href')]),
          page,
        ).toEqual([['application/a2a-agent-card+json', `/agents/${slug}/agent-card.json`]]);
      }
    }
  });

  it('shows no proto enum name in the visible text of any page', () => {
    for (const [page, doc] of site().pages) {
      expect(withoutAuthorText(visibleText(doc), site()), page).not.toMatch(ENUM_NAMES);
    }
  });
});

describe('hostile content in the pages-edge fixture', () => {
  const edge = () => sites.find((s) => s.name === 'pages-edge')!;
  const HOSTILE_DESCRIPTION =
    'Tidies your notes </script><script>alert(1)</script> & drive <!-- comment --> files.';

  it('is shown as text where the author wrote it', () => {
    const agentPage = visibleText(edge().pages.get('/agents/risky-helper/')!);
    expect(agentPage).toContain(HOSTILE_DESCRIPTION);
    expect(agentPage).toContain('Risky <b>Helper</b>');
    expect(agentPage).toContain('“Delete my notes about </script><script>alert(2)</script>”');
    expect(agentPage).toContain('“<img src=x onerror=alert(3)> save this as a file”');
    expect(agentPage).toContain('<script>alert("body")</script>');
    const permissions = visibleText(edge().pages.get('/agents/risky-helper/permissions/')!);
    expect(permissions).toContain(
      'To delete notes you no longer need </script><img src=x onerror=alert(4)>.',
    );
    expect(permissions).toContain('Deletes a note <script>alert("op")</script>');
    expect(permissions).toContain('Your notes </script><script>alert("resource")</script>');
    expect(visibleText(edge().pages.get('/')!)).toContain('Stranger <script>alert(6)</script> Agent');
  });

  it('adds no element and no event handler to any page', () => {
    for (const [page, doc] of edge().pages) {
      for (const tag of ['img', 'b', 'i', 'em', 'iframe', 'object', 'embed'])
        expect(elements(doc, tag), `${page} <${tag}>`).toEqual([]);
      const all = [
        'html',
        'head',
        'body',
        'a',
        'p',
        'li',
        'h1',
        'h2',
        'h3',
        'div',
        'span',
        'code',
        'section',
        'strong',
        'meta',
        'link',
      ].flatMap((t) => elements(doc, t));
      for (const el of all)
        expect(
          el.attrs.filter((a) => a.name.startsWith('on')),
          page,
        ).toEqual([]);
    }
  });

  it('cannot close the JSON-LD block: the script text parses back to the entry with the hostile description', () => {
    const doc = edge().pages.get('/agents/risky-helper/')!;
    const ld = JSON.parse(textContent(elements(doc, 'script')[0]!)) as Record<string, unknown>;
    expect(ld.description).toBe(HOSTILE_DESCRIPTION);
  });
});
