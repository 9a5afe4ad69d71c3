/**
 * The half of the build's self-check (DESIGN.md §4) that needs only the machine-readable artifacts: every
 * artifact file holds the bytes the build wrote (sha256 digest) and none of the private key's byte
 * patterns, and the verifier of `npm run verify` (src/core/verify/site.ts) passes over the folder. It can
 * run while Astro renders the pages into the same folder (./machine-check-thread.ts runs it in a worker
 * thread): reads of what the verifier needs that is not an artifact written before rendering (a file of
 * public/, a page, an artifact public/ shadows and the build writes again) wait until `rendered`
 * resolves. What it read of each artifact file is recorded by a stamp (device, inode, size, times), so
 * that the check after rendering (./self-check.ts `finishSelfCheck`) can tell that the file is still the
 * one checked and leave it out of its own reading.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { sha256Digest } from '../ard/digest.js';
import type { VerifyFinding } from '../verify/findings.js';
import { folderReader } from '../verify/folder-reader.js';
import type { SiteReader } from '../verify/reader.js';
import { verifySite } from '../verify/site.js';
import { ArdsiteError, type ErrorCode } from '../util/errors.js';
import { artifactFile } from './output.js';

/**
 * Warnings of the verifier that fail a build: what ARD and A2A leave optional and ardsite always writes
 * (DESIGN.md §3, §4), so that their absence in its own output is a fault of the build.
 */
const ARDSITE_PROFILE: ReadonlySet<ErrorCode> = new Set([
  'CARD_UNSIGNED',
  'CARD_PARTLY_SIGNED',
  'CARD_ENTRY_UNDECLARED',
  'JSON_BOM',
  'WELL_KNOWN_CARD_UNLISTED',
  'AI_CATALOG_MISMATCH',
  'AI_CATALOG_SIGNATURE_UNBOUND',
]);

/**
 * The findings of a verification that fail the build: every error, and the warnings of
 * {@link ARDSITE_PROFILE} (`CARD_UNSIGNED`, `CARD_PARTLY_SIGNED`, `CARD_ENTRY_UNDECLARED`, `JSON_BOM`,
 * `WELL_KNOWN_CARD_UNLISTED`, `AI_CATALOG_MISMATCH`, `AI_CATALOG_SIGNATURE_UNBOUND`).
 */
export function selfCheckFailures(findings: readonly VerifyFinding[]): VerifyFinding[] {
  return findings.filter((f) => f.severity === 'error' || ARDSITE_PROFILE.has(f.code));
}

/** What {@link runMachineChecks} checks. Plain data, so that it can be posted to a worker thread. */
export interface MachineCheckJob {
  /** The folder the site is written into (Astro's output folder while it renders). */
  folder: string;
  /** The site's origin, `https://<domain>` (no trailing slash). */
  origin: string;
  /** The time expiry is checked against, ISO 8601. */
  now: string;
  /** URL path → `sha256:<hex>` of every artifact written (./output.ts `writeArtifacts`). */
  written: Array<[urlPath: string, digest: string]>;
  /**
   * URL paths of artifacts that are written again after rendering (a file of public/ at their path
   * replaces them while Astro copies public/): not read before `rendered`, and left to the check after.
   */
  later: string[];
  /** The private key's byte patterns (src/core/trust/key-guards.ts `privateKeyPatterns`); never printed. */
  keyPatterns: Uint8Array[];
  /** The project's public/ folder, whose files Astro copies into `folder` while it renders. */
  publicDir?: string;
}

/** One artifact file as it was checked. */
export interface CheckedArtifact {
  /** Its URL path. */
  urlPath: string;
  /** Its path relative to the folder, with `/` (as key-guards.ts lists files). */
  file: string;
  /** {@link fileStamp} of the file before it was read: unchanged means the same file. */
  stamp: string;
}

