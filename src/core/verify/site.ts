/**
 * Verifies an ARD site the way a crawler does (DESIGN.md §4, ARD draft §3.5, §4.3.1, §6;
 * docs/trust-profile.md): manifest shape, URNs, (identifier, version) uniqueness, entry URLs, digests of
 * the served bytes, trustManifest signatures through did:web, publisher authority, third-party
 * manifests against their own identity, expiry, attestation digests, A2A card signatures through the
 * site's own key set, the card's entry extension, RAM integrity, the two RAM copies, the entries' RAM
 * footprint terms, the A2A well-known card copies, the ai-catalog.json compatibility copy, jwks.json
 * agreeing with did.json (./key-sets.ts), and published keys without private members. The same code checks the build's own output (from the folder it just wrote)
 * and any site given to `npm run verify`: only the {@link SiteReader} differs.
 *
 * What cannot be read from here (another origin, for a folder reader) is a warning that says it was not
 * checked; what was read and does not hold is a failure. The site's own artifacts and DID document must
 * be readable: failing to read them is a failure.
 *
 * Signatures are accepted first by a fast path (./fast-signatures.ts: node:crypto over the same payload
 * the libraries build) that only ever says yes to what jose and @a2a-js/sdk would accept; everything else
 * goes through the libraries, which decide and word every failure.
 *
 * This module runs a verification (the manifest, every entry, then the site-wide checks); the checks are
 * in ./entry-checks.ts, ./trust-checks.ts, ./card-checks.ts and ./site-wide-checks.ts, the documents they
 * read in ./documents.ts, and helper threads in ./helper-threads.ts.
 */
import { ArdsiteError } from '../util/errors.js';
import { Deadline, DEFAULT_MAX_ENTRIES } from './deadline.js';
import { bomMessage, DocumentCache, isRecord, startsWithBom } from './documents.js';
import { duplicateEntries, type EntryContext, readManifest, verifyClaimedEntries } from './entry-checks.js';
import { Findings, type RunContext, type VerifyFinding } from './findings.js';
import type { EntryOutcome, SharedEntries, VerifyHelpers } from './helper-threads.js';
import type { FetchedDocument, SiteReader } from './reader.js';
import { siteFileChecks, siteWideChecks } from './site-wide-checks.js';

/**
 * The verifier's report. `passed` counts the checks that held. `notChecked`, present only when the
 * deadline passed first, names what was not checked: entries (by identifier, or `entries[i]`) and the
 * site-wide checks; a `VERIFY_INCOMPLETE` failure says the same in words.
 */
export interface VerifyReport {
  origin: string;
  entries: number;
  passed: number;
  findings: VerifyFinding[];
  notChecked?: string[];
}

/** Options of {@link verifySite}. */
export interface VerifySiteOptions {
  /** The site's origin, `https://<domain>` (no trailing slash). */
  origin: string;
  /** The time `expiresAt` is compared with (default now). */
  now?: Date;
  /** At most this many entries are checked (default 100,000). */
  maxEntries?: number;
  /**
   * Helper threads that check entries beside this thread (./helper-threads.ts), reading `folder` (the
   * folder reader's folder) with the same `maxBytes`. `checkHere: false` leaves every entry to the
   * helpers (tests; entries a helper took and did not report are still checked here).
   */
  parallel?: {
    folder: string;
    maxBytes?: number;
    helpers: VerifyHelpers;
    checkHere?: boolean;
  };
  /** The manifest's URL when discovery found it elsewhere (default `<origin>/.well-known/ard.json`). */
  manifestUrl?: string;
  /**
   * Check the A2A well-known card copies (./well-known-cards.ts; default true). The registry leaves it
   * out for peer results, which are not the manifest those copies belong with.
   */
  wellKnownCards?: boolean;
  /**
   * When the run must end (milliseconds since the epoch, as `Date.now()`; default none): reads in flight
   * then are abandoned, no check starts after it, and the report is partial (`notChecked`).
   */
  deadline?: number;
  /**
   * Check `/.well-known/ai-catalog.json` against the manifest (./ai-catalog-check.ts). Default: as
   * `wellKnownCards` (so the registry's checks of peer results leave it out too).
   */
  aiCatalog?: boolean;
}

/** Past the last entry index: helper threads that add to the shared counter claim nothing more. */
const COUNTER_STOP = 2 ** 30;

/** What the site-wide checks are called when the deadline left them out. */
const SITE_WIDE_CHECKS =
  'the site-wide checks (published keys, the DID document, the A2A well-known cards, ai-catalog.json)';

