/**
 * The entry another publisher's own ARD manifest gives for a card (ARD draft §3.6: `/.well-known/ard.json`
 * at the card's origin, `entries[]` with `url`), so that an imported card is listed under the identifier
 * its publisher chose, with their own trustManifest(s), rather than under one made up for it.
 */
import { isRecord, type JsonRecord } from '../a2a/a2a-forms.js';
import { parseAirUrn } from '../ard/urn.js';

/** Where the manifest of the site that serves `cardUrl` is (ARD draft §3.6). Throws on a bad URL. */
export function manifestUrlOf(cardUrl: string): string {
  return new URL('/.well-known/ard.json', cardUrl).href;
}

/**
 * The entry of `manifest` (a parsed ard.json, any shape) whose `url` is `cardUrl` and whose identifier is
 * an ARD URN (ARD draft §3.4), if there is exactly one such entry. Never throws.
 */
export function entryOfCard(manifest: unknown, cardUrl: string): JsonRecord | undefined {
  if (!isRecord(manifest) || !Array.isArray(manifest.entries)) return undefined;
  const found = manifest.entries.filter(
    (e): e is JsonRecord =>
      isRecord(e) &&
      e.url === cardUrl &&
      typeof e.identifier === 'string' &&
      typeof parseAirUrn(e.identifier, 'ard') !== 'string',
  );
  return found.length === 1 ? found[0] : undefined;
}
