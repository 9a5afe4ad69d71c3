/**
 * `npm run build`: checks the content, signs and computes every artifact, writes the artifacts into a
 * temporary folder (keeping only their digests), renders the pages with Astro into the same folder,
 * verifies the result from disk, and only then swaps it into `dist/` (DESIGN.md §4). Exit 0 on success,
 * 1 on any failure; `dist/` is untouched by a failed build. No key material is ever printed.
 *
 * The work overlaps where it can (issue 19): Astro starts once the content passed its checks and bundles
 * the pages while the site is computed (scripts/lib/render.ts); each agent's pages render as soon as its
 * card is signed, and its card and permission file are written then (src/core/site-options.ts
 * `onAgent`, `sink`), while later cards are signed; the index renders once the whole site is there; the
 * machine-readable files are verified in a worker thread while Astro renders
 * (src/core/build/machine-check-thread.ts); after rendering only what depends on the pages is checked
 * (src/core/build/self-check.ts).
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
import { npmCommand } from '../src/core/shell-word.js';
import { writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import {
  ArtifactWriter,
  assertReplaceableOutDir,
  removeAfterFailure,
  moveFolder,
  swapFolder,
  swapIntoPlace,
  writeArtifacts,
  type WrittenArtifact,
} from '../src/core/build/output.js';
import { prepareBuild, type PreparedBuild } from '../src/core/build/prepare.js';
import { compiledWorker, type CompiledWorker } from '../src/core/compiled-worker.js';
import { removeStaleTempFolders, TEMP_PREFIX, VITE_CACHE_PREFIX } from '../src/core/build/stale-temp.js';
import { finishSelfCheck, machineCheckJob, siteOrigin } from '../src/core/build/self-check.js';
import type { MachineCheckResult } from '../src/core/build/machine-check.js';
import { startMachineChecks, type MachineCheckRun } from '../src/core/build/machine-check-thread.js';
import type { Artifact, SiteBuild } from '../src/core/site-build.js';
import { releaseSourceTexts } from '../src/core/content/index.js';
import { pendingAgents, type PendingAgents } from '../src/core/build-context.js';
import { deferred, type Deferred } from '../src/core/concurrency.js';
import { ArdsiteError, formatDiagnostic } from '../src/core/errors.js';
import { assertNoPrivateKeyBytes } from '../src/core/trust/key-guards.js';
import {
  assertReplaceableServerDir,
  registryServerDir,
  writeRegistryDescriptor,
} from '../src/core/registry/bundle.js';
import { MANIFEST_PATH } from '../src/core/site.js';
import { registryBaseUri, registryIdentifier } from '../src/core/site-registry-entry.js';
import { PhaseTimer } from '../src/core/timings.js';
import { parseCommandLine, projectFolder } from './lib/args.js';
import { counted } from './lib/counted.js';
import { limitHeapGrowth } from './lib/heap-growth.js';
import { shownFile, shownFolder } from './lib/shown-folder.js';
import {
  makeOutputs,
  preloadAstro,
  removeOutputs,
  startRender,
  type Outputs,
  type RenderRun,
} from './lib/render.js';

// Before the site is loaded: the heap grows by at most half its live size between full collections.
limitHeapGrowth();

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
const root = projectFolder(values.root!);
const distDir = path.resolve(root, values.out!);
const publicDir = path.join(root, 'public');
const serverDir = registryServerDir(distDir);
const log = (line: string) => process.stderr.write(`${line}\n`);

/** Logs the content's warnings and where the signing key came from. */
function logPrepared(prepared: PreparedBuild): void {
  for (const w of prepared.warnings) log(formatDiagnostic(w));
  // A key file by the path a publisher can find it at from where they typed the command (not relative
  // to the project: under `npm run` that would name the checkout's own key).
  const source = prepared.key.file ? shownFile(prepared.key.file) : prepared.key.source;
  if (prepared.key.created) {
    log('');
    log(`*** ardsite created a new signing key: ${source}`);
    log("*** It is your site's identity (did:web). Keep it, back it up, never commit it (git ignores it).");
    log('*** For CI deploys, store it as a secret and pass it in ARDSITE_SIGNING_KEY.');
    log('');
  } else if (prepared.key.ephemeral) {
    log('Signing with a throw-away key (ARDSITE_DEV_KEY=1): this build is for tests, not for deployment.');
  } else {
    log(`Signing with the key from ${source} (${prepared.key.kid}).`);
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  const timer = new PhaseTimer();
  void preloadAstro();
  // Before any work: an --out that a swap would destroy (content/, the project itself, …) is refused.
  assertReplaceableOutDir(root, distDir);
  // What killed builds left behind: their temporary folders, never those of a build still running.
  const stale = await removeStaleTempFolders([
    { dir: root, prefix: TEMP_PREFIX },
    { dir: appRoot, prefix: TEMP_PREFIX },
    { dir: tmpdir(), prefix: VITE_CACHE_PREFIX },
  ]);
  if (stale.length > 0) log(`Removed ${counted(stale.length, 'temporary folder')} left by a killed build.`);
  // Astro starts once the content passed its checks and the key may sign (a build that fails on either
  // answers seconds sooner) and bundles the pages while the site is computed; the pages wait for it.
  const site = deferred<SiteBuild>();
  // The machine-check thread's bundle, found (or made) meanwhile; none on one core (the checks run here).
  const checkWorker =
    availableParallelism() >= 2 ? compiledWorker('machine-check') : Promise.resolve(undefined);
  let out: Outputs | undefined;
  let rendering: RenderRun | undefined;
  let agents: PendingAgents | undefined;
  let writer: ArtifactWriter | undefined;
  let prepared: PreparedBuild;
  try {
    prepared = await prepareBuild({
      root,
      timer,
      // The site this build replaces: its release histories may not vanish (docs/releases.md).
      publishedDir: distDir,
      registry: values.registry,
      beforeComputing: async (outline) => {
        const { publisher } = outline.model;
        if (publisher.registry.enabled) assertReplaceableServerDir(root, serverDir);
        out = await makeOutputs(root, appRoot, publisher.registry.enabled);
        agents = pendingAgents(outline);
        writer = new ArtifactWriter(out.siteDir, publicDir);
        rendering = startRender(site.promise, {
          appRoot,
          publicDir,
          renderDir: out.renderDir,
          registry: publisher.registry.enabled,
          publisher,
          agents: agents.source,
          timer,
        });
      },
      // Each agent's pages render as soon as its card is signed, while later cards are signed; its card
      // and permission file are written then, not held to the end (over 300 MB at 10,000 agents).
      onAgent: (build) => agents?.arrived(build),
      sink: (files) => writer!.write(files),
    });
  } catch (error) {
    agents?.failed(error);
    site.reject(error);
    await rendering?.done.catch(() => {});
    await removeOutputs(out);
    throw error;
  }
  logPrepared(prepared);
  try {
    // Every agent arrived through onAgent; one that did not would leave its pages waiting.
    agents!.complete(prepared.site);
    await finish(prepared, out!, rendering!, site, { timer, started, checkWorker, writer: writer! });
  } catch (error) {
    await removeAfterFailure(out!.temp);
    await removeAfterFailure(out!.serverTemp);
    throw error;
  } finally {
    // Moved away by a build that passed; what a failed one left.
    if (out!.renderDir !== out!.temp) await removeAfterFailure(out!.renderDir);
  }
}

/** The artifacts as written before rendering, and the machine checks started over them. */
interface Written {
  written: Map<string, WrittenArtifact>;
  /** Artifacts a file of public/ shadows: written again after rendering. */
  shadowed: Artifact[];
  checks: MachineCheckRun;
}

/**
 * Writes the rest of the artifacts (the cards and permission files were written while computing) into
 * the folder Astro renders into (told not to empty it) and lets their bytes go: only their digests stay,
 * for the self-check, so the heap is smaller while Astro renders (at 10,000 agents the cards and the
 * manifest are over 300 MB). A file of public/ at an artifact's path would replace it while Astro copies
 * public/: those few are kept and written again after rendering, so the artifact wins, as the self-check
 * requires. Then starts the machine checks, which need only what is written now: in a worker thread
 * beside rendering, on the core Astro leaves idle.
 */
async function writeAndCheck(
  prepared: PreparedBuild,
  siteDir: string,
  writer: ArtifactWriter,
  { timer, bundle }: { timer: PhaseTimer; bundle: CompiledWorker | undefined },
): Promise<Written> {
  const { site } = prepared;
  await timer.time('writing', () => writer.write(site.artifacts.values()));
  const { written, shadowed } = writer;
  site.artifacts.clear();
  // The pages never read the source texts: let go of them before Astro's memory grows (about 50 MB of
  // heap at 10,000 agents).
  releaseSourceTexts(site.model);
  const checks = startMachineChecks(
    machineCheckJob(siteDir, site, {
      written,
      later: shadowed.map((a) => a.path),
      keyPatterns: prepared.keyPatterns,
      publicDir,
    }),
    {
      worker: availableParallelism() >= 2,
      ...(bundle?.file ? { bundle: bundle.file } : {}),
      onFallback: (why) => log(`The self-check thread stopped (${why}); checking in this thread.`),
    },
  );
  return { written, shadowed, checks };
}

/**
 * The second half of a build, once the site is computed: writes the artifacts, hands the site to the
 * pages (`site`), checks the machine files beside rendering, then what depends on the pages, and swaps
 * the result into place. Throws on any failure, before anything is swapped (the caller removes `out`).
 */
async function finish(
  prepared: PreparedBuild,
  out: Outputs,
  rendering: RenderRun,
  site: Deferred<SiteBuild>,
  {
    timer,
    started,
    checkWorker,
    writer,
  }: {
    timer: PhaseTimer;
    started: number;
    checkWorker: Promise<CompiledWorker | undefined>;
    writer: ArtifactWriter;
  },
): Promise<void> {
  const built = prepared.site;
  const { publisher } = built.model;
  const { temp, serverTemp, renderDir, siteDir } = out;
  let step: Written;
  try {
    step = await writeAndCheck(prepared, siteDir, writer, { timer, bundle: await checkWorker });
  } catch (error) {
    site.reject(error);
    await rendering.done.catch(() => {});
    throw error;
  }
  const { written, shadowed, checks } = step;
  site.resolve(built);
  let machine: MachineCheckResult | undefined;
  try {
    await rendering.done;
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
    finishSelfCheck(temp, siteOrigin(built), machine, { written, keyPatterns: prepared.keyPatterns }),
  );
  // The registry's server bundle is published too (it serves the index): the same search.
  if (serverTemp) {
    assertNoPrivateKeyBytes(serverTemp, prepared.keyPatterns);
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
    const figures = {
      agents: built.agents.length,
      entries: built.entries.length,
      wallMs: Math.round(performance.now() - started),
      peakRssBytes: process.resourceUsage().maxRSS * 1024,
      manifestBytes: written.get(MANIFEST_PATH)!.size,
      phasesMs: timer.toJSON(),
    };
    await writeFile(values.report, `${JSON.stringify(figures, null, 2)}\n`);
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  log(
    `Built ${shownFolder(distDir)}: ${counted(built.agents.length, 'agent')}, ${counted(built.entries.length, 'manifest entry', 'manifest entries')}; self-check: ${counted(report.passed, 'check')} passed (${seconds} s).`,
  );
  if (serverTemp) {
    log(
      `Registry mode: the lookup API (${registryBaseUri(publisher)}) is in ${shownFolder(serverDir)}; ${npmCommand('serve', root)} starts it.`,
    );
  }
}

try {
  await main();
} catch (error) {
  if (error instanceof ArdsiteError) {
    for (const d of error.diagnostics) log(formatDiagnostic(d));
    log(`Build of ${shownFolder(root)} failed: ${error.message} [${error.code}]`);
  } else {
    log(`Build of ${shownFolder(root)} failed: ${(error as Error).stack ?? String(error)}`);
  }
  process.exitCode = 1;
  // A failure answers at once: Astro's modules may still be loading (preloadAstro), which would keep the
  // process a second longer. It exits once what it wrote to stderr is flushed.
  process.stderr.write('', () => process.exit());
}
