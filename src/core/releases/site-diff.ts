/**
 * `npm run diff`'s comparison of two sites (DESIGN.md §9 "Releases"; docs/releases.md): each side is
 * read through a {@link SiteReader} (a built folder or the network, with verify's rules), its ARD
 * manifest's entries matched by identifier, and each pair's RAMs compared by {@link compareRam}, the same
 * comparison the build and the pages use. A card's RAM is its RAM extension's copy (the one its A2A
 * signature covers), else its top-level `resourceAccessManifest`; its `readOnlyOperations` come from the
 * changes document the card pins (src/core/card.ts `CHANGES_EXTENSION_URI`) when its digest holds; its
 * scopes from the permission file the RAM extension's `permissions` params pin (issue 15,
 * src/core/permissions/model.ts `CardPermissions`), when its digest holds.
 */
import { CHANGES_EXTENSION_URI } from '../card.js';
import { sha256Digest } from '../trust/digest.js';
import type { Ram } from '../schema/ram.js';
import { isRecord, parseJson } from '../verify/documents.js';
import type { SiteReader } from '../verify/reader.js';
import { compareRam, gainsAccess, type RamChange, type RamSnapshot } from './compare.js';
import { scopesOfPermissionsJson } from './scopes.js';

/** One entry of a side: its version, type and RAM snapshot (an entry without a card or RAM has an empty RAM). */
export interface DiffEntry {
  identifier: string;
  version?: string;
  type?: string;
  snapshot: RamSnapshot;
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
}

/** A side that could not be read (exit 2 of `npm run diff`). */
export class SideUnreadable extends Error {}

const EMPTY_RAM: Ram = { resources: [], operations: [], resourceAccesses: [] };

async function readJson(reader: SiteReader, url: string, what: string): Promise<unknown> {
  let doc;
  try {
    doc = await reader.read(url);
  } catch (error) {
    throw new SideUnreadable(`cannot read ${what} at ${url}: ${(error as Error).message}`);
  }
  if (!doc) throw new SideUnreadable(`cannot read ${what} at ${url}: outside what this side may read`);
  try {
    return parseJson(doc.bytes, what);
  } catch (error) {
    throw new SideUnreadable(`${what} at ${url} is not JSON: ${(error as Error).message}`);
  }
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

/** The `readOnlyOperations` of the changes document `card` pins, when it is there and its digest holds. */
async function readOnlyOf(reader: SiteReader, card: Record<string, unknown>): Promise<string[] | undefined> {
  const ext = extensionsOf(card).find((e) => e.uri === CHANGES_EXTENSION_URI);
  const params = isRecord(ext?.params) ? ext.params : {};
  const doc = await pinnedJson(reader, params.url, params.digest);
  const list = isRecord(doc) ? doc.readOnlyOperations : undefined;
  return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : undefined;
}

/** Access id → scopes, from the permission file the card's RAM extension pins (issue 15), when it holds. */
async function scopesOf(
  reader: SiteReader,
  card: Record<string, unknown>,
): Promise<Record<string, string[]> | undefined> {
  const ram = extensionsOf(card).find((e) => isRecord(e.params) && Array.isArray(e.params.resourceAccesses));
  const permissions = isRecord(ram?.params) && isRecord(ram.params.permissions) ? ram.params.permissions : {};
  return scopesOfPermissionsJson(await pinnedJson(reader, permissions.file, permissions.digest));
}

/**
 * Reads one side: the manifest at `manifestUrl`, then the card of every entry that has a `url` on the
 * reader's reach. Entries without a card (inline `data`, a registry) compare with an empty RAM.
 * @throws SideUnreadable when the manifest, or a card an entry points at, cannot be read or parsed.
 */
export async function readDiffSide(reader: SiteReader, manifestUrl: string): Promise<DiffSide> {
  const manifest = await readJson(reader, manifestUrl, 'the ARD manifest');
  const list = isRecord(manifest) && Array.isArray(manifest.entries) ? manifest.entries : undefined;
  if (!list) throw new SideUnreadable(`the ARD manifest at ${manifestUrl} has no entries list`);
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
      const card = await readJson(reader, entry.url, `the card of ${entry.identifier}`);
      if (isRecord(card)) {
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

/** Compares two sides: every identifier of either, sorted, with its status and its RAM changes. */
export function diffSides(before: DiffSide, after: DiffSide): EntryDiff[] {
  const ids = [...new Set([...before.entries.keys(), ...after.entries.keys()])].sort();
  return ids.map((identifier) => {
    const a = before.entries.get(identifier);
    const b = after.entries.get(identifier);
    const changes = compareRam(a?.snapshot ?? { ram: EMPTY_RAM }, b?.snapshot ?? { ram: EMPTY_RAM });
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
