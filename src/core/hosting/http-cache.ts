/**
 * Validators and conditional requests (RFC 9110 §8.8.3 `ETag`, §13.1.2 `If-None-Match`, §15.4.5 304 Not
 * Modified), shared by the two servers that answer JSON: the preview server (static files, so agent
 * cards get the `ETag` A2A §8.6.1 recommends) and the registry's lookup API (ARD v0.91 §5.3.4: the
 * lookup follows standard HTTP caching). The tag is made by the `etag` package (the one `send` and
 * Express use). `If-None-Match` is evaluated as an origin server does (RFC 9110 §13.1.2), whatever the
 * request's `Cache-Control` says: `Cache-Control: no-cache` is addressed to caches (RFC 9111 §5.2.1.4),
 * and the Fetch standard adds it to every request that sets `If-None-Match` by hand, so a server that
 * read it as "send it all" (the `fresh` package does) would never answer such a client 304.
 */
import type { Stats } from 'node:fs';
import etag from 'etag';

/**
 * The `Cache-Control` (RFC 9111 §5.2.2) of the JSON files, static and served by the registry alike: short,
 * so a re-signed manifest reaches crawlers quickly.
 */
export const JSON_CACHE_CONTROL = 'public, max-age=300';

/**
 * The strong entity tag of a body (RFC 9110 §8.8.3): `"<length>-<sha1 base64>"`, quotes included, as the
 * `etag` package makes it. Same bytes, same tag, in every process.
 */
export function bodyEntityTag(body: Buffer | string): string {
  return etag(body, { weak: false });
}

/**
 * The weak entity tag of a file from its size and modification time (RFC 9110 §8.8.1: `W/"…"`), as the
 * `etag` package makes it for `fs.Stats`; no read of the file.
 */
export function fileEntityTag(stats: Stats): string {
  return etag(stats, { weak: true });
}

/** The opaque part of an entity tag, for the weak comparison of RFC 9110 §8.8.3.2 (`W/` dropped). */
const opaqueTag = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);

/**
 * True when a GET or HEAD request may be answered 304 Not Modified: its `If-None-Match` is `*` or names
 * `tag` under the weak comparison (RFC 9110 §13.1.2, §8.8.3.2).
 * @param requestHeaders The request's headers, names in lower case (as Node gives them).
 * @param tag The entity tag of the answer that would be sent, quotes included.
 */
export function notModified(
  requestHeaders: Readonly<Record<string, string | string[] | undefined>>,
  tag: string,
): boolean {
  const given = requestHeaders['if-none-match'];
  if (given === undefined) return false;
  const list = (Array.isArray(given) ? given.join(',') : given).trim();
  if (list === '*') return true;
  const wanted = opaqueTag(tag);
  // Entity tags hold no comma or space (RFC 9110 §8.8.3: etagc), so the list splits on commas.
  return list.split(',').some((member) => opaqueTag(member.trim()) === wanted);
}

/**
 * The response headers a 304 keeps (RFC 9110 §15.4.5: the validators and the headers that would have
 * been sent for a 200, such as `Cache-Control`, `Vary`, `Expires`; here also the CORS and security
 * headers), without those that describe a body.
 */
export function notModifiedHeaders(headers: Iterable<readonly [string, string]>): Array<[string, string]> {
  const body = /^(content-length|content-type|content-encoding|content-range|transfer-encoding)$/i;
  return [...headers].filter(([name]) => !body.test(name)).map(([name, value]) => [name, value]);
}
