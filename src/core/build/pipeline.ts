/**
 * The build pipeline, as a function that returns its result (`build()`): checks the content, signs and
 * computes every artifact, writes the artifacts into a temporary folder (keeping only their digests),
 * renders the pages with Astro into the same folder, verifies the result from disk, and only then swaps
 * it into the output folder (ARD draft §3.5 for the signed manifest; A2A §8.4 for the card signatures).
 * A failed build leaves the output folder untouched. No key material is ever reported.
 *
 * Control flows one way: the caller passes options and one event sink (`onEvent`, ./events.ts), and gets
 * the result or an ArdsiteError; nothing here prints or exits. The pages still receive the site through
 * the slots of src/core/site/build-context.ts: Astro loads them in Vite's module graph, a separate module
 * instance from this one, so a value on `globalThis` is the one way to hand them a live promise.
 *
 * The work overlaps where it can: Astro starts once the content passed its checks and bundles the pages
 * while the site is computed (./render.ts); each agent's pages render as soon as its card is signed, and
 * its card and permission file are written then, while later cards are signed; the index renders once the
 * whole site is there; the machine-readable files are verified in a worker thread while Astro renders
 * (./machine-check-thread.ts); after rendering only what depends on the pages is checked (./self-check.ts).
 *
 * Registry mode (`registry: true`, or `registry.enabled: true` in publisher.yaml): ard.json also lists the
 * signed `application/ai-registry+json` entry, and Astro runs with @astrojs/node in `middleware` mode and
 * the lookup API's routes (src/core/build/registry-astro.ts). The output folder still holds exactly the static
 * site; the server bundle goes to `<out>-server/` (../registry/bundle.ts). Both are swapped in only when
 * the self-check passed.
 */
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
} from './output.js';
import { prepareBuild, type PreparedBuild } from './prepare.js';
import { compiledWorker, type CompiledWorker } from '../util/compiled-worker.js';
import { removeStaleTempFolders, TEMP_PREFIX, VITE_CACHE_PREFIX } from './stale-temp.js';
import { finishSelfCheck, machineCheckJob, siteOrigin } from './self-check.js';
import type { MachineCheckResult } from './machine-check.js';
import { startMachineChecks, type MachineCheckRun } from './machine-check-thread.js';
import type { Artifact, SiteBuild } from '../site/site-build.js';
import { releaseSourceTexts } from '../content/index.js';
import { registryTextsOf, writeRegistryTexts } from './registry-texts.js';
import { pendingAgents, type PendingAgents } from '../site/build-context.js';
import { deferred, type Deferred } from '../util/concurrency.js';
import { ArdsiteError, type Diagnostic } from '../util/errors.js';
import { assertNoPrivateKeyBytes } from '../trust/key-guards.js';
import {
  assertReplaceableServerDir,
  registryServerDir,
  writeRegistryDescriptor,
} from '../registry/bundle.js';
import { MANIFEST_PATH } from '../ard/well-known.js';
import { registryBaseUri, registryIdentifier } from '../site/site-registry-entry.js';
import { cpuReport, PhaseTimer, type CpuReport } from '../util/timings.js';
import { appRoot as packageRoot } from '../project/app-root.js';
import type { BuildEvent, EventSink } from './events.js';
import {
  makeOutputs,
  preloadAstro,
  removeOutputs,
  startRender,
  type Outputs,
  type RenderRun,
} from './render.js';

/** Inputs of {@link build}. */
export interface BuildOptions {
  /** Absolute path of the publisher's project (its `content/`, `public/`, `.ardsite/`). */
  root: string;
  /** The output folder, relative to `root` or absolute (default `dist`). */
  out?: string;
  /** Registry mode: as if publisher.yaml said `registry.enabled: true`. */
  registry?: boolean;
  /** The path the HTML pages sit under (`/ai`): as if publisher.yaml said `hosting.pagesPrefix`. */
  pagesPrefix?: string;
  /** Environment (default `process.env`): signing key variables, `CI`, `SOURCE_DATE_EPOCH`. */
  env?: NodeJS.ProcessEnv;
  /** Receives the build's progress and warnings as they happen (./events.ts); never required. */
  onEvent?: EventSink;
}

