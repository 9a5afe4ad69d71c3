/**
 * The Astro half of `npm run build` (scripts/build.ts): the folders a build writes into, and Astro's run
 * over them. Astro starts as soon as the content passed its checks and the key is known, with the promise
 * of the site and the agents as they are computed (src/core/site/build-context.ts): it loads and bundles the
 * pages while the site is computed, on the main thread's idle time (the signing threads do most of
 * computing), renders each agent's pages as soon as its card is signed, and the index once the whole
 * site is there.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type * as astro from 'astro';
import type { AstroInlineConfig } from 'astro';
import { provideAgentSource, provideSiteBuild, type AgentSource } from '../site/build-context.js';
import { makeTempOutput, removeAfterFailure } from './output.js';
import { isWithin } from '../util/within.js';
import { ownedPrefix, VITE_CACHE_PREFIX } from './stale-temp.js';
import { staticBuildConfig } from './static-astro-config.js';
import { devOnlyModulesPlugin } from './dev-only-modules.js';
import type { ContentModel } from '../model/content.js';
import { ArdsiteError } from '../util/errors.js';
import type { SiteBuild } from '../site/site-build.js';
import type { PhaseTimer } from '../util/timings.js';

type AstroModule = typeof astro;

let astroModule: Promise<AstroModule> | undefined;

/**
 * Starts loading Astro's modules (much of it waiting on the TypeScript
 * loader's thread) without running anything: a build calls it first, so that the loading overlaps with
 * reading and checking the content. {@link startRender} uses the same import.
 */
export function preloadAstro(): Promise<AstroModule> {
  astroModule ??= import('astro');
  // A build that fails before rendering never awaits it.
  astroModule.catch(() => {});
  return astroModule;
}

/** Where one build writes. */
export interface Outputs {
  /** The project's temporary folder that becomes `dist/` (src/core/build/output.ts `makeTempOutput`). */
  temp: string;
  /** Registry mode: the temporary folder that becomes the server bundle's folder. */
  serverTemp?: string;
  /** Astro's output folder: `temp` itself, or a folder of its own inside the app. */
  renderDir: string;
  /** Where the static site is in `renderDir` (its `client/` folder in registry mode). */
  siteDir: string;
}

/**
 * Makes the folders of a build of the project at `root` with the app at `appRoot`. Astro bundles the pages
 * beside its outDir and resolves packages from there, and it does so safely (one folder per build) only
 * when outDir is inside the working folder. So Astro runs in the app, rendering into a folder of its own,
 * which then moves into the project's temporary folder. With the adapter (registry mode) Astro writes
 * `<outDir>/client` (the static site) and `<outDir>/server`.
 */
export async function makeOutputs(root: string, appRoot: string, registry: boolean): Promise<Outputs> {
  const temp = await makeTempOutput(root);
  const serverTemp = registry ? await makeTempOutput(root) : undefined;
  const renderDir = isWithin(appRoot, temp) && !registry ? temp : await makeTempOutput(appRoot);
  const siteDir = registry ? path.join(renderDir, 'client') : renderDir;
  return { temp, ...(serverTemp ? { serverTemp } : {}), renderDir, siteDir };
}

/** Removes the folders of `out` (a failed build). */
export async function removeOutputs(out: Outputs | undefined): Promise<void> {
  if (!out) return;
  await Promise.all([out.temp, out.serverTemp, out.renderDir].map(removeAfterFailure));
}

/** What {@link startRender} needs besides the site. */
export interface RenderOptions {
  /** The app: src/pages, src/components, node_modules (its astro.config.mjs is the dev server's, not read). */
  appRoot: string;
  /** The project's public/ folder. */
  publicDir: string;
  /** Astro's output folder (not emptied: the artifacts are written into it while Astro bundles). */
  renderDir: string;
  /** Registry mode (the adapter and the lookup API's routes). */
  registry: boolean;
  publisher: ContentModel['publisher'];
  /** The agents as they are computed (the pages of each render as soon as it is there). */
  agents: AgentSource;
  /**
   * Receives `astro` (Astro's whole run) and `rendering` (from Astro's first ask for an agent, or the
   * site's arrival if sooner, to the end).
   */
  timer: PhaseTimer;
}

