/**
 * Bad usage found by a command after commander has parsed its line (a `--root` that is no folder, a
 * `--port` that is no port, a value out of range): thrown by the command, turned into its message and exit
 * code 2 by the one error boundary (src/cli/run.ts), never a stack trace.
 */

/** A usage error: `message` is printed as it is on stderr; the exit code is 2. */
export class UsageError extends Error {
  /** Whether the boundary prints the command's usage line after the message. */
  readonly showUsage: boolean;

  /**
   * @param message one sentence naming the option and what is wrong with its value.
   * @param options `showUsage`: print the command's usage line after it (default false).
   */
  constructor(message: string, options: { showUsage?: boolean } = {}) {
    super(message);
    this.name = 'UsageError';
    this.showUsage = options.showUsage ?? false;
  }
}
