// @ts-check
import { defineConfig } from 'astro/config';
import { devContentPlugin } from './src/lib/dev-content-plugin.ts';

// The static build: `npm run build` (scripts/build.ts) runs Astro with this config after ardsite has
// computed and signed every artifact. @astrojs/node is applied only in registry mode (not yet here).
// Stylesheets are separate files so that the pages' Content-Security-Policy can say `style-src 'self'`.
export default defineConfig({
  output: 'static',
  trailingSlash: 'always',
  build: { format: 'directory', inlineStylesheets: 'never' },
  devToolbar: { enabled: false },
  vite: { plugins: [devContentPlugin()] },
});
