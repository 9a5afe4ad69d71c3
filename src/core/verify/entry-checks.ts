/**
 * The checks of one manifest entry (ARD draft §3, §3.3, §3.4, §3.5, §6.2, §6.5): its shape and URN,
 * (identifier, version) uniqueness, url XOR data, the artifact's digest, its trustManifests
 * (./trust-checks.ts), for this site's own A2A cards, the card (./card-checks.ts), and for MCP server
 * cards, their server.json shape (./mcp-card-check.ts); and the reading
 * of a manifest's entries and the loop that checks them, shared with the helper threads
 * (./entries-worker.ts).
 */
import { digestMatches, sha256Digest } from '../ard/digest.js';
import { ArdsiteError } from '../util/errors.js';
import { canonicalBytes } from '../trust/jcs.js';
import { ArdEntry, ArdManifest } from '../schema/entry.js';
import { formatAirUrn, parseAirUrn } from '../ard/urn.js';
import { A2A_CARD_TYPE, MCP_SERVER_CARD_TYPE, REGISTRY_TYPE } from '../ard/well-known.js';
import { verifyCard } from './card-checks.js';
import { MCP_SERVER_SCHEMA_ID, mcpServerCardProblems } from './mcp-card-check.js';
import { DocumentCache, isRecord, parseJson } from './documents.js';
import { Findings, type RunContext } from './findings.js';
import type { EntryOutcome } from './helper-threads.js';
import { originUnbound } from './origin-binding.js';
import type { SiteReader } from './reader.js';
import { checkTrust, didWebDomain } from './trust-checks.js';

function entryLabel(entry: unknown, index: number): string {
  const id = (entry as { identifier?: unknown })?.identifier;
  return typeof id === 'string' ? id : `entries[${index}]`;
}

/** Why an entry `url` is not acceptable (absolute https; http for loopback only), or undefined. */
function urlProblem(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `url ${JSON.stringify(url)} is not an absolute URL`;
  }
  if (u.protocol === 'https:') return undefined;
  if (u.protocol === 'http:' && /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/i.test(u.hostname))
    return undefined;
  return `url ${url} is not https (ARD draft §6.5; http only for localhost)`;
}

/**
 * Checks one entry (ARD draft §3, §3.5, §6.2): shape, URN, uniqueness, url XOR data, the artifact's
 * digest, the trustManifest(s) and, for this site's own A2A cards, the card. Records into `run.f`.
 * `duplicate`: an earlier entry has the same (identifier, version) (see {@link duplicateEntries}).
 */