/** What {@link runMachineChecks} found. Plain data, so that a worker thread can post it. */
export interface MachineCheckResult {
  /** Checks that held (the verifier's count). */
  passed: number;
  /** Manifest entries verified. */
  entries: number;
  /** Every finding of the verifier (the failing ones are also in `problems`). */
  findings: VerifyFinding[];
  /** What failed, one line each (`<subject>: <message> [<code>]`, or `<path>: the file on disk differs…`). */
  problems: string[];
  /** Files (relative, `/`) holding the private key's bytes. */
  keyFiles: string[];
  /** The artifact files checked, whole (digest and key patterns), before `later` ones were rewritten. */
  checked: CheckedArtifact[];
  /**
   * The other files the verifier read before the pages were rendered (relative, `/`), with their
   * {@link fileStamp} then (`missing` for a file that was not there): what it found holds only if they
   * are the same after rendering (see {@link staleReads}).
   */
  readBefore: Array<{ file: string; stamp: string }>;
  /** Milliseconds from the start of the checks to their end, waits for the pages included. */
  elapsedMs: number;
  /**
   * Milliseconds the checks kept a worker thread busy (its event loop's active time: no waits), when they
   * ran in one.
   */
  busyMs?: number;
  /** Milliseconds of CPU the worker thread used (src/core/util/thread-cpu.ts), when they ran in one on Linux. */
  cpuMs?: number;
}

/**
 * A stamp of the file `file` (device, inode, size, modification and change times in nanoseconds): a file
 * replaced or written again gets another stamp. `missing` when it cannot be read.
 */
