/**
 * `npm run pin` (DESIGN.md §1, "Own and foreign entries"): an entry of the site's own domain whose `url`
 * points outside the site is signed by the build, but its trustManifest can only pin the artifact
 * (ARD draft §3.5: `subject.digest`) when the entry has a `digest`. Pinning fetches the artifact once,
 * as a crawler would (src/core/verify/http-reader.ts), checks that an artifact on another origin declares
 * the entry as the verifier will (ARD draft §6.2, src/core/verify/origin-binding.ts), and writes
 * `digest: sha256:<hex>` (ARD draft §3.3) into the entry's YAML file, keeping the file's comments, order
 * and layout.
 */
import { readYaml } from '../util/bounded-yaml.js';
import { isDeepStrictEqual } from 'node:util';
import { isMap, parseDocument, Scalar, type Pair, type YAMLMap } from 'yaml';
import { sha256Digest } from '../ard/digest.js';
import { ArdsiteError } from '../util/errors.js';
import { httpsUrlProblem } from '../schema/common.js';
import { originUnbound } from '../verify/origin-binding.js';
import type { SiteReader } from '../verify/reader.js';
import type { ContentModel } from '../model/content.js';

/**
 * An entry to pin: its file (project-relative), identifier, artifact URL, the digest it has now and its
 * publisher's domain (the identifier's, which is the site's: only the site's own entries are pinned).
 */
export interface PinTarget {
  file: string;
  identifier: string;
  url: string;
  digest?: string;
  domain: string;
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
    targets.push({
      file: e.file,
      identifier,
      url,
      ...(digest === undefined ? {} : { digest }),
      domain: model.publisher.domain,
    });
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
  /**
   * Why the bytes fetched do not bind the artifact to its entry (ARD draft §6.2, from
   * src/core/verify/origin-binding.ts `originUnbound`, the verifier's ARD_ORIGIN_UNBOUND): set, beside
   * `digest` and `size`, when the artifact is on another origin and declares neither the identifier nor
   * `did:web:<domain>`. A digest of such bytes must not be written.
   */
  unbound?: string;
}

/**
 * Fetches each target's artifact through `reader` (at most `concurrency` at once), digests its bytes
 * (sha256 over the bytes exactly as served, ARD draft §3.3) and checks them with the verifier's
 * cross-origin binding rule (ARD draft §6.2, `originUnbound` of src/core/verify/origin-binding.ts): a
 * result whose artifact does not declare its entry has `unbound`. Never throws: a failed fetch is a
 * result with `error`. Results keep the targets' order.
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
        const unbound = originUnbound(target.url, target.identifier, target.domain, doc.bytes);
        results[i] = {
          target,
          digest: sha256Digest(doc.bytes),
          size: doc.bytes.length,
          ...(unbound === undefined ? {} : { unbound }),
        };
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
 * itself so that nothing else in the file moves (see {@link withTopLevelValues}; a new `digest:` line goes
 * right after the `url` pair).
 * @throws ArdsiteError `YAML_INVALID` naming `file` when the text is not one YAML mapping, or when the
 *   digest cannot be written without changing anything else (the message says to add it by hand).
 */
export function withDigest(text: string, digest: string, file: string): string {
  return withTopLevelValues(text, [['digest', digest]], 'url', file);
}

/**
 * `text` (a YAML file holding one mapping) with each top-level `key` of `values` set to its plain scalar
 * value, changed by editing the text itself so that nothing else in the file moves: an existing value is
 * replaced where it stands (its comment kept); new `key: value` lines go, in order, right after the pair
 * `after` (or at the end), with the file's own line ending and that key's indentation. The result is read
 * back with the content loader's bounded YAML reader (../bounded-yaml.ts, YAML 1.2 core schema) and must
 * equal the file's value with those fields changed.
 * @throws ArdsiteError `YAML_INVALID` naming `file` when the text is not one YAML mapping, or when the
 *   values cannot be written without changing anything else (the message says to add them by hand);
 *   `YAML_ALIASES_TOO_LARGE` when its aliases expand it too far to be compared.
 */
export function withTopLevelValues(
  text: string,
  values: ReadonlyArray<readonly [key: string, value: string]>,
  after: string,
  file: string,
): string {
  const wanted = values.map(([k, v]) => `${k}: ${v}`).join(', ');
  const refuse = (why: string): never => {
    throw new ArdsiteError('YAML_INVALID', `${file}: ${why}; add "${wanted}" to it by hand`);
  };
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  let edited = text;
  const added: string[] = [];
  // Replace from the end of the text backwards, so earlier ranges stay valid.
  const replacements: Array<[start: number, end: number, value: string]> = [];
  const doc = parseDocument(text, { keepSourceTokens: false });
  if (doc.errors.length > 0)
    refuse(`the yaml library cannot read it (${doc.errors[0]!.message.split('\n')[0]})`);
  if (!isMap(doc.contents)) refuse('it is not one YAML mapping');
  const map = doc.contents as YAMLMap<unknown, unknown>;
  const pairs = map.items as Array<Pair<unknown, unknown>>;
  for (const [key, value] of values) {
    const existing = pairs.find((pair) => keyOf(pair) === key);
    const node = existing?.value;
    if (existing && node instanceof Scalar && node.range)
      replacements.push([node.range[0], node.range[1], value]);
    else if (existing) refuse(`its ${key} is not a single value`);
    else added.push(`${key}: ${value}`);
  }
  for (const [start, end, value] of replacements.sort((a, b) => b[0] - a[0]))
    edited = edited.slice(0, start) + value + edited.slice(end);
  if (added.length > 0) {
    // Insertions come after every replacement in the text only when they sit later; recompute on the
    // edited text so the anchor's range is current.
    const again = parseDocument(edited, { keepSourceTokens: false });
    const anchorPairs = (again.contents as YAMLMap<unknown, unknown>).items as Array<Pair<unknown, unknown>>;
    const anchor = anchorPairs.find((pair) => keyOf(pair) === after);
    const keyStart = anchor?.key instanceof Scalar ? anchor.key.range?.[0] : undefined;
    const valueEnd = (anchor?.value as { range?: [number, number, number] } | undefined)?.range?.[2];
    let at: number;
    let indent = '';
    if (keyStart !== undefined && valueEnd !== undefined) {
      at = valueEnd;
      indent = ' '.repeat(keyStart - (edited.lastIndexOf('\n', keyStart - 1) + 1));
    } else {
      at = (again.contents as YAMLMap<unknown, unknown>).range?.[2] ?? edited.length;
    }
    const before = edited.slice(0, at);
    const lineStart = before === '' || before.endsWith('\n') ? '' : eol;
    edited = `${before}${lineStart}${added.map((line) => `${indent}${line}${eol}`).join('')}${edited.slice(at)}`;
  }
  // Read back as the loader reads it: only these fields may differ.
  const expected = {
    ...(readYaml(text, file) as Record<string, unknown>),
    ...Object.fromEntries(values.map(([k, v]) => [k, readYaml(v, file)])),
  };
  let actual: unknown;
  try {
    actual = readYaml(edited, file);
  } catch {
    actual = undefined;
  }
  if (!isDeepStrictEqual(actual, expected)) refuse(`writing ${wanted} into it would change more than that`);
  return edited;
}

function keyOf(pair: Pair<unknown, unknown>): unknown {
  return pair.key instanceof Scalar ? pair.key.value : pair.key;
}