export async function verifyEntry(
  raw: unknown,
  index: number,
  siteDomain: string,
  duplicate: boolean,
  run: RunContext,
): Promise<void> {
  const { f, reader } = run;
  const subject = entryLabel(raw, index);
  const parsed = ArdEntry.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    f.fail(
      subject,
      'ARD_MANIFEST_INVALID',
      `the entry does not have the ARD shape: ${issue?.path.join('.') || '(entry)'}: ${issue?.message ?? ''}`,
    );
    return;
  }
  const entry = parsed.data as Record<string, unknown> & typeof parsed.data;
  const urn = parseAirUrn(entry.identifier, 'ard');
  if (typeof urn === 'string') {
    f.fail(subject, 'ARD_URN_INVALID', urn);
    return;
  }
  f.pass();
  if (duplicate) {
    f.fail(
      subject,
      'ARD_DUPLICATE_ENTRY',
      `(identifier, version) ${entry.identifier} ${entry.version ?? ''} appears twice`,
    );
  }
  if ((entry.url === undefined) === (entry.data === undefined)) {
    f.fail(subject, 'ARD_URL_XOR_DATA', 'an entry needs exactly one of url and data (ARD draft §3.3)');
    return;
  }
  const queries = entry.representativeQueries?.length ?? 0;
  if (queries < 2 || queries > 5) {
    f.warn(subject, 'ARD_QUERIES_COUNT', `${queries} representative queries; ARD asks for 2 to 5`);
  }

  // The artifact and its digest. Only what can be checked is fetched: an artifact with a digest, or
  // this site's own A2A card. An artifact that cannot be read fails for this site's entries and is a
  // warning for other publishers' entries; one on an origin this reader does not read (a folder's
  // reader and another origin) is a warning that it was not checked.
  const ownDomain = urn.domain === siteDomain;
  const badUrl = entry.url !== undefined ? urlProblem(entry.url) : undefined;
  if (badUrl) {
    if (ownDomain) f.fail(subject, 'URL_NOT_HTTPS', badUrl);
    else f.warn(subject, 'URL_NOT_HTTPS', badUrl);
  }
  let artifact: Uint8Array | undefined;
  if (entry.data !== undefined) {
    artifact = canonicalBytes(entry.data);
  } else if (
    !badUrl &&
    (entry.digest !== undefined ||
      (ownDomain && (entry.type === A2A_CARD_TYPE || entry.type === MCP_SERVER_CARD_TYPE)))
  ) {
    try {
      artifact = (await reader.read(entry.url!))?.bytes;
      if (!artifact) {
        f.warn(
          subject,
          'FILE_UNREADABLE',
          `${entry.url} is on another origin, not read from here; its digest was not checked`,
        );
      }
    } catch (error) {
      const message = `cannot read ${entry.url}: ${(error as Error).message}`;
      if (ownDomain) f.fail(subject, 'FILE_UNREADABLE', message);
      else f.warn(subject, 'FILE_UNREADABLE', message);
    }
  }
  if (artifact && entry.digest !== undefined) {
    const bytes = artifact;
    await f.check(subject, 'ARD_DIGEST_MISMATCH', () => {
      if (!digestMatches(entry.digest!, bytes)) {
        throw new ArdsiteError(
          'ARD_DIGEST_MISMATCH',
          `digest ${entry.digest} does not match the ${bytes.length} bytes served at ${entry.url ?? '(inline data)'} (${sha256Digest(bytes)})`,
        );
      }
    });
  } else if (
    entry.url !== undefined &&
    entry.digest === undefined &&
    entry.type !== REGISTRY_TYPE &&
    !badUrl &&
    (ownDomain || entry.trustManifest !== undefined || entry.trustManifests !== undefined)
  ) {
    // ARD draft §6.2: a signed entry's target at url must be bound by its digest.
    f.warn(
      subject,
      'ARD_UNPINNED',
      `the entry has no digest, so nothing it signs pins what ${entry.url} serves (ARD draft §6.2)`,
    );
  }
  // ARD draft §6.2: an artifact served from another origin than its publisher's must declare the entry.
  // The site's own A2A cards are held to this, more precisely, by ./card-checks.ts.
  if (artifact && entry.url !== undefined && !(ownDomain && entry.type === A2A_CARD_TYPE)) {
    const unbound = originUnbound(entry.url, entry.identifier, urn.domain, artifact);
    // An entry its publisher signed is refused when its binding fails (§6.2), whoever publishes it;
    // another publisher's entry without that signature is only a hint, and so is its binding.
    const signed = [entry.trustManifest, ...(entry.trustManifests ?? [])].some(
      (tm) => didWebDomain(tm?.identity) === urn.domain,
    );
    if (unbound === undefined) f.pass();
    else if (ownDomain || signed) f.fail(subject, 'ARD_ORIGIN_UNBOUND', unbound);
    else f.warn(subject, 'ARD_ORIGIN_UNBOUND', unbound);
  }

  await checkTrust(subject, entry, urn.domain, ownDomain, run);

  // An entry that says it is an MCP server card must point at one (the MCP registry's server.json). Bytes
  // that are not the ones the digest pins are already ARD_DIGEST_MISMATCH: their shape says nothing more.
  const pinned = artifact && (entry.digest === undefined || digestMatches(entry.digest, artifact));
  if (entry.type === MCP_SERVER_CARD_TYPE && artifact && pinned) {
    const problems = mcpServerCardProblems(artifact);
    if (problems.length === 0) f.pass();
    else {
      const message = `${entry.url ?? 'the inline data'} is not an MCP server.json by ${MCP_SERVER_SCHEMA_ID}: ${problems.join('; ')}`;
      if (ownDomain) f.fail(subject, 'MCP_SERVER_CARD_INVALID', message);
      else f.warn(subject, 'MCP_SERVER_CARD_INVALID', message);
    }
  }

  if (entry.type === A2A_CARD_TYPE && artifact && entry.url && ownDomain) {
    await verifyCard(subject, entry, urn.domain, artifact, run);
  }
}

