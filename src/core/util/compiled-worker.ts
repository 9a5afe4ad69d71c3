/**
 * Worker threads as plain JavaScript modules, so a thread starts in a fraction of a second: a worker
 * thread does not get the TypeScript loader (tsx) of the thread that starts it, and loading tsx and every
 * TypeScript module in a worker costs about a second of CPU, as much as signing a thousand cards (issue
 * 19). Used by the verifier's helper threads (src/core/verify/helper-threads.ts), the build's signing
 * threads (src/core/trust/signer-pool.ts) and its machine-check thread
 * (src/core/build/machine-check-thread.ts).
 *
 * esbuild bundles a worker's entry and the ardsite modules it imports into
 * `node_modules/.cache/ardsite/<name>-worker-<sha256>.mjs`; packages stay imports (resolved from the
 * project's node_modules at run time, the same versions the main thread uses). A record beside it holds
 * the sha256 of every source file as esbuild read it, and of the recipe (this file, tsconfig.json and
 * esbuild's version): the bundle is used only while all of them are unchanged, and made again otherwise
 * (about a tenth of a second, once per change).
 *
 * In the installed package the modules are already JavaScript (tsc compiles `src/core` into `lib/core`):
 * a worker then runs its compiled entry as it is, and esbuild, a development dependency, is never loaded.
 *
 * Only Node's own modules are imported here; esbuild is loaded when a bundle is made.
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root (this file is src/core/util/compiled-worker.ts). */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * The workers that can be bundled: name → entry (relative to the project root). The name is the prefix
 * of the bundle's and the record's file names.
 */
export const WORKER_ENTRIES = {
  verify: 'src/core/verify/entries-worker.ts',
  signer: 'src/core/trust/signer-worker.ts',
  'machine-check': 'src/core/build/machine-check-worker.ts',
} as const;

/** A worker of {@link WORKER_ENTRIES}. */
export type WorkerName = keyof typeof WORKER_ENTRIES;
/** Bundles older than this are removed when a new one is made (a process may still be starting one). */
const OLD_BUNDLE_MS = 60 * 60 * 1000;

/** What {@link compiledWorker} found or made. */
export type CompiledWorker =
  | { file: string; made: boolean }
  /** No bundle could be used; `reason` says why (the caller checks in its own thread instead). */
  | { file?: undefined; reason: string };

interface BundleRecord {
  /** The bundle's file name, in the record's folder. */
  file: string;
  /** sha256 hex of this file's source, tsconfig.json and esbuild's version, when the bundle was made. */
  recipe: string;
  /** Source path (relative to the project root, `/`-separated) → sha256 hex of the bytes esbuild read. */
  inputs: Record<string, string>;
}

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

/** The bytes of `file`, or an empty buffer when it cannot be read. */
function bytesOf(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch {
    return Buffer.alloc(0);
  }
}

/** The sha256 of how a bundle is made: this module's own source, `<root>/tsconfig.json`, esbuild's version. */
function recipeOf(root: string): string {
  let esbuildVersion = 'none';
  try {
    const manifest = createRequire(import.meta.url).resolve('esbuild/package.json');
    esbuildVersion = (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
  } catch {
    // no esbuild: the bundle cannot be made again either, and any existing one is still the one made
  }
  return sha256(
    [
      sha256(bytesOf(fileURLToPath(import.meta.url))),
      sha256(bytesOf(path.join(root, 'tsconfig.json'))),
      esbuildVersion,
    ].join('\n'),
  );
}

/** True when the recipe and every source the record lists are as they were. */
function upToDate(record: BundleRecord, root: string): boolean {
  if (record.recipe !== recipeOf(root) || Object.keys(record.inputs).length === 0) return false;
  for (const [source, digest] of Object.entries(record.inputs)) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(path.join(root, source));
    } catch {
      return false;
    }
    if (sha256(bytes) !== digest) return false;
  }
  return true;
}

