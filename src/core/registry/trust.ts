/**
 * Trust verdicts of the registry (ARD draft §3.5.1, §4.3.1, §6.2), drawn from the one verifier
 * (src/core/verify/site.ts), never from a second implementation of it:
 *
 * - `verified`: the entry carries a trustManifest of the publisher its URN names, and every check that
 *   was run held (signature through did:web, subject, expiry, digest of the artifact, and when the card
 *   was read its signature if it has one and its declared identifier), with a digest binding its url;
 * - `unverified`: nothing failed, but publisher authority could not be established (no trustManifest of
 *   the publisher, its DID document or the artifact could not be read): a discovery hint (§4.3.1);
 * - `rejected`: a check that was run failed (§6.2: "MUST reject signed entries whose cryptographic proof
 *   or domain binding fails").
 *
 * Peer results (federation `auto`) are verified by running the verifier over a manifest made of those
 * results, served in memory as the manifest of their publisher's origin, with the network reader for
 * everything else (the DID document, the card).
 */
import { mapLimit } from '../util/concurrency.js';
import type { ErrorCode } from '../util/errors.js';
import { parseAirUrn } from '../ard/urn.js';
import type { VerifyFinding } from '../verify/findings.js';
import type { FetchedDocument, SiteReader } from '../verify/reader.js';
import { verifySite } from '../verify/site.js';
import { LruCache } from '../util/lru-cache.js';

/** How one entry fared (see the module comment). */
export type TrustVerdict = 'verified' | 'unverified' | 'rejected';

/** Codes that say a check could not be run, not that it failed. */
const UNCHECKED: ReadonlySet<ErrorCode> = new Set([
  'FILE_UNREADABLE',
  'DID_RESOLUTION_FAILED',
  'TRUST_MISSING',
]);
/**
 * Warnings that say nothing about trust: a card without an A2A signature or without a declaration of
 * its entry on its publisher's own origin is still bound to the entry by the signed digest (§6.2). An
 * entry without a digest (`ARD_UNPINNED`) is not: its target is not bound, so it stays unverified.
 */
