/**
 * Command-line helpers: `parseCommandLine` for the development scripts of `scripts/` (the `ardsite`
 * commands are declared in commander, src/cli/program.ts), and `projectFolder`, how every command reads
 * `--root`.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { Option } from 'commander';
import { UsageError } from './usage-error.js';

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

/**
 * The absolute path of the project folder `root` (`--root`, default the working folder). A folder that
 * does not exist, or a file, is a usage error, before any command reads `content/publisher.yaml` inside
 * it and reports that file missing instead.
 *
 * @param root the `--root` value, relative to the working folder or absolute.
 * @returns the absolute path.
 * @throws UsageError naming the folder (exit 2 at the error boundary).
 */
export function projectFolder(root: string): string {
  const folder = path.resolve(root);
  let kind: 'folder' | 'file' | undefined;
  try {
    kind = statSync(folder).isDirectory() ? 'folder' : 'file';
  } catch {
    kind = undefined;
  }
  if (kind !== 'folder') {
    throw new UsageError(
      `--root ${root}: ${kind === 'file' ? 'is a file, not a project folder' : 'no such folder'} (${folder})`,
    );
  }
  return folder;
}

/**
 * The shared `--root <folder>` option of the commands that read a project: the project folder, relative
 * to the working folder or absolute, default the working folder ({@link projectFolder} checks it).
 *
 * @param options `optional`: no default (verify, where `--root` alone means "its dist/").
 */
export function rootOption(options: { optional?: boolean } = {}): Option {
  const option = new Option('--root <folder>', 'the project folder (content/, public/)');
  return options.optional ? option : option.default(process.cwd(), 'the current folder');
}

/**
 * The parser of an option given once per value (`--resolve a=URL --resolve b=URL`): each value appended
 * to those before it, in order. Never throws.
 */
export function repeated(value: string, previous: readonly string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
