/**
 * `ardsite pin`: fetches once the artifact of each of the site's own entries whose `url` points outside
 * the site and has no `digest`, and writes `digest: sha256:<hex>` into its file under content/entries/
 * (DESIGN.md §1; src/core/content/pin.ts). The build then signs a trustManifest that pins those bytes, and
 * `npm run check` no longer warns ARD_UNPINNED. The artifact is fetched the way `npm run verify` fetches
 * (https with TLS 1.3, a timeout, a size cap, no private address, no redirect to another origin), and
 * its bytes must declare the entry as the verifier requires (ARD draft §6.2, cross-origin target binding:
 * the identifier or the publisher's did:web as a whole word; src/core/verify/origin-binding.ts).
 *
 * Exit 0 when every artifact was fetched (and written), 1 when one could not be fetched, does not declare
 * its entry (ARD_ORIGIN_UNBOUND) or could not be written, 2 for bad usage or content with errors
 * (`npm run check` shows them). Nothing is written for an entry whose artifact does not declare it, nor
 * for one whose file cannot take the digest without another change; every file's new text is made
 * before any is written.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { loadAndCheck } from '../../core/content/index.js';
import { fetchDigests, pinTargets, withDigest } from '../../core/content/pin.js';
import { formatDiagnostic } from '../../core/util/errors.js';
import { projectFolder } from '../lib/args.js';
import { counted } from '../lib/counted.js';
import { networkReader, type NetworkValues } from '../lib/network-options.js';
import { shownFolder } from '../lib/shown-folder.js';
import { writeContained } from '../../core/project/contained-write.js';
import { terminalText } from '../../core/util/terminal-text.js';

/** The options of `ardsite pin` (src/cli/program.ts declares them). */
export interface PinCommandOptions extends NetworkValues {
  /** The project folder. */
  root: string;
  /** Fetches every own external entry again. */
  all: boolean;
  /** Says what would be written, writes nothing. */
  dryRun: boolean;
}

/**
 * Runs `ardsite pin` and returns its exit code (see the file's comment).
 *
 * @throws UsageError for a `--root` that is not a folder or a malformed network option.
 */
export async function runPin(values: PinCommandOptions): Promise<number> {
  const reader = await networkReader(values);

  const root = projectFolder(values.root);
  /** The project, as the summary lines name it. */
  const project = shownFolder(root);
  const { model, diagnostics } = await loadAndCheck({ root });
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (!model || errors.length > 0) {
    for (const d of errors) process.stderr.write(`${formatDiagnostic(d)}\n`);
    process.stderr.write(`pin: the content of ${project} has errors; fix them first (npm run check)\n`);
    return 2;
  }

  const dryRun = values.dryRun;
  const { targets, skipped } = pinTargets(model, { all: values.all });
  for (const skip of skipped) process.stdout.write(`skip  ${skip.file}  ${skip.reason}\n`);
  if (targets.length === 0) {
    // "Every entry … has a digest" only when there is one: a site without any is told so.
    const any = !values.all && pinTargets(model, { all: true }).targets.length > 0;
    process.stdout.write(
      !any
        ? `No entry of ${project} points outside the site: nothing to pin.\n`
        : `Every entry of ${project} that points outside the site has a digest: nothing to pin (--all fetches them again).\n`,
    );
    return 0;
  }

  let written = 0;
  let failed = 0;
  const fail = (file: string, why: string) => {
    failed++;
    process.stderr.write(`FAIL  ${file}  ${terminalText(why)}\n`);
  };
  // Every file's new text is made before any is written, so a file that cannot take its digest stops
  // nothing else and shows in --dry-run too.
  const changes: Array<{ file: string; text: string; line: string }> = [];
  for (const { target, digest, size, error, unbound } of await fetchDigests(targets, reader)) {
    if (error !== undefined || digest === undefined) {
      fail(target.file, `cannot fetch ${target.url}: ${error}`);
      continue;
    }
    if (unbound !== undefined) {
      // The verifier reads these very bytes once the digest is there, and fails the site (ARD_ORIGIN_UNBOUND).
      fail(
        target.file,
        `url: ${unbound}; not pinned, since npm run verify would fail this entry on the live site ` +
          `(ARD_ORIGIN_UNBOUND): make the artifact contain ${target.identifier} or did:web:${target.domain} ` +
          `as a whole word (in a JSON string or key, or a word of its text), or serve it from this site ` +
          `(a file of public/ and a site path as url), then run npm run pin again`,
      );
      continue;
    }
    if (target.digest === digest) {
      process.stdout.write(`same  ${target.file}  ${digest} (${size} bytes)\n`);
      continue;
    }
    try {
      const text = withDigest(await readFile(path.join(root, target.file), 'utf8'), digest, target.file);
      const was = target.digest === undefined ? '' : ` (was ${target.digest})`;
      changes.push({
        file: target.file,
        text,
        line: `${target.file}  ${digest}${was} (${size} bytes from ${target.url})`,
      });
    } catch (error) {
      fail(target.file, (error as Error).message);
    }
  }
  for (const change of changes) {
    if (dryRun) {
      process.stdout.write(`would pin  ${change.line}\n`);
      written++;
      continue;
    }
    try {
      writeContained(root, change.file, change.text);
      process.stdout.write(`pinned  ${change.line}\n`);
      written++;
    } catch (error) {
      fail(change.file, `cannot write it: ${(error as Error).message}`);
    }
  }
  process.stdout.write(
    `${counted(targets.length, 'entry', 'entries')} of ${project} to pin: ${written} ${dryRun ? 'would be ' : ''}written, ${failed} failed\n`,
  );
  return failed > 0 ? 1 : 0;
}
