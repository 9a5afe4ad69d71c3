/**
 * The registry's index at start-up (ARD draft §4.1.1, §4.3.1, §6.2): the built manifest read from disk,
 * verified by the same verifier a crawler runs (src/core/verify/site.ts) — the site's own files from the
 * folder, other origins (foreign entries' DID documents and artifacts) through the network reader when
 * one is given — and only then indexed. The index is read-only afterwards, so every process serving the
 * same build answers the same.
 *
 * - The entries' texts in the site's other languages come from the registry build's server folder
 *   (entry-texts.ts), when they belong to this manifest: each language is indexed with its own stemmer.
 * - A failure about the site's own entries, its manifest or its keys stops the start
 *   (`REGISTRY_INDEX_INVALID`): the build on disk is broken or was changed after it was built.
 * - Another publisher's entry whose checks fail is left out of the index (§6.2: rejected), with a
 *   warning; one whose publisher authority cannot be established is indexed as `verified: false` (§4.3.1).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sha256Digest } from '../ard/digest.js';
import { ArdsiteError } from '../util/errors.js';
import { parseAirUrn } from '../ard/urn.js';
import { folderReader } from '../verify/folder-reader.js';
import type { SiteReader } from '../verify/reader.js';
import type { VerifyReport } from '../verify/site.js';
import { verifySite } from '../verify/site.js';
import { registryServerDir } from './bundle.js';
import { buildCatalog, entryKey, type Catalog, type CatalogInput } from './catalog.js';
import { readRegistryTexts } from './entry-texts.js';
import { findingsByIdentifier, verdictOf } from './trust.js';

/** Options of {@link loadRegistryIndex}. */
export interface LoadIndexOptions {
  /** The built site folder (`dist/`). */
  dir: string;
  /** `https://<domain>` of the site. */
  origin: string;
  /** Reads other origins; without one, foreign entries stay unverified. */
  network?: SiteReader;
  /** The time trustManifest expiry is checked against (default now). */
  now?: Date;
  /** Receives warnings (left-out entries). */
  log?: (line: string) => void;
}

/** The loaded index and what verifying it found. */
export interface LoadedIndex {
  catalog: Catalog;
  /** `sha256:<hex>` of the manifest's bytes: page tokens are bound to it. */
  fingerprint: string;
  report: VerifyReport;
  /** Foreign entries left out because a check failed. */
  rejected: string[];
  /** Indexed entries whose publisher authority could not be established. */
  unverified: string[];
}

/** A reader of the site's own origin from `dir`, and of other origins from `network`. */
export function siteAndNetworkReader(dir: string, origin: string, network?: SiteReader): SiteReader {
  const own = folderReader(dir, origin);
  const base = new URL(origin).origin;
  return {
    read: (url) =>
      new URL(url).origin === base ? own.read(url) : (network?.read(url) ?? Promise.resolve(undefined)),
  };
}

/**
 * Reads, verifies and indexes the manifest of the built site in `options.dir`.
 * @throws ArdsiteError `FILE_MISSING` (no manifest), `REGISTRY_INDEX_INVALID` (see the module comment).
 */
export async function loadRegistryIndex(options: LoadIndexOptions): Promise<LoadedIndex> {
  const { dir, origin } = options;
  const manifestFile = path.join(dir, '.well-known', 'ard.json');
  const bytes = await readFile(manifestFile).catch(() => {
    throw new ArdsiteError('FILE_MISSING', `${manifestFile} does not exist: build the site first`);
  });
  const report = await verifySite(siteAndNetworkReader(dir, origin, options.network), {
    origin,
    ...(options.now ? { now: options.now } : {}),
  });
  const entries = (JSON.parse(bytes.toString('utf8')) as { entries: Array<Record<string, unknown>> }).entries;
  const domain = new URL(origin).hostname;
  const { byIdentifier, site } = findingsByIdentifier(
    entries.map((e) => String(e.identifier)),
    report.findings,
  );
  const broken: string[] = site
    .filter((f) => f.severity === 'error')
    .map((f) => `${f.subject}: ${f.message} [${f.code}]`);
  const rejected: string[] = [];
  const unverified: string[] = [];
  const inputs: CatalogInput[] = [];
  // The entries' texts in the site's other languages, from the registry build (entry-texts.ts).
  const fingerprint = sha256Digest(bytes);
  const { texts, stale } = await readRegistryTexts(registryServerDir(dir), fingerprint);
  if (stale)
    options.log?.(`registry: the texts in other languages belong to another build of ${dir}: not indexed`);
  const translations = new Map(texts?.entries.map((e) => [entryKey(e.identifier, e.version), e.texts]));
  for (const entry of entries) {
    const identifier = String(entry.identifier);
    const findings = byIdentifier.get(identifier) ?? [];
    const urn = parseAirUrn(identifier, 'ard');
    const own = typeof urn !== 'string' && urn.domain === domain;
    const verdict = verdictOf(entry, findings);
    if (own) {
      for (const f of findings.filter((x) => x.severity === 'error'))
        broken.push(`${identifier}: ${f.message} [${f.code}]`);
    } else if (verdict === 'rejected') {
      rejected.push(identifier);
      const reason = findings.find((f) => f.severity === 'error');
      options.log?.(
        `registry: left out ${identifier}, another publisher's entry that does not verify: ${reason?.message ?? ''} [${reason?.code ?? ''}]`,
      );
      continue;
    }
    if (verdict !== 'verified') unverified.push(identifier);
    const version = typeof entry.version === 'string' ? entry.version : undefined;
    const translated = translations.get(entryKey(identifier, version));
    inputs.push({ entry, verified: verdict === 'verified', ...(translated ? { texts: translated } : {}) });
  }
  if (broken.length > 0) {
    const shown = broken.slice(0, 20);
    throw new ArdsiteError(
      'REGISTRY_INDEX_INVALID',
      `the built site in ${dir} does not verify, so it is not served (rebuild it):\n  ${shown.join('\n  ')}${broken.length > shown.length ? `\n  … and ${broken.length - shown.length} more` : ''}`,
    );
  }
  return {
    catalog: await buildCatalog(inputs, texts ? { languages: texts.languages } : {}),
    fingerprint,
    report,
    rejected,
    unverified,
  };
}
