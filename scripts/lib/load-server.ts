/**
 * The server side of `npm run load:registry` (scripts/load-registry.ts): the registry build it serves
 * (the synthetic publisher of bench/synthetic.ts, built in registry mode unless a current build is
 * there), loopback exempt from the rate limit, and `ardsite serve` started in a child process on a free
 * loopback port, with tsx or the compiled CLI (`--compiled`) of `appRoot`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { writeSyntheticPublisher } from '../../bench/synthetic.js';
import { readRegistryBuild } from '../../src/core/registry/bundle.js';
import { log } from './load-measures.js';

/** How the server is built and started: the command line of scripts/load-registry.ts. */
export interface ServerOptions {
  /** The ardsite checkout whose CLI builds and serves (`--app`, else this one). */
  appRoot: string;
  /** Serve with the compiled CLI (`lib/cli/main.js`) instead of tsx over `src/`. */
  compiled?: boolean;
  /** Agents of the synthetic publisher written when the root has none. */
  agents: number;
  /** `ardsite serve --workers`. */
  workers: number;
  /** Folder for the server's CPU profiles (`node --cpu-prof`), if any. */
  profile?: string;
  /** Node flags for the server's processes only, separated by white space. */
  serverFlags?: string;
  /** Folder for scripts/serve-probe.mjs's records, if any. */
  probe?: string;
}

/** Runs a command of this app's CLI (`build.ts`: `ardsite build`) with tsx in a child process. */
function run(
  options: ServerOptions,
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  onStderr?: (text: string) => void,
  nodeFlags: string[] = [],
): ChildProcess {
  // --compiled: the CLI as the package ships it (lib/, after `npm run compile`), without tsx's loader
  // hooks, which answer dynamic import()s on their own thread (through Astro's handler, the server
  // once imported a route's module per request).
  const command = options.compiled
    ? [path.join(options.appRoot, 'lib', 'cli', 'main.js')]
    : ['--import', 'tsx', path.join(options.appRoot, 'src', 'cli', 'main.ts')];
  const child = spawn(process.execPath, [...nodeFlags, ...command, script.replace(/\.ts$/, ''), ...args], {
    cwd: options.appRoot,
    env,
    stdio: ['ignore', 'inherit', onStderr ? 'pipe' : 'inherit'],
  });
  if (onStderr) child.stderr!.setEncoding('utf8').on('data', onStderr);
  return child;
}

/** Resolves with a child process's exit code once it has ended (-1 when killed by a signal). */
export const exited = (child: ChildProcess) =>
  new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));

/** Writes and builds the synthetic publisher in registry mode, unless `root` has a current registry build. */
export async function prepare(options: ServerOptions, root: string): Promise<void> {
  const dist = path.join(root, 'dist');
  if (
    await readRegistryBuild(dist).then(
      () => true,
      () => false,
    )
  ) {
    log(`Reusing the registry build in ${dist}.`);
    return;
  }
  if (!existsSync(path.join(root, 'content', 'publisher.yaml'))) {
    log(`Writing a synthetic publisher of ${options.agents} agents into ${root}.`);
    await writeSyntheticPublisher(root, { agents: options.agents });
  }
  log('Building it in registry mode (a 10,000-agent build takes a few minutes).');
  const started = performance.now();
  const code = await exited(
    run(options, 'build.ts', ['--root', root, '--registry'], {
      ...process.env,
      CI: '1',
      ARDSITE_DEV_KEY: '1',
      SOURCE_DATE_EPOCH: '1764000000',
    }),
  );
  if (code !== 0) throw new Error(`the registry build failed (exit code ${code})`);
  log(`Built in ${((performance.now() - started) / 1000).toFixed(0)} s.`);
}

/** Makes loopback exempt from the rate limit in the project's publisher.yaml (for this benchmark only). */
export async function exemptLoopback(root: string): Promise<void> {
  const file = path.join(root, 'content', 'publisher.yaml');
  const text = await readFile(file, 'utf8');
  if (/^registry:/m.test(text)) return;
  await writeFile(file, `${text}registry:\n  rateLimit:\n    exemptLoopback: true\n`);
}

/** Starts `npm run serve` on a free port; resolves with its API URL once it listens. */
export async function startServer(
  options: ServerOptions,
  root: string,
): Promise<{ child: ChildProcess; api: string; startupSeconds: number }> {
  let stderr = '';
  const started = performance.now();
  const child = run(
    options,
    'serve.ts',
    ['--root', root, '--port', '0', '--quiet', '--no-build', '--workers', String(options.workers)],
    {
      ...process.env,
      ARDSITE_REGISTRY_SECRET: randomBytes(48).toString('base64'),
      ...(options.probe ? { ARDSITE_PROBE_OUT: path.resolve(options.probe) } : {}),
    },
    (text) => {
      stderr += text;
    },
    [
      ...(options.profile ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(options.profile)] : []),
      ...(options.serverFlags?.split(/\s+/).filter((f) => f !== '') ?? []),
      ...(options.probe ? ['--import', path.join(import.meta.dirname, '..', 'serve-probe.mjs')] : []),
    ],
  );
  const api = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /lookup API at (\S+)/.exec(stderr);
      if (m) {
        clearInterval(timer);
        resolve(m[1]!);
      } else if (child.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`the server did not start:\n${stderr}`));
      }
    }, 100);
  });
  log(stderr.trim());
  return { child, api, startupSeconds: (performance.now() - started) / 1000 };
}
