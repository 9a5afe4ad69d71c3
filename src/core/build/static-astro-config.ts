/**
 * Astro's settings of the static site (Astro 5 configuration reference: `output`, `trailingSlash`,
 * `build.format`, `build.inlineStylesheets`, `build.concurrency`, `devToolbar`), in one place: the build
 * hands them to Astro inline, with `configFile: false` ({@link staticBuildConfig}), and astro.config.mjs
 * spreads them for `ardsite dev`, adding only the dev server's Vite plugin.
 *
 * Why the build does not read astro.config.mjs: that file imports TypeScript (the dev plugin), which Node
 * cannot import natively, so Astro would load it through a Vite server of its own, transforming and
 * running the plugin's whole import graph (content loading, checks, schemas) only to find a plugin that
 * applies to `serve` alone.
 */
import type { AstroInlineConfig } from 'astro';

/**
 * The static site's settings: directory URLs with a trailing slash (`/agents/<slug>/`), stylesheets as
 * separate files (so that the pages' Content-Security-Policy can say `style-src 'self'`), no dev toolbar,
 * and four pages rendered at once (with one, the main thread sat idle a third of the rendering while each
 * page was written). A page's words never depend on another page's.
 */
export const STATIC_ASTRO_CONFIG = {
  output: 'static',
  trailingSlash: 'always',
  build: { format: 'directory', inlineStylesheets: 'never', concurrency: 4 },
  devToolbar: { enabled: false },
} as const satisfies AstroInlineConfig;

/**
 * The inline configuration of a build's Astro run: {@link STATIC_ASTRO_CONFIG} with `configFile: false`
 * (astro.config.mjs is not loaded), then `overrides` laid over it (the output folders, the site's URL and,
 * in registry mode, the adapter's settings: src/core/build/registry-astro.ts). `build` of `overrides` is
 * merged one level deep into the static one; any other key replaces the static one, except `configFile`,
 * which is false whatever `overrides` says.
 */
export function staticBuildConfig(overrides: AstroInlineConfig): AstroInlineConfig {
  return {
    ...STATIC_ASTRO_CONFIG,
    ...overrides,
    configFile: false,
    build: { ...STATIC_ASTRO_CONFIG.build, ...overrides.build },
  };
}
