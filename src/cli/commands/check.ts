/**
 * `ardsite check`: validates every file of `content/` (src/core/build/check.ts `check`) and prints every error
 * and warning in one run, then a summary line naming the project checked. Exit 0 without errors, 1 with
 * errors, 2 for bad usage.
 */
import path from 'node:path';
import { check } from '../../core/build/check.js';
import { formatDiagnostic } from '../../core/util/errors.js';
import { projectFolder } from '../lib/args.js';
import { counted } from '../lib/counted.js';
import { shownFolder } from '../lib/shown-folder.js';

/** The options of `ardsite check` (src/cli/main.ts declares them). */
export interface CheckCommandOptions {
  /** The project folder, relative to the working folder or absolute. */
  root: string;
  /** Prints the result as JSON on stdout instead of lines. */
  json: boolean;
  /** A site already published (a build's output folder), relative to the working folder or absolute. */
  published?: string;
}

/**
 * Runs `ardsite check` and returns its exit code; the operator's variables (`ARDSITE_ALLOW_OUTSIDE`,
 * `ARDSITE_TRUSTED_KEYS`, `ARDSITE_SIGNING_KEY_FILE`) are read from `env`.
 */
export async function runCheck(
  options: CheckCommandOptions,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const root = projectFolder(options.root);
  const result = await check({
    root,
    env,
    ...(options.published === undefined ? {} : { publishedDir: path.resolve(options.published) }),
  });
  const { agents, resources, entries, errors, warnings, diagnostics } = result;
  if (options.json) {
    process.stdout.write(
      `${JSON.stringify({ agents, resources, entries, errors, warnings, diagnostics }, null, 2)}\n`,
    );
  } else {
    for (const d of diagnostics) process.stdout.write(`${formatDiagnostic(d)}\n`);
    // Without a usable publisher.yaml there is no site to count: each file was checked on its own.
    const site = result.site
      ? `${counted(agents, 'agent')}, ${counted(resources, 'resource')}, ${counted(entries, 'entry', 'entries')}`
      : 'no site (content/publisher.yaml is unusable; the other files were checked one by one)';
    // The project is named: the diagnostics name files relative to it, and --root may have pointed the
    // command at another project than the one the user is in.
    process.stdout.write(
      `checked ${shownFolder(root)}: ${site}, ${counted(errors, 'error')}, ${counted(warnings, 'warning')}\n`,
    );
  }
  return errors > 0 ? 1 : 0;
}