/** What a build that passed made. */
export interface BuildResult {
  /** Absolute path of the output folder now holding the static site. */
  outDir: string;
  /** Registry mode: absolute path of the lookup API's server bundle (`<out>-server/`). */
  serverDir?: string;
  /** The lookup API's base URI in registry mode (ARD draft §4.2). */
  registryUrl?: string;
  agents: number;
  entries: number;
  /** Checks of the self-check that passed. */
  checksPassed: number;
  /** The content's warnings (errors fail the build instead). */
  warnings: Diagnostic[];
  /** Where the signing key came from; never its material. */
  key: Extract<BuildEvent, { type: 'key' }>;
  /** Milliseconds from the call to the swap. */
  wallMs: number;
  /** Bytes of `/.well-known/ard.json`. */
  manifestBytes: number;
  /** Milliseconds per named phase (../timings.ts). */
  phasesMs: Record<string, number>;
  /** CPU time of the build's process, its threads and its phases, in milliseconds (benchmarks read it). */
  cpu: CpuReport;
}

/** The folders and the sink of one call of {@link build}. */
interface BuildRun {
  root: string;
  /** The app Astro runs in: src/pages, src/components, node_modules (../app-root.ts). */
  appRoot: string;
  distDir: string;
  publicDir: string;
  serverDir: string;
  emit: (event: BuildEvent) => void;
}

/** The `key` event of a prepared build: where the key came from, never its material. */
function keyEvent(prepared: PreparedBuild): Extract<BuildEvent, { type: 'key' }> {
  const { key } = prepared;
  return {
    type: 'key',
    source: key.source,
    kid: key.kid,
    created: key.created,
    ephemeral: key.ephemeral,
    ...(key.file ? { file: key.file } : {}),
  };
}

/**
 * Builds the project at `options.root` into its output folder (ARD draft §3.5 manifest, A2A §8.4 signed
 * cards, did:web keys, pages), and returns what it made. Progress and warnings go to `options.onEvent`.
 *
 * @throws ArdsiteError with the content's diagnostics (`CONTENT_INVALID` and the like), a key that may
 *   not sign, an output folder that may not be replaced (`BUILD_OUT_DIR_UNSAFE`), a failed rendering
 *   (`BUILD_RENDER_FAILED`) or a failed self-check; the output folder is then untouched.
 */