export function fileStamp(file: string): string {
  try {
    const s = statSync(file, { bigint: true });
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch {
    return 'missing';
  }
}

/** The message of an artifact whose file does not hold the bytes written (the self-check's wording). */
export const differsMessage = (urlPath: string) =>
  `${urlPath}: the file on disk differs from what the build computed`;

/** The relative path (with `/`) of an artifact's file under `folder`. */
export function artifactRelative(folder: string, urlPath: string): string {
  return path.relative(folder, artifactFile(folder, urlPath)).split(path.sep).join('/');
}

/**
 * Runs the machine checks of `job` in this thread: the verifier over the folder, with every artifact it
 * reads checked on the same bytes (digest and key patterns), then the artifacts it did not read. A read
 * of what rendering may still write (a page, `/_astro/`, a file of public/, an artifact of `job.later`)
 * waits for `rendered`; any other file the verifier reads before then (one that is not there, mostly,
 * such as an A2A well-known card a site does not have) is read at once and listed in `readBefore`, so
 * the checks end, and let go of their memory, while Astro renders. Never throws for a broken site: what
 * fails is in `problems` and `keyFiles` (a manifest that cannot be read too).
 * @throws Error only for a fault of the checks themselves (a bug), never for what the folder holds.
 */
export async function runMachineChecks(
  job: MachineCheckJob,
  rendered: Promise<void>,
): Promise<MachineCheckResult> {
  const started = performance.now();
  const later = new Set(job.later);
  const early = new Map(job.written.filter(([urlPath]) => !later.has(urlPath)));
  const patterns = job.keyPatterns.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength));
  // An artifact file that could not be read is not `checked`: the check after rendering reads it again
  // (a file there that cannot be read fails the key search, one that is missing fails its digest).
  const seen = new Map<string, CheckedArtifact & { holds: boolean; key: boolean; read: boolean }>();
  const check = (urlPath: string, stamp: string, bytes: Uint8Array | undefined) => {
    const buffer = bytes && Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const holds = buffer !== undefined && sha256Digest(buffer) === early.get(urlPath);
    const key = buffer !== undefined && patterns.some((p) => buffer.includes(p));
    const before = seen.get(urlPath);
    if (before) {
      // Read twice: both reads must hold, of one and the same file.
      before.holds &&= holds && before.stamp === stamp;
      before.key ||= key;
      before.read &&= buffer !== undefined;
    } else {
      const file = artifactRelative(job.folder, urlPath);
      seen.set(urlPath, { urlPath, file, stamp, holds, key, read: buffer !== undefined });
    }
  };
  const inner = folderReader(job.folder, job.origin);
  const base = new URL(job.origin);
  let isRendered = false;
  void rendered.then(() => (isRendered = true));
  const readBefore = new Map<string, string>();
  // What rendering may write: pages, Astro's assets, public/'s files, the artifacts written again.
  const mayChange = (urlPath: string, file: string) =>
    later.has(urlPath) ||
    file.endsWith('.html') ||
    file.startsWith('_astro/') ||
    (job.publicDir !== undefined && existsSync(artifactFile(job.publicDir, urlPath)));
  const reader: SiteReader = {
    async read(url: string) {
      let urlPath: string | undefined;
      try {
        const u = new URL(url);
        if (u.origin === base.origin) urlPath = decodeURIComponent(u.pathname);
      } catch {
        // not a URL this reader can map: the folder reader says why
      }
      if (urlPath === undefined) return inner.read(url);
      if (!early.has(urlPath)) {
        const file = artifactRelative(job.folder, urlPath);
        if (mayChange(urlPath, file)) await rendered;
        else if (!isRendered && !readBefore.has(file)) {
          readBefore.set(file, fileStamp(artifactFile(job.folder, urlPath)));
        }
        return inner.read(url);
      }
      const stamp = fileStamp(artifactFile(job.folder, urlPath));
      try {
        const doc = await inner.read(url);
        check(urlPath, stamp, doc?.bytes);
        return doc;
      } catch (error) {
        check(urlPath, stamp, undefined);
        throw error;
      }
    },
  };
  const problems: string[] = [];
  let report: { passed: number; entries: number; findings: VerifyFinding[] };
  try {
    report = await verifySite(reader, { origin: job.origin, now: new Date(job.now) });
  } catch (error) {
    // The manifest cannot be read at all (the verifier's FILE_MISSING): a failure like any other.
    if (!(error instanceof ArdsiteError)) throw error;
    problems.push(`${error.message} [${error.code}]`);
    report = { passed: 0, entries: 0, findings: [] };
  }
  // The artifacts the verifier did not read (robots.txt, llms.txt, sitemap.xml, …), read here.
  for (const urlPath of early.keys()) {
    if (seen.has(urlPath)) continue;
    const file = artifactFile(job.folder, urlPath);
    const stamp = fileStamp(file);
    let bytes: Uint8Array | undefined;
    try {
      bytes = (await inner.read(new URL(urlPath.replace(/^\//, ''), `${job.origin}/`).toString()))?.bytes;
    } catch {
      bytes = undefined;
    }
    check(urlPath, stamp, bytes);
  }
  const keyFiles: string[] = [];
  const checked: CheckedArtifact[] = [];
  for (const a of seen.values()) {
    if (!a.holds) problems.push(differsMessage(a.urlPath));
    if (a.key) keyFiles.push(a.file);
    if (a.read) checked.push({ urlPath: a.urlPath, file: a.file, stamp: a.stamp });
  }
  for (const f of selfCheckFailures(report.findings)) problems.push(`${f.subject}: ${f.message} [${f.code}]`);
  return {
    passed: report.passed,
    entries: report.entries,
    findings: report.findings,
    problems,
    keyFiles,
    checked,
    readBefore: [...readBefore].map(([file, stamp]) => ({ file, stamp })),
    elapsedMs: performance.now() - started,
  };
}

/**
 * The files of `result.readBefore` that are not the same under `folder` now (another stamp): when there
 * are some, what the checks found may not hold for the folder as rendered, and they must run again.
 */
export function staleReads(folder: string, result: MachineCheckResult): string[] {
  return result.readBefore
    .filter((r) => fileStamp(path.join(folder, ...r.file.split('/'))) !== r.stamp)
    .map((r) => r.file);
}
