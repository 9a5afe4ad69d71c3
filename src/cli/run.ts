/**
 * The one error boundary of `ardsite <command>`: runs the command line (src/cli/program.ts) and turns
 * what it throws into a message and an exit code, the same for every command: 0 success, 1 the command's
 * work failed (content errors, a failed check or build), 2 bad usage (an unknown command or option, a
 * missing argument, a value out of range, a folder that does not exist). `verify` and `diff` document
 * their own 1 and 2 in `--help`. A content error (ArdsiteError) prints its diagnostics and code, never a
 * stack trace.
 */
import { CommanderError, type Command } from 'commander';
import { ardsiteProgram, type CommandOutcome, type CommandOutput } from './program.js';
import { UsageError } from './lib/usage-error.js';

/** Exit code of bad usage, for every command. */
export const USAGE_EXIT_CODE = 2;

/**
 * Runs the command line `argv` (without node and the script, e.g. `['check', '--json']`), writing
 * commander's output and the boundary's messages to `out`, and returns the exit code. Never throws; a
 * server command resolves once it listens, with 0. `env` is the environment `check` and `release` read
 * (`SOURCE_DATE_EPOCH`, `ARDSITE_*`; default `process.env`), so that a caller in another process's place
 * hands it over instead of changing this process's.
 */
export async function runCommandLine(
  argv: readonly string[],
  out: CommandOutput = process,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const outcome: CommandOutcome = {};
  const program = ardsiteProgram(out, outcome, env);
  let running: Command = program;
  program.hook('preAction', (_program, command) => {
    running = command;
  });
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return outcome.exitCode ?? 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and --version exit 0; the message of a usage error was already written.
      return error.exitCode === 0 ? 0 : USAGE_EXIT_CODE;
    }
    if (error instanceof UsageError) {
      const usage = error.showUsage ? `Usage: ardsite ${running.name()} ${running.usage()}\n` : '';
      out.stderr.write(`${error.message}\n${usage}`);
      return USAGE_EXIT_CODE;
    }
    const { ArdsiteError, formatDiagnostic } = await import('../core/util/errors.js');
    const command = running === program ? 'ardsite' : `ardsite ${running.name()}`;
    if (error instanceof ArdsiteError) {
      for (const d of error.diagnostics) out.stderr.write(`${formatDiagnostic(d)}\n`);
      out.stderr.write(`${command}: ${error.message} [${error.code}]\n`);
    } else if (isSystemError(error)) {
      // The machine refused (a path that is a file, no permission, a full disk, a port in use): Node's
      // message names the call, the code and the path, which is what the publisher can act on.
      out.stderr.write(`${command}: ${error.message}\n`);
    } else {
      // Not a content error: a fault of ardsite, whose stack is what a bug report needs.
      out.stderr.write(`${command}: ${(error as Error).stack ?? String(error)}\n`);
    }
    return 1;
  }
}

/**
 * Runs `ardsite verify` with `args` (the arguments after the command's name) through the command line's
 * declaration and this error boundary, in this process, writing to `out`; returns the exit code: 0 every
 * check held, 1 some check failed, 2 the site could not be read (or bad usage). Never throws.
 */
export function runVerify(args: readonly string[], out: CommandOutput = process): Promise<number> {
  return runCommandLine(['verify', ...args], out);
}

/**
 * Runs `ardsite diff` with `args` (the arguments after the command's name) through the command line's
 * declaration and this error boundary, in this process, writing to `out`; returns the exit code: 0
 * nothing gained access, 1 something did, 2 a side could not be read (or bad usage). Never throws.
 */
export function runDiff(args: readonly string[], out: CommandOutput = process): Promise<number> {
  return runCommandLine(['diff', ...args], out);
}

/**
 * Whether `error` is one of Node's system errors (`ENOTDIR`, `EACCES`, `ENOSPC`, `EADDRINUSE`…: an
 * `Error` with a string `code` and the `syscall` that failed; Node.js "Errors", class SystemError).
 */
function isSystemError(error: unknown): error is NodeJS.ErrnoException {
  const e = error as NodeJS.ErrnoException | undefined;
  return e instanceof Error && typeof e.code === 'string' && typeof e.syscall === 'string';
}
