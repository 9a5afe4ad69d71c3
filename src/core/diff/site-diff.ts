/**
 * `npm run diff`'s comparison of two sites (DESIGN.md §9 "Releases"; docs/releases.md): each side is
 * read through a {@link SiteReader} (a built folder or the network, with verify's rules), its ARD
 * manifest's entries matched by identifier, and each pair's RAMs compared by {@link compareRam}, the same
 * comparison the build and the pages use. A card's RAM is its RAM extension's copy (the one its A2A
 * signature covers), else its top-level `resourceAccessManifest`; its `readOnlyOperations` are those the
 * RAM extension params sign, else (an older card) the changes document's the card pins (src/core/a2a/card.ts
 * `CHANGES_EXTENSION_URI`) when its digest holds; its
 * scopes from the permission file the RAM extension's `permissions` params pin
 * (src/core/model/permissions.ts `CardPermissions`), when its digest holds.
 *
 * Another publisher's card outside what a side's reader may read (another origin than a folder's) is not
 * compared: the entry says so (`notRead`, then the diff's `notCompared`), as `npm run verify` warns that
 * such an artifact was "not read from here" (src/core/verify/entry-checks.ts). A card of the site's own
 * agents that the reader cannot read (a missing file, a card on another origin than a folder's, an HTTP
 * error) still makes the side unreadable.
 */
import { CHANGES_EXTENSION_URI } from '../a2a/card.js';
import { sha256Digest } from '../ard/digest.js';
import { parseAirUrn } from '../ard/urn.js';
import type { Ram } from '../schema/ram.js';
import { isRecord, parseJson } from '../verify/documents.js';
import { DEFAULT_MAX_ENTRIES } from '../verify/deadline.js';
import type { SiteReader } from '../verify/reader.js';
import { compareRam, gainsAccess, type RamChange, type RamSnapshot } from '../releases/compare.js';
import { scopesOfPermissionsJson } from '../releases/scopes.js';

/**
 * One entry of a side: its version, type and RAM snapshot (an entry without a card or RAM has an empty
 * RAM). `notRead` is set, with why, when its card is outside what the side's reader may read (another
 * origin, for a folder); its snapshot is then the empty RAM and is not compared.
 */
export interface DiffEntry {
  identifier: string;
  version?: string;
  type?: string;
  snapshot: RamSnapshot;
  /** Why the card was not read, e.g. "its card at https://… is on another origin than https://…, not read from here". */
  notRead?: string;
}

/** One side, read. */
export interface DiffSide {
  manifestUrl: string;
  entries: Map<string, DiffEntry>;
}

/** The comparison of one identifier. */
export interface EntryDiff {
  identifier: string;
  status: 'added' | 'removed' | 'changed' | 'unchanged';
  versionBefore?: string;
  versionAfter?: string;
  changes: RamChange[];
  /** True when the entry is new with some access, or some change adds or widens access. */
  gainedAccess: boolean;
  /**
   * Set when the entry's RAM was not compared because a side could not read its card from there
   * (another origin than a folder's; {@link DiffEntry.notRead}): which side ("old side", "new side",
   * "both sides") and why, e.g. "both sides: its card at https://… is on another origin than https://…,
   * not read from here". `changes` is then empty and `gainedAccess` false (unknown, not "no access");
   * `status` reflects only whether the entry is listed and its version.
   */
  notCompared?: string;
}

/** A side that could not be read (exit 2 of `npm run diff`). */
export class SideUnreadable extends Error {}

const EMPTY_RAM: Ram = { resources: [], operations: [], resourceAccesses: [] };

/** The bytes at `url`, or `undefined` when it is outside what `reader` may read (another origin, for a folder). */
async function readBytes(reader: SiteReader, url: string, what: string): Promise<Uint8Array | undefined> {
  try {
    return (await reader.read(url))?.bytes;
  } catch (error) {
    throw new SideUnreadable(`cannot read ${what} at ${url}: ${(error as Error).message}`);
  }
}

function parseSideJson(bytes: Uint8Array, url: string, what: string): unknown {
  try {
    return parseJson(bytes, what);
  } catch (error) {
    throw new SideUnreadable(`${what} at ${url} is not JSON: ${(error as Error).message}`);
  }
}

async function readJson(reader: SiteReader, url: string, what: string): Promise<unknown> {
  const bytes = await readBytes(reader, url, what);
  if (!bytes) throw new SideUnreadable(`cannot read ${what} at ${url}: outside what this side may read`);
  return parseSideJson(bytes, url, what);
}

