/**
 * ARD draft §6.2, "Cross-Origin Target url Binding": an artifact served from another origin than its
 * publisher's must declare the entry it is the target of. One rule for the verifier (./entry-checks.ts)
 * and for `npm run pin` (src/core/content/pin.ts), which fetches the very bytes the verifier will read.
 */
import { declaresEntry } from './documents.js';

/**
 * Why the artifact `bytes` served at `url` is not bound to the entry `identifier` of `domain` (ARD
 * draft §6.2, "Cross-Origin Target url Binding"), or `undefined`: an artifact on the publisher's own
 * origin (`https://<domain>`) needs nothing; one on another origin must declare the identifier or the
 * publisher's `did:web:<domain>` as a whole word of its text ({@link declaresEntry}).
 * `url` must be an absolute URL (`new URL` throws a TypeError otherwise: callers check it first);
 * `domain` is the lower-case domain of the identifier's URN. Never throws for any `bytes`.
 */
export function originUnbound(
  url: string,
  identifier: string,
  domain: string,
  bytes: Uint8Array,
): string | undefined {
  const origin = `https://${domain}`;
  if (new URL(url).origin === origin) return undefined;
  const did = `did:web:${domain}`;
  if (declaresEntry(bytes, identifier, did)) return undefined;
  return `${url} is not on ${origin} and the artifact there declares neither ${identifier} nor ${did}, as a whole word of its text (ARD draft §6.2)`;
}
