/**
 * Command-line parsing shared by the scripts: node:util `parseArgs` plus `--help`, and a usage message
 * with exit code 2 (not a stack trace) for an unknown or malformed option.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
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

/**
 * The absolute path of the project folder `root` (`--root`, default the working folder). A folder that
 * does not exist, or a file, is a usage error: its name and exit 2, before any command reads
 * `content/publisher.yaml` inside it and reports that file missing instead.
 *
 * @param root the `--root` value, relative to the working folder or absolute.
 * @returns the absolute path.
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
    process.stderr.write(
      `--root ${root}: ${kind === 'file' ? 'is a file, not a project folder' : 'no such folder'} (${folder})\n`,
    );
    process.exit(2);
  }
  return folder;
}