/** What {@link checkAllEntries} checks, and with what. */
interface EntriesJob {
  reader: SiteReader;
  context: EntryContext;
  entries: readonly unknown[];
  duplicates: ReadonlySet<number>;
  cache: DocumentCache;
  shared: { run: SharedEntries; checkHere: boolean } | undefined;
  deadline: Deadline;
}

/**
 * Checks every entry: with the helper threads of `shared.run` when there are some (the threads share one
 * counter, see ./helper-threads.ts; `checkHere: false` leaves the claiming to them), and in this thread
 * whatever is left (all of it without helpers; what a helper took and did not report). Returns one
 * outcome per entry, in manifest order; at the deadline, what was reported by then (a hole for each
 * entry not checked).
 */
async function checkAllEntries(job: EntriesJob): Promise<Array<EntryOutcome | undefined>> {
  const { entries, shared, deadline } = job;
  const outcomes = new Array<EntryOutcome | undefined>(entries.length);
  const keep = (index: number, outcome: EntryOutcome) => {
    if (index < entries.length) outcomes[index] = outcome;
  };
  // At the deadline, what has been reported so far is the result (taken before the reads it cut short
  // report their failures), and helper threads claim nothing more.
  let atDeadline: Array<EntryOutcome | undefined> | undefined;
  deadline.whenPassed(() => {
    atDeadline = outcomes.slice();
    if (shared) {
      for (const [index, outcome] of shared.run.outcomes)
        if (index < entries.length) atDeadline[index] ??= outcome;
      Atomics.store(shared.run.counter, 0, COUNTER_STOP);
    }
  });
  const work = checkEntries(job, outcomes, keep);
  await Promise.race([work, deadline.passed]);
  return atDeadline ?? outcomes;
}

/** The work of {@link checkAllEntries}: fills `outcomes` (through `keep`) until done or past the deadline. */
async function checkEntries(
  { reader, context, entries, duplicates, cache, shared, deadline }: EntriesJob,
  outcomes: Array<EntryOutcome | undefined>,
  keep: (index: number, outcome: EntryOutcome) => void,
): Promise<void> {
  if (shared) {
    const { run } = shared;
    if (shared.checkHere) {
      const claim = () => {
        if (deadline.expired) return undefined;
        const index = Atomics.add(run.counter, 0, 1);
        return index < entries.length ? index : undefined;
      };
      await verifyClaimedEntries(reader, context, entries, duplicates, claim, keep, cache);
    }
    await run.settled(entries.length, (index) => outcomes[index] !== undefined);
    for (const [index, outcome] of run.outcomes) if (index < entries.length) outcomes[index] ??= outcome;
  }
  const left: number[] = [];
  for (let i = 0; i < entries.length; i++) if (outcomes[i] === undefined) left.push(i);
  let next = 0;
  const claimLeft = () => (deadline.expired ? undefined : left[next++]);
  await verifyClaimedEntries(reader, context, entries, duplicates, claimLeft, keep, cache);
}

/** How an entry is named in `notChecked`: its identifier when it has a string one, else `entries[i]`. */
function entryName(entry: unknown, index: number): string {
  return isRecord(entry) && typeof entry.identifier === 'string' ? entry.identifier : `entries[${index}]`;
}

/**
 * Verifies the site served at `options.origin` through `reader`. Never throws for a broken site: every
 * problem is a finding. Throws `ArdsiteError('FILE_MISSING')` only when the manifest itself cannot be read
 * (exit 2 of `npm run verify`).
 */
export async function verifySite(reader: SiteReader, options: VerifySiteOptions): Promise<VerifyReport> {
  const deadline = new Deadline(options.deadline);
  try {
    return await verifyUntil(deadline.bound(reader), options, deadline);
  } finally {
    deadline.dispose();
  }
}