/** Writes `text` to `file` through a temporary name, so a reader never sees half a file. */
function writeAtomically(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

/** Removes the bundles of `worker` in `dir` other than `keep` made over an hour ago. */
function removeOldBundles(dir: string, worker: WorkerName, keep: string): void {
  const bundle = new RegExp(`^${worker}-worker-[0-9a-f]{16}\\.mjs$`);
  for (const name of readdirSync(dir)) {
    if (name === keep || !bundle.test(name)) continue;
    const file = path.join(dir, name);
    try {
      if (Date.now() - statSync(file).mtimeMs > OLD_BUNDLE_MS) rmSync(file, { force: true });
    } catch {
      // another process removed it first
    }
  }
}

/**
 * The `execArgv` of a thread started from a bundle: none of the parent's flags (its TypeScript loader
 * above all: the bundle needs none) but Node's CPU profiler's (`--cpu-prof`, `--cpu-prof-dir`,
 * `--cpu-prof-interval`; Node's "--cpu-prof" options), so that `node --cpu-prof` profiles the worker
 * threads of a build as well, each into a file of its own. `--cpu-prof-name` is left out: every thread
 * would write to the same file.
 * @param parent the parent's flags (default `process.execArgv`).
 */
export function bundledWorkerExecArgv(parent: readonly string[] = process.execArgv): string[] {
  const kept: string[] = [];
  parent.forEach((flag, i) => {
    if (/^--cpu-prof(-dir|-interval)?(=|$)/.test(flag)) kept.push(flag);
    // `--cpu-prof-dir <dir>`: the value is the next word.
    else if (/^--cpu-prof(-dir|-interval)$/.test(parent[i - 1] ?? '') && !flag.startsWith('--'))
      kept.push(flag);
  });
  return kept;
}

/**
 * The path of the bundled `worker` ({@link WORKER_ENTRIES}), made (or made again) when a source or the
 * recipe changed. `options.root`: the project root (default: the one this module is in);
 * `options.cacheDir`: where the bundle and its record (`<name>-worker.json`) live (default
 * `<root>/node_modules/.cache/ardsite`, beside the packages the bundle imports, which resolve from there).
 * Run compiled (from `lib/core`, with no `options.root`), it returns the compiled entry beside it.
 * Start the thread with {@link bundledWorkerExecArgv} (no loader: the bundle needs none). Never throws: a
 * missing esbuild, a
 * read-only folder or a failed bundle give `{ reason }`, and the caller starts the TypeScript entry
 * through tsx or does the work in its own thread.
 */
export async function compiledWorker(
  worker: WorkerName,
  options: { root?: string; cacheDir?: string } = {},
): Promise<CompiledWorker> {
  // Compiled (the package's lib/core): the entry's own .js beside this module needs no bundle.
  if (options.root === undefined && import.meta.url.endsWith('.js')) {
    // ROOT is the package root there too (lib/ mirrors src/), so the entry is found wherever this module sits.
    const entry = WORKER_ENTRIES[worker].replace(/^src\//, 'lib/').replace(/\.ts$/, '.js');
    return { file: path.join(ROOT, entry), made: false };
  }
  const root = options.root ?? ROOT;
  const cacheDir = options.cacheDir ?? path.join(root, 'node_modules', '.cache', 'ardsite');
  const recordFile = path.join(cacheDir, `${worker}-worker.json`);
  try {
    const record = JSON.parse(readFileSync(recordFile, 'utf8')) as BundleRecord;
    const file = path.join(cacheDir, path.basename(record.file));
    if (existsSync(file) && upToDate(record, root)) return { file, made: false };
  } catch {
    // no record yet, or an unreadable one: make the bundle
  }
  try {
    const recipe = recipeOf(root);
    const esbuild = await import('esbuild');
    // The digests are of the bytes esbuild was given, so a file saved during the build is seen as changed.
    const inputs: Record<string, string> = {};
    const result = await esbuild.build({
      absWorkingDir: root,
      entryPoints: [WORKER_ENTRIES[worker]],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      write: false,
      logLevel: 'silent',
      legalComments: 'none',
      plugins: [
        {
          name: 'ardsite-input-digests',
          setup(build) {
            build.onLoad({ filter: /\.ts$/ }, (args) => {
              const contents = readFileSync(args.path);
              inputs[path.relative(root, args.path).split(path.sep).join('/')] = sha256(contents);
              return { contents, loader: 'ts' };
            });
          },
        },
      ],
    });
    const text = result.outputFiles[0]!.text;
    mkdirSync(cacheDir, { recursive: true });
    const name = `${worker}-worker-${sha256(text).slice(0, 16)}.mjs`;
    const file = path.join(cacheDir, name);
    if (!existsSync(file)) writeAtomically(file, text);
    const record: BundleRecord = { file: name, recipe, inputs };
    writeAtomically(recordFile, `${JSON.stringify(record, null, 2)}\n`);
    removeOldBundles(cacheDir, worker, name);
    return { file, made: true };
  } catch (error) {
    return { reason: `the ${worker} worker could not be bundled: ${(error as Error).message}` };
  }
}
