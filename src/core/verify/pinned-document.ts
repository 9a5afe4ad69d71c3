/**
 * A JSON document that a card pins by URL and sha256 digest in an extension's params (the permission file,
 * the release changes document): read once through the run's reader, checked against the digest, parsed
 * (depth-bounded, src/core/verify/documents.ts). Each failure goes to the caller's `fail`, which throws the
 * caller's own code.
 */
import { sha256Digest } from '../ard/digest.js';
import { isRecord, parseJson } from './documents.js';
import type { RunContext } from './findings.js';

/**
 * Reads `url`, checks its bytes against `digest` (`sha256:<hex>`) and parses it as a JSON object. `what`
 * names the document in messages ("the permission file"). Calls `fail` (which must throw) when the URL is
 * outside what the run may read, cannot be read, does not match the digest or is not a JSON object.
 * @returns the parsed object.
 */
export async function readPinnedDocument(
  run: RunContext,
  url: string,
  digest: string,
  what: string,
  fail: (message: string) => never,
): Promise<Record<string, unknown>> {
  let bytes: Uint8Array;
  try {
    const doc = await run.reader.read(url);
    if (!doc) return fail(`${what} ${url} is outside what this run may read`);
    bytes = doc.bytes;
  } catch (error) {
    return fail(`cannot read ${what} ${url}: ${(error as Error).message}`);
  }
  if (sha256Digest(bytes) !== digest)
    fail(`${what} ${url} does not match the digest its card pins (${digest})`);
  const parsed = parseJson(bytes, what);
  return isRecord(parsed) ? parsed : fail(`${what} ${url} is not a JSON object`);
}
