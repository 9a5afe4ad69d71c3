/**
 * `ardsite verify <folder | https URL>`: checks an ARD site the way a crawler does (DESIGN.md §4):
 * discovery, entry shape and URNs, digests, trustManifest signatures through did:web, publisher
 * authority, A2A card signatures, RAM integrity and the two RAM copies.
 *
 * Options: --root <project> (checks <project>/dist, origin from <project>/content/publisher.yaml),
 * --origin https://host (a folder's origin; for a folder given on the command line, default the did:web
 * domain of its own .well-known/did.json, even with --root; else, and for --root alone, the siteUrl of
 * the project's content/publisher.yaml; a project folder given in place of its built site is read as
 * --root <it>),
 * --resolve host=http://127.0.0.1:PORT (repeatable), --json, --allow-private, --max-bytes N,
 * --timeout MS, --deadline S (the whole run, default 300 s: then a partial report that names what was not
 * checked), --max-entries N, --threads N (helper threads for a folder, 0 to 64; without it, one per MiB
 * of manifest, at most one less than the cores and at most 7; 0 checks everything in one thread).
 * `--json` reports `helperThreads`, the helpers that ran.
 * Exit 0 all checks held, 1 some check failed (or the deadline left some unchecked), 2 the site could not
 * be read at all (its manifest unreadable) or bad usage.
 *
 * A folder with a manifest of 1 MiB or more (some hundreds of entries) is checked with helper threads
 * (src/core/verify/helper-threads.ts) on a machine with more than one core, started before the
 * verifier's own modules are loaded so that they are ready when the checks begin; the report is the same
 * as from one thread.
 *
 * `runVerify` (src/cli/run.ts) is exported so tests can run the command in-process.
 */
// Only light modules here: the verifier itself (site.ts, with zod, jose and the A2A SDK) is imported
// after the helper threads have been started, so that both load at once.
import { availableParallelism } from 'node:os';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Deadline, DEFAULT_DEADLINE_S, DEFAULT_MAX_ENTRIES } from '../../core/verify/deadline.js';
import { discoverManifest } from '../../core/verify/discovery.js';
import { isProjectFolder, originFromDidDocument } from '../../core/verify/folder-origin.js';
import { folderReader } from '../../core/verify/folder-reader.js';
import {
  type ManifestPrefetch,
  startVerifyHelpers,
  type VerifyHelpers,
} from '../../core/verify/helper-threads.js';
import {
  DEFAULT_MAX_BYTES,
  DEFAULT_TIMEOUT_MS,
  httpReader,
  parseResolve,
} from '../../core/verify/http-reader.js';
import type { VerifyFinding } from '../../core/verify/findings.js';
import type { SiteReader } from '../../core/verify/reader.js';
import type { VerifySiteOptions } from '../../core/verify/site.js';
import { counted } from '../lib/counted.js';
import { shownFolder } from '../lib/shown-folder.js';
import { shellWord } from '../../core/util/shell-word.js';
import { terminalText } from '../../core/util/terminal-text.js';
import { UsageError } from '../lib/usage-error.js';

/**
 * Manifest bytes per helper thread: a helper is started for each full MiB of `.well-known/ard.json` (a few
 * hundred entries), up to one less than the cores and at most {@link MAX_DEFAULT_HELPERS}.
 * A helper's start costs CPU (its bundle's modules, its own parse of the manifest, code
 * compiled again in its thread), mostly while this thread loads the verifier's own modules, and pays from
 * a few hundred entries (docs/benchmarks-archive.md, "Verify"). A small site (the tests' fixtures) gets none.
 */
const MANIFEST_BYTES_PER_HELPER = 1024 * 1024;

/** Most helper threads started without `--threads`. */
const MAX_DEFAULT_HELPERS = 7;

/** Most helper threads `--threads` may ask for. */
const MAX_THREADS = 64;

/**
 * How many helper threads check a folder's entries by default: one per {@link MANIFEST_BYTES_PER_HELPER}
 * bytes of manifest, at most one less than `cores` and at most {@link MAX_DEFAULT_HELPERS} (2 vCPUs: one
 * helper from 1 MiB of manifest on; none on one core).
 */
export function defaultHelperCount(manifestBytes: number, cores: number): number {
  const bySize = Math.floor(manifestBytes / MANIFEST_BYTES_PER_HELPER);
  return Math.max(0, Math.min(bySize, cores - 1, MAX_DEFAULT_HELPERS));
}

/**
 * Helper threads for a folder: `threads` of them when asked (`--threads`), else
 * {@link defaultHelperCount} for the size of the folder's `.well-known/ard.json`, which each helper reads
 * and parses as soon as it starts (`prefetch`). `undefined` when none run; `note` then says why, when
 * helpers were asked for and could not start.
 */
