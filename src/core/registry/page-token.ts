/**
 * `pageToken` / `nextPageToken` (ARD draft §4.2.2.1): opaque to clients, tamper-evident here. A token is
 * `base64url(payload) "." base64url(HMAC-SHA256(secret, "ardsite-page-token.v1." payload))`, where the
 * payload is a small JSON object: the offset of the next page, a digest of the query it belongs to, and
 * the fingerprint of the index it was issued by. The secret comes from configuration (an environment
 * variable), so a token issued by one server process is honoured by every other process serving the same
 * build; the index fingerprint makes a token from another build a clear 400 rather than a page that
 * repeats or skips entries.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { invalidArgument } from './problems.js';

/** Domain separation of the HMAC input, so the secret's MACs are not valid for anything else. */
const MAC_CONTEXT = 'ardsite-page-token.v1.';

/** Shortest secret accepted, in bytes (RFC 2104 §3: at least the hash output length). */
export const MIN_SECRET_BYTES = 32;

/** What a page token carries. */
export interface PageCursor {
  /** Offset of the first result of the page the token asks for. */
  offset: number;
  /** {@link queryDigest} of the query. */
  query: string;
  /** Fingerprint of the index that issued the token. */
  index: string;
}

/** A short digest of a query fingerprint (see `queryFingerprint` in query.ts). */
export function queryDigest(fingerprint: string): string {
  return createHash('sha256').update(fingerprint).digest('base64url').slice(0, 22);
}

function mac(secret: Uint8Array, payload: string): Buffer {
  return createHmac('sha256', secret).update(MAC_CONTEXT).update(payload).digest();
}

/** Issues the token of `cursor`. */
export function encodePageToken(cursor: PageCursor, secret: Uint8Array): string {
  const payload = Buffer.from(
    JSON.stringify({ o: cursor.offset, q: cursor.query, i: cursor.index }),
  ).toString('base64url');
  return `${payload}.${mac(secret, payload).toString('base64url')}`;
}

/**
 * Reads a token issued by {@link encodePageToken} for `expected` (query and index).
 * @throws RegistryProblem INVALID_ARGUMENT when the token was changed, was not issued with this secret,
 *   belongs to another query, or to another build of the index. Never anything else, whatever the input.
 */
export function decodePageToken(
  token: string,
  secret: Uint8Array,
  expected: { query: string; index: string },
): number {
  const invalid = () => invalidArgument('pageToken is not a token this registry issued, or it was changed');
  const dot = token.indexOf('.');
  if (dot <= 0 || dot !== token.lastIndexOf('.')) throw invalid();
  const payload = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1), 'base64url');
  const wanted = mac(secret, payload);
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) throw invalid();
  let cursor: unknown;
  try {
    cursor = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  const { o, q, i } = (cursor ?? {}) as { o?: unknown; q?: unknown; i?: unknown };
  if (
    typeof o !== 'number' ||
    !Number.isSafeInteger(o) ||
    o < 0 ||
    typeof q !== 'string' ||
    typeof i !== 'string'
  )
    throw invalid();
  if (i !== expected.index) {
    throw invalidArgument(
      'pageToken was issued by another build of this registry (the site was rebuilt since); start again without pageToken',
    );
  }
  if (q !== expected.query)
    throw invalidArgument('pageToken belongs to another query; send the same query (any pageSize) with it');
  return o;
}