/** Astro's run under way. */
export interface RenderRun {
  /**
   * Settles when Astro is done; rejects with ArdsiteError `BUILD_RENDER_FAILED` and Astro's message, or,
   * when the site never came (`site` rejected), with that rejection.
   */
  readonly done: Promise<void>;
}

/**
 * Starts Astro (`astro build`) over the pages of `site`, which may still be computing. The working folder
 * is the app while Astro runs (absolute paths only, meanwhile, in this process).
 */
export function startRender(site: Promise<SiteBuild>, options: RenderOptions): RenderRun {
  const { appRoot, publicDir, renderDir, registry, publisher, timer } = options;
  let renderingFrom: number | undefined;
  let siteError: unknown;
  const settled = site.then(
    () => void (renderingFrom ??= performance.now()),
    (error: unknown) => void (siteError = error),
  );
  const agents: AgentSource = {
    outline: options.agents.outline,
    agent(slug) {
      renderingFrom ??= performance.now();
      return options.agents.agent(slug);
    },
  };
  const cwd = process.cwd();
  const run = async (): Promise<void> => {
    let viteCache: string | undefined;
    let failed = false;
    provideSiteBuild(site);
    provideAgentSource(agents);
    process.chdir(appRoot);
    try {
      const { build: astroBuild } = await preloadAstro();
      // The adapter and the API routes only in registry mode: a static build is the static settings alone
      // (./static-astro-config.ts; astro.config.mjs, which is the dev server's, is not read).
      const registryConfig: AstroInlineConfig = registry
        ? (await import('./registry-astro.js')).registryAstroConfig(publisher.registry.basePath)
        : {};
      // Vite's cache of its own per build: two builds of the app at once (tests, CI) would otherwise race
      // on node_modules/.vite and fail with ENOTEMPTY.
      viteCache = await mkdtemp(path.join(tmpdir(), ownedPrefix(VITE_CACHE_PREFIX)));
      await timer.time('astro', () =>
        astroBuild(
          staticBuildConfig({
            root: appRoot,
            publicDir,
            outDir: renderDir,
            logLevel: 'warn',
            site: publisher.siteUrl,
            ...registryConfig,
            vite: {
              ...registryConfig.vite,
              cacheDir: viteCache,
              build: { ...registryConfig.vite?.build, emptyOutDir: false },
              // A static build's pages bundle none of the dev server's loading code (./dev-only-modules.ts).
              ...(registry ? {} : { plugins: [devOnlyModulesPlugin(appRoot)] }),
            },
          }),
        ),
      );
      if (renderingFrom !== undefined) timer.add('rendering', performance.now() - renderingFrom);
    } catch (error) {
      failed = true;
      // A page that waited for an agent fails with the build's own error: that one is told. The site
      // settles either way (computing, then writing the rest of the artifacts, ends in a site or an
      // error), so this waits at most for those.
      await settled;
      if (siteError !== undefined) throw siteError;
      throw new ArdsiteError(
        'BUILD_RENDER_FAILED',
        `rendering the pages failed: ${(error as Error).message}`,
      );
    } finally {
      process.chdir(cwd);
      if (failed) {
        // Astro renders four pages at a time and does not cancel the pages still queued when one fails:
        // those go on after this run has ended. They must find a stopped build (a site that rejects,
        // which every page awaits), not an empty slot: that is the dev server's path, which would load
        // the project again.
        const stopped = Promise.reject(new ArdsiteError('BUILD_RENDER_FAILED', 'the build stopped'));
        stopped.catch(() => {});
        provideSiteBuild(stopped);
      } else {
        provideSiteBuild(undefined);
      }
      provideAgentSource(undefined);
      if (viteCache) await rm(viteCache, { recursive: true, force: true });
    }
  };
  const done = run();
  // Awaited by the build; one that fails before then must not end on an unhandled rejection.
  done.catch(() => {});
  return { done };
}
