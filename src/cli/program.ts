/**
 * The declaration of `ardsite <command>`: every command with its arguments and options, on commander
 * (generated help and `--version`, unknown options and excess arguments refused the same way everywhere).
 * The shared groups (`--root`, the serving options, the network options) are declared once, in
 * src/cli/lib/, and added to each command that takes them. Each command's module is loaded only when
 * that command runs, so `ardsite --version` and `ardsite --help` load nothing of the pipeline. The error
 * boundary that runs this program is src/cli/run.ts.
 */
import { Command, Option } from 'commander';
import { ardsiteVersion } from '../core/project/app-root.js';
import { rootOption } from './lib/args.js';
import { limitOptions, resolveOptions } from './lib/network-options.js';
import { SERVED_FOLDER_RULE, servingOptions } from './lib/serving-options.js';

/** Where the program writes: the process's streams, or a test's buffers. */
export interface CommandOutput {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

/** What a command's action hands back to the boundary: its exit code, once it has one. */
export interface CommandOutcome {
  /** Undefined while nothing ran, or for a server that keeps running. */
  exitCode?: number;
}

/** The exit codes every command documents (`ardsite --help`). */
export const EXIT_CODES_TEXT =
  'Exit codes: 0 success, 1 the work failed (content errors, a failed check), 2 bad usage.\n' +
  'The current folder is the project; --root <folder> names another.';

/** Adds each of `options` to `command`. */
function withOptions(command: Command, options: readonly Option[]): Command {
  for (const option of options) command.addOption(option);
  return command;
}

/**
 * The commands over the publisher's own project: new, check, build, dev, preview, serve, release; check and
 * release read the operator's variables from `env`.
 */
function declareProjectCommands(program: Command, outcome: CommandOutcome, env: NodeJS.ProcessEnv): void {
  program
    .command('new')
    .description('a new publisher project in <folder>: content, a package.json that pins this ardsite, CI')
    .usage('<folder> --domain <fqdn> --organization <name> [options]')
    .argument('[folder]', 'the new project folder (absent or empty)')
    .option('--domain <fqdn>', 'required: the domain the site is served from, e.g. agents.acme.com')
    .option('--organization <name>', "required: the publisher's name")
    .option('--namespace <ns>', 'the namespace of the URNs (default from the domain)')
    .option('--organization-url <url>', "the publisher's https home page")
    // The folder is checked with the values, so that every problem is reported in one run.
    .allowExcessArguments()
    .action(async (_folder: string | undefined, options, command: Command) => {
      const { runNew } = await import('./commands/new.js');
      outcome.exitCode = await runNew(command.args, options);
    });
  program
    .command('check')
    .description('checks every file of content/ and reports every problem')
    .addOption(rootOption())
    .option('--json', 'the result as JSON on stdout', false)
    .option(
      '--published <folder>',
      'a site already published (a built folder): a release history that lost a version is an error',
    )
    .action(async (options) => {
      const { runCheck } = await import('./commands/check.js');
      outcome.exitCode = await runCheck(options, env);
    });
  program
    .command('build')
    .description('checks, signs, renders and self-checks the site into dist/')
    .addOption(rootOption())
    .option('--out <folder>', 'the output folder, relative to the project folder', 'dist')
    .option('--registry', 'registry mode: the lookup API beside the static site', false)
    .option('--report <file>', 'writes phase timings and sizes as JSON (for the benchmark)')
    .addOption(
      new Option(
        '--vercel',
        "also writes Vercel's Build Output (.vercel/output/) with the headers of _headers",
      ).default(process.env.VERCEL === '1', 'on when VERCEL=1, as in a build on Vercel'),
    )
    .action(async (options) => {
      const { runBuild } = await import('./commands/build.js');
      outcome.exitCode = await runBuild(options);
    });
  program
    .command('dev')
    .description('the pages served while you edit content/ (Astro dev server)')
    .addOption(rootOption())
    .addOption(
      new Option('--port <n>', 'the TCP port').default(process.env.PORT ?? '4321', 'PORT, else 4321'),
    )
    // Loopback unless the command line says otherwise: not from HOST, which shells set to the machine's name.
    .option('--host <ip>', 'the interface to listen on', '127.0.0.1')
    .action(async (options) => {
      const { runDev } = await import('./commands/dev.js');
      await runDev(options);
    });
  withOptions(
    program.command('preview').description('serves the built site with the headers its _headers declares'),
    servingOptions(),
  )
    .addHelpText('after', `\n${SERVED_FOLDER_RULE}.`)
    .action(async (options) => {
      const { runPreview } = await import('./commands/preview.js');
      const code = await runPreview(options);
      if (code !== undefined) outcome.exitCode = code;
    });
  withOptions(
    program
      .command('serve')
      .description('builds (when needed) and serves the site with the registry lookup API'),
    [...servingOptions(), ...resolveOptions()],
  )
    .option('--dev', 'allows a throw-away pageToken secret when its variable is unset', false)
    .option('--no-build', 'never builds: fails when the folder has no registry build')
    .option('--rebuild', 'replaces a built site that has no registry build with one', false)
    .option('--quiet', 'no access log', false)
    .option(
      '--workers <n>',
      'server processes on one port (default: the processors available); rate limit and answer cache are per process',
    )
    .addHelpText('after', `\n${SERVED_FOLDER_RULE}.`)
    .action(async (options) => {
      const { runServe } = await import('./commands/serve.js');
      const code = await runServe(options);
      if (code !== undefined) outcome.exitCode = code;
    });
  program
    .command('release')
    .description('records a release of each agent whose RAM changed, in content/releases/')
    .addOption(rootOption())
    .option('--dry-run', 'says what would be recorded, writes nothing', false)
    .action(async (options) => {
      const { runRelease } = await import('./commands/release.js');
      outcome.exitCode = await runRelease(options, env);
    });
}

/** The commands that read other sites or the network: verify, diff, pin, specs, keygen, import. */
function declareSiteCommands(program: Command, outcome: CommandOutcome, out: CommandOutput): void {
  withOptions(
    program
      .command('verify')
      .description('verifies a built folder or a live site as a crawler would')
      .argument('[target]', 'a built folder, a project folder, or https://domain/')
      .addOption(rootOption({ optional: true }))
      .option(
        '--origin <url>',
        "a folder's origin (default its did.json's did:web, else the project's siteUrl)",
      )
      .option('--json', 'the report as JSON on stdout', false),
    [...resolveOptions(), ...limitOptions()],
  )
    .option('--deadline <s>', 'the whole run, in seconds (default 300): then a partial report')
    .option('--max-entries <n>', 'the most entries read (default 100000)')
    .option('--threads <n>', 'helper threads for a folder, 0 to 64 (default: one per MiB of manifest)')
    .addHelpText(
      'after',
      '\nExit codes: 0 every check held, 1 some check failed (or the deadline left some unchecked),\n2 the site could not be read at all, or bad usage.',
    )
    .action(async (target: string | undefined, options) => {
      const { verifyCommand } = await import('./commands/verify.js');
      outcome.exitCode = await verifyCommand(target, options, out);
    });
  withOptions(
    program
      .command('diff')
      .description('compares the permissions of two sites or built folders')
      .argument('<old>', 'a built folder or https URL')
      .argument('<new>', 'a built folder or https URL')
      .option('--json', 'the report as JSON on stdout', false)
      .option('--origin-old <url>', "the old folder's origin")
      .option('--origin-new <url>', "the new folder's origin"),
    [...resolveOptions(), ...limitOptions()],
  )
    .option('--deadline <s>', 'the whole run, in seconds (default 300)')
    .option('--max-entries <n>', 'the most entries a side may list (default 100000)')
    .addHelpText(
      'after',
      '\nExit codes: 0 nothing gained access, 1 some entry gained access (added or widened),\n2 a side cannot be read, or bad usage.',
    )
    .action(async (before: string, after: string, options) => {
      const { diffCommand } = await import('./commands/diff.js');
      outcome.exitCode = await diffCommand([before, after], options, out);
    });
  withOptions(
    program
      .command('pin')
      .description('pins by digest the artifacts of entries that point outside the site')
      .addOption(rootOption())
      .option('--all', 'fetches every own external entry again, and updates changed digests', false)
      .option('--dry-run', 'says what would be written, writes nothing', false),
    [...resolveOptions(), ...limitOptions()],
  ).action(async (options) => {
    const { runPin } = await import('./commands/pin.js');
    outcome.exitCode = await runPin(options);
  });
  withOptions(
    program
      .command('specs')
      .description('fetches and pins the API descriptions the RAM names')
      .addOption(rootOption())
      .option('--update', 'fetches every stored spec again, and reports what changed', false)
      .option('--dry-run', 'says what would be written, writes nothing', false),
    [...resolveOptions(), ...limitOptions()],
  ).action(async (options) => {
    const { runSpecs } = await import('./commands/specs.js');
    outcome.exitCode = await runSpecs(options);
  });
  program
    .command('keygen')
    .description('creates the signing key (ES256 or EdDSA), written where git ignores it')
    .addOption(rootOption())
    .option('--alg <alg>', "ES256 or EdDSA (default publisher.yaml's signing.algorithm, else ES256)")
    .option(
      '--out <file>',
      'where the key is written, relative to the project',
      '.ardsite/keys/signing.jwk.json',
    )
    .action(async (options) => {
      const { runKeygen } = await import('./commands/keygen.js');
      outcome.exitCode = await runKeygen(options);
    });
  withOptions(
    program
      .command('import')
      .description("imports an A2A agent card into content/ (another publisher's becomes an entry)")
      .argument('<card>', 'a card file or an https URL')
      .addOption(rootOption())
      .option('--slug <slug>', "the agent's or entry's slug (default from the card's name)")
      .option('--as-own', "takes another publisher's card over as an agent of this site", false)
      .option('--base-url <url>', 'what relative addresses of a card file are resolved against'),
    resolveOptions(),
  ).action(async (card: string, options) => {
    const { runImport } = await import('./commands/import.js');
    outcome.exitCode = await runImport(card, options);
  });
}

/**
 * The whole command line, each command declared with what it takes. Commander's own output (help, usage
 * errors) goes to `out`; `outcome` receives the exit code the command's action returns.
 *
 * @param out where help and usage errors are written (default the process's streams).
 * @param outcome filled in by the action that runs.
 * @param env the environment `check` and `release` read (`SOURCE_DATE_EPOCH`, `ARDSITE_*`; default
 *   `process.env`); the other commands still read `process.env`.
 * @returns the program, with `exitOverride` set: parsing throws a CommanderError instead of exiting.
 */
export function ardsiteProgram(
  out: CommandOutput = process,
  outcome: CommandOutcome = {},
  env: NodeJS.ProcessEnv = process.env,
): Command {
  const program = new Command('ardsite')
    .description(
      'Static-site generator for publishers of AI agents (ARD manifest, A2A agent cards with RAM).',
    )
    .version(ardsiteVersion(), '-v, --version')
    .configureOutput({
      writeOut: (text) => void out.stdout.write(text),
      writeErr: (text) => void out.stderr.write(text),
    })
    .showHelpAfterError('(ardsite --help lists the commands)')
    .exitOverride();
  declareProjectCommands(program, outcome, env);
  declareSiteCommands(program, outcome, out);
  // A usage error names the command's usage, and where its options are listed.
  for (const command of program.commands)
    command.showHelpAfterError(
      `Usage: ardsite ${command.name()} ${command.usage()}\n(ardsite ${command.name()} --help lists the options)`,
    );
  program.addHelpText('after', `\n${EXIT_CODES_TEXT}`);
  return program;
}
