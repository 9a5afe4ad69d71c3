/**
 * Builds the benchmark floor (bench/floor) for `--agents N` into `--out DIR` and writes
 * `{ wallMs, peakRssBytes, cpu }` to `--report FILE` (`cpu`: src/core/util/timings.ts `cpuReport`). The layout reads the publisher through ardsite's page
 * accessor, so a publisher object is provided in memory; nothing is loaded, checked or signed. Astro
 * renders the pages; the JSON and text files are then written with plain file writes, as ardsite writes
 * its own (./floor/src/plain-files.ts).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'astro';
import { devOnlyModulesPlugin } from '../src/core/build/dev-only-modules.js';
import { writeFloorFiles } from './floor/src/plain-files.js';
import { provideSiteBuild } from '../src/core/site/build-context.js';
import type { SiteBuild } from '../src/core/site/site-build.js';
import { cpuReport, PhaseTimer } from '../src/core/util/timings.js';

const { values } = parseArgs({
  options: { agents: { type: 'string', default: '10' }, out: { type: 'string' }, report: { type: 'string' } },
});
process.env.FLOOR_AGENTS = values.agents;
const publisher = {
  domain: 'bench.example.com',
  siteUrl: 'https://bench.example.com/',
  organization: 'Bench Example Org',
  organizationUrl: 'https://www.example.com/',
  language: 'en',
  privacyPolicyUrl: 'https://www.example.com/privacy',
};
provideSiteBuild({ model: { publisher } } as unknown as SiteBuild);
const started = performance.now();
const outDir = path.resolve(values.out ?? 'floor-dist');
await build({
  root: path.resolve(import.meta.dirname, 'floor'),
  outDir,
  logLevel: 'warn',
  site: publisher.siteUrl,
  // The pages import src/lib/site.ts (the layout reads the publisher through it), whose dev-server branch
  // imports the loading code; a plain site would not bundle that, and ardsite's static build leaves it out
  // with the same plugin (src/core/build/dev-only-modules.ts, src/core/build/render.ts).
  vite: { plugins: [devOnlyModulesPlugin(path.resolve(import.meta.dirname, '..'))] },
});
// The JSON and text files: plain writes from the same agents the pages rendered (./floor/src/plain-files.ts).
writeFloorFiles(outDir);
if (values.report) {
  await writeFile(
    values.report,
    `${JSON.stringify({
      wallMs: performance.now() - started,
      peakRssBytes: process.resourceUsage().maxRSS * 1024,
      // Its CPU by thread, as ardsite's build reports it (src/core/util/timings.ts): no phases, no workers.
      cpu: cpuReport(new PhaseTimer()),
    })}\n`,
  );
}
