/**
 * The build's verification of its own output, read back from disk (DESIGN.md §4): no file carries the
 * private key, every artifact's file holds what the build computed (by sha256 digest), and the verifier
 * a crawler runs (`src/core/verify/site.ts`) passes over the folder.
 *
 * It comes in two halves. The machine checks (./machine-check.ts: the artifacts and the verifier) need
 * only the artifacts, which scripts/build.ts writes before Astro renders, so they run in a worker thread
 * while Astro renders (./machine-check-thread.ts). {@link finishSelfCheck} is the half after rendering:
 * the key search over the files the machine checks did not read (pages, public/ files, artifacts written
 * again), the digests of those artifacts, and that every artifact file checked is still the one checked.
 * {@link selfCheck} runs both halves, one after the other, in this thread.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { mapLimit } from '../util/concurrency.js';
import { sha256Digest } from '../ard/digest.js';
import { filesHoldingPatterns, keyPublishedError } from '../trust/key-guards.js';
import { ArdsiteError } from '../util/errors.js';
import type { SiteBuild } from '../site/site-build.js';
import type { VerifyReport } from '../verify/site.js';
import {
  differsMessage,
  fileStamp,
  runMachineChecks,
  type MachineCheckJob,
  type MachineCheckResult,
} from './machine-check.js';
import { artifactFile, type WrittenArtifact } from './output.js';

export { selfCheckFailures } from './machine-check.js';

/** Options of {@link selfCheck}. */
export interface SelfCheckOptions {
  /** The time expiry is checked against (default now). */
  now?: Date;
  /**
   * What `writeArtifacts` wrote (URL path → digest and size), when the build no longer holds the bytes
   * (scripts/build.ts writes the cards while computing and the rest before the index renders, and lets
   * them go). Default: `site.artifacts`.
   */
  written?: ReadonlyMap<string, WrittenArtifact>;
  /**
   * The private key's byte patterns (`privateKeyPatterns` of src/core/trust/key-guards.ts): every file under
   * `outDir` is searched for them first.
   */
  keyPatterns?: readonly Buffer[];
}

/** The site's origin, `https://<domain>`, as the self-check reads the folder. */
export function siteOrigin(site: SiteBuild): string {
  return site.model.publisher.siteUrl.replace(/\/$/, '');
}

/**
 * The job of the machine checks (./machine-check.ts) for the folder `folder` of `site`: `written` as
 * `writeArtifacts` returned it, `later` the URL paths of artifacts written again after rendering.
 */
export function machineCheckJob(
  folder: string,
  site: SiteBuild,
  options: {
    written: ReadonlyMap<string, WrittenArtifact>;
    later?: Iterable<string>;
    keyPatterns?: readonly Buffer[];
    now?: Date;
    /** The project's public/ folder, which the renderer copies into `folder`. */
    publicDir?: string;
  },
): MachineCheckJob {
  return {
    folder,
    origin: siteOrigin(site),
    now: (options.now ?? new Date()).toISOString(),
    written: [...options.written].map(([urlPath, w]) => [urlPath, w.digest]),
    later: [...(options.later ?? [])],
    keyPatterns: (options.keyPatterns ?? []).map((p) => new Uint8Array(p)),
    ...(options.publicDir === undefined ? {} : { publicDir: options.publicDir }),
  };
}

/** Options of {@link finishSelfCheck}. */
export interface FinishOptions {
  /** What `writeArtifacts` wrote: every artifact the machine checks did not cover is checked here. */
  written: ReadonlyMap<string, WrittenArtifact>;
  /** The private key's byte patterns: every file the machine checks did not search is searched. */
  keyPatterns?: readonly Buffer[];
}

/**
 * The self-check after rendering, over the folder `outDir` (the one the machine checks read, or where it
 * was renamed to): combines `machine` (./machine-check.ts) with the key search over every file it did
 * not search, and the digest of every artifact it did not check whole. An artifact file it checked that
 * is not the same file any more (another stamp) is read and checked again here. Returns the verifier's
 * report when every check holds.
 * @throws ArdsiteError `KEY_PRIVATE_PUBLISHED` naming the files that hold the private key (before any
 *   other failure); `BUILD_SELF_CHECK_FAILED` listing what else failed.
 */
export async function finishSelfCheck(
  outDir: string,
  origin: string,
  machine: MachineCheckResult,
  options: FinishOptions,
): Promise<VerifyReport> {
  const same = new Set<string>();
  const covered = new Set<string>();
  for (const c of machine.checked) {
    if (fileStamp(path.join(outDir, ...c.file.split('/'))) !== c.stamp) continue;
    same.add(c.file);
    covered.add(c.urlPath);
  }
  const found = filesHoldingPatterns(outDir, options.keyPatterns ?? [], {
    skip: (relative) => same.has(relative),
  });
  if (machine.keyFiles.length + found.length > 0) throw keyPublishedError([...machine.keyFiles, ...found]);
  const problems = [...machine.problems];
  const left = [...options.written].filter(([urlPath]) => !covered.has(urlPath));
  const differs = await mapLimit(left, 32, async ([urlPath, w]) => {
    const bytes = await readFile(artifactFile(outDir, urlPath)).catch(() => undefined);
    return !bytes || sha256Digest(bytes) !== w.digest;
  });
  left.forEach(([urlPath], i) => {
    if (differs[i] && !problems.includes(differsMessage(urlPath))) problems.push(differsMessage(urlPath));
  });
  if (problems.length > 0) {
    throw new ArdsiteError(
      'BUILD_SELF_CHECK_FAILED',
      `the built site did not verify; dist/ was left as it was:\n  ${problems.join('\n  ')}`,
    );
  }
  return { origin, entries: machine.entries, passed: machine.passed, findings: machine.findings };
}

/**
 * Verifies the folder `outDir` as the site of `site`, both halves in this thread: the machine checks
 * (./machine-check.ts) and {@link finishSelfCheck}. Every artifact's file must hold what the build
 * computed (by sha256 digest), and the verifier of `npm run verify` must pass, without the warnings that
 * mean ardsite's own profile does not hold (an unsigned card, a card that does not name its entry, a
 * well-known card that is no entry's). Returns the report when every check holds.
 * @throws ArdsiteError `KEY_PRIVATE_PUBLISHED` naming the files that hold the private key (see
 *   {@link SelfCheckOptions.keyPatterns}); `BUILD_SELF_CHECK_FAILED` listing what else failed.
 */
export async function selfCheck(
  outDir: string,
  site: SiteBuild,
  options: SelfCheckOptions = {},
): Promise<VerifyReport> {
  const written =
    options.written ??
    new Map(
      [...site.artifacts.values()].map((a) => [
        a.path,
        { digest: sha256Digest(a.bytes), size: a.bytes.length },
      ]),
    );
  const job = machineCheckJob(outDir, site, {
    written,
    ...(options.keyPatterns ? { keyPatterns: options.keyPatterns } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  const machine = await runMachineChecks(job, Promise.resolve());
  return finishSelfCheck(outDir, job.origin, machine, {
    written,
    ...(options.keyPatterns ? { keyPatterns: options.keyPatterns } : {}),
  });
}
