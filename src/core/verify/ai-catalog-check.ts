/**
 * `/.well-known/ai-catalog.json`, the ARD v0.9 compatibility copy of the manifest (DESIGN.md §9,
 * src/core/ard/ai-catalog.ts), checked against the manifest it copies. A v0.9 consumer (Lighthouse's
 * ard-schema audit, an older crawler) reads only the copy, and nothing signs it: it must list exactly the
 * manifest's entries, each as {@link aiCatalogEntry} writes it from the entry in ard.json, and carry no
 * signature, which the v0.9 trustManifest could not bind to a subject (ai-catalog ADR-0009).
 */
import { aiCatalogEntry } from '../ard/ai-catalog.js';
import { AI_CATALOG_PATH } from '../ard/well-known.js';
import { deepStrictEqual, isRecord, parseJson } from './documents.js';
import type { Findings } from './findings.js';
import type { SiteReader } from './reader.js';
import { isAbsent } from './well-known-cards.js';

/** Entries named at most in one finding. */
const NAMED = 5;

/** The key an entry is matched by: identifier and version (ARD draft §3.4: the pair is unique). */
function entryKey(entry: unknown): string {
  return isRecord(entry) ? `${String(entry.identifier)}\u0000${String(entry.version ?? '')}` : '';
}

/** How an entry is named in a message: its identifier, and its version when it has one. */
function entryName(entry: unknown): string {
  if (!isRecord(entry)) return '(not an object)';
  return `${String(entry.identifier)}${entry.version === undefined ? '' : ` ${String(entry.version)}`}`;
}

/** The members of `a` and `b` whose values differ, in `a`'s order then `b`'s. */
function differingMembers(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return keys.filter((k) => !deepStrictEqual(a[k], b[k]));
}

/** `list` joined with ", ", at most {@link NAMED} items and how many more. */
function some(list: readonly string[]): string {
  const shown = list.slice(0, NAMED).join(', ');
  return list.length > NAMED ? `${shown} and ${list.length - NAMED} more` : shown;
}

/**
 * Checks the site's ai-catalog.json, when it serves one, against `entries` (the manifest's, as read from
 * `manifestUrl`): the same entries (by identifier and version), each equal to {@link aiCatalogEntry} of
 * the manifest's entry, and no trustManifest `signature`. A site without the file is not checked (the copy
 * is optional); one that is there and cannot be read is a failure (`FILE_UNREADABLE`). Findings are warnings (`AI_CATALOG_MISMATCH`,
 * `AI_CATALOG_SIGNATURE_UNBOUND`), which the build's self-check treats as errors; each check that holds
 * counts as passed.
 */
export async function checkAiCatalog(
  reader: SiteReader,
  origin: string,
  manifestUrl: string,
  entries: readonly unknown[],
  f: Findings,
): Promise<void> {
  const url = `${origin}${AI_CATALOG_PATH}`;
  let bytes: Uint8Array | undefined;
  try {
    bytes = (await reader.read(url))?.bytes;
  } catch (error) {
    // The site's own file, served and unreadable (over --max-bytes, …): a failure, as for its other files.
    if (!isAbsent(error)) f.fail(url, 'FILE_UNREADABLE', `cannot read ${url}: ${(error as Error).message}`);
    return;
  }
  if (!bytes) return;
  let catalog: unknown;
  try {
    catalog = parseJson(bytes, url);
  } catch (error) {
    f.warn(url, 'AI_CATALOG_MISMATCH', (error as Error).message);
    return;
  }
  if (!isRecord(catalog) || !Array.isArray(catalog.entries)) {
    f.warn(url, 'AI_CATALOG_MISMATCH', `${url} is not an ai-catalog: it has no "entries" array`);
    return;
  }

  const signed = catalog.entries
    .filter((e) => isRecord(e) && isRecord(e.trustManifest) && 'signature' in e.trustManifest)
    .map(entryName);
  if (
    isRecord(catalog.host) &&
    isRecord(catalog.host.trustManifest) &&
    'signature' in catalog.host.trustManifest
  )
    signed.unshift('host');
  if (signed.length > 0) {
    f.warn(
      url,
      'AI_CATALOG_SIGNATURE_UNBOUND',
      `${url} carries a trustManifest signature (${some(signed)}); the v0.9 trustManifest has no subject, so the signature binds none (ai-catalog ADR-0009): leave it out and name the signed manifest ${manifestUrl}`,
    );
  } else f.pass();

  const copies = new Map<string, unknown>();
  for (const e of catalog.entries) copies.set(entryKey(e), e);
  const missing: string[] = [];
  const differing: string[] = [];
  const listed = new Set<string>();
  for (const entry of entries) {
    if (!isRecord(entry)) continue;
    const key = entryKey(entry);
    listed.add(key);
    const copy = copies.get(key);
    if (copy === undefined) {
      missing.push(entryName(entry));
      continue;
    }
    const expected = aiCatalogEntry(entry, manifestUrl);
    if (!isRecord(copy)) differing.push(`${entryName(entry)} (not an object)`);
    else {
      const members = differingMembers(expected, copy);
      if (members.length > 0) differing.push(`${entryName(entry)} (${members.join(', ')})`);
    }
  }
  const added = catalog.entries.filter((e) => !listed.has(entryKey(e))).map(entryName);
  const problems = [
    ...(missing.length > 0 ? [`lacks ${missing.length} of its entries: ${some(missing)}`] : []),
    ...(added.length > 0 ? [`lists ${added.length} entries it does not: ${some(added)}`] : []),
    ...(differing.length > 0
      ? [`differs from it in ${differing.length} entries, in the members named: ${some(differing)}`]
      : []),
  ];
  if (problems.length === 0) f.pass();
  else {
    f.warn(
      url,
      'AI_CATALOG_MISMATCH',
      `${url} is not a copy of the manifest ${manifestUrl}: it ${problems.join('; it ')}. A v0.9 reader sees only this copy; rebuild the site so both list the same entries`,
    );
  }
}
