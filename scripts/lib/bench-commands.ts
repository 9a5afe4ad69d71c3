/**
 * What `npm run bench` runs, so that each side is run as its users run it, without a TypeScript loader
 * (tsx) transforming sources at run time:
 *
 * - ardsite: the compiled package, `node lib/cli/main.js build` (the `bin` of package.json, what an
 *   installed `ardsite build` runs). `lib/` is made by `npm run compile` (tsc, tsconfig.build.json); the
 *   bench compiles it first when it is missing or older than a source file it is compiled from.
 * - the floor: bench/floor-build.ts bundled by esbuild into one JavaScript module (packages stay imports,
 *   resolved from node_modules as before), run by `node`.
 *
 * Both then pay the same thing only: Astro's own build (Vite compiling the pages), which neither side
 * can skip.
 */
import { execFile } from 'node:child_process';
import { mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The folders tsconfig.build.json compiles from, relative to the project root. */
const COMPILED_SOURCES = ['src/index.ts', 'src/cli', 'src/core', 'src/astro'];

/**
 * Whether a compiled output written at `outputMs` (epoch milliseconds; undefined: missing) is older than
 * any of `sourceMs` (the sources' modification times, or of the build recipe).
 */
export function isStale(outputMs: number | undefined, sourceMs: readonly number[]): boolean {
  return outputMs === undefined || sourceMs.some((ms) => ms > outputMs);
}

/** Modification time (epoch ms) of `file`, or undefined when it does not exist. */
async function mtime(file: string): Promise<number | undefined> {
  try {
    return (await stat(file)).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Modification times of every `.ts` file under `entry` (a file or a folder). */
async function sourceTimes(entry: string): Promise<number[]> {
  const own = await stat(entry);
  if (!own.isDirectory()) return [own.mtimeMs];
  const times: number[] = [];
  for (const e of await readdir(entry, { recursive: true, withFileTypes: true })) {
    if (e.isFile() && e.name.endsWith('.ts'))
      times.push((await stat(path.join(e.parentPath, e.name))).mtimeMs);
  }
  return times;
}

/**
 * The compiled command line of the tree at `appRoot` (`<appRoot>/lib/cli/main.js`), compiled first
 * with `tsc -p tsconfig.build.json` (what `npm run compile` runs) when missing or stale. Throws when tsc
 * fails.
 */
export async function compiledCli(appRoot: string, log: (line: string) => void): Promise<string> {
  const cli = path.join(appRoot, 'lib', 'cli', 'main.js');
  const recipe = ['tsconfig.json', 'tsconfig.build.json', 'package.json'].map((f) => path.join(appRoot, f));
  const times = [
    ...(await Promise.all(COMPILED_SOURCES.map((s) => sourceTimes(path.join(appRoot, s))))).flat(),
    ...((await Promise.all(recipe.map(mtime))).filter((t) => t !== undefined) as number[]),
  ];
  if (isStale(await mtime(cli), times)) {
    log(`compiling ${path.relative(process.cwd(), appRoot) || '.'} into lib/ (tsc -p tsconfig.build.json)…`);
    await run(
      process.execPath,
      [path.join(appRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
      {
        cwd: appRoot,
        maxBuffer: 64 * 1024 * 1024,
      },
    );
  }
  return cli;
}

/**
 * bench/floor-build.ts bundled into `node_modules/.cache/ardsite-bench/floor-build.mjs` of `appRoot`
 * (esbuild; made again on each call, a fraction of a second). Its `import.meta.dirname` is fixed to
 * bench/, where the floor's Astro project lives. Returns the bundle's path; throws when esbuild fails.
 */
export async function bundledFloor(appRoot: string): Promise<string> {
  const { build } = await import('esbuild');
  const outDir = path.join(appRoot, 'node_modules', '.cache', 'ardsite-bench');
  await mkdir(outDir, { recursive: true });
  const outfile = path.join(outDir, 'floor-build.mjs');
  await build({
    entryPoints: [path.join(appRoot, 'bench', 'floor-build.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    define: { 'import.meta.dirname': JSON.stringify(path.join(appRoot, 'bench')) },
    logLevel: 'error',
  });
  return outfile;
}
