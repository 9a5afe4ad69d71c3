/**
 * `ardsite serve`: the site with its lookup API (registry mode, docs/guides/registry.md): the static files
 * of `dist/` with their `_headers`, and POST /search, POST /explore and GET /agents under the registry's
 * base path (ARD draft §4.2), in one Node process (DESIGN.md §7). When `dist/` holds no built site, the
 * site is first built in registry mode, saying so. When it holds a built site without its registry build
 * (a static build, or one that replaced the registry build), a registry build would replace those files
 * (a build that may have been verified or deployed): serve says so and stops, unless `--rebuild`.
 *
 * Options: --root <project>, --dir <folder>, --port <n>, --host <ip>, --dev, --resolve
 * host=http://127.0.0.1:PORT (repeatable), --allow-private, --no-build | --rebuild, --quiet, --workers <n>.
 * `--workers N` (default: the processors Node may use, `os.availableParallelism()`) serves with N
 * processes on one port (src/cli/lib/serve-cluster.ts: the secret handed over IPC, a dead worker
 * replaced, the rate limit and the answer cache per worker); `--workers 1` is one process.
 * `--allow-private` lets the registry reach federation peers and foreign sites at private, loopback or
 * link-local addresses (as verify's flag); publisher.yaml cannot.
 * Environment: PORT and HOST (overridden by the flags; defaults 4321 and 127.0.0.1); the pageToken secret
 * in the variable `registry.pageToken.secretEnv` names (default ARDSITE_REGISTRY_SECRET). `--dev` allows
 * a throw-away secret when it is unset. Exit 1 when the server cannot start. A relative --dir is read
 * from the project folder (--root), as `npm run build` reads --out and as `npm run preview` reads its --dir
 * (src/cli/lib/serving-options.ts `servedFolders`).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { ArdsiteError } from '../../core/util/errors.js';
import { readRegistryBuild } from '../../core/registry/bundle.js';
import { loadPublisherSettings, resolvePageTokenSecret } from '../../core/registry/config.js';
import { startRegistryServer } from '../../core/registry/server.js';
import { resolveMap } from '../lib/network-options.js';
import { endWorkerWith, isServeWorker, runServeCluster, secretFromPrimary } from '../lib/serve-cluster.js';
import { selfCommand } from '../lib/self-command.js';
import { portNumber, servedFolders, type ServingValues } from '../lib/serving-options.js';
import { UsageError } from '../lib/usage-error.js';
import { shownFolder } from '../lib/shown-folder.js';

/** The options of `ardsite serve` (src/cli/program.ts declares them). */
export interface ServeCommandOptions extends ServingValues {
  /** Allows a throw-away pageToken secret when its variable is unset. */
  dev: boolean;
  /** `--resolve host=URL`, as verify's. */
  resolve: string[];
  /** The operator's switch (never publisher.yaml): peers and foreign sites at private addresses. */
  allowPrivate: boolean;
  /** False with `--no-build`: never build, fail when the folder has no registry build. */
  build: boolean;
  /** Replaces a built site that has no registry build with a registry build of the content. */
  rebuild: boolean;
  /** No access log. */
  quiet: boolean;
  /** `--workers <n>`: server processes (default `os.availableParallelism()`). */
  workers?: string;
}

/**
 * The number of server processes of `--workers` (a whole number from 1 to 256), or the processors Node
 * may use when it is not given.
 * @throws UsageError for anything else.
 */
export function workerCount(value: string | undefined): number {
  if (value === undefined) return availableParallelism();
  const count = Number(value);
  if (value.trim() === '' || !Number.isInteger(count) || count < 1 || count > 256)
    throw new UsageError(`--workers must be a whole number from 1 to 256, not "${value}"`);
  return count;
}

const log = (line: string) => process.stderr.write(`${line}\n`);

/** Builds the project in registry mode in a child process, its output shown as it comes. */
function buildRegistry(root: string, dir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...selfCommand('build'), '--root', root, '--out', dir, '--registry'],
      { stdio: 'inherit' },
    );
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`the registry build failed (exit code ${code})`)),
    );
  });
}

