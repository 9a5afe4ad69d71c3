/**
 * Runs one of ardsite's commands as a publisher runs it, in a child process from the repository root, so
 * exit codes and both streams are the real ones: a command of the CLI (`check.ts` → `node --import tsx
 * src/cli/main.ts check`), or a development script that stays in `scripts/` (`bench.ts`); or a command of
 * the CLI in the test's own process, through the same error boundary, where the process is not what is
 * tested ({@link runCommandInProcess}: no Node and tsx started for each run).
 */
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { REPO_ROOT } from './site.js';

const run = promisify(execFile);

/** The commands of `ardsite` (src/cli/main.ts); any other name is a script of `scripts/`. */
export const CLI_COMMANDS: ReadonlySet<string> = new Set([
  'new',
  'check',
  'build',
  'dev',
  'preview',
  'verify',
  'serve',
  'release',
  'diff',
  'pin',
  'specs',
  'keygen',
  'import',
]);

/**
 * Node's arguments that run `script` (`check.ts`: the CLI's `check`; `bench.ts`: `scripts/bench.ts`) through
 * tsx, from the repository root.
 */
export function scriptArgs(script: string): string[] {
  const name = script.replace(/\.ts$/, '');
  return CLI_COMMANDS.has(name)
    ? ['--import', 'tsx', 'src/cli/main.ts', name]
    : ['--import', 'tsx', `scripts/${script}`];
}

