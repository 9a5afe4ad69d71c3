/**
 * Build tests run the real command line (`ardsite build`, src/cli/main.ts) over a throw-away copy of a project.
 *
 * - {@link copyProject} copies a publisher's files (`content/`, `public/`) into a fresh temporary
 *   folder, adds a `.gitignore` and one git commit with a fixed date,
 *   so that `updatedAt` comes from git and is the same on every run.
 * - {@link buildProject} runs `node --import tsx src/cli/main.ts build --root <root> --out <out>` in a child
 *   process with a clean environment (no inherited `CI`, `ARDSITE_*`, `SOURCE_DATE_EPOCH`) and returns
 *   its exit code and output.
 * - {@link removeProjects} removes the copies, and the folders given to {@link rememberForRemoval} (the
 *   copies of shared builds, ./shared-build.ts).
 *
 * The copy holds only the publisher's files: the build runs Astro from the app (this repository:
 * astro.config.mjs, src/pages, node_modules) with `publicDir` set to `<root>/public`, so `--root` works
 * for a folder with nothing but `content/` and `public/`. (Before that, Astro resolved the pages from
 * `<root>/src/pages` and its modules from `<root>/node_modules`, and a bare copy failed with "Missing
 * pages directory" / `Rollup failed to resolve import "astro/app"`.)
 */
import { spawn, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EXAMPLE_LIKE, REPO_ROOT } from './site.js';

/** `SOURCE_DATE_EPOCH` of the build tests: 2025-11-24T16:00:00Z. */
export const SOURCE_DATE_EPOCH = '1764000000';

/** Unix time of the commit {@link copyProject} makes: 2025-11-13T02:13:20Z (distinct from SOURCE_DATE_EPOCH). */
export const COMMIT_EPOCH = 1763000000;

/** The TEST-ONLY ES256 private JWK (test/vectors/), as text for `ARDSITE_SIGNING_KEY`. */
export const TEST_KEY_ES256 = readFileSync(
  path.join(REPO_ROOT, 'test', 'vectors', 'test-key-es256.jwk.json'),
  'utf8',
);

/** The environment of a reproducible build with the fixed TEST-ONLY key. */
export function fixedKeyEnv(): Record<string, string> {
  return { ARDSITE_SIGNING_KEY: TEST_KEY_ES256, SOURCE_DATE_EPOCH };
}

/** What one run of the build command gave. */
export interface BuildResult {
  code: number;
  stdout: string;
  stderr: string;
  /** Absolute path of the output folder (`--out`), whether or not it was written. */
  outDir: string;
}

/** Variables of the parent process that must not leak into a build under test. */
const SCRUBBED = /^(CI|ARDSITE_.*|SOURCE_DATE_EPOCH|NODE_ENV|VITEST.*|TEST|GIT_.*)$/;

function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !SCRUBBED.test(k)) env[k] = v;
  return env;
}

/**
 * Runs the build CLI for `root`. `env` is laid over a clean copy of the environment (a value of
 * `undefined` removes the variable). `out` defaults to `<root>/dist`; a relative `out` is resolved
 * against `root`. `args` are added to the command line (e.g. `--registry`).
 */
export function buildProject(
  root: string,
  options: { env?: Record<string, string | undefined>; out?: string; args?: readonly string[] } = {},
): Promise<BuildResult> {
  const outDir = path.resolve(root, options.out ?? 'dist');
  const env = cleanEnv();
  for (const [k, v] of Object.entries(options.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  env.NO_COLOR = '1';
  const args = [
    '--import',
    'tsx',
    path.join(REPO_ROOT, 'src', 'cli', 'main.ts'),
    'build',
    '--root',
    root,
    '--out',
    outDir,
    ...(options.args ?? []),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr, outDir }));
  });
}

const made: string[] = [];

/**
 * Copies the project at `src` (its `content/` and, when present, `public/`) into a new temporary
 * folder with a `.gitignore` that ignores `.ardsite/` (so the build may create a key there) and the
 * build's own folders, and one git commit dated {@link COMMIT_EPOCH}. Returns the folder's absolute
 * path.
 */
export async function copyProject(src: string = EXAMPLE_LIKE): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'ardsite-build-'));
  made.push(root);
  await cp(path.join(src, 'content'), path.join(root, 'content'), { recursive: true });
  const pub = path.join(src, 'public');
  if (await stat(pub).catch(() => undefined)) await cp(pub, path.join(root, 'public'), { recursive: true });
  await writeFile(path.join(root, '.gitignore'), '.ardsite/\n.ardsite-tmp-*/\ndist*/\n');
  const date = `@${COMMIT_EPOCH} +0000`;
  const git = (...args: string[]) =>
    execFileSync(
      'git',
      [
        '-c',
        'user.name=ardsite tests',
        '-c',
        'user.email=tests@example.com',
        '-c',
        'commit.gpgsign=false',
        ...args,
      ],
      {
        cwd: root,
        stdio: 'ignore',
        env: { ...cleanEnv(), GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
      },
    );
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'test project');
  return root;
}

/** Adds `dir` to the folders {@link removeProjects} removes (e.g. a copy of a shared build). */
export function rememberForRemoval(dir: string): void {
  made.push(dir);
}

/** Removes every folder {@link copyProject} made, and those given to {@link rememberForRemoval} (call from `afterAll`). */
export async function removeProjects(): Promise<void> {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

/**
 * Every file under `dir` (relative paths with `/`, sorted) with its bytes; empty when `dir` is absent.
 * Symbolic links are not followed, and top-level names in `skip` are left out.
 */
export async function readTree(dir: string, skip: readonly string[] = []): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const walk = async (rel: string): Promise<void> => {
    const entries = await readdir(path.join(dir, rel), { withFileTypes: true }).catch(() => []);
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isSymbolicLink() || (rel === '' && skip.includes(e.name))) continue;
      if (e.isDirectory()) await walk(r);
      else out.set(r, await readFile(path.join(dir, r)));
    }
  };
  await walk('');
  return out;
}

/** Names in `root` that a build leaves behind only when it failed to clean up. */
export async function leftovers(root: string): Promise<string[]> {
  return (await readdir(root)).filter((n) => n.startsWith('.ardsite-tmp-') || n.endsWith('.old'));
}