/**
 * Entries checked at once: network reads overlap, findings keep manifest order. A folder's reads and the
 * signature checks are synchronous, yet 16 interleaved entries still ran faster than 1 or 4; 32 was no faster, 64 slower
 * (BENCHMARKS.md).
 */
const ENTRY_CONCURRENCY = 16;

/**
 * Indices of entries whose (identifier, version) an earlier entry already has (ARD draft §3.4: the
 * pair identifies a release). Entries without a string identifier are skipped (their shape fails).
 */
export function duplicateEntries(entries: readonly unknown[]): Set<number> {
  const seen = new Set<string>();
  const out = new Set<number>();
  entries.forEach((raw, i) => {
    if (!isRecord(raw) || typeof raw.identifier !== 'string') return;
    // One URN in two spellings (the scheme, NID and domain are case-insensitive) is one identifier.
    const urn = parseAirUrn(raw.identifier, 'ard');
    const identifier = typeof urn === 'string' ? raw.identifier : formatAirUrn(urn);
    const key = `${identifier}\u0000${typeof raw.version === 'string' ? raw.version : ''}`;
    if (seen.has(key)) out.add(i);
    seen.add(key);
  });
  return out;
}

/** The site-wide facts every entry check needs. */
export interface EntryContext {
  origin: string;
  now: Date;
  siteDomain: string;
}

/** A manifest's entries as the verifier takes them, or why there are none (see {@link readManifest}). */
export type ManifestRead = { entries: unknown[]; total: number } | { problem: string; entries?: undefined };

/**
 * The entries of a manifest's bytes (ARD draft §3.6): the first `maxEntries` of a JSON object's
 * `entries` list, and how many the list has (`total`); or the problem, worded for the report, when the
 * bytes are not JSON or not such an object. The one reading of a manifest: {@link verifySite} and its
 * helper threads (./entries-worker.ts) take their entries through it from the same bytes.
 */
export function readManifest(bytes: Uint8Array, maxEntries: number): ManifestRead {
  let manifest: unknown;
  try {
    manifest = parseJson(bytes, 'the manifest');
  } catch (error) {
    return { problem: (error as Error).message };
  }
  const shape = ArdManifest.safeParse(manifest);
  if (!shape.success)
    return { problem: 'the manifest is not an object with an "entries" list (ARD draft §3.6)' };
  return { entries: shape.data.entries.slice(0, maxEntries), total: shape.data.entries.length };
}

/**
 * Checks entries through `reader`, 16 at a time so network reads overlap: `claim` gives the index of
 * the next entry to check (`undefined`: none left), `onOutcome` receives what it found. Used by
 * {@link verifySite} and by helper threads (./entries-worker.ts), which share one counter. `cache`: the
 * run's documents (each DID document and key set is read once per thread).
 * Never throws for a broken site: what a check throws on a document it did not foresee (one nested too
 * deeply to walk, say) becomes a `JSON_INVALID` finding on that entry.
 */
export async function verifyClaimedEntries(
  reader: SiteReader,
  context: EntryContext,
  entries: readonly unknown[],
  duplicates: ReadonlySet<number>,
  claim: () => number | undefined,
  onOutcome: (index: number, outcome: EntryOutcome) => void,
  cache: DocumentCache = new DocumentCache(reader),
): Promise<void> {
  const lane = async () => {
    for (let index = claim(); index !== undefined; index = claim()) {
      const f = new Findings();
      try {
        await verifyEntry(entries[index], index, context.siteDomain, duplicates.has(index), {
          reader,
          cache,
          origin: context.origin,
          now: context.now,
          f,
        });
      } catch (error) {
        // A document no check foresaw (nested deeper than a walk can follow, a list where an object
        // belongs) is a finding about its entry, not the end of the run.
        const message = (error as Error).message;
        const deep = error instanceof RangeError && /call stack/i.test(message);
        f.fail(
          entryLabel(entries[index], index),
          'JSON_INVALID',
          `a document of this entry cannot be checked: ${message}${deep ? ' (it is nested too deeply)' : ''}`,
        );
      }
      onOutcome(index, { passed: f.passed, findings: f.list });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(ENTRY_CONCURRENCY, entries.length)) }, lane));
}