const BENIGN: ReadonlySet<ErrorCode> = new Set([
  'ARD_QUERIES_COUNT',
  'DISCOVERY_MISSING',
  'CARD_UNSIGNED',
  'CARD_ENTRY_UNDECLARED',
]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True when `entry` carries a trustManifest whose identity is `did:web:` of the URN's domain. */
export function hasPublisherManifest(entry: Readonly<Record<string, unknown>>): boolean {
  const urn = typeof entry.identifier === 'string' ? parseAirUrn(entry.identifier, 'ard') : 'no identifier';
  if (typeof urn === 'string') return false;
  const did = `did:web:${urn.domain}`;
  const list = [entry.trustManifest, ...(Array.isArray(entry.trustManifests) ? entry.trustManifests : [])];
  return list.some((tm) => isRecord(tm) && tm.identity === did);
}

/**
 * True when `finding` is about `trustManifests[i]` of `entry` and that manifest is a third party's: its
 * identity is not `did:web:` of the URN's domain (the publisher's own manifest may sit in that list too).
 */
function isThirdPartyFinding(entry: Readonly<Record<string, unknown>>, finding: VerifyFinding): boolean {
  const index = / trustManifests\[(\d+)\]$/.exec(finding.subject)?.[1];
  if (index === undefined || !Array.isArray(entry.trustManifests)) return false;
  const tm: unknown = entry.trustManifests[Number(index)];
  const urn = typeof entry.identifier === 'string' ? parseAirUrn(entry.identifier, 'ard') : 'no identifier';
  return isRecord(tm) && typeof urn !== 'string' && tm.identity !== `did:web:${urn.domain}`;
}

/**
 * The verdict on one entry from the verifier's findings about it (errors and warnings whose subject is
 * the entry).
 */
export function verdictOf(
  entry: Readonly<Record<string, unknown>>,
  findings: readonly VerifyFinding[],
): TrustVerdict {
  let unchecked = false;
  for (const f of findings) {
    // A third party's manifest that could not be checked says nothing about the publisher's authority.
    if (f.severity === 'warning' && UNCHECKED.has(f.code) && isThirdPartyFinding(entry, f)) continue;
    if (UNCHECKED.has(f.code)) unchecked = true;
    else if (f.severity === 'error') return 'rejected';
    else if (!BENIGN.has(f.code)) unchecked = true;
  }
  return !unchecked && hasPublisherManifest(entry) ? 'verified' : 'unverified';
}

/**
 * Groups findings by the entry they are about: a finding's subject is the entry's identifier, or the
 * identifier followed by ` trustManifests[i]`. Findings about anything else (the manifest, the key
 * documents) come back under `site`.
 */
export function findingsByIdentifier(
  identifiers: Iterable<string>,
  findings: readonly VerifyFinding[],
): { byIdentifier: Map<string, VerifyFinding[]>; site: VerifyFinding[] } {
  const byIdentifier = new Map<string, VerifyFinding[]>();
  for (const id of identifiers) byIdentifier.set(id, []);
  const site: VerifyFinding[] = [];
  for (const f of findings) {
    const id = f.subject.split(' ')[0] ?? f.subject;
    const list = byIdentifier.get(id);
    if (list) list.push(f);
    else site.push(f);
  }
  return { byIdentifier, site };
}

/**
 * True for a search result that leaves out what an entry must have and a result may omit (ARD draft §5,
 * `search-result-item`: `displayName`, `type`, and `url` without `data`): the verifier, which checks
 * entries, cannot check it, and it is a discovery hint, not a failed entry.
 */
export function isMinimalResult(item: Readonly<Record<string, unknown>>): boolean {
  return (
    item.displayName === undefined ||
    item.type === undefined ||
    (item.url === undefined && item.data === undefined)
  );
}

/** Options of {@link PeerResultVerifier}. */
export interface PeerResultVerifierOptions {
  /** Reads other origins (DID documents, cards): the network reader of DESIGN.md §4. */
  reader: SiteReader;
  /** How long a verdict is reused, in ms (default 10 minutes). */
  ttlMs?: number;
  /** Verdicts kept (default 10,000). */
  maxVerdicts?: number;
  /** Clock (default `Date.now`). */
  now?: () => number;
}

/** Verifies search results that came from peer registries (ARD draft §4.3.1), with a verdict cache. */
export class PeerResultVerifier {
  private readonly verdicts: LruCache<{ verdict: TrustVerdict; at: number }>;
  private readonly reader: SiteReader;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(options: PeerResultVerifierOptions) {
    this.reader = options.reader;
    this.ttlMs = options.ttlMs ?? 600_000;
    this.now = options.now ?? Date.now;
    this.verdicts = new LruCache(options.maxVerdicts ?? 10_000);
  }

  /** The cache key of a result: what its verdict depends on. */
  private key(item: Readonly<Record<string, unknown>>): string {
    return JSON.stringify([
      item.identifier,
      item.version,
      item.displayName === undefined,
      item.type,
      item.url,
      item.data,
      item.digest,
      item.trustManifest,
      item.trustManifests,
    ]);
  }

  /**
   * The verdict on each of `items` (peer search results), in order. Results of one publisher domain are
   * checked in one verifier run, so its DID document and key set are read once. Never throws: a result
   * whose publisher cannot be read is `unverified`.
   */
  async verify(items: ReadonlyArray<Readonly<Record<string, unknown>>>): Promise<TrustVerdict[]> {
    const out = new Array<TrustVerdict | undefined>(items.length);
    const pending = new Map<string, Array<{ index: number; key: string }>>();
    items.forEach((item, index) => {
      const key = this.key(item);
      const hit = this.verdicts.get(key);
      if (hit && this.now() - hit.at < this.ttlMs) {
        out[index] = hit.verdict;
        return;
      }
      const urn = typeof item.identifier === 'string' ? parseAirUrn(item.identifier, 'ard') : 'no identifier';
      if (typeof urn === 'string') {
        out[index] = 'rejected';
        return;
      }
      if (isMinimalResult(item)) {
        out[index] = 'unverified';
        return;
      }
      const list = pending.get(urn.domain) ?? [];
      list.push({ index, key });
      pending.set(urn.domain, list);
    });
    await mapLimit([...pending], 4, async ([domain, list]) => {
      // One entry per (identifier, version): the verifier would flag a repeat as a duplicate.
      const unique = new Map<string, { index: number; key: string }>();
      for (const p of list)
        unique.set(`${String(items[p.index]!.identifier)}\u0000${String(items[p.index]!.version ?? '')}`, p);
      const entries = [...unique.values()].map((p) => items[p.index]!);
      const verdicts = await this.verifyDomain(domain, entries);
      const byKey = new Map([...unique.values()].map((p, i) => [p.key, verdicts[i]!]));
      for (const p of list) {
        const verdict = byKey.get(p.key) ?? 'unverified';
        out[p.index] = verdict;
        this.verdicts.set(p.key, { verdict, at: this.now() });
      }
    });
    return out.map((v) => v ?? 'unverified');
  }

  private async verifyDomain(
    domain: string,
    entries: ReadonlyArray<Readonly<Record<string, unknown>>>,
  ): Promise<TrustVerdict[]> {
    const origin = `https://${domain}`;
    const manifestUrl = `${origin}/.well-known/ard.json#registry-peer-results`;
    const bytes = new TextEncoder().encode(JSON.stringify({ entries }));
    const reader: SiteReader = {
      read: (url: string): Promise<FetchedDocument | undefined> =>
        url === manifestUrl
          ? Promise.resolve({ bytes, contentType: 'application/ard+json' })
          : this.reader.read(url),
    };
    try {
      // The publisher's well-known cards say nothing about these results: not fetched.
      const report = await verifySite(reader, { origin, manifestUrl, wellKnownCards: false });
      const { byIdentifier } = findingsByIdentifier(
        entries.map((e) => String(e.identifier)),
        report.findings,
      );
      return entries.map((e) => verdictOf(e, byIdentifier.get(String(e.identifier)) ?? []));
    } catch {
      return entries.map(() => 'unverified');
    }
  }
}
