#!/usr/bin/env node
/**
 * `ardsite <command>`: the one command line of ardsite, on commander (generated help and `--version`,
 * unknown options refused). The current folder is the project; `--root` names another. Each command's
 * module is loaded only when that command runs, so `ardsite --version` and `ardsite --help` load nothing
 * of the pipeline.
 *
 * Exit codes, for every command: 0 success, 1 the command's work failed (content errors, a failed check
 * or build), 2 bad usage (an unknown option, a missing argument, a folder that does not exist). `verify`
 * and `diff` document their own 1 and 2 in `--help`. One error boundary (`main`) turns what a command
 * throws into a message and an exit code: an ArdsiteError prints its diagnostics and code, never a stack.
 */
import { fileURLToPath } from 'node:url';
import { Command, CommanderError, Option } from 'commander';
import { ardsiteVersion } from '../core/app-root.js';

/** Exit code of bad usage, for every command. */
const USAGE = 2;

/**
 * Commands whose module parses its own arguments (its own `--help`, with the options it takes): the
 * module runs with `process.argv` set to the command's arguments, as it ran as a script before.
 */
const SELF_PARSING = {
  new: 'a new publisher project in <folder>: content, a package.json that pins this ardsite, CI',
  dev: 'the pages served while you edit content/ (Astro dev server)',
  preview: 'serves the built site with the headers it declares',
  serve: 'builds and serves the site with the registry lookup API',
  release: 'records a release of each agent whose RAM changed',
  pin: 'pins the origin of entries that name other sites',
  specs: 'fetches and pins the API descriptions the RAM names',
  keygen: 'creates the signing key (ES256 or EdDSA)',
  import: "imports another publisher's agent card into content/agents/",
} as const;

type SelfParsing = keyof typeof SELF_PARSING;

/** Runs the self-parsing command `name` with `args`; its module sets the exit code. */
async function runSelfParsing(name: SelfParsing, args: readonly string[]): Promise<void> {
  const module = new URL(`./commands/${name}.js`, import.meta.url);
  process.argv = [process.argv[0]!, fileURLToPath(module), ...args];
  await import(module.href);
}

/** Adds `--root` (the project folder, default the current one) to `command`. */
function withRoot(command: Command): Command {
  return command.addOption(
    new Option('--root <folder>', 'the project folder (content/, public/)').default(
      process.cwd(),
      'the current folder',
    ),
  );
}

/** The whole command line, each command declared with what it takes. */
export function ardsiteProgram(): Command {
  const program = new Command('ardsite')
    .description(
      'Static-site generator for publishers of AI agents (ARD manifest, A2A agent cards with RAM).',
    )
    .version(ardsiteVersion(), '-v, --version')
    .showHelpAfterError()
    .exitOverride();
  withRoot(program.command('check').description('checks every file of content/ and reports every problem'))
    .option('--json', 'the result as JSON on stdout', false)
    .option(
      '--published <folder>',
      'a site already published (a built folder): a release history that lost a version is an error',
    )
    .action(async (options: { root: string; json: boolean; published?: string }) => {
      const { runCheck } = await import('./commands/check.js');
      process.exitCode = await runCheck(options);
    });
  withRoot(program.command('build').description('checks, signs, renders and self-checks the site into dist/'))
    .option('--out <folder>', 'the output folder, relative to the project folder', 'dist')
    .option('--registry', 'registry mode: the lookup API beside the static site', false)
    .option('--report <file>', 'writes phase timings and sizes as JSON (for the benchmark)')
    .action(async (options: { root: string; out: string; registry: boolean; report?: string }) => {
      const { runBuild } = await import('./commands/build.js');
      process.exitCode = await runBuild(options);
    });
  // verify and diff take their arguments as they always did (runVerify, runDiff), with their own help.
  for (const [name, description] of [
    ['verify', 'verifies a built folder or a live site as a crawler would (ardsite verify --help)'],
    ['diff', 'compares the permissions of two sites or folders (ardsite diff --help)'],
  ] as const) {
    program
      .command(name)
      .description(description)
      .helpOption(false)
      .allowUnknownOption()
      .allowExcessArguments()
      .action(async (_options: unknown, command: Command) => {
        if (name === 'verify') {
          const { runVerify } = await import('./commands/verify.js');
          process.exitCode = await runVerify(command.args);
        } else {
          const { runDiff } = await import('./commands/diff.js');
          process.exitCode = await runDiff(command.args);
        }
      });
  }
  for (const [name, description] of Object.entries(SELF_PARSING) as Array<[SelfParsing, string]>) {
    program
      .command(name)
      .description(`${description} (ardsite ${name} --help)`)
      .helpOption(false)
      .allowUnknownOption()
      .allowExcessArguments()
      .action((_options: unknown, command: Command) => runSelfParsing(name, command.args));
  }
  program.addHelpText(
    'after',
    '\nExit codes: 0 success, 1 the work failed (content errors, a failed check), 2 bad usage.\nThe current folder is the project; --root <folder> names another.',
  );
  return program;
}

/**
 * The error boundary: runs the command line `argv` (without node and the script) and sets the exit code.
 * Never throws.
 */
export async function main(argv: readonly string[]): Promise<void> {
  try {
    await ardsiteProgram().parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and --version exit 0; the message of a usage error was already written.
      process.exitCode = error.exitCode === 0 ? 0 : USAGE;
      return;
    }
    const { ArdsiteError, formatDiagnostic } = await import('../core/errors.js');
    if (error instanceof ArdsiteError) {
      for (const d of error.diagnostics) process.stderr.write(`${formatDiagnostic(d)}\n`);
      process.stderr.write(`ardsite: ${error.message} [${error.code}]\n`);
    } else {
      process.stderr.write(`ardsite: ${(error as Error).stack ?? String(error)}\n`);
    }
    process.exitCode = 1;
  }
  // A failed build answers at once: Astro's modules may still be loading, which would keep the process a
  // second longer. It exits once what it wrote to stderr is flushed.
  if (process.exitCode !== undefined && process.exitCode !== 0)
    process.stderr.write('', () => process.exit());
}

await main(process.argv.slice(2));