/** What a script run gave: its exit code and what it wrote. */
export interface ScriptRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the command or script `script` ({@link scriptArgs}) with `args`. Never throws for a non-zero exit (it is the result's `code`);
 * throws only when the process cannot be started.
 */
export async function runScript(script: string, ...args: string[]): Promise<ScriptRun> {
  try {
    const { stdout, stderr } = await run(process.execPath, [...scriptArgs(script), ...args], {
      cwd: REPO_ROOT,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    if (typeof e.code !== 'number') throw error;
    return { code: e.code, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/**
 * Commands that serve until stopped: never run in the test's process (their servers and signal handlers
 * would stay).
 */
const SERVERS: ReadonlySet<string> = new Set(['dev', 'preview', 'serve']);

/** Whether {@link runCommandInProcess} is running a command: the streams it holds are one process's. */
let inProcessRun = false;

/** The part of `process.stdout.write` and `process.stderr.write` a capture stands in for. */
type Write = typeof process.stdout.write;

/**
 * Runs the command `script` of the CLI (`pin.ts` → `ardsite pin`) with `args` in this process, through
 * the command line's one error boundary (src/cli/run.ts `runCommandLine`, which src/cli/main.ts calls),
 * and gives what {@link runScript} gives: the exit code the process would have had and what the command
 * wrote, to its output or to `process.stdout`/`process.stderr` (held while it runs, so nothing of it is
 * shown). For tests of what a command does; a test of the process itself (its exit, its streams) runs it
 * with {@link runScript}. One at a time in a test process, from the repository root.
 * @throws Error for a name that is no command of the CLI, for a command that serves (`dev`, `preview`,
 *   `serve`), when this process is not in the repository root, or while another run is in progress.
 */
export function runCommandInProcess(script: string, ...args: string[]): Promise<ScriptRun> {
  return inProcess(script, args, process.env);
}

/**
 * The commands of the CLI that read their environment from what the command line is given
 * (src/cli/run.ts `runCommandLine`'s `env`), never from `process.env`.
 */
const ENV_COMMANDS: ReadonlySet<string> = new Set(['check', 'release']);

/**
 * Runs the command `script` of the CLI with `args` in this process as {@link runCommandInProcess} does,
 * over the clean environment {@link runScriptWithEnv} gives a child process (`CI`, `ARDSITE_*`,
 * `SOURCE_DATE_EPOCH` and vitest's variables removed, then `env` and `NO_COLOR` added), handed to the
 * command instead of `process.env`, which stays as it is.
 * @throws Error for a command that reads `process.env` itself (only `check` and `release` take theirs),
 *   and as {@link runCommandInProcess} does.
 */
export async function runCommandInProcessWithEnv(
  script: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<ScriptRun> {
  const name = script.replace(/\.ts$/, '');
  if (!ENV_COMMANDS.has(name))
    throw new Error(`${name} reads process.env itself: run it with runScriptWithEnv, in a child process`);
  return inProcess(script, args, { ...cleanEnvironment(), NO_COLOR: '1', ...env });
}

/** Runs `script` in this process with `args`, `env` handed to the command line (see {@link runCommandInProcess}). */
async function inProcess(
  script: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<ScriptRun> {
  const name = script.replace(/\.ts$/, '');
  if (!CLI_COMMANDS.has(name)) throw new Error(`${script} is no command of ardsite`);
  if (SERVERS.has(name))
    throw new Error(`${name} serves until it is stopped: run it with startServerScript, in a child process`);
  // Relative paths of the arguments are read from the folder the command runs in: the repository root,
  // as runScript's child processes do.
  if (process.cwd() !== REPO_ROOT)
    throw new Error(`runCommandInProcess runs from ${REPO_ROOT}, but this process is in ${process.cwd()}`);
  if (inProcessRun) throw new Error('runCommandInProcess: a command is already running in this process');
  inProcessRun = true;
  const { runCommandLine } = await import('../../src/cli/run.js');
  const result: ScriptRun = { code: 0, stdout: '', stderr: '' };
  const capture = (stream: 'stdout' | 'stderr'): Write =>
    ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      result[stream] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      const done = rest.find((r): r is () => void => typeof r === 'function');
      done?.();
      return true;
    }) as Write;
  const writes = { stdout: process.stdout.write, stderr: process.stderr.write };
  process.stdout.write = capture('stdout');
  process.stderr.write = capture('stderr');
  try {
    result.code = await runCommandLine(
      [name, ...args],
      {
        stdout: { write: (text: string) => (result.stdout += text) },
        stderr: { write: (text: string) => (result.stderr += text) },
      },
      env,
    );
  } finally {
    process.stdout.write = writes.stdout;
    process.stderr.write = writes.stderr;
    inProcessRun = false;
  }
  return result;
}

/**
 * Runs the command or script `script` ({@link scriptArgs}) with `args` as {@link runScript} does, over a clean environment: `CI`,
 * `ARDSITE_*`, `SOURCE_DATE_EPOCH` and vitest's own variables removed, then `env` added (and `NO_COLOR`).
 */
export async function runScriptWithEnv(
  script: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<ScriptRun> {
  try {
    const { stdout, stderr } = await run(process.execPath, [...scriptArgs(script), ...args], {
      cwd: REPO_ROOT,
      env: { ...cleanEnvironment(), NO_COLOR: '1', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    if (typeof e.code !== 'number') throw error;
    return { code: e.code, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** This process's environment without `CI`, `ARDSITE_*`, `SOURCE_DATE_EPOCH` and vitest's own variables. */
function cleanEnvironment(): Record<string, string> {
  const clean: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !/^(CI|ARDSITE_.*|SOURCE_DATE_EPOCH|VITEST.*)$/.test(k)) clean[k] = v;
  return clean;
}

/** A server script running in a child process (see {@link startServerScript}). */
export interface RunningServer {
  /** What the pattern's first group matched in its output (the server's origin). */
  origin: string;
  /** Everything the server wrote so far, both streams. */
  output(): string;
  /** Ends the server (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Starts the command or script `script` ({@link scriptArgs}) with `args` (as {@link runScript}, `NO_COLOR` set, `env` laid over the
 * environment) and resolves once its output matches `ready`, whose first group is the origin it serves.
 * Rejects with what it wrote when it does not within `timeoutMs`, or exits first.
 */
export function startServerScript(
  script: string,
  args: readonly string[],
  ready: RegExp,
  options: { env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<RunningServer> {
  return startServerProcess([...scriptArgs(script), ...args], REPO_ROOT, ready, options);
}

/**
 * Starts `node` with `argv` in `cwd` (`NO_COLOR` set, `env` laid over the environment) and resolves once
 * its output matches `ready`, whose first group is the origin it serves; rejects with what it wrote when it
 * does not within `timeoutMs` (90 s unless given), or exits first. {@link startServerScript} runs this
 * repository's commands through it; the packed package's tests run the installed one.
 */
export function startServerProcess(
  argv: readonly string[],
  cwd: string,
  ready: RegExp,
  options: { env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<RunningServer> {
  const script = argv.join(' ');
  const timeoutMs = options.timeoutMs ?? 90_000;
  const child = spawn(process.execPath, [...argv], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', ...options.env },
  });
  let text = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise<RunningServer>((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${script} did not start:\n${text}`));
    }, timeoutMs);
    const seen = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const match = ready.exec(text);
      if (match) {
        clearTimeout(timer);
        resolve({ origin: match[1]!, output: () => text, stop });
      }
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${script} exited before it served:\n${text}`));
    });
  });
}
