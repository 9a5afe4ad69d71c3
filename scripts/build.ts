/**
 * `npm run build`: checks the content, signs and computes every artifact, writes the artifacts into a
 * temporary folder (keeping only their digests), renders the pages with Astro into the same folder,
 * verifies the result from disk, and only then swaps it into `dist/` (DESIGN.md §4). Exit 0 on success, 1 on any failure; `dist/` is untouched
 * by a failed build. No key material is ever printed.
 *
 * Usage: npm run build [-- --root <publisher project folder: content/, public/>] [-- --out <folder>]
 *        [-- --registry]
 * (--out is relative to the project folder; default dist)
 *
 * Registry mode (`--registry`, or `registry.enabled: true` in publisher.yaml): ard.json also lists the
 * signed `application/ai-registry+json` entry, and Astro runs with @astrojs/node in `middleware` mode and
 * the lookup API's routes (src/lib/registry-astro.ts). `<out>/` still holds exactly the static site; the
 * server bundle goes to `<out>-server/` (src/core/registry/bundle.ts). Both are swapped in only when the
 * self-check passed.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { provideSiteBuild } from '../src/core/build-context.js';
import {
  assertReplaceableOutDir,
  artifactFile,
  makeTempOutput,
  moveFolder,
  swapFolder,
  swapIntoPlace,
  within,
  writeArtifacts,
} from '../src/core/build/output.js';
import { prepareBuild } from '../src/core/build/prepare.js';
import {
  ownedPrefix,
  removeStaleTempFolders,
  TEMP_PREFIX,
  VITE_CACHE_PREFIX,
} from '../src/core/build/stale-temp.js';
import { finishSelfCheck, machineCheckJob, siteOrigin } from '../src/core/build/self-check.js';
import type { MachineCheckResult } from '../src/core/build/machine-check.js';
import { startMachineChecks } from '../src/core/build/machine-check-thread.js';
import type { SiteBuild } from '../src/core/site-build.js';
import { releaseSourceTexts } from '../src/core/content/index.js';
import { ArdsiteError, formatDiagnostic } from '../src/core/errors.js';
import { assertNoPrivateKeyBytes } from '../src/core/trust/key-guards.js';
import {
  assertReplaceableServerDir,
  registryServerDir,
  writeRegistryDescriptor,
} from '../src/core/registry/bundle.js';
import { MANIFEST_PATH, registryBaseUri, registryIdentifier } from '../src/core/site.js';
import { PhaseTimer } from '../src/core/timings.js';
import { parseCommandLine } from './lib/args.js';
import { counted } from './lib/counted.js';
import type { AstroInlineConfig } from 'astro';

const { values } = parseCommandLine(
  {
    options: {
      root: { type: 'string', default: process.cwd() },
      out: { type: 'string', default: 'dist' },
      /** Writes phase timings, peak memory and sizes as JSON to this file (used by npm run bench). */
      report: { type: 'string' },
      /** Registry mode: the lookup API beside the static site (README, "Registry mode"). */
      registry: { type: 'boolean', default: false },
    },
  },
  'usage: npm run build [-- --root <project folder>] [-- --out <folder>] [-- --registry] [-- --report <file.json>]',
);
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
  // What killed builds left behind: their temporary folders, never those of a build still running.
  const stale = await removeStaleTempFolders([
    { dir: root, prefix: TEMP_PREFIX },
    { dir: appRoot, prefix: TEMP_PREFIX },
    { dir: tmpdir(), prefix: VITE_CACHE_PREFIX },
  ]);
  if (stale.length > 0) log(`Removed ${counted(stale.length, 'temporary folder')} left by a killed build.`);
  const prepared = await prepareBuild({ root, timer, registry: values.registry });
  const { publisher } = prepared.site.model;
  const registry = publisher.registry.enabled;
  const serverDir = registryServerDir(distDir);
  if (registry) assertReplaceableServerDir(root, serverDir);
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
  const serverTemp = registry ? await makeTempOutput(root) : undefined;
  // Astro bundles the pages beside its outDir and resolves packages from there, and it does so safely
  // (one folder per build) only when outDir is inside the working folder. So Astro runs in the app,
  // rendering into a folder of its own, which then moves into the project's temporary folder. With the
  // adapter (registry mode) Astro writes <outDir>/client (the static site) and <outDir>/server.
  const renderDir = within(appRoot, temp) && !registry ? temp : await makeTempOutput(appRoot);
  const siteDir = registry ? path.join(renderDir, 'client') : renderDir;
  try {
    // The artifacts are written first, into the folder Astro renders into (told not to empty it), and
    // their bytes let go: only their digests stay, for the self-check, so the heap is smaller while
    // Astro renders (at 10,000 agents the cards and the manifest are over 200 MB). A file of public/
    // at an artifact's path would replace it while Astro copies public/: those few are kept and written
    // again after rendering, so the artifact wins, as the self-check requires.
    const written = await timer.time('writing', () => writeArtifacts(siteDir, site.artifacts.values()));
    const publicDir = path.join(root, 'public');
    const shadowed = [...site.artifacts.values()].filter((a) => existsSync(artifactFile(publicDir, a.path)));
    site.artifacts.clear();
    // The pages never read the source texts: let go of them before Astro's memory grows (about 50 MB
    // of heap at 10,000 agents).
    releaseSourceTexts(site.model);
    // The machine checks (the artifacts, the verifier) need only what is written now: they run in a
    // worker thread while Astro renders, on the core it leaves idle (src/core/build/machine-check-thread.ts).
    const origin = siteOrigin(site);
    const checks = startMachineChecks(
      machineCheckJob(siteDir, site, {
        written,
        later: shadowed.map((a) => a.path),
        keyPatterns: prepared.keyPatterns,
        publicDir,
      }),
      {
        worker: availableParallelism() >= 2,
        onFallback: (why) => log(`The self-check thread stopped (${why}); checking in this thread.`),
      },
    );
    let machine: MachineCheckResult | undefined;
    try {
      await render(site, registry, { renderDir, publicDir, timer });
      // Written again after Astro copied public/: the artifact wins, as the self-check requires.
      if (shadowed.length > 0) await writeArtifacts(siteDir, shadowed);
      checks.rendered();
      // Joined before anything moves: the thread reads the folder where Astro rendered it.
      machine = await timer.time('self-verification (joining the worker thread)', () => checks.result);
    } finally {
      if (!machine) await checks.stop();
    }
    // The worker thread's busy time, beside rendering (in this thread, the checks are in the join above).
    if (checks.where === 'worker' && machine.busyMs !== undefined)
      timer.add('self-verification (worker thread, beside rendering)', machine.busyMs);
    try {
      if (serverTemp) {
        await moveFolder(path.join(renderDir, 'client'), temp);
        await moveFolder(path.join(renderDir, 'server'), serverTemp);
      } else if (renderDir !== temp) await moveFolder(renderDir, temp);
    } catch (error) {
      throw new ArdsiteError(
        'BUILD_RENDER_FAILED',
        `moving the rendered site failed: ${(error as Error).message}`,
      );
    }
    const report = await timer.time('self-verification', () =>
      finishSelfCheck(temp, origin, machine, { written, keyPatterns: prepared.keyPatterns }),
    );
    // The registry's server bundle is published too (it serves the index): the same search.
    if (serverTemp) await assertNoPrivateKeyBytes(serverTemp, prepared.keyPatterns);
    if (serverTemp) {
      await writeRegistryDescriptor(serverTemp, {
        format: 1,
        basePath: publisher.registry.basePath,
        origin: publisher.siteUrl.replace(/\/$/, ''),
        identifier: registryIdentifier(publisher),
        url: registryBaseUri(publisher),
        manifestDigest: written.get(MANIFEST_PATH)!.digest,
      });
    }
    await timer.time('swap', async () => {
      // The server bundle first: a failure between the two swaps leaves a bundle whose descriptor does not
      // match dist/, which npm run serve detects and rebuilds, never a dist/ served by a stale bundle.
      if (serverTemp) await swapFolder(serverTemp, serverDir);
      await swapIntoPlace(temp, distDir);
    });
    if (values.report) {
      const manifest = written.get(MANIFEST_PATH)!.size;
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
      `Built ${path.relative(process.cwd(), distDir) || distDir}/: ${counted(site.agents.length, 'agent')}, ${counted(site.entries.length, 'manifest entry', 'manifest entries')}; self-check: ${counted(report.passed, 'check')} passed (${seconds} s).`,
    );
    if (registry) {
      log(
        `Registry mode: the lookup API (${registryBaseUri(publisher)}) is in ${path.relative(process.cwd(), serverDir) || serverDir}/; npm run serve starts it.`,
      );
    }
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    if (serverTemp) await rm(serverTemp, { recursive: true, force: true });
    throw error;
  } finally {
    if (renderDir !== temp) await rm(renderDir, { recursive: true, force: true });
  }
}

