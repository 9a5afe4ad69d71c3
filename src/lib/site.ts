/**
 * How pages get the computed site: the one the build script provided (same process), or, under
 * `npm run dev`, one computed here from the project's `content/` (`--root`) with the same core functions.
 *
 * The dev cache lives on `globalThis`, like the build's slot (src/core/site/build-context.ts): Vite loads
 * the pages and the config's plugin (src/lib/dev-content-plugin.ts) as separate module instances, and
 * both must see one cache, so that the plugin's invalidation reaches the pages.
 */
import { providedAgentSource, providedSiteBuild } from '../core/site/build-context.js';
import { agentPageView, type AgentPageView } from '../core/pages/agent-page.js';
import { entryJsonLdScript } from '../core/pages/json-ld.js';
import { pageTreeOf, pageTrees, type PageTree } from '../core/site/page-paths.js';
import type { AgentBuild, SiteBuild, SiteOutline } from '../core/site/site-build.js';
import { devOverlayError } from './dev-error.js';
import { devAppRoot, devProjectRoot } from './project-root.js';

const DEV_SLOT = Symbol.for('ardsite.devSiteBuild');
type DevSlot = { [DEV_SLOT]?: Promise<SiteBuild> };

/** The site the pages render. In dev, computed once per content change. */
export async function getSiteBuild(): Promise<SiteBuild> {
  const provided = providedSiteBuild();
  if (provided) return provided;
  const slot = globalThis as DevSlot;
  // The overlay and the terminal show the message, which names every file, field and line at fault, and
  // the first of those files (./dev-error.ts). Loaded only here: a build provides its site, and its pages
  // need none of the loading and signing code.
  const root = devProjectRoot();
  slot[DEV_SLOT] ??= import('../core/build/prepare.js')
    .then(({ prepareBuild }) => prepareBuild({ root }))
    .then(
      (p) => p.site,
      (error: unknown) => {
        throw devOverlayError(error, root, devAppRoot());
      },
    );
  const pending = slot[DEV_SLOT];
  // A failed load is not cached: the next request (after the author's fix) tries again.
  pending.catch(() => {
    if (slot[DEV_SLOT] === pending) slot[DEV_SLOT] = undefined;
  });
  return pending;
}

/**
 * What every page needs of the site (model, DID, key id, build time): from a running build, as soon as
 * it started computing (src/core/site/build-context.ts `AgentSource`); else the whole site.
 */
export async function getSiteOutline(): Promise<SiteOutline> {
  return providedAgentSource()?.outline ?? getSiteBuild();
}

/**
 * The build of the agent whose slug is `slug`: from a running build, as soon as that agent's card is
 * signed (the pages of the first agents render while later ones are signed); else from the
 * whole site ({@link agentBySlug}).
 * @throws Error (rejects) as {@link agentBySlug}, or with the build's own error when computing failed.
 */
export async function getAgentBuild(slug: string | undefined): Promise<AgentBuild> {
  const source = providedAgentSource();
  if (source && slug !== undefined) return source.agent(slug);
  return agentBySlug(await getSiteBuild(), slug);
}

/** Drops the dev server's cached site, so the next request loads `content/` again. */
export function invalidateDevSite(): void {
  (globalThis as DevSlot)[DEV_SLOT] = undefined;
}

const bySlug = new WeakMap<SiteBuild, Map<string, AgentBuild>>();

/**
 * The agent of `site` whose slug is `slug`, through a map made once per site: a page per agent must
 * not scan the list of agents (10,000 agents would make that 10⁸ comparisons).
 * @throws Error when no agent has that slug (a route that getStaticPaths did not produce).
 */
export function agentBySlug(site: SiteBuild, slug: string | undefined): AgentBuild {
  let map = bySlug.get(site);
  if (!map) {
    map = new Map(site.agents.map((a) => [a.agent.slug, a]));
    bySlug.set(site, map);
  }
  const build = slug === undefined ? undefined : map.get(slug);
  if (!build) throw new Error(`no agent with the slug "${String(slug)}"`);
  return build;
}

