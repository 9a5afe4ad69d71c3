/**
 * The first half of a build, with no file written: load and check the content, find the signing key,
 * compute every artifact (DESIGN.md §4 order of work). A failure here leaves `dist/` untouched.
 */
import { loadAndCheck } from '../content/index.js';
import { ArdsiteError, hasErrors, type Diagnostic } from '../errors.js';
import { gitLastCommitTimes, sourceDateEpoch } from '../git-time.js';
import { keyInPublicMessage } from '../content/file-checks.js';
import { assertKeyMaySign, privateKeyPatterns } from '../trust/key-guards.js';
import { publishedHolder, scanPublicFolder } from '../project-jail.js';
import { loadPublicKeysForRotation } from '../trust/keys.js';
import { resolveSigningKey, type ResolvedSigningKey } from '../trust/key-file.js';
import { availableParallelism } from 'node:os';
import { createSignerPool } from '../trust/signer-pool.js';
import { computeSite } from '../site.js';
import type { SiteBuild } from '../site-build.js';
import { PhaseTimer } from '../timings.js';

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
  /** Registry mode (`npm run build -- --registry`): as if publisher.yaml said `registry.enabled: true`. */
  registry?: boolean;
  /**
   * Worker threads that sign (src/core/trust/signer-pool.ts). Default: one per core (at most 4) from
   * {@link MIN_AGENTS_FOR_SIGNING_WORKERS} agents on a machine with two cores or more; else none.
   */
  signingWorkers?: number;
}

/**
 * Fewest agents for which signing moves to worker threads by default: below it, starting the threads
 * (a second or two: each loads the TypeScript signer, on the cores the build uses) costs more than it
 * saves (measured: 1,000 agents computed in 2.8 s with two workers, 2.2 s without).
 */
export const MIN_AGENTS_FOR_SIGNING_WORKERS = 2500;

/** How many signing threads a build of `agents` agents uses (see {@link PrepareOptions.signingWorkers}). */
function signingWorkers(agents: number, requested: number | undefined): number {
  if (requested !== undefined) return Math.max(0, Math.floor(requested));
  const cores = availableParallelism();
  return agents >= MIN_AGENTS_FOR_SIGNING_WORKERS && cores >= 2 ? Math.min(cores, 4) : 0;
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
 *   `KEY_IN_PUBLIC_FOLDER` (the key file lies where public/ is copied from);
 *   the builder's errors.
 */
export async function prepareBuild(options: PrepareOptions): Promise<PreparedBuild> {
  const env = options.env ?? process.env;
  const timer = options.timer ?? new PhaseTimer();
  const { model: loaded, diagnostics } = await timer.time('loading/checks', () =>
    loadAndCheck({ root: options.root, timer }),
  );
  if (!loaded || hasErrors(diagnostics)) {
    throw new ArdsiteError('BUILD_CONTENT_INVALID', 'the content has errors; nothing was built', diagnostics);
  }
  const model =
    options.registry && !loaded.publisher.registry.enabled
      ? {
          ...loaded,
          publisher: { ...loaded.publisher, registry: { ...loaded.publisher.registry, enabled: true } },
        }
      : loaded;
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
  // A revoked key, or one past its retireAt, never signs; a key file that public/ would copy is refused.
  assertKeyMaySign(resolved.key, publisher.signing.retiredKeys ?? [], buildTime);
  if (resolved.file !== undefined) {
    const holder = publishedHolder(
      resolved.file,
      scanPublicFolder({ root: model.root, allowOutside: publisher.allowOutside }),
    );
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
  // Many agents: sign in worker threads (started now, they load while git runs and cards are built).
  const workers = signingWorkers(model.agents.length, options.signingWorkers);
  const pool = workers > 0 ? createSignerPool(resolved.key, { workers }) : undefined;
  let site: SiteBuild;
  try {
    const gitTimes = await timer.time('git', () => gitLastCommitTimes(model.root));
    site = await timer.time('computing', () =>
      computeSite(model, {
        key: resolved.key,
        retiredKeys,
        buildTime,
        gitTimes,
        timer,
        ...(pool ? { signer: pool } : {}),
      }),
    );
  } finally {
    if (pool) {
      timer.add('signing (worker threads)', pool.busyMs);
      await pool.close();
    }
  }
  return {
    site,
    keyPatterns,
    warnings: diagnostics,
    key: {
      source: resolved.source,
      created: resolved.created,
      ephemeral: resolved.ephemeral,
      kid: resolved.key.kid,
    },
  };
}
