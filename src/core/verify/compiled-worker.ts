/**
 * The verification worker as one plain JavaScript module, so a helper thread starts in a fraction of a
 * second: a worker thread does not inherit the TypeScript loader (tsx) of the thread that starts it,
 * and loading tsx and every TypeScript module in it costs about a second, more than checking a
 * thousand entries.
 *
 * esbuild bundles `entries-worker.ts` and the ardsite modules it imports into
 * `node_modules/.cache/ardsite/verify-worker-<sha256>.mjs`; packages stay imports (resolved from the
 * project's node_modules at run time, the same versions the main thread uses). A small record beside
 * it lists the sha256 of every source file that went in: the bundle is used only while each of them is
 * unchanged, and made again otherwise (about a tenth of a second, once per change).
 *
 * Only light modules are imported here (Node's own); esbuild is loaded when a bundle is made.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root (this file is src/core/verify/compiled-worker.ts). */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const ENTRY = 'src/core/verify/entries-worker.ts';
const RECORD = 'verify-worker.json';

/** What {@link compiledVerifyWorker} found or made. */
export type CompiledWorker =
  | { file: string; made: boolean }
  /** No bundle could be used; `reason` says why (the caller checks in its own thread instead). */
  | { file?: undefined; reason: string };

interface BundleRecord {
  file: string;
  /** Source path (relative to the project root) → sha256 hex of its bytes when the bundle was made. */
  inputs: Record<string, string>;
}

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

/** True when every source the record lists still has the bytes it had. */
function upToDate(record: BundleRecord, root: string): boolean {
  for (const [source, digest] of Object.entries(record.inputs)) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(path.join(root, source));
    } catch {
      return false;
    }
    if (sha256(bytes) !== digest) return false;
  }
  return Object.keys(record.inputs).length > 0;
}

/** Writes `text` to `file` through a temporary name, so a reader never sees half a file. */
function writeAtomically(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

/**
 * The path of the bundled verification worker, made (or made again) when a source changed.
 * `options.root`: the project root (default: the one this module is in); `options.cacheDir`: where the
 * bundle and its record live (default `<root>/node_modules/.cache/ardsite`, beside the packages the
 * bundle imports). Never throws: a missing esbuild, a read-only folder or a failed bundle give
 * `{ reason }`, and the verification runs in its own thread as before.
 */
export async function compiledVerifyWorker(
  options: { root?: string; cacheDir?: string } = {},
): Promise<CompiledWorker> {
  const root = options.root ?? ROOT;
  const cacheDir = options.cacheDir ?? path.join(root, 'node_modules', '.cache', 'ardsite');
  const recordFile = path.join(cacheDir, RECORD);
  try {
    const record = JSON.parse(readFileSync(recordFile, 'utf8')) as BundleRecord;
    const file = path.join(cacheDir, path.basename(record.file));
    if (existsSync(file) && upToDate(record, root)) return { file, made: false };
  } catch {
    // no record yet, or an unreadable one: make the bundle
  }
  try {
    const esbuild = await import('esbuild');
    const result = await esbuild.build({
      absWorkingDir: root,
      entryPoints: [ENTRY],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      write: false,
      metafile: true,
      logLevel: 'silent',
      legalComments: 'none',
    });
    const text = result.outputFiles[0]!.text;
    const inputs: Record<string, string> = {};
    for (const source of Object.keys(result.metafile.inputs)) {
      inputs[source] = sha256(readFileSync(path.join(root, source)));
    }
    mkdirSync(cacheDir, { recursive: true });
    const name = `verify-worker-${sha256(text).slice(0, 16)}.mjs`;
    const file = path.join(cacheDir, name);
    if (!existsSync(file)) writeAtomically(file, text);
    writeAtomically(
      recordFile,
      `${JSON.stringify({ file: name, inputs } satisfies BundleRecord, null, 2)}\n`,
    );
    return { file, made: true };
  } catch (error) {
    return { reason: `the verification worker could not be bundled: ${(error as Error).message}` };
  }
}
