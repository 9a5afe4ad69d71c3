/**
 * `npm run pin` (DESIGN.md §1, "Own and foreign entries"): an entry of the site's own domain whose `url`
 * points outside the site is signed by the build, but its trustManifest can only pin the artifact
 * (ARD draft §3.5: `subject.digest`) when the entry has a `digest`. Pinning fetches the artifact once,
 * as a crawler would (src/core/verify/http-reader.ts), and writes `digest: sha256:<hex>` (ARD draft
 * §3.3) into the entry's YAML file, keeping the file's comments, order and layout.
 */
import { isMap, parseDocument, Scalar, type Pair, type YAMLMap } from 'yaml';
import { sha256Digest } from '../digest.js';
import { ArdsiteError } from '../errors.js';
import type { SiteReader } from '../verify/reader.js';
import type { ContentModel } from './model.js';

/** An entry to pin: its file (project-relative), identifier, artifact URL and the digest it has now. */
export interface PinTarget {
  file: string;
  identifier: string;
  url: string;
  digest?: string;
}

/**
 * The entries of `model` that pinning is for: the site's own entries (their URN names its domain) with
 * an absolute https `url`, i.e. outside the site. Without `all`, only those with no `digest` yet; with
 * it, every one (to fetch again and update digests whose artifact changed). In file order.
 */
export function pinTargets(model: ContentModel, options: { all?: boolean } = {}): PinTarget[] {
  const targets: PinTarget[] = [];
  for (const e of model.entries) {
    const { url, digest, identifier } = e.entry;
    if (!e.own || typeof url !== 'string' || !/^https:\/\//i.test(url)) continue;
    if (digest !== undefined && !options.all) continue;
    targets.push({ file: e.file, identifier, url, ...(digest === undefined ? {} : { digest }) });
  }
  return targets.sort((a, b) => a.file.localeCompare(b.file));
}

/** What fetching one target's artifact gave. */
export interface PinResult {
  target: PinTarget;
  /** `sha256:<hex>` of the bytes served (absent when the fetch failed). */
  digest?: string;
  /** How many bytes were served. */
  size?: number;
  /** Why the artifact could not be fetched. */
  error?: string;
}

/**
 * Fetches each target's artifact through `reader` (at most `concurrency` at once) and digests its bytes
 * (sha256 over the bytes exactly as served, ARD draft §3.3). Never throws: a failed fetch is a result
 * with `error`. Results keep the targets' order.
 */
export async function fetchDigests(
  targets: readonly PinTarget[],
  reader: SiteReader,
  concurrency = 4,
): Promise<PinResult[]> {
  const results = new Array<PinResult>(targets.length);
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < targets.length; i = next++) {
      const target = targets[i]!;
      try {
        const doc = await reader.read(target.url);
        if (!doc) throw new Error('the URL is outside what may be read from here');
        results[i] = { target, digest: sha256Digest(doc.bytes), size: doc.bytes.length };
      } catch (error) {
        results[i] = { target, error: (error as Error).message };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, targets.length)) }, lane));
  return results;
}

/**
 * `text` (an entry's YAML file) with its top-level `digest` set to `digest`: an existing `digest` keeps
 * its place and comments, a new one goes right after `url` (or last). Everything else in the file is kept
 * as written.
 * @throws ArdsiteError `YAML_INVALID` when the text is not one YAML mapping (the file named by `file`).
 */
export function withDigest(text: string, digest: string, file: string): string {
  const doc = parseDocument(text);
  if (doc.errors.length > 0 || !isMap(doc.contents)) {
    throw new ArdsiteError(
      'YAML_INVALID',
      `${file} is not one YAML mapping, so its digest cannot be written`,
    );
  }
  // Typed as a map of any nodes: the pair added below is not one the parser made.
  const map = doc.contents as YAMLMap<unknown, unknown>;
  const existing = map.items.find((pair) => keyOf(pair) === 'digest');
  if (existing) {
    if (existing.value instanceof Scalar) existing.value.value = digest;
    else existing.value = doc.createNode(digest);
  } else {
    const pair = doc.createPair('digest', digest) as Pair<unknown, unknown>;
    const afterUrl = map.items.findIndex((p) => keyOf(p) === 'url');
    map.items.splice(afterUrl === -1 ? map.items.length : afterUrl + 1, 0, pair);
  }
  return doc.toString({ lineWidth: 0, flowCollectionPadding: false });
}

function keyOf(pair: Pair<unknown, unknown>): unknown {
  return pair.key instanceof Scalar ? pair.key.value : pair.key;
}
