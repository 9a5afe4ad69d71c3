/**
 * The first half of a build, with no file written: load and check the content, find the signing key,
 * compute every artifact (DESIGN.md §4 order of work). A failure here leaves `dist/` untouched.
 */
import { loadAndCheck } from '../content/index.js';
import { ArdsiteError, hasErrors, type Diagnostic } from '../util/errors.js';
import { gitLastCommitTimes, isoSeconds, sourceDateEpoch } from '../project/git-time.js';
import { didWebFromDomain } from '../trust/did.js';
import { keyInPublicMessage } from '../content/file-checks.js';
import { assertKeyMaySign, privateKeyPatterns } from '../trust/key-guards.js';
import { publishedHolder, scanPublicFolder } from '../project/project-jail.js';
import { assertOperatorKey } from '../trust/operator-trust.js';
import { loadPublicKeysForRotation } from '../trust/retired-keys.js';
import { resolveSigningKey, type ResolvedSigningKey } from '../trust/key-file.js';
import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { startSignerThreads, type SignerPool } from '../trust/signer-pool.js';
import { compiledWorker } from '../util/compiled-worker.js';
import type { SigningKey } from '../trust/keys.js';
import { computeSite } from './site.js';
import { assertRegistryIdentifierFree, modelIdentifiers } from '../site/site-registry-entry.js';
import type { AgentBuild, Artifact, SiteBuild, SiteOutline } from '../site/site-build.js';
import { PhaseTimer } from '../util/timings.js';

/** Inputs of {@link prepareBuild}. */
export interface PrepareOptions {
  /** Absolute project root. */
  root: string;
  /** Environment (default `process.env`): signing key variables, `CI`, `SOURCE_DATE_EPOCH`. */
  env?: NodeJS.ProcessEnv;
  /** The build time when SOURCE_DATE_EPOCH is unset (default now). */
  now?: Date;
  /**
   * Receives phase timings (`loading/checks`, of which `specs/resolution`; `signing`,
   * `computing`, of which `permissions`).
   */
  timer?: PhaseTimer;
  /**
   * The site published before (the output folder this build replaces): its changes documents hold the
   * release histories (`RELEASE_HISTORY_LOST`, src/core/releases/published-history.ts).
   */
  publishedDir?: string;
  /** Registry mode (`npm run build -- --registry`): as if publisher.yaml said `registry.enabled: true`. */
  registry?: boolean;
  /** The path the HTML pages sit under (`/ai`): as if publisher.yaml said `hosting.pagesPrefix`. */
  pagesPrefix?: string;
  /**
   * Worker threads that sign and seal the cards (src/core/trust/signer-pool.ts). Default: one per core
   * (at most 4) from {@link MIN_AGENTS_FOR_SIGNING_WORKERS} agent files in `content/agents/` on a machine
   * with two cores or more; else none. They start before the content is read.
   */
  signingWorkers?: number;
  /**
   * Called (and awaited) once the content passed its checks and the key may sign, before the site is
   * computed, with the site's outline (its model with registry mode applied, DID, key id, build time):
   * scripts/build.ts starts Astro there, so that it loads and bundles the pages while the site is
   * computed, and renders each agent's pages once {@link onAgent} heard of it. What it throws fails the
   * build.
   */
  beforeComputing?: (outline: SiteOutline) => void | Promise<void>;
  /**
   * Hears each agent's build as soon as it is complete (src/core/site/site-options.ts
   * `ComputeSiteOptions.onAgent`).
   */
  onAgent?: (build: AgentBuild) => void;
  /**
   * Takes each agent's card and permission file as computed (src/core/site/site-options.ts
   * `ComputeSiteOptions.sink`).
   */
  sink?: (artifacts: Artifact[]) => Promise<void>;
}

/**
 * Fewest agents for which signing moves to worker threads by default. The threads start before the
 * content is read, so that they load their code (through tsx) while the main
 * thread reads and checks; each agent then costs the main thread its card only (the workers canonicalise,
 * sign and serialise it, three ES256 signatures among it). Below a few hundred agents the threads' start is more than they save.
 */
export const MIN_AGENTS_FOR_SIGNING_WORKERS = 500;

/** How many signing threads a build of `agents` agents uses (see {@link PrepareOptions.signingWorkers}). */
function signingWorkers(agents: number, requested: number | undefined): number {
  if (requested !== undefined) return Math.max(0, Math.floor(requested));
  const cores = availableParallelism();
  return agents >= MIN_AGENTS_FOR_SIGNING_WORKERS && cores >= 2 ? Math.min(cores, 4) : 0;
}

/** The agent files of `content/agents/` under `root` (0 when the folder cannot be read): a first count. */
function agentFiles(root: string): number {
  try {
    return readdirSync(path.join(root, 'content', 'agents')).filter((name) => name.endsWith('.md')).length;
  } catch {
    return 0;
  }
}

/** A computed site plus what the caller reports: the warnings and where the key came from. */
export interface PreparedBuild {
  site: SiteBuild;
  /** What the self-check searches every written file for (src/core/trust/key-guards.ts); never print it. */
  keyPatterns: Buffer[];
  warnings: Diagnostic[];
  key: Omit<ResolvedSigningKey, 'key'> & { kid: string };
}

