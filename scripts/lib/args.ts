/**
 * Command-line parsing shared by the scripts: node:util `parseArgs` plus `--help`, and a usage message
 * with exit code 2 (not a stack trace) for an unknown or malformed option.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

/**
 * Parses `process.argv` with `config`. `--help` prints `usage` and exits 0; a parse error prints the
 * reason and `usage` to stderr and exits 2.
 */
export function parseCommandLine<T extends ParseArgsConfig>(
  config: T,
  usage: string,
): ReturnType<typeof parseArgs<T>> {
  const withHelp = { ...config, options: { ...config.options, help: { type: 'boolean', short: 'h' } } } as T;
  let parsed: ReturnType<typeof parseArgs<T>>;
  try {
    parsed = parseArgs(withHelp);
  } catch (error) {
    process.stderr.write(`${(error as Error).message.split('\n')[0]}\n${usage}\n`);
    process.exit(2);
  }
  if ((parsed.values as { help?: boolean }).help) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  return parsed;
}
