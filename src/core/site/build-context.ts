/**
 * Hands the computed site to the Astro pages. The build computes the site once and provides it here (as
 * the promise of it: Astro bundles the pages while the site is computed, and each agent's pages render as
 * soon as its card is signed) before it runs Astro in the same process; pages read it back, so pages and
 * files share one computation (DESIGN.md §7).
 *
 * The slot lives on `globalThis` because Vite bundles the pages into modules of their own, separate
 * instances of this file, and what crosses to them must be a live promise. The one-way alternatives Astro
 * 5 and Vite offer were weighed and do not carry one: a virtual module of a Vite plugin (Vite, "Virtual
 * Modules Convention") is source text that Vite compiles, so it can hold only serialised data, as can
 * `import.meta.env` values set through Vite's `define`; a data file in the build's temporary folder would
 * serialise the whole site a second time and make every page wait for the last card. The slot is written
 * only by the pipeline (src/core/build/pipeline.ts) and only read by the pages (src/lib/site.ts), so data
 * still flows one way.
 */
import { deferred, type Deferred } from '../util/concurrency.js';
import type { AgentBuild, SiteBuild, SiteOutline } from './site-build.js';

const SLOT = Symbol.for('ardsite.siteBuild');
type Slot = { [SLOT]?: SiteBuild | Promise<SiteBuild> };

/** Makes `site` (or the site it resolves to) the site the pages render. */
export function provideSiteBuild(site: SiteBuild | Promise<SiteBuild> | undefined): void {
  (globalThis as Slot)[SLOT] = site;
}

/** The site provided by the running build, or its promise, if any. */
export function providedSiteBuild(): SiteBuild | Promise<SiteBuild> | undefined {
  return (globalThis as Slot)[SLOT];
}

/**
 * The agents of a build while it computes them: the outline of the site at once, and each
 * agent's build as soon as its card is signed, so that its pages render while later cards are still being
 * signed. `agent(slug)` rejects with the build's own error when computing fails, and with an Error for a
 * slug the outline does not list.
 */
export interface AgentSource {
  outline: SiteOutline;
  agent(slug: string): Promise<AgentBuild>;
}

const AGENTS_SLOT = Symbol.for('ardsite.agentSource');
type AgentsSlot = { [AGENTS_SLOT]?: AgentSource };

/** Makes `source` the one the pages take their agents from (undefined: from the whole site). */
export function provideAgentSource(source: AgentSource | undefined): void {
  (globalThis as AgentsSlot)[AGENTS_SLOT] = source;
}

/** The agent source provided by the running build, if any. */
export function providedAgentSource(): AgentSource | undefined {
  return (globalThis as AgentsSlot)[AGENTS_SLOT];
}

/** An {@link AgentSource} being filled: the build hears of each agent and of a failure. */
export interface PendingAgents {
  source: AgentSource;
  /** That `build`'s agent is computed: its pages may render. */
  arrived(build: AgentBuild): void;
  /** Computing failed with `error`: every agent not yet computed rejects with it. */
  failed(error: unknown): void;
  /** The whole site is computed: any agent not heard of yet arrives from it (none should be left). */
  complete(site: SiteBuild): void;
}

/**
 * An {@link AgentSource} over `outline` whose agents arrive later (scripts/build.ts: from computing's
 * `onAgent`). Asking for a slug the outline does not list rejects at once; a promise nobody awaits never
 * becomes an unhandled rejection.
 */
export function pendingAgents(outline: SiteOutline): PendingAgents {
  const waiting = new Map<string, Deferred<AgentBuild>>();
  for (const agent of outline.model.agents) waiting.set(agent.slug, deferred<AgentBuild>());
  return {
    source: {
      outline,
      agent(slug) {
        return waiting.get(slug)?.promise ?? Promise.reject(new Error(`no agent with the slug "${slug}"`));
      },
    },
    arrived(build) {
      waiting.get(build.agent.slug)?.resolve(build);
    },
    failed(error) {
      for (const w of waiting.values()) w.reject(error);
    },
    complete(site) {
      for (const build of site.agents) waiting.get(build.agent.slug)?.resolve(build);
      for (const [slug, w] of waiting)
        w.reject(new Error(`the computed site has no agent with the slug "${slug}"`));
    },
  };
}
