/**
 * The A2A well-known copies of an agent card (A2A spec §8.2: `/.well-known/agent-card.json`, and
 * `/.well-known/agent.json` where clients still ask for it; DESIGN.md §2: a copy of the primary agent's
 * card), checked against the manifest. They are the first place an A2A client looks, and nothing signs
 * them but the card they copy: a copy must be the very bytes an entry's digest pins.
 */
import { ENTRY_EXTENSION_URI } from '../a2a/card.js';
import { digestMatches, sha256Digest } from '../ard/digest.js';
import { parseAirUrn } from '../ard/urn.js';
import { A2A_CARD_TYPE, LEGACY_WELL_KNOWN_CARD_PATH, WELL_KNOWN_CARD_PATH } from '../ard/well-known.js';
import { findString, isRecord, parseJson } from './documents.js';
import type { Findings } from './findings.js';
import type { SiteReader } from './reader.js';

/** The well-known paths of an agent card (A2A §8.2, and the pre-0.3 path). */
export const WELL_KNOWN_CARD_PATHS = [WELL_KNOWN_CARD_PATH, LEGACY_WELL_KNOWN_CARD_PATH] as const;

/** True for a read that failed because there is nothing at the URL (a missing file, HTTP 403/404/410). */
export function isAbsent(error: unknown): boolean {
  return (
    (error as NodeJS.ErrnoException).code === 'ENOENT' ||
    /answered HTTP (403|404|410)\b/.test((error as Error).message)
  );
}

/** The identifier a card declares: its entry extension's, else the first of `identifiers` it holds. */
function declaredIdentifier(card: unknown, identifiers: ReadonlySet<string>): string | undefined {
  if (!isRecord(card)) return undefined;
  const extensions = (card.capabilities as { extensions?: unknown } | undefined)?.extensions;
  const ext = Array.isArray(extensions)
    ? extensions.find((e) => isRecord(e) && e.uri === ENTRY_EXTENSION_URI)
    : undefined;
  const named = isRecord(ext) && isRecord(ext.params) ? ext.params.identifier : undefined;
  if (typeof named === 'string') return named;
  return findString(card, identifiers);
}

/**
 * Checks each well-known card the site serves against the site's own A2A entries (`entries`, as the
 * manifest lists them; `siteDomain` is the site's): a copy whose sha256 is the digest of one of them
 * passes; one that names such an entry (its entry extension, or the identifier anywhere in it) but has
 * other bytes fails (`WELL_KNOWN_CARD_MISMATCH`); any other is a warning (`WELL_KNOWN_CARD_UNLISTED`).
 * A path with nothing served is skipped (the copies are optional); one that cannot be read is a warning.
 */
export async function checkWellKnownCards(
  reader: SiteReader,
  origin: string,
  siteDomain: string,
  entries: readonly unknown[],
  f: Findings,
): Promise<void> {
  const own = new Map<string, { digest?: string; url?: string }>();
  for (const entry of entries) {
    if (!isRecord(entry) || entry.type !== A2A_CARD_TYPE || typeof entry.identifier !== 'string') continue;
    const urn = parseAirUrn(entry.identifier, 'ard');
    if (typeof urn === 'string' || urn.domain !== siteDomain) continue;
    own.set(entry.identifier, {
      ...(typeof entry.digest === 'string' ? { digest: entry.digest } : {}),
      ...(typeof entry.url === 'string' ? { url: entry.url } : {}),
    });
  }
  const pins = (bytes: Uint8Array) =>
    [...own.values()].some((e) => {
      try {
        return e.digest !== undefined && digestMatches(e.digest, bytes);
      } catch {
        return false; // a malformed digest is the entry's own finding
      }
    });
  for (const path of WELL_KNOWN_CARD_PATHS) {
    const url = `${origin}${path}`;
    let bytes: Uint8Array | undefined;
    try {
      bytes = (await reader.read(url))?.bytes;
    } catch (error) {
      if (!isAbsent(error)) f.warn(url, 'FILE_UNREADABLE', `cannot read ${url}: ${(error as Error).message}`);
      continue;
    }
    if (!bytes) continue;
    if (pins(bytes)) {
      f.pass();
      continue;
    }
    const digest = sha256Digest(bytes);
    let card: unknown;
    try {
      card = parseJson(bytes, url);
    } catch {
      card = undefined;
    }
    const identifier = declaredIdentifier(card, new Set(own.keys()));
    const entry = identifier === undefined ? undefined : own.get(identifier);
    if (entry) {
      f.fail(
        url,
        'WELL_KNOWN_CARD_MISMATCH',
        `${url} names the entry ${identifier} but is not the card its digest pins (${digest}, not ${entry.digest ?? 'no digest'}): serve the same bytes as ${entry.url ?? 'its card'}`,
      );
    } else {
      f.warn(
        url,
        'WELL_KNOWN_CARD_UNLISTED',
        `${url} is not the card of any entry of the manifest (${digest}), so nothing in the manifest vouches for it`,
      );
    }
  }
}
