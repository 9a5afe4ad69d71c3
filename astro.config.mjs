// @ts-check
import { defineConfig } from 'astro/config';
import { devContentPlugin } from './src/lib/dev-content-plugin.ts';
import { STATIC_ASTRO_CONFIG } from './src/core/build/static-astro-config.ts';

// The dev server's config (`ardsite dev`): the static site's settings, which a build hands to Astro inline
// without reading this file (src/core/build/static-astro-config.ts says why), and the dev plugin, which
// watches content/ and answers the artifact paths. @astrojs/node is applied only in registry mode
// (src/core/build/registry-astro.ts).
export default defineConfig({
  ...STATIC_ASTRO_CONFIG,
  vite: { plugins: [devContentPlugin()] },
});