function ramOf(card: Record<string, unknown>): Ram {
  const extensions = isRecord(card.capabilities) ? card.capabilities.extensions : undefined;
  const fromExtension = Array.isArray(extensions)
    ? extensions.find((e) => isRecord(e) && isRecord(e.params) && Array.isArray(e.params.resourceAccesses))
    : undefined;
  const raw = isRecord(fromExtension) ? fromExtension.params : card.resourceAccessManifest;
  if (!isRecord(raw)) return EMPTY_RAM;
  const list = (v: unknown) => (Array.isArray(v) ? v.filter(isRecord) : []);
  return {
    resources: list(raw.resources),
    operations: list(raw.operations),
    resourceAccesses: list(raw.resourceAccesses),
  } as unknown as Ram;
}

/** The JSON document at `url` when its bytes match `digest`; `undefined` when it cannot be read or differs. */
async function pinnedJson(reader: SiteReader, url: unknown, digest: unknown): Promise<unknown> {
  if (typeof url !== 'string' || typeof digest !== 'string') return undefined;
  try {
    const doc = await reader.read(url);
    if (!doc || sha256Digest(doc.bytes) !== digest) return undefined;
    return parseJson(doc.bytes, url);
  } catch {
    return undefined;
  }
}

function extensionsOf(card: Record<string, unknown>): Record<string, unknown>[] {
  const extensions = isRecord(card.capabilities) ? card.capabilities.extensions : undefined;
  return Array.isArray(extensions) ? extensions.filter(isRecord) : [];
}

/**
 * The `readOnlyOperations` of `card`: those its RAM extension params sign (src/core/a2a/card.ts `PageFacts`,
 * present on every card ardsite builds, whether or not the agent has a release history), else, for a card
 * built before they were signed there, those of the changes document it pins, when its digest holds. A
 * card with a RAM extension but no `readOnlyOperations` in either place has none. Reading the changes
 * document first made a build before an agent's first `npm run release` (no changes document) and one
 * after it disagree on the very same card facts.
 */
async function readOnlyOf(reader: SiteReader, card: Record<string, unknown>): Promise<string[] | undefined> {
  const strings = (v: unknown) =>
    Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined;
  const ram = extensionsOf(card).find((e) => isRecord(e.params) && Array.isArray(e.params.resourceAccesses));
  const signed = isRecord(ram?.params) ? strings(ram.params.readOnlyOperations) : undefined;
  if (signed) return signed;
  const ext = extensionsOf(card).find((e) => e.uri === CHANGES_EXTENSION_URI);
  const params = isRecord(ext?.params) ? ext.params : {};
  const doc = await pinnedJson(reader, params.url, params.digest);
  return isRecord(doc) ? strings(doc.readOnlyOperations) : undefined;
}

/** Access id → scopes, from the permission file the card's RAM extension pins, when it holds. */
async function scopesOf(
  reader: SiteReader,
  card: Record<string, unknown>,
): Promise<Record<string, string[]> | undefined> {
  const ram = extensionsOf(card).find((e) => isRecord(e.params) && Array.isArray(e.params.resourceAccesses));
  const permissions = isRecord(ram?.params) && isRecord(ram.params.permissions) ? ram.params.permissions : {};
  return scopesOfPermissionsJson(await pinnedJson(reader, permissions.file, permissions.digest));
}

/**
 * Reads one side: the manifest at `manifestUrl`, then the card of every entry whose `type` ends in
 * `card+json` and that has a `url`. Entries without a card (inline `data`, a registry) compare with an
 * empty RAM. Another publisher's card outside the reader's reach (`reader.read` gives `undefined`: another
 * origin than a folder's; the entry's URN names another domain than the side's origin) is not read: the
 * entry gets `notRead`, naming the card's URL and the side's origin, and an empty RAM that
 * {@link diffSides} does not compare.
 * @throws SideUnreadable when the manifest cannot be read or parsed or has no `entries` list, or when a
 * card the reader should read cannot be read (a missing file of a folder's own origin, a card of the site's
 * own agent, or of an entry whose identifier is no URN, on another origin than a folder's, an HTTP error, a
 * malformed `url`) or is not JSON; the message names the entry's identifier and the card's URL; and when
 * the manifest lists more than `maxEntries` entries (default {@link DEFAULT_MAX_ENTRIES}, as verify's
 * `--max-entries`): a diff of part of a site could miss the entry that gained access.
 */
