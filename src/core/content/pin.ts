/**
 * `npm run pin` (DESIGN.md §1, "Own and foreign entries"): an entry of the site's own domain whose `url`
 * points outside the site is signed by the build, but its trustManifest can only pin the artifact
 * (ARD draft §3.5: `subject.digest`) when the entry has a `digest`. Pinning fetches the artifact once,
 * as a crawler would (src/core/verify/http-reader.ts), and writes `digest: sha256:<hex>` (ARD draft
 * §3.3) into the entry's YAML file, keeping the file's comments, order and layout.
 */
import { CORE_SCHEMA, load as loadYaml } from 'js-yaml';
import { isDeepStrictEqual } from 'node:util';
import { isMap, parseDocument, Scalar, type Pair, type YAMLMap } from 'yaml';
import { sha256Digest } from '../digest.js';
import { ArdsiteError } from '../errors.js';
import { httpsUrlProblem } from '../schema/common.js';
import type { SiteReader } from '../verify/reader.js';
import type { ContentModel } from './model.js';

/** An entry to pin: its file (project-relative), identifier, artifact URL and the digest it has now. */
export interface PinTarget {
  file: string;
  identifier: string;
  url: string;
  digest?: string;
}

/** An entry of the site's own that pinning leaves alone, and why (worded for the publisher). */
export interface PinSkip {
  file: string;
  url: string;
  reason: string;
}

/**
 * The entries of `model` that pinning is for: the site's own entries (their URN names its domain)
 * whose `url` is an absolute URL outside the site that `npm run check` accepts (https, or http on a
 * loopback host), i.e. exactly those it warns ARD_UNPINNED about. Without `all`, only those with no
 * `digest` yet; with it, every one (to fetch again and update digests whose artifact changed). An
 * absolute URL on the site's own origin is skipped with a reason: the build serves that file from
 * `public/`, and a fetch would read the deployed copy. In file order.
 */
export function pinTargets(
  model: ContentModel,
  options: { all?: boolean } = {},
): { targets: PinTarget[]; skipped: PinSkip[] } {
  const targets: PinTarget[] = [];
  const skipped: PinSkip[] = [];
  const siteOrigin = new URL(model.publisher.siteUrl).origin;
  for (const e of model.entries) {
    const { url, digest, identifier, data } = e.entry;
    if (!e.own || data !== undefined || typeof url !== 'string' || url.startsWith('/')) continue;
    if (httpsUrlProblem(url) !== undefined) continue;
    if (new URL(url).origin === siteOrigin) {
      const path = new URL(url).pathname;
      skipped.push({
        file: e.file,
        url,
        reason: `the url names this site: write it as the site path "${path}" and the build pins the file of public/`,
      });
      continue;
    }
    if (digest !== undefined && !options.all) continue;
    targets.push({ file: e.file, identifier, url, ...(digest === undefined ? {} : { digest }) });
  }
  const byFile = (a: { file: string }, b: { file: string }) => a.file.localeCompare(b.file);
  return { targets: targets.sort(byFile), skipped: skipped.sort(byFile) };
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
 * `text` (an entry's YAML file) with its top-level `digest` set to `digest`, changed by editing the text
 * itself so that nothing else in the file moves: an existing `digest` value is replaced where it stands
 * (its comment kept), a new `digest:` line goes right after the `url` pair (or at the end), with the
 * file's own line ending and the `url` key's indentation. The result is read back with the content
 * loader's YAML reader (js-yaml, YAML 1.2 core schema) and must equal the file's value with that one
 * field changed.
 * @throws ArdsiteError `YAML_INVALID` naming `file` when the text is not one YAML mapping, or when the
 *   digest cannot be written without changing anything else (the message says to add it by hand).
 */
export function withDigest(text: string, digest: string, file: string): string {
  const doc = parseDocument(text, { keepSourceTokens: false });
  const refuse = (why: string): never => {
    throw new ArdsiteError('YAML_INVALID', `${file}: ${why}; add "digest: ${digest}" to it by hand`);
  };
  if (doc.errors.length > 0)
    refuse(`the yaml library cannot read it (${doc.errors[0]!.message.split('\n')[0]})`);
  if (!isMap(doc.contents)) refuse('it is not one YAML mapping');
  const map = doc.contents as YAMLMap<unknown, unknown>;
  const pairs = map.items as Array<Pair<unknown, unknown>>;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  let edited: string;
  const existing = pairs.find((pair) => keyOf(pair) === 'digest');
  const value = existing?.value;
  if (existing && value instanceof Scalar && value.range) {
    edited = text.slice(0, value.range[0]) + digest + text.slice(value.range[1]);
  } else if (existing) {
    refuse('its digest is not a single value');
  } else {
    const url = pairs.find((pair) => keyOf(pair) === 'url');
    const keyStart = url?.key instanceof Scalar ? url.key.range?.[0] : undefined;
    const valueEnd = url?.value instanceof Scalar ? url.value.range?.[2] : undefined;
    let at: number;
    let indent = '';
    if (keyStart !== undefined && valueEnd !== undefined) {
      at = valueEnd;
      indent = ' '.repeat(keyStart - (text.lastIndexOf('\n', keyStart - 1) + 1));
    } else {
      at = map.range?.[2] ?? text.length;
    }
    const before = text.slice(0, at);
    const lineStart = before === '' || before.endsWith('\n') ? '' : eol;
    edited = `${before}${lineStart}${indent}digest: ${digest}${eol}${text.slice(at)}`;
  }
  // Read back as the loader reads it: only the digest may differ.
  const expected = { ...(loadYaml(text, { schema: CORE_SCHEMA }) as Record<string, unknown>), digest };
  let actual: unknown;
  try {
    actual = loadYaml(edited!, { schema: CORE_SCHEMA });
  } catch {
    actual = undefined;
  }
  if (!isDeepStrictEqual(actual, expected))
    refuse('writing the digest into it would change more than the digest');
  return edited!;
}

function keyOf(pair: Pair<unknown, unknown>): unknown {
  return pair.key instanceof Scalar ? pair.key.value : pair.key;
}
