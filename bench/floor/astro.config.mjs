// @ts-check
import { defineConfig } from 'astro/config';

// The benchmark floor: a plain Astro site that writes as many pages and JSON files as ardsite does for
// the same number of agents, with ardsite's layout and Markdown renderer but none of its logic. Astro's
// default of one page at a time, unless `npm run bench -- --floor-concurrency N` asks for more (ardsite
// renders four at a time: astro.config.mjs). Stylesheets are linked, never inlined, as ardsite's build
// sets them (src/core/build/static-astro-config.ts), so both write the same bytes per page.
const concurrency = Number(process.env.FLOOR_CONCURRENCY ?? '1');
export default defineConfig({
  output: 'static',
  trailingSlash: 'always',
  build: { format: 'directory', inlineStylesheets: 'never', concurrency },
  devToolbar: { enabled: false },
});