export async function readDiffSide(
  reader: SiteReader,
  manifestUrl: string,
  maxEntries = DEFAULT_MAX_ENTRIES,
): Promise<DiffSide> {
  const manifest = await readJson(reader, manifestUrl, 'the ARD manifest');
  const list = isRecord(manifest) && Array.isArray(manifest.entries) ? manifest.entries : undefined;
  if (!list) throw new SideUnreadable(`the ARD manifest at ${manifestUrl} has no entries list`);
  if (list.length > maxEntries)
    throw new SideUnreadable(
      `the ARD manifest at ${manifestUrl} lists ${list.length.toLocaleString('en')} entries, more than ${maxEntries.toLocaleString('en')} (--max-entries)`,
    );
  const entries = new Map<string, DiffEntry>();
  for (const entry of list) {
    if (!isRecord(entry) || typeof entry.identifier !== 'string') continue;
    const item: DiffEntry = {
      identifier: entry.identifier,
      ...(typeof entry.version === 'string' ? { version: entry.version } : {}),
      ...(typeof entry.type === 'string' ? { type: entry.type } : {}),
      snapshot: { ram: EMPTY_RAM },
    };
    if (typeof entry.url === 'string' && /card\+json$/.test(String(entry.type ?? ''))) {
      const what = `the card of ${entry.identifier}`;
      const bytes = await readBytes(reader, entry.url, what);
      const card = bytes ? parseSideJson(bytes, entry.url, what) : undefined;
      if (!bytes) {
        // Outside the reader's reach (another origin, for a folder): another publisher's card is not
        // compared, and said so; the side's own agent must be, or the diff would miss what it gained.
        const origin = new URL(manifestUrl).origin;
        const urn = parseAirUrn(entry.identifier, 'ard');
        if (typeof urn === 'string' || `https://${urn.domain}` === origin)
          throw new SideUnreadable(
            `cannot read ${what} at ${entry.url}: it is this site's own agent, and the card is on another origin than ${origin}, which this side does not read (compare the sites by their https URLs)`,
          );
        item.notRead = `its card at ${entry.url} is on another origin than ${origin}, not read from here`;
      } else if (isRecord(card)) {
        const readOnly = await readOnlyOf(reader, card);
        const scopes = await scopesOf(reader, card);
        item.snapshot = {
          ram: ramOf(card),
          ...(readOnly ? { readOnlyOperations: readOnly } : {}),
          ...(scopes ? { scopes } : {}),
        };
      }
    }
    // The same identifier twice (another version): the last one listed wins, as the newest.
    entries.set(entry.identifier, item);
  }
  return { manifestUrl, entries };
}

/** Which side of an entry was not read and why ({@link EntryDiff.notCompared}); `undefined` when both were. */
function notComparedReason(a: DiffEntry | undefined, b: DiffEntry | undefined): string | undefined {
  if (a?.notRead !== undefined && b?.notRead !== undefined)
    return a.notRead === b.notRead
      ? `both sides: ${a.notRead}`
      : `old side: ${a.notRead}; new side: ${b.notRead}`;
  if (a?.notRead !== undefined) return `old side: ${a.notRead}`;
  if (b?.notRead !== undefined) return `new side: ${b.notRead}`;
  return undefined;
}

/**
 * Compares two sides: every identifier of either, sorted, with its status and its RAM changes. An entry
 * whose card either side did not read ({@link DiffEntry.notRead}) has no changes, `gainedAccess` false
 * and `notCompared` saying which side and why: an empty RAM read as "no access" would otherwise show its
 * whole RAM as added or removed.
 */
export function diffSides(before: DiffSide, after: DiffSide): EntryDiff[] {
  const ids = [...new Set([...before.entries.keys(), ...after.entries.keys()])].sort();
  return ids.map((identifier) => {
    const a = before.entries.get(identifier);
    const b = after.entries.get(identifier);
    const notCompared = notComparedReason(a, b);
    const changes =
      notCompared !== undefined
        ? []
        : compareRam(a?.snapshot ?? { ram: EMPTY_RAM }, b?.snapshot ?? { ram: EMPTY_RAM });
    const status = !a
      ? 'added'
      : !b
        ? 'removed'
        : changes.length > 0 || a.version !== b.version
          ? 'changed'
          : 'unchanged';
    return {
      identifier,
      status,
      ...(a?.version ? { versionBefore: a.version } : {}),
      ...(b?.version ? { versionAfter: b.version } : {}),
      changes,
      gainedAccess: changes.some(gainsAccess),
      ...(notCompared !== undefined ? { notCompared } : {}),
    };
  });
}

/**
 * The origin a built folder is served from: `https://<domain>` of the URN domain most of its manifest's
 * entries name (its own entries). `undefined` when no entry names one.
 */
export function originFromManifest(manifest: unknown): string | undefined {
  const list = isRecord(manifest) && Array.isArray(manifest.entries) ? manifest.entries : [];
  const counts = new Map<string, number>();
  for (const e of list) {
    const match =
      isRecord(e) && typeof e.identifier === 'string' ? /^urn:air:([^:]+):/i.exec(e.identifier) : null;
    if (match) counts.set(match[1]!.toLowerCase(), (counts.get(match[1]!.toLowerCase()) ?? 0) + 1);
  }
  const best = [...counts].sort((x, y) => y[1] - x[1])[0];
  return best ? `https://${best[0]}` : undefined;
}
