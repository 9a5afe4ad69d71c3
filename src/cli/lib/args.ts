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

/** What {@link parseCommandLineFully} read, and every problem of the command line. */
export interface FullCommandLine {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
  /** The options on the command line, with or without their value (`domain` for `--domain`). */
  mentioned: ReadonlySet<string>;
  /** One sentence per unknown option or option without its value, in the order given. */
  problems: string[];
}

/**
 * Parses `args` (default the process's) with `options` as {@link parseCommandLine} does, but reports every
 * problem of the command line instead of exiting at the first, for a command that reports all of its bad
 * input in one run: an unknown option, a string option with no value (last, or followed by another
 * option, which `parseArgs` would take as its value). `--help` prints `usage` and exits 0. The caller
 * reports the problems with its own, and exits 2.
 */
export function parseCommandLineFully(
  options: Record<string, { type: 'string' | 'boolean' }>,
  usage: string,
  args: readonly string[] = process.argv.slice(2),
): FullCommandLine {
  const problems: string[] = [];
  const mentioned = new Set<string>();
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      kept.push(...args.slice(i));
      break;
    }
    const name = /^--([^=]+)$/.exec(arg)?.[1];
    const next = args[i + 1];
    if (
      name !== undefined &&
      options[name]?.type === 'string' &&
      (next === undefined || next.startsWith('-'))
    ) {
      problems.push(`${arg} needs a value (${arg}=<value> for one that starts with -)`);
      mentioned.add(name);
      continue;
    }
    kept.push(arg);
  }
  const known: Record<string, { type: 'string' | 'boolean'; short?: string }> = {
    ...options,
    help: { type: 'boolean', short: 'h' },
  };
  const { values, positionals, tokens } = parseArgs({
    args: kept,
    options: known,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  if (values.help === true) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    mentioned.add(token.name);
    const type = Object.hasOwn(known, token.name) ? known[token.name]?.type : undefined;
    if (type === undefined) problems.push(`unknown option ${token.rawName}`);
    else if (type === 'boolean' && token.value !== undefined)
      problems.push(`${token.rawName} takes no value`);
  }
  return { values, positionals, mentioned, problems };
}