async function folderHelpers(
  prefetch: ManifestPrefetch,
  threads: number | undefined,
): Promise<{ helpers?: VerifyHelpers; note?: string }> {
  const { folder } = prefetch;
  let count = threads;
  if (count === undefined) {
    const manifest = await stat(path.join(folder, '.well-known', 'ard.json')).catch(() => undefined);
    count = defaultHelperCount(manifest?.size ?? 0, availableParallelism());
  }
  if (count < 1) return {};
  const started = await startVerifyHelpers(count, { prefetch });
  if (started.helpers) return { helpers: started.helpers };
  return threads === undefined ? {} : { note: `checking in one thread: ${started.reason}` };
}

async function defaultOrigin(root: string): Promise<string | undefined> {
  try {
    const { readYaml } = await import('../../core/util/bounded-yaml.js');
    const text = await readFile(path.join(root, 'content/publisher.yaml'), 'utf8');
    const publisher = readYaml(text, 'content/publisher.yaml') as {
      siteUrl?: unknown;
    };
    return typeof publisher?.siteUrl === 'string' ? publisher.siteUrl : undefined;
  } catch {
    return undefined;
  }
}

/** Where the command writes: the process's streams, or a test's buffers. */
export interface VerifyOutput {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

/** The options of `ardsite verify` (src/cli/program.ts declares them; numbers as typed, checked here). */
export interface VerifyCommandOptions {
  /** A project: its dist/ when no target is given, and the origin from its publisher.yaml. */
  root?: string;
  /** A folder's origin (https://host). */
  origin?: string;
  /** `--resolve host=URL`, repeatable. */
  resolve: string[];
  json: boolean;
  allowPrivate: boolean;
  maxBytes?: string;
  timeout?: string;
  /** The whole run's limit, in seconds. */
  deadline?: string;
  maxEntries?: string;
  /** Helper threads for a folder, 0 to 64. */
  threads?: string;
}

/**
 * `ardsite verify [target]` with the parsed `values`, writing to `out`; returns the exit code as
 * `runVerify` (src/cli/run.ts) gives it.
 *
 * @throws UsageError when neither a target nor `--root` is given.
 */
export async function verifyCommand(
  positional: string | undefined,
  values: VerifyCommandOptions,
  out: VerifyOutput,
): Promise<number> {
  // --root <project>: its dist/ by default, and the origin from its content/publisher.yaml.
  const projectRoot = path.resolve(values.root ?? '.');
  const target = positional ?? (values.root === undefined ? undefined : path.join(projectRoot, 'dist'));
  if (!target)
    throw new UsageError('name a built folder, an https URL, or --root <project folder>', {
      showUsage: true,
    });
  const number = (v: string | undefined, fallback: number) => {
    const n = v === undefined ? fallback : Number(v);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`expected a positive whole number, got "${v}"`);
    return n;
  };

  let reader: SiteReader;
  let parallel: VerifySiteOptions['parallel'];
  let helpers: VerifyHelpers | undefined;
  let origin: string;
  let startUrl: string | undefined;
  let maxEntries: number;
  let deadlineMs: number;
  /** The folder checked, as the summary names it (scripts/lib/shown-folder.ts); none for a URL. */
  let folderLabel: string | undefined;
  try {
    maxEntries = number(values.maxEntries, DEFAULT_MAX_ENTRIES);
    const seconds = values.deadline === undefined ? DEFAULT_DEADLINE_S : Number(values.deadline);
    if (!(Number.isFinite(seconds) && seconds > 0) || values.deadline?.trim() === '')
      throw new Error(`--deadline expects a positive number of seconds, got "${values.deadline}"`);
    deadlineMs = seconds * 1000;
    const maxBytes = number(values.maxBytes, DEFAULT_MAX_BYTES);
    const threads = values.threads === undefined ? undefined : Number(values.threads);
    if (threads !== undefined && !(/^\d+$/.test(values.threads!) && threads <= MAX_THREADS))
      throw new Error(`--threads expects a whole number from 0 to ${MAX_THREADS}, got "${values.threads}"`);
    if (/^https?:\/\//i.test(target)) {
      if (threads !== undefined)
        throw new Error('--threads is for a folder; a site over HTTP is read in one thread');
      const url = new URL(target);
      origin = url.origin;
      startUrl = url.href;
      reader = httpReader({
        resolve: parseResolve(values.resolve),
        allowPrivate: values.allowPrivate,
        maxBytes,
        timeoutMs: number(values.timeout, DEFAULT_TIMEOUT_MS),
      });
    } else {
      // A project folder given for its built site: read as `--root <that project>` would.
      const project = positional !== undefined && isProjectFolder(path.resolve(target));
      const folder = project ? path.join(path.resolve(target), 'dist') : path.resolve(target);
      const projectOf = project ? path.resolve(target) : projectRoot;
      if (!(await stat(folder).catch(() => undefined))?.isDirectory())
        throw new Error(
          project
            ? `${target} is a project with no built site yet (${path.join(target, 'dist')}): run npm run build -- --root ${shellWord(target)} first`
            : `${target} is not a folder or an https URL`,
        );
      // The origin: --origin; else, for a folder given by itself, the site's own (its did.json), so that
      // another project's dist/ is not read as this one's; else the project's siteUrl.
      const given =
        values.origin ??
        (positional !== undefined && !project ? await originFromDidDocument(folder) : undefined) ??
        (await defaultOrigin(projectOf));
      if (!given)
        throw new Error(
          'a folder needs --origin https://<domain> (or a .well-known/did.json naming its did:web, or a content/publisher.yaml with siteUrl here)',
        );
      origin = new URL(given).origin;
      reader = folderReader(folder, origin, { maxBytes });
      folderLabel = shownFolder(folder);
      const started = await folderHelpers({ folder, origin, maxBytes, maxEntries }, threads);
      if (started.note) out.stderr.write(`verify: ${started.note}\n`);
      helpers = started.helpers;
      if (helpers) parallel = { folder, maxBytes, helpers };
    }
  } catch (error) {
    out.stderr.write(`verify: ${(error as Error).message}\n`);
    return 2;
  }
  try {
    return await verifyAndReport(
      { reader, origin, startUrl, maxEntries, deadlineMs, parallel, json: values.json, folderLabel },
      out,
    );
  } finally {
    await helpers?.close();
  }
}

