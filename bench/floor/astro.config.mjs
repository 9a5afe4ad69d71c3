// @ts-check
import { defineConfig } from 'astro/config';

// The benchmark floor: a plain Astro site that writes as many pages and JSON files as ardsite does for
// the same number of agents, with ardsite's layout and Markdown renderer but none of its logic.
export default defineConfig({
  output: 'static',
  trailingSlash: 'always',
  build: { format: 'directory' },
  devToolbar: { enabled: false },
});