async function serve(values: ServeCommandOptions): Promise<void> {
  const { root, dir } = servedFolders(values);
  const port = portNumber(values.port);
  const workers = workerCount(values.workers);
  const publisher = await loadPublisherSettings(root);
  const settings = publisher.registry;
  const start = async (secret: Uint8Array, logLine = log) =>
    startRegistryServer({
      dir,
      settings,
      secret,
      port,
      host: values.host,
      resolve: await resolveMap(values.resolve),
      allowPrivate: values.allowPrivate,
      log: logLine,
      accessLog: !values.quiet,
    });
  if (isServeWorker()) {
    // A worker of --workers: the primary checked the secret and built the site; it sends the secret.
    // Its log lines (start-up, access log) name it.
    const server = await start(await secretFromPrimary(), (line) => log(`[worker ${process.pid}] ${line}`));
    endWorkerWith(server.close);
    return;
  }
  // The secret first: a server that cannot start should say so before a build of several minutes.
  const { secret, ephemeral } = resolvePageTokenSecret(settings.pageToken.secretEnv, process.env, {
    dev: values.dev,
  });
  if (ephemeral) {
    log('');
    log(
      `*** ${settings.pageToken.secretEnv} is not set: page tokens are signed with a throw-away secret (--dev).`,
    );
    log('*** They stop working when this server ends, and no other server accepts them.');
    log(
      `*** For a deployment, set ${settings.pageToken.secretEnv} to the same long random value in every process.`,
    );
    log('');
  }
  try {
    await readRegistryBuild(dir);
  } catch (error) {
    if (!(error instanceof ArdsiteError) || error.code !== 'REGISTRY_BUILD_MISSING' || !values.build)
      throw error;
    const why = error.message.split(';')[0]!;
    const shown = shownFolder(dir);
    if (existsSync(path.join(dir, '.well-known', 'ard.json')) && !values.rebuild)
      throw new ArdsiteError(
        'REGISTRY_BUILD_MISSING',
        `${why}. Serving the lookup API needs a registry build, which builds the content again and replaces the files in ${shown} (new signatures and dates: a build you verified or deployed would no longer be what is served). To do so, run npm run serve -- --rebuild; or build first with npm run build -- --registry, or serve another folder with --dir`,
      );
    log(
      values.rebuild && existsSync(path.join(dir, '.well-known', 'ard.json'))
        ? `${why}: replacing the site in ${shown} with a registry build (--rebuild).`
        : `${why}: building the site in registry mode first.`,
    );
    await buildRegistry(root, dir);
  }
  const shown = path.relative(process.cwd(), dir) || dir;
  const endpoints = '(POST /search, POST /explore, GET /agents, GET /agents/{identifier})';
  if (workers > 1) {
    const running = await runServeCluster({ workers, secret, log });
    log(
      `Serving ${shown}/ at ${running.origin}/ and the lookup API at ${running.origin}${settings.basePath} ${endpoints} with ${workers} worker processes (${running.pids().join(', ')})`,
    );
    void running.done.then((code) => process.exit(code));
    return;
  }
  const server = await start(secret);
  log(`Serving ${shown}/ at ${server.origin}/ and the lookup API at ${server.apiUrl} ${endpoints}`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/**
 * Starts `ardsite serve` and returns its exit code: 1 when the server cannot start (the reason on
 * stderr), else undefined, the server running until SIGINT or SIGTERM.
 *
 * @throws UsageError for a `--port`, `--resolve` or `--root` that cannot be used.
 */
export async function runServe(values: ServeCommandOptions): Promise<number | undefined> {
  try {
    await serve(values);
    return undefined;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    if (error instanceof ArdsiteError) log(`Cannot serve: ${error.message} [${error.code}]`);
    else log(`Cannot serve: ${(error as Error).message}`);
    return 1;
  }
}