/** What both pages of an agent show about it, computed once per agent and build. */
export interface AgentPageParts {
  build: AgentBuild;
  view: AgentPageView;
  /** The text of its entry's `<script type="application/ld+json">`. */
  jsonLd: string;
}

/** The pages that show an agent's {@link AgentPageParts} in one language: its page and its permission page. */
const PAGES_PER_AGENT = 2;

const parts = new WeakMap<AgentBuild, Map<string, { parts: AgentPageParts; uses: number }>>();

/**
 * The agent `build` of `site` with its page view in the language of `tree` (default: the agent's own, at
 * `/agents/<slug>/`) and its JSON-LD, which the agent page and the permission page both show: computed for
 * the first of the two pages of a language, kept for the second and let go after it (held for every agent,
 * the views of a large site would stay in memory until the last page is written). A third ask (the dev
 * server, a page shown again) computes them again.
 */
export function agentPageParts(site: SiteOutline, build: AgentBuild, tree?: PageTree): AgentPageParts {
  let byTree = parts.get(build);
  if (!byTree) parts.set(build, (byTree = new Map()));
  const key = tree?.prefix ?? '';
  const kept = byTree.get(key);
  if (kept) {
    if (++kept.uses >= PAGES_PER_AGENT) byTree.delete(key);
    return kept.parts;
  }
  const made = { build, view: agentPageView(build, site, tree), jsonLd: entryJsonLdScript(build.entry) };
  byTree.set(key, { parts: made, uses: 1 });
  return made;
}

/**
 * The `lang` route parameter of the pages of `tree` (`src/pages/[...lang]/`): undefined for pages at `/`
 * (the default language without `hosting.pagesPrefix`), else its prefix without the slash (`pt-br`, `ai`).
 */
export function langParam(tree: PageTree): string | undefined {
  return tree.prefix === '' ? undefined : tree.prefix.slice(1);
}

/**
 * The page tree of `site` that the route parameter `lang` names (src/core/site/page-paths.ts `pageTreeOf`), or
 * undefined for the default language's pages at `/`: their views then take each page's own language (on a
 * site in one language, an agent's `language` still changes its words).
 * @throws Error as `pageTreeOf` for a parameter that names no language of the site.
 */
export function pageTreeOfSite(site: SiteOutline, lang: string | undefined): PageTree | undefined {
  if (lang === undefined) return undefined;
  const tree = pageTreeOf(site.model.publisher, lang);
  // The default language's pages under `hosting.pagesPrefix` are still the default's: as at `/`.
  return tree.isDefault ? undefined : tree;
}

/** `getStaticPaths` of the index route (`/[...lang]/`): one index per language of the site. */
export async function indexStaticPaths(): Promise<Array<{ params: { lang: string | undefined } }>> {
  const site = await getSiteBuild();
  return pageTrees(site.model.publisher).map((tree) => ({ params: { lang: langParam(tree) } }));
}

/**
 * `getStaticPaths` of the per-agent routes (`/[...lang]/agents/<slug>/…`): one path per agent of the site
 * and language, from the model (a running build asks before any card is signed).
 */
export async function agentStaticPaths(): Promise<
  Array<{ params: { lang: string | undefined; slug: string } }>
> {
  const { model } = await getSiteOutline();
  return pageTrees(model.publisher).flatMap((tree) =>
    model.agents.map((a) => ({ params: { lang: langParam(tree), slug: a.slug } })),
  );
}

/**
 * What an agent's two pages (`/[...lang]/agents/<slug>/` and its `permissions/`) show: the site's
 * outline, the page tree of `lang`, and the agent's {@link AgentPageParts}, once its card is signed.
 * @throws Error (rejects) as {@link getAgentBuild} and {@link pageTreeOfSite}.
 */
export async function agentPageOf(
  slug: string | undefined,
  lang: string | undefined,
): Promise<{ site: SiteOutline; tree: PageTree | undefined; parts: AgentPageParts }> {
  const site = await getSiteOutline();
  const tree = pageTreeOfSite(site, lang);
  const build = await getAgentBuild(slug);
  return { site, tree, parts: agentPageParts(site, build, tree) };
}
