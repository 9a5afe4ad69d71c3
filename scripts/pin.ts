/**
 * `npm run pin`: fetches once the artifact of each of the site's own entries whose `url` points outside
 * the site and has no `digest`, and writes `digest: sha256:<hex>` into its file under content/entries/
 * (DESIGN.md §1; src/core/content/pin.ts). The build then signs a trustManifest that pins those bytes, and
 * `npm run check` no longer warns ARD_UNPINNED. The artifact is fetched the way `npm run verify` fetches
 * (https with TLS 1.3, a timeout, a size cap, no private address, no redirect to another origin).
 *
 * Usage: npm run pin [-- --all] [--dry-run] [--root <project folder>] [--resolve host=http://127.0.0.1:PORT]
 *   [--allow-private] [--timeout MS] [--max-bytes N]
 *   --all       fetch every own external entry again, and update the digests whose artifact changed
 *   --dry-run   print what would be written, write nothing
 * Exit 0 when every artifact was fetched (and written), 1 when one could not be, 2 for bad usage or
 * content that does not load.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadAndCheck } from '../src/core/content/index.js';
import { fetchDigests, pinTargets, withDigest } from '../src/core/content/pin.js';
import { formatDiagnostic } from '../src/core/errors.js';
import {
  DEFAULT_MAX_BYTES,
  DEFAULT_TIMEOUT_MS,
  httpReader,
  parseResolve,
} from '../src/core/verify/http-reader.js';
import { parseCommandLine } from './lib/args.js';
import { counted } from './lib/counted.js';

const usage =
  'usage: npm run pin [-- --all] [--dry-run] [--root <project folder>] [--resolve host=URL] [--allow-private] [--timeout MS] [--max-bytes N]';

const { values } = parseCommandLine(
  {
    options: {
      root: { type: 'string', default: process.cwd() },
      all: { type: 'boolean', default: false },
      'dry-run': { type: 'boolean', default: false },
      resolve: { type: 'string', multiple: true, default: [] },
      'allow-private': { type: 'boolean', default: false },
      timeout: { type: 'string' },
      'max-bytes': { type: 'string' },
    },
  },
  usage,
);

/** A positive whole number from an option, or exit 2 naming it. */
function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (Number.isInteger(n) && n > 0) return n;
  process.stderr.write(`pin: --${name} expects a positive whole number, got "${value}"\n${usage}\n`);
  process.exit(2);
}

let resolve: Map<string, string>;
try {
  resolve = parseResolve(values.resolve ?? []);
} catch (error) {
  process.stderr.write(`pin: ${(error as Error).message}\n${usage}\n`);
  process.exit(2);
}
const reader = httpReader({
  resolve,
  allowPrivate: values['allow-private'],
  timeoutMs: positive('timeout', values.timeout, DEFAULT_TIMEOUT_MS),
  maxBytes: positive('max-bytes', values['max-bytes'], DEFAULT_MAX_BYTES),
});

const root = path.resolve(values.root!);
const { model, diagnostics } = await loadAndCheck({ root });
if (!model) {
  for (const d of diagnostics.filter((x) => x.severity === 'error')) {
    process.stderr.write(`${formatDiagnostic(d)}\n`);
  }
  process.stderr.write('pin: the content does not load; fix the errors above first (npm run check)\n');
  process.exit(2);
}

const targets = pinTargets(model, { all: values.all });
if (targets.length === 0) {
  process.stdout.write(
    values.all
      ? 'No entry of this site points outside it: nothing to pin.\n'
      : 'Every entry of this site that points outside it has a digest: nothing to pin (--all fetches them again).\n',
  );
  process.exit(0);
}

let written = 0;
let failed = 0;
for (const { target, digest, size, error } of await fetchDigests(targets, reader)) {
  if (error !== undefined || digest === undefined) {
    failed++;
    process.stderr.write(`FAIL  ${target.file}  cannot fetch ${target.url}: ${error}\n`);
    continue;
  }
  if (target.digest === digest) {
    process.stdout.write(`same  ${target.file}  ${digest} (${size} bytes)\n`);
    continue;
  }
  const was = target.digest === undefined ? '' : ` (was ${target.digest})`;
  process.stdout.write(
    `${values['dry-run'] ? 'would pin' : 'pinned'}  ${target.file}  ${digest}${was} (${size} bytes from ${target.url})\n`,
  );
  written++;
  if (values['dry-run']) continue;
  const file = path.join(root, target.file);
  const text = withDigest(await readFile(file, 'utf8'), digest, target.file);
  // Through a temporary file, so an interrupted run never leaves half a YAML file.
  const temporary = `${file}.pin-${process.pid}.tmp`;
  await writeFile(temporary, text);
  await rename(temporary, file);
}
process.stdout.write(
  `${counted(targets.length, 'entry', 'entries')} fetched: ${written} ${values['dry-run'] ? 'would be ' : ''}written, ${failed} failed\n`,
);
process.exitCode = failed > 0 ? 1 : 0;
