/**
 * What a static build leaves out of the pages' server bundle: the dev server's way of computing the site.
 *
 * The pages get the site from src/lib/site.ts, which, when no build provided one (`npm run dev`), imports
 * ./prepare.ts to load, check and compute `content/` itself. A build always provides its site before
 * Astro renders (src/core/site/build-context.ts), so that import never runs in a build; but Rollup cannot
 * know it and bundled its whole import graph (loading, checks, schemas, signing, site files: about 87
 * modules and 300 kB of the 545 kB of JavaScript it wrote at 1,000 agents) into a chunk of the pages,
 * transforming, parsing and tree-shaking each module in every build. {@link devOnlyModulesPlugin} hands
 * Rollup a module that only throws in its place, so that graph is never read.
 */
import path from 'node:path';
import type { ViteUserConfig } from 'astro';

/** A Vite plugin object (the one member of Vite's `PluginOption` union that has a name). */
type VitePlugin = Extract<NonNullable<ViteUserConfig['plugins']>[number], { name: string }>;

/**
 * The module a static build's pages get for src/core/build/prepare.ts: the same export, which throws
 * (a page that reached it would mean the build had provided no site, a bug of the build).
 */
export const PREPARE_STAND_IN =
  'export function prepareBuild() {\n' +
  "  throw new Error('the pages of a build compute no site: the build provides it (src/core/site/build-context.ts)');\n" +
  '}\n';

/**
 * The Vite plugin of a static build (src/core/build/render.ts): loads {@link PREPARE_STAND_IN} instead of
 * `<appRoot>/src/core/build/prepare.ts` (Vite's `load` hook, before its own loading: `enforce: 'pre'`), so
 * Rollup bundles none of the dev server's loading code. Any other module is Vite's to load. `appRoot` is
 * the app Astro builds (absolute path). Applies to `vite build` only; the dev server keeps the real
 * module.
 */
export function devOnlyModulesPlugin(appRoot: string): VitePlugin {
  // Vite's module ids are absolute paths with forward slashes, on Windows too.
  const prepare = path.join(appRoot, 'src', 'core', 'build', 'prepare.ts').split(path.sep).join('/');
  return {
    name: 'ardsite:dev-only-modules',
    apply: 'build',
    enforce: 'pre',
    load(id) {
      return id === prepare ? PREPARE_STAND_IN : undefined;
    },
  };
}
