/**
 * How pages get the computed site: the one the build script provided (same process), or, under
 * `npm run dev`, one computed here from the project's `content/` (`--root`) with the same core functions.
 *
 * The dev cache lives on `globalThis`, like the build's slot (src/core/build-context.ts): Vite loads
 * the pages and the config's plugin (src/lib/dev-content-plugin.ts) as separate module instances, and
 * both must see one cache, so that the plugin's invalidation reaches the pages.
 */
import { providedSiteBuild } from '../core/build-context.js';
import { withDiagnosticsInMessage } from '../core/errors.js';
import { agentPageView, type AgentPageView } from '../core/pages/agent-page.js';
import { entryJsonLdScript } from '../core/pages/json-ld.js';
import type { AgentBuild, SiteBuild } from '../core/site-build.js';
import { devProjectRoot } from './project-root.js';

const DEV_SLOT = Symbol.for('ardsite.devSiteBuild');
type DevSlot = { [DEV_SLOT]?: Promise<SiteBuild> };

/** The site the pages render. In dev, computed once per content change. */
export async function getSiteBuild(): Promise<SiteBuild> {
  const provided = providedSiteBuild();
  if (provided) return provided;
  const slot = globalThis as DevSlot;
  // The overlay and the terminal show only the message: it names every file, field and line at fault.
  // Loaded only here: a build provides its site, and its pages need none of the loading and signing code.
  slot[DEV_SLOT] ??= import('../core/build/prepare.js')
    .then(({ prepareBuild }) => prepareBuild({ root: devProjectRoot() }))
    .then(
      (p) => p.site,
      (error: unknown) => {
        throw withDiagnosticsInMessage(error);
      },
    );
  const pending = slot[DEV_SLOT];
  // A failed load is not cached: the next request (after the author's fix) tries again.
  pending.catch(() => {
    if (slot[DEV_SLOT] === pending) slot[DEV_SLOT] = undefined;
  });
  return pending;
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

/** The pages that show an agent's {@link AgentPageParts}: its page and its permission page. */
const PAGES_PER_AGENT = 2;

const parts = new WeakMap<AgentBuild, { parts: AgentPageParts; uses: number }>();

/**
 * The agent of `site` whose slug is `slug` ({@link agentBySlug}) with its page view and JSON-LD, which the
 * agent page and the permission page both show: computed for the first of the two pages, kept for the
 * second and let go after it (at 10,000 agents the views of every agent would be about 40 MB held until
 * the last page is written). A third ask (the dev server, a page shown again) computes them again.
 * @throws Error as {@link agentBySlug}.
 */
export function agentPageParts(site: SiteBuild, slug: string | undefined): AgentPageParts {
  const build = agentBySlug(site, slug);
  const kept = parts.get(build);
  if (kept) {
    if (++kept.uses >= PAGES_PER_AGENT) parts.delete(build);
    return kept.parts;
  }
  const made = { build, view: agentPageView(build, site), jsonLd: entryJsonLdScript(build.entry) };
  parts.set(build, { parts: made, uses: 1 });
  return made;
}

/** `getStaticPaths` of the per-agent routes (`/agents/<slug>/…`): one path per agent of the site. */
export async function agentStaticPaths(): Promise<Array<{ params: { slug: string } }>> {
  const site = await getSiteBuild();
  return site.agents.map((a) => ({ params: { slug: a.agent.slug } }));
}
