/**
 * `npm run build`: checks the content, signs and computes every artifact, renders the pages with Astro
 * into a temporary folder, writes the artifacts beside them, verifies the result from disk, and only
 * then swaps it into `dist/` (DESIGN.md §4). Exit 0 on success, 1 on any failure; `dist/` is untouched
 * by a failed build. No key material is ever printed.
 *
 * Usage: npm run build [-- --root <publisher project folder: content/, public/>] [-- --out <folder>]
 * (--out is relative to the project folder; default dist)
 */
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { provideSiteBuild } from '../src/core/build-context.js';
import {
  assertReplaceableOutDir,
  makeTempOutput,
  moveFolder,
  swapIntoPlace,
  within,
  writeArtifacts,
} from '../src/core/build/output.js';
import { prepareBuild } from '../src/core/build/prepare.js';
import { selfCheck } from '../src/core/build/self-check.js';
import { ArdsiteError, formatDiagnostic } from '../src/core/errors.js';
import { PhaseTimer } from '../src/core/timings.js';

const { values } = parseArgs({
  options: {
    root: { type: 'string', default: process.cwd() },
    out: { type: 'string', default: 'dist' },
    /** Writes phase timings, peak memory and sizes as JSON to this file (used by npm run bench). */
    report: { type: 'string' },
  },
});
// The publisher's project (content/, public/, .ardsite/) may be another folder than this app (astro
// config, pages): Astro always runs from the app, with the project's public/ folder.
const appRoot = path.resolve(import.meta.dirname, '..');
const root = path.resolve(values.root!);
const distDir = path.resolve(root, values.out!);
const log = (line: string) => process.stderr.write(`${line}\n`);

async function main(): Promise<void> {
  const started = performance.now();
  const timer = new PhaseTimer();
  // Before any work: an --out that a swap would destroy (content/, the project itself, …) is refused.
  assertReplaceableOutDir(root, distDir);
  const prepared = await prepareBuild({ root, timer });
  for (const w of prepared.warnings) log(formatDiagnostic(w));
  if (prepared.key.created) {
    log('');
    log(`*** ardsite created a new signing key: ${prepared.key.source}`);
    log("*** It is your site's identity (did:web). Keep it, back it up, never commit it (git ignores it).");
    log('*** For CI deploys, store it as a secret and pass it in ARDSITE_SIGNING_KEY.');
    log('');
  } else if (prepared.key.ephemeral) {
    log('Signing with a throw-away key (ARDSITE_DEV_KEY=1): this build is for tests, not for deployment.');
  } else {
    log(`Signing with the key from ${prepared.key.source} (${prepared.key.kid}).`);
  }
  const { site } = prepared;
  // Astro is loaded only now: a build that fails on its key or content (above) answers seconds sooner.
  const { build: astroBuild } = await import('astro');
  const temp = await makeTempOutput(root);
  try {
    // Astro bundles the pages beside its outDir and resolves packages from there, and it does so safely
    // (one folder per build) only when outDir is inside the working folder. So Astro runs in the app,
    // rendering into a folder of its own, which then moves into the project's temporary folder.
    const renderDir = within(appRoot, temp) ? temp : await makeTempOutput(appRoot);
    const cwd = process.cwd();
    provideSiteBuild(site);
    try {
      process.chdir(appRoot);
      await timer.time('rendering', () =>
        astroBuild({
          root: appRoot,
          publicDir: path.join(root, 'public'),
          outDir: renderDir,
          logLevel: 'warn',
          site: site.model.publisher.siteUrl,
        }),
      );
      if (renderDir !== temp) await moveFolder(renderDir, temp);
    } catch (error) {
      throw new ArdsiteError(
        'BUILD_RENDER_FAILED',
        `rendering the pages failed: ${(error as Error).message}`,
      );
    } finally {
      process.chdir(cwd);
      provideSiteBuild(undefined);
      if (renderDir !== temp) await rm(renderDir, { recursive: true, force: true });
    }
    await timer.time('writing', () => writeArtifacts(temp, site.artifacts.values()));
    const report = await timer.time('self-verification', () => selfCheck(temp, site));
    await timer.time('swap', () => swapIntoPlace(temp, distDir));
    if (values.report) {
      const manifest = site.artifacts.get('/.well-known/ard.json')!.bytes.length;
      await writeFile(
        values.report,
        `${JSON.stringify(
          {
            agents: site.agents.length,
            entries: site.entries.length,
            wallMs: Math.round(performance.now() - started),
            peakRssBytes: process.resourceUsage().maxRSS * 1024,
            manifestBytes: manifest,
            phasesMs: timer.toJSON(),
          },
          null,
          2,
        )}\n`,
      );
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    log(
      `Built ${path.relative(process.cwd(), distDir) || distDir}/: ${site.agents.length} agents, ${site.entries.length} manifest entries; self-check: ${report.passed} checks passed (${seconds} s).`,
    );
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    throw error;
  }
}

try {
  await main();
} catch (error) {
  if (error instanceof ArdsiteError) {
    for (const d of error.diagnostics) log(formatDiagnostic(d));
    log(`Build failed: ${error.message} [${error.code}]`);
  } else {
    log(`Build failed: ${(error as Error).stack ?? String(error)}`);
  }
  process.exitCode = 1;
}