/** What {@link verifyAndReport} checks, and how it reports. */
interface VerifyRun {
  reader: SiteReader;
  origin: string;
  /** The URL given on the command line (discovery starts there), for a site over HTTP. */
  startUrl: string | undefined;
  maxEntries: number;
  /** The whole run's time limit (`--deadline`), in milliseconds. */
  deadlineMs: number;
  parallel: VerifySiteOptions['parallel'];
  json: boolean;
  /** The folder checked, as the summary names it; none for a site over HTTP. */
  folderLabel: string | undefined;
}

/** Runs the checks and writes the report; the exit code as `runVerify` (src/cli/run.ts) gives it. */
async function verifyAndReport(
  { reader, origin, startUrl, maxEntries, deadlineMs, parallel, json, folderLabel }: VerifyRun,
  out: VerifyOutput,
): Promise<number> {
  const { verifySite } = await import('../../core/verify/site.js');

  let discovery;
  let report;
  const started = performance.now();
  // One deadline for the whole run: discovery's reads are bound by it too.
  const at = Date.now() + deadlineMs;
  const discoveryDeadline = new Deadline(at);
  try {
    discovery = await discoverManifest(discoveryDeadline.bound(reader), origin, startUrl);
    discoveryDeadline.dispose();
    report = await verifySite(reader, {
      origin,
      manifestUrl: discovery.manifestUrl,
      maxEntries,
      deadline: at,
      ...(parallel ? { parallel } : {}),
    });
  } catch (error) {
    discoveryDeadline.dispose();
    if (json) out.stdout.write(`${JSON.stringify({ origin, error: (error as Error).message }, null, 2)}\n`);
    else out.stderr.write(`verify: could not read the site: ${terminalText((error as Error).message)}\n`);
    return 2;
  }
  const elapsedMs = Math.round(performance.now() - started);
  const findings: VerifyFinding[] = [...discovery.findings, ...report.findings];
  const passed = report.passed + discovery.passed;
  const failed = findings.filter((f) => f.severity === 'error').length;
  const warnings = findings.length - failed;
  if (json) {
    out.stdout.write(
      `${JSON.stringify({ origin, manifestUrl: discovery.manifestUrl, entries: report.entries, elapsedMs, helperThreads: parallel?.helpers.size ?? 0, passed, failed, warnings, findings, ...(report.notChecked ? { notChecked: report.notChecked } : {}) }, null, 2)}\n`,
    );
  } else {
    // The site chose the subjects and much of the messages: its control characters are shown, not obeyed.
    for (const f of findings) {
      out.stdout.write(
        `${f.severity === 'error' ? 'FAIL' : 'WARN'}  ${terminalText(f.subject)}  ${terminalText(f.message)}  [${f.code}]\n`,
      );
    }
    // A folder is read as its origin would serve it: the summary names both. "checked", not "verified":
    // the line ends a run that failed as well as one that passed.
    const what = folderLabel ? `${folderLabel} as ${discovery.manifestUrl}` : discovery.manifestUrl;
    out.stdout.write(
      `checked ${what}: ${counted(report.entries, 'entry', 'entries')}\n${counted(passed, 'check')} passed, ${failed} failed, ${counted(warnings, 'warning')}\n`,
    );
  }
  return failed > 0 ? 1 : 0;
}
