/**
 * `npm run build`: checks the content, signs and computes every artifact, renders the pages with Astro
 * into a temporary folder, writes the artifacts beside them, verifies the result from disk, and only
 * then swaps it into `dist/` (DESIGN.md §4). Exit 0 on success, 1 on any failure; `dist/` is untouched
 * by a failed build. No key material is ever printed.
 *
 * Usage: npm run build [-- --root <publisher project folder: content/, public/>] [-- --out <folder>]
 * (--out is relative to the project folder; default dist)
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build as astroBuild } from 'astro';
import { provideSiteBuild } from '../src/core/build-context.js';
import { makeTempOutput, swapIntoPlace, writeArtifacts } from '../src/core/build/output.js';
import { prepareBuild } from '../src/core/build/prepare.js';
import { selfCheck } from '../src/core/build/self-check.js';
import { ArdsiteError, formatDiagnostic } from '../src/core/errors.js';

const { values } = parseArgs({
  options: { root: { type: 'string', default: process.cwd() }, out: { type: 'string', default: 'dist' } },
});
// The publisher's project (content/, public/, .ardsite/) may be another folder than this app (astro
// config, pages): Astro always runs from the app, with the project's public/ folder.
const appRoot = path.resolve(import.meta.dirname, '..');
const root = path.resolve(values.root!);
const distDir = path.resolve(root, values.out!);
const log = (line: string) => process.stderr.write(`${line}\n`);

async function main(): Promise<void> {
  const started = performance.now();
  const prepared = await prepareBuild({ root });
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
  const temp = await makeTempOutput(root);
  try {
    provideSiteBuild(site);
    try {
      await astroBuild({
        root: appRoot,
        publicDir: path.join(root, 'public'),
        outDir: temp,
        logLevel: 'warn',
        site: site.model.publisher.siteUrl,
      });
    } catch (error) {
      throw new ArdsiteError(
        'BUILD_RENDER_FAILED',
        `rendering the pages failed: ${(error as Error).message}`,
      );
    } finally {
      provideSiteBuild(undefined);
    }
    // With an outDir outside the working folder (a project folder other than this app), Astro 5 bundles
    // in a fallback folder of the app and leaves its two content-layer module stubs in outDir.
    if (path.relative(process.cwd(), temp).startsWith('..')) {
      await Promise.all(
        ['content-assets.mjs', 'content-modules.mjs'].map((f) => rm(path.join(temp, f), { force: true })),
      );
    }
    await writeArtifacts(temp, site.artifacts.values());
    const report = await selfCheck(temp, site);
    await swapIntoPlace(temp, distDir);
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