export async function build(options: BuildOptions): Promise<BuildResult> {
  const root = path.resolve(options.root);
  const distDir = path.resolve(root, options.out ?? 'dist');
  const run: BuildRun = {
    root,
    appRoot: packageRoot(),
    distDir,
    publicDir: path.join(root, 'public'),
    serverDir: registryServerDir(distDir),
    emit: (event) => options.onEvent?.(event),
  };
  const { appRoot, publicDir, serverDir } = run;
  const started = performance.now();
  const timer = new PhaseTimer();
  void preloadAstro();
  // Before any work: an output folder that a swap would destroy (content/, the project itself, …) is refused.
  assertReplaceableOutDir(root, distDir);
  // What killed builds left behind: their temporary folders, never those of a build still running.
  const stale = await removeStaleTempFolders([
    { dir: root, prefix: TEMP_PREFIX },
    { dir: appRoot, prefix: TEMP_PREFIX },
    { dir: tmpdir(), prefix: VITE_CACHE_PREFIX },
  ]);
  if (stale.length > 0) run.emit({ type: 'stale-temp-removed', folders: stale });
  // Astro starts once the content passed its checks and the key may sign (a build that fails on either
  // answers seconds sooner) and bundles the pages while the site is computed; the pages wait for it.
  const site = deferred<SiteBuild>();
  // The machine-check thread's compiled file, found (or made) meanwhile; none on one core (the checks run here).
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
      registry: options.registry ?? false,
      ...(options.pagesPrefix === undefined ? {} : { pagesPrefix: options.pagesPrefix }),
      ...(options.env ? { env: options.env } : {}),
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
      // and permission file are written then, not held to the end.
      onAgent: (agentBuild) => agents?.arrived(agentBuild),
      sink: (files) => writer!.write(files),
    });
  } catch (error) {
    agents?.failed(error);
    site.reject(error);
    await rendering?.done.catch(() => {});
    await removeOutputs(out);
    throw error;
  }
  for (const diagnostic of prepared.warnings) run.emit({ type: 'diagnostic', diagnostic });
  const key = keyEvent(prepared);
  run.emit(key);
  try {
    // Every agent arrived through onAgent; one that did not would leave its pages waiting.
    agents!.complete(prepared.site);
    const finished = await finish(prepared, out!, rendering!, site, {
      run,
      timer,
      checkWorker,
      writer: writer!,
    });
    return {
      ...finished,
      warnings: prepared.warnings,
      key,
      wallMs: Math.round(performance.now() - started),
      phasesMs: timer.toJSON(),
      cpu: cpuReport(timer),
    };
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
 * for the self-check, so the heap is smaller while Astro renders (on a large site the cards and the
 * manifest are most of it). A file of public/ at an artifact's path would replace it while Astro copies
 * public/: those few are kept and written again after rendering, so the artifact wins, as the self-check
 * requires. Then starts the machine checks, which need only what is written now: in a worker thread
 * beside rendering, on the core Astro leaves idle.
 */
async function writeAndCheck(
  prepared: PreparedBuild,
  siteDir: string,
  writer: ArtifactWriter,
  { run, timer, bundle }: { run: BuildRun; timer: PhaseTimer; bundle: CompiledWorker | undefined },
): Promise<Written> {
  const { site } = prepared;
  await timer.time('writing', () => writer.write(site.artifacts.values()));
  const { written, shadowed } = writer;
  site.artifacts.clear();
  // The pages never read the source texts: let go of them before Astro's memory grows.
  releaseSourceTexts(site.model);
  const checks = startMachineChecks(
    machineCheckJob(siteDir, site, {
      written,
      later: shadowed.map((a) => a.path),
      keyPatterns: prepared.keyPatterns,
      publicDir: run.publicDir,
    }),
    {
      worker: availableParallelism() >= 2,
      ...(bundle?.file ? { bundle: bundle.file } : {}),
      onFallback: (reason) => run.emit({ type: 'self-check-in-main-thread', reason }),
    },
  );
  return { written, shadowed, checks };
}

/**
 * The second half of a build, once the site is computed: writes the artifacts, hands the site to the
 * pages (`site`), checks the machine files beside rendering, then what depends on the pages, and swaps
 * the result into place. Returns the figures of {@link BuildResult} it knows. Throws on any failure,
 * before anything is swapped (the caller removes `out`).
 */
async function finish(
  prepared: PreparedBuild,
  out: Outputs,
  rendering: RenderRun,
  site: Deferred<SiteBuild>,
  {
    run,
    timer,
    checkWorker,
    writer,
  }: {
    run: BuildRun;
    timer: PhaseTimer;
    checkWorker: Promise<CompiledWorker | undefined>;
    writer: ArtifactWriter;
  },
): Promise<Omit<BuildResult, 'warnings' | 'key' | 'wallMs' | 'phasesMs' | 'cpu'>> {
  const { distDir, serverDir } = run;
  const built = prepared.site;
  const { publisher } = built.model;
  const { temp, serverTemp, renderDir, siteDir } = out;
  let step: Written;
  try {
    step = await writeAndCheck(prepared, siteDir, writer, { run, timer, bundle: await checkWorker });
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
  if (machine.cpuMs !== undefined) timer.addThreadCpu('self-check worker thread', machine.cpuMs);
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
    await writeRegistryTexts(serverTemp, registryTextsOf(built, written.get(MANIFEST_PATH)!.digest));
  }
  await timer.time('swap', async () => {
    // The server bundle first: a failure between the two swaps leaves a bundle whose descriptor does not
    // match dist/, which npm run serve detects and rebuilds, never a dist/ served by a stale bundle.
    if (serverTemp) await swapFolder(serverTemp, serverDir);
    await swapIntoPlace(temp, distDir);
  });
  return {
    outDir: distDir,
    ...(serverTemp ? { serverDir, registryUrl: registryBaseUri(publisher) } : {}),
    agents: built.agents.length,
    entries: built.entries.length,
    checksPassed: report.passed,
    manifestBytes: written.get(MANIFEST_PATH)!.size,
  };
}