/** Where and how {@link render} renders. */
interface RenderOptions {
  /** Astro's output folder (its `outDir`, not emptied: the artifacts are in it). */
  renderDir: string;
  /** The project's public/ folder. */
  publicDir: string;
  timer: PhaseTimer;
}

/**
 * Renders the pages of `site` (provided to them through src/core/build-context.ts) with Astro, from the
 * app's folder, into `options.renderDir`; in registry mode with the adapter and the API routes.
 * @throws ArdsiteError `BUILD_RENDER_FAILED` with Astro's message.
 */
async function render(
  site: SiteBuild,
  registry: boolean,
  { renderDir, publicDir, timer }: RenderOptions,
): Promise<void> {
  // Astro is loaded only now: a build that fails on its key or content answers seconds sooner.
  const { build: astroBuild } = await import('astro');
  const { publisher } = site.model;
  const cwd = process.cwd();
  let viteCache: string | undefined;
  provideSiteBuild(site);
  try {
    process.chdir(appRoot);
    // The adapter and the API routes only in registry mode: a static build is the plain config.
    const registryConfig: AstroInlineConfig = registry
      ? (await import('../src/lib/registry-astro.js')).registryAstroConfig(publisher.registry.basePath)
      : {};
    // Vite's cache of its own per build: two builds of the app at once (tests, CI) would otherwise race
    // on node_modules/.vite and fail with ENOTEMPTY.
    viteCache = await mkdtemp(path.join(tmpdir(), ownedPrefix(VITE_CACHE_PREFIX)));
    await timer.time('rendering', () =>
      astroBuild({
        root: appRoot,
        publicDir,
        outDir: renderDir,
        logLevel: 'warn',
        site: publisher.siteUrl,
        ...registryConfig,
        vite: {
          ...registryConfig.vite,
          cacheDir: viteCache,
          build: { ...registryConfig.vite?.build, emptyOutDir: false },
        },
      }),
    );
  } catch (error) {
    throw new ArdsiteError('BUILD_RENDER_FAILED', `rendering the pages failed: ${(error as Error).message}`);
  } finally {
    process.chdir(cwd);
    provideSiteBuild(undefined);
    if (viteCache) await rm(viteCache, { recursive: true, force: true });
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
