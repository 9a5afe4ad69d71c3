/**
 * The Astro side of registry mode (DESIGN.md §7): @astrojs/node in `middleware` mode and the lookup API's
 * routes (src/registry-routes/), injected under the registry's base path. Used by `npm run build --
 * --registry` (scripts/build.ts) as inline configuration, so the static build (the static settings alone,
 * ./static-astro-config.ts) keeps its plain `dist/` layout and never sees these routes.
 */
import node from '@astrojs/node';
import type { AstroInlineConfig, AstroIntegration } from 'astro';
import path from 'node:path';
import { appRoot } from '../project/app-root.js';

/** The routes of ARD draft §4.2 and their entry points, relative to the base path. */
const ROUTES: ReadonlyArray<[pattern: string, file: string]> = [
  ['/search', 'search.ts'],
  ['/explore', 'explore.ts'],
  ['/agents', 'agents.ts'],
  ['/agents/[...identifier]', 'agent.ts'],
  ['/[...rest]', 'not-found.ts'],
];

/**
 * Packages that only the prerendered pages use (content loading, Markdown, signing, verification). They
 * run at build time, from this app, and never in the server bundle at run time (its routes import
 * src/core/registry/runtime.ts alone), so they stay external: bundling them (Shiki's hundreds of
 * grammars among them) only made the build slower.
 */
const PRERENDER_ONLY = [
  '@astrojs/markdown-remark',
  'shiki',
  'gray-matter',
  'yaml',
  'js-yaml',
  'fast-glob',
  '@a2a-js/sdk',
  'jose',
  '@noble/curves',
  'canonicalize',
  '@apidevtools/json-schema-ref-parser',
];

/** An integration that injects the lookup API's routes under `basePath` (for example `/ard/v1`). */
export function registryRoutes(basePath: string): AstroIntegration {
  return {
    name: 'ardsite-registry-routes',
    hooks: {
      'astro:config:setup': ({ injectRoute }) => {
        for (const [pattern, file] of ROUTES) {
          injectRoute({
            pattern: `${basePath}${pattern}`,
            // From ardsite's own folder: this module also runs compiled (lib/), the routes stay in src/.
            entrypoint: path.join(appRoot(), 'src', 'registry-routes', file),
            prerender: false,
          });
        }
      },
    },
  };
}

/**
 * The inline configuration of a registry build, laid over the static settings (./static-astro-config.ts):
 * - @astrojs/node in `middleware` mode: the one server of DESIGN.md §7 mounts its handler;
 * - `trailingSlash: 'ignore'`: the API paths have no trailing slash (`/ard/v1/search`), which `always`
 *   would not route; the static pages are written the same way either way (`build.format: 'directory'`);
 * - `security.checkOrigin: false`: the API is a public, cookie-less CORS API, and Astro's check would
 *   refuse cross-origin POSTs whose Content-Type is not JSON with a 403 before the service could answer;
 * - `vite.ssr.noExternal: true`: the server bundle carries its dependencies, so it runs from the project's
 *   folder (`dist-server/`) even when that folder is not inside this app. Bundling them makes Rollup warn
 *   about two harmless patterns in them (comment annotations it drops, gray-matter's `eval`, which only
 *   the prerendered pages reach at build time); those two warnings are silenced, others are shown.
 */
export function registryAstroConfig(basePath: string): AstroInlineConfig {
  return {
    adapter: node({ mode: 'middleware' }),
    integrations: [registryRoutes(basePath)],
    trailingSlash: 'ignore',
    security: { checkOrigin: false },
    vite: {
      ssr: { noExternal: true, external: [...PRERENDER_ONLY] },
      build: {
        rollupOptions: {
          onwarn(warning, warn) {
            if (warning.code === 'INVALID_ANNOTATION' || warning.code === 'EVAL') return;
            warn(warning);
          },
        },
      },
    },
  };
}