/** {@link verifySite} with its reader bound by `deadline`. */
async function verifyUntil(
  reader: SiteReader,
  options: VerifySiteOptions,
  deadline: Deadline,
): Promise<VerifyReport> {
  const origin = options.origin.replace(/\/$/, '');
  const siteDomain = new URL(origin).hostname;
  const f = new Findings();
  const cache = new DocumentCache(reader);
  const run: RunContext = { reader, cache, origin, now: options.now ?? new Date(), f };
  const manifestUrl = options.manifestUrl ?? `${origin}/.well-known/ard.json`;
  let manifestDoc: FetchedDocument | undefined;
  try {
    manifestDoc = await reader.read(manifestUrl);
  } catch (error) {
    throw new ArdsiteError('FILE_MISSING', `cannot read ${manifestUrl}: ${(error as Error).message}`);
  }
  if (!manifestDoc) throw new ArdsiteError('FILE_MISSING', `cannot read ${manifestUrl}`);
  const type = manifestDoc.contentType;
  if (type !== undefined && !/^application\/(ard\+)?json\s*(;|$)/i.test(type)) {
    f.fail(
      manifestUrl,
      'ARD_MANIFEST_INVALID',
      `the manifest is served as "${type}"; application/ard+json (or application/json) is expected`,
    );
  }
  // Helper threads take the entries from the same bytes while this thread parses them.
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const { parallel } = options;
  const shared =
    parallel && parallel.helpers.size > 0
      ? {
          run: parallel.helpers.share({
            folder: parallel.folder,
            ...(parallel.maxBytes === undefined ? {} : { maxBytes: parallel.maxBytes }),
            origin,
            siteDomain,
            now: run.now,
            manifest: manifestDoc.bytes,
            maxEntries,
          }),
          checkHere: parallel.checkHere !== false,
        }
      : undefined;
  if (startsWithBom(manifestDoc.bytes)) f.warn(manifestUrl, 'JSON_BOM', bomMessage(manifestUrl));
  const read = readManifest(manifestDoc.bytes, maxEntries);
  if (read.entries === undefined) {
    f.fail(manifestUrl, 'ARD_MANIFEST_INVALID', read.problem);
    return { origin, entries: 0, passed: f.passed, findings: f.list };
  }
  f.pass();
  const { entries } = read;
  if (entries.length < read.total) {
    f.warn(
      manifestUrl,
      'ARD_MANIFEST_INVALID',
      `only the first ${entries.length} of ${read.total} entries were checked`,
    );
  }
  const duplicates = duplicateEntries(entries);
  const context = { origin, now: run.now, siteDomain };
  const which = {
    wellKnownCards: options.wellKnownCards !== false,
    aiCatalog: options.aiCatalog ?? options.wellKnownCards !== false,
    manifestUrl,
  };
  const fileChecks = (into: Findings) => siteFileChecks(reader, origin, siteDomain, entries, which, into);
  // With helper threads on the entries, this thread first checks the site's files that no entry reads
  // (the A2A well-known cards, ai-catalog.json: a tenth of a second per 1,000 entries), which would
  // otherwise leave the helpers idle at the end. Their findings still come where they come without helpers.
  let early: Promise<Findings> | undefined;
  if (shared && !deadline.expired) {
    const into = new Findings();
    early = fileChecks(into).then(() => into);
    early.catch(() => {}); // a failure is thrown where the findings are taken (siteWideChecks)
    await Promise.race([early, deadline.passed]);
  }
  const outcomes = await checkAllEntries({ reader, context, entries, duplicates, cache, shared, deadline });
  const notChecked: string[] = [];
  // A plain loop: the outcomes of entries never checked are holes, which forEach would skip.
  for (let index = 0; index < outcomes.length; index++) {
    const outcome = outcomes[index];
    if (outcome === undefined) notChecked.push(entryName(entries[index], index));
    else {
      f.passed += outcome.passed;
      f.list.push(...outcome.findings);
    }
  }
  // The site-wide checks record into their own findings, kept only when they ended before the deadline.
  const siteWide = new Findings();
  let siteWideDone = false;
  if (!deadline.expired) {
    const files = early
      ? async (into: Findings) => {
          const found = await early;
          into.passed += found.passed;
          into.list.push(...found.list);
        }
      : fileChecks;
    const checks = siteWideChecks(cache, origin, siteDomain, siteWide, files).then(
      () => (siteWideDone = true),
    );
    await Promise.race([checks, deadline.passed]);
  }
  if (siteWideDone) {
    f.passed += siteWide.passed;
    f.list.push(...siteWide.list);
  } else notChecked.push(SITE_WIDE_CHECKS);
  const report: VerifyReport = { origin, entries: entries.length, passed: f.passed, findings: f.list };
  if (!deadline.expired || (siteWideDone && notChecked.length === 0)) return report;
  const left = notChecked.filter((name) => name !== SITE_WIDE_CHECKS);
  const parts: string[] = [];
  if (left.length > 0) {
    const named = `${left.slice(0, 5).join(', ')}${left.length > 5 ? ', …' : ''}`;
    parts.push(`${left.length} of ${entries.length} entries (${named})`);
  }
  if (!siteWideDone) parts.push(SITE_WIDE_CHECKS);
  f.fail(
    manifestUrl,
    'VERIFY_INCOMPLETE',
    `the deadline (--deadline) passed before every check ran; not checked: ${parts.join('; ')}. The rest of this report is complete`,
  );
  return { ...report, notChecked };
}
