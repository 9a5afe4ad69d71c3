// @ts-check
import { defineConfig } from 'astro/config';

// The static build: `npm run build` (scripts/build.ts) runs Astro with this config after ardsite has
// computed and signed every artifact. @astrojs/node is applied only in registry mode (not yet here).
export default defineConfig({
  output: 'static',
  trailingSlash: 'always',
  build: { format: 'directory' },
  devToolbar: { enabled: false },
});
