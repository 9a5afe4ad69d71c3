#!/usr/bin/env node
/**
 * `ardsite <command>`: the entry of the installed command line. The commands are declared in
 * src/cli/program.ts (commander: generated help and `--version`, unknown options refused) and run inside
 * the one error boundary of src/cli/run.ts, which gives the exit codes: 0 success, 1 the command's work
 * failed, 2 bad usage. The current folder is the project; `--root` names another.
 */
import { runCommandLine } from './run.js';

process.exitCode = await runCommandLine(process.argv.slice(2));
// A failed command answers at once: Astro's modules may still be loading, which would keep the process a
// second longer. It exits once what it wrote to stderr is flushed.
if (process.exitCode !== 0) process.stderr.write('', () => process.exit());
