/**
 * The entries' texts in the site's other languages, for the registry's index (catalog.ts): `ard.json`
 * carries the default language's texts only (ARD draft §3.2 has no per-language members), while the
 * site's pages in each other language show the publisher's translations (docs/languages.md). A registry
 * build writes those (src/core/build/registry-texts.ts) to {@link REGISTRY_TEXTS_FILE} in its server
 * folder beside `registry-build.json`, bound to the `ard.json` it was built with by the manifest's digest;
 * the registry reads them here at start-up to index each language with its own stemmer.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { EntryTexts } from './catalog.js';

/** The file of the entries' texts, in the registry's server folder (bundle.ts). */
export const REGISTRY_TEXTS_FILE = 'registry-texts.json';

/** What {@link REGISTRY_TEXTS_FILE} holds. */
export interface RegistryTexts {
  format: 1;
  /** `sha256:<hex>` of the `ard.json` whose entries these are. */
  manifestDigest: string;
  /** The site's languages, BCP 47 tags as the site spells them (RFC 5646), the default first. */
  languages: string[];
  /** The entries with a translated text: identifier, version, and the texts by language tag. */
  entries: Array<{ identifier: string; version?: string; texts: Record<string, EntryTexts> }>;
}

/**
 * The texts in the server folder `serverDir` when they belong to the manifest of digest
 * `manifestDigest`; undefined when there is no such file (a static build, an older registry build) or
 * it belongs to another build (`stale`: true then).
 */
export async function readRegistryTexts(
  serverDir: string,
  manifestDigest: string,
): Promise<{ texts?: RegistryTexts; stale?: boolean }> {
  const bytes = await readFile(path.join(serverDir, REGISTRY_TEXTS_FILE), 'utf8').catch(() => undefined);
  if (bytes === undefined) return {};
  const texts = JSON.parse(bytes) as RegistryTexts;
  if (texts.format !== 1 || texts.manifestDigest !== manifestDigest) return { stale: true };
  return { texts };
}