/**
 * Loads, checks and computes the site.
 * @throws ArdsiteError `BUILD_CONTENT_INVALID` (with every diagnostic) when the content has errors; the
 *   key errors of `resolveSigningKey` (`KEY_MISSING`, `KEY_INVALID`, `KEY_WRONG_TYPE`, `KEY_NOT_IGNORED`,
 *   `FILE_OUTSIDE_PROJECT`); `KEY_REVOKED` / `KEY_RETIRED` (the key is listed under signing.retiredKeys);
 *   `KEY_IN_PUBLIC_FOLDER` (the key file lies where public/ is copied from); `KEY_NOT_CONFIRMED` (the key
 *   comes from signing.keyFile or a key file git tracks, and ARDSITE_TRUSTED_KEYS does not name it);
 *   `ARD_DUPLICATE_ENTRY` (registry mode: an agent or entry has the registry's URN), these before
 *   `beforeComputing` is called; the builder's errors.
 */
export async function prepareBuild(options: PrepareOptions): Promise<PreparedBuild> {
  // Many agents: signing threads, started now so that they load while the content is read and checked,
  // from the bundled worker when it can be made (no tsx in the threads), else through tsx.
  const workers = signingWorkers(agentFiles(options.root), options.signingWorkers);
  const compiled = workers > 0 ? await compiledWorker('signer') : undefined;
  const threads =
    workers > 0
      ? startSignerThreads({ workers, ...(compiled?.file ? { workerFile: compiled.file } : {}) })
      : undefined;
  let pool: SignerPool | undefined;
  try {
    return await prepareWith(options, (key) => (pool = threads?.withKey(key)));
  } finally {
    if (pool) {
      options.timer?.add('signing (worker threads)', pool.busyMs);
      if (pool.cpuMs !== undefined) options.timer?.addThreadCpu('signing worker threads', pool.cpuMs);
    }
    await threads?.close();
  }
}

/** {@link prepareBuild} once the signing threads are started: `signerFor(key)` gives them the key. */
async function prepareWith(
  options: PrepareOptions,
  signerFor: (key: SigningKey) => SignerPool | undefined,
): Promise<PreparedBuild> {
  const env = options.env ?? process.env;
  const timer = options.timer ?? new PhaseTimer();
  const { model: loaded, diagnostics } = await timer.time('loading/checks', () =>
    loadAndCheck({
      root: options.root,
      timer,
      env,
      ...(options.publishedDir === undefined ? {} : { publishedDir: options.publishedDir }),
    }),
  );
  if (!loaded || hasErrors(diagnostics)) {
    throw new ArdsiteError('BUILD_CONTENT_INVALID', 'the content has errors; nothing was built', diagnostics);
  }
  const withRegistry =
    options.registry && !loaded.publisher.registry.enabled
      ? {
          ...loaded,
          publisher: { ...loaded.publisher, registry: { ...loaded.publisher.registry, enabled: true } },
        }
      : loaded;
  const model =
    options.pagesPrefix === undefined
      ? withRegistry
      : {
          ...withRegistry,
          publisher: {
            ...withRegistry.publisher,
            hosting: { ...withRegistry.publisher.hosting, pagesPrefix: options.pagesPrefix },
          },
        };
  const { publisher } = model;
  const buildTime = sourceDateEpoch(env) ?? options.now ?? new Date();
  const resolved = await resolveSigningKey({
    root: model.root,
    domain: publisher.domain,
    env,
    keyFile: publisher.signing.keyFile,
    requireKey: publisher.signing.requireKey,
    algorithm: publisher.signing.algorithm,
  });
  // A key content chose signs only when the operator confirmed it (DESIGN.md §10); a revoked key, or one
  // past its retireAt, never signs; a key file that public/ would copy is refused.
  assertOperatorKey(resolved.key.kid, resolved.chosenByContent, model.operator);
  assertKeyMaySign(resolved.key, publisher.signing.retiredKeys ?? [], buildTime);
  if (resolved.file !== undefined) {
    const holder = publishedHolder(resolved.file, scanPublicFolder(model.jail));
    if (holder !== undefined) {
      throw new ArdsiteError('KEY_IN_PUBLIC_FOLDER', keyInPublicMessage(resolved.source, model.root, holder));
    }
  }
  const keyPatterns = privateKeyPatterns(resolved.key);
  const retiredKeys = loadPublicKeysForRotation(
    publisher.signing.retiredKeys ?? [],
    buildTime,
    publisher.domain,
  );
  // Known from the model alone, so refused before Astro starts (`beforeComputing`) and before signing.
  if (publisher.registry.enabled) assertRegistryIdentifierFree(publisher, modelIdentifiers(model));
  await options.beforeComputing?.({
    model,
    did: didWebFromDomain(publisher.domain),
    kid: resolved.key.kid,
    alg: resolved.key.alg,
    builtAt: isoSeconds(buildTime),
  });
  const pool = signerFor(resolved.key);
  const gitTimes = await timer.time('git', () => gitLastCommitTimes(model.root));
  const site = await timer.time('computing', () =>
    computeSite(model, {
      key: resolved.key,
      retiredKeys,
      buildTime,
      gitTimes,
      timer,
      ...(pool ? { signer: pool } : {}),
      ...(options.onAgent ? { onAgent: options.onAgent } : {}),
      ...(options.sink ? { sink: options.sink } : {}),
    }),
  );
  return {
    site,
    keyPatterns,
    warnings: diagnostics,
    key: {
      source: resolved.source,
      created: resolved.created,
      ephemeral: resolved.ephemeral,
      kid: resolved.key.kid,
      ...(resolved.file === undefined ? {} : { file: resolved.file }),
    },
  };
}
