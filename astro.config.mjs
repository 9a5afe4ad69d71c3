// @ts-check
import { defineConfig } from 'astro/config';
import { devContentPlugin } from './src/lib/dev-content-plugin.ts';

// The static build: `npm run build` (scripts/build.ts) runs Astro with this config while ardsite computes
// and signs the artifacts: each agent's pages render once its card is signed, the index once the whole
// site is computed. @astrojs/node is applied only in registry mode (scripts/lib/render.ts).
// Stylesheets are separate files so that the pages' Content-Security-Policy can say `style-src 'self'`.
// Four pages render at once: with one, the main thread sat idle a third of the rendering while each page
// was written (issue 19; BENCHMARKS.md "Build: pages four at a time"). A page's words never depend on
// another page's.
export default defineConfig({
  output: 'static',
  trailingSlash: 'always',
  build: { format: 'directory', inlineStylesheets: 'never', concurrency: 4 },
  devToolbar: { enabled: false },
  vite: { plugins: [devContentPlugin()] },
});
