/**
 * `ardsite build`: the command line over the programmatic build (src/core/build/pipeline.ts `build`):
 * tells its events on stderr, writes `--report` for the benchmark, and names the built folder. Exit 0 on
 * success, 1 on any failure (the output folder is then untouched), 2 for bad usage. No key material is
 * ever printed.
 */
import { writeFile } from 'node:fs/promises';
import { build, type BuildResult } from '../../core/build/pipeline.js';
import type { BuildEvent } from '../../core/build/events.js';
import { ArdsiteError, formatDiagnostic } from '../../core/util/errors.js';
import { npmCommand } from '../../core/util/shell-word.js';
import { projectFolder } from '../lib/args.js';
import { counted } from '../lib/counted.js';
import { limitHeapGrowth } from '../lib/heap-growth.js';
import { delayTierUp } from '../lib/tier-up-budget.js';
import { shownFile, shownFolder } from '../lib/shown-folder.js';

/** The options of `ardsite build` (src/cli/main.ts declares them). */
export interface BuildCommandOptions {
  /** The project folder, relative to the working folder or absolute. */
  root: string;
  /** The output folder, relative to the project folder (default `dist`). */
  out: string;
  /** Registry mode (docs/guides/registry.md). */
  registry: boolean;
  /** Writes phase timings, peak memory and sizes as JSON to this file (used by `npm run bench`). */
  report?: string;
  /** Also writes Vercel's Build Output (`.vercel/output/`) from the site's `_headers`. */
  vercel: boolean;
}

const log = (line: string) => process.stderr.write(`${line}\n`);

/** Writes one build event as a line (or a block, for a created key) on stderr. */
function tell(event: BuildEvent): void {
  switch (event.type) {
    case 'stale-temp-removed':
      log(`Removed ${counted(event.folders.length, 'temporary folder')} left by a killed build.`);
      return;
    case 'diagnostic':
      log(formatDiagnostic(event.diagnostic));
      return;
    case 'self-check-in-main-thread':
      log(`The self-check thread stopped (${event.reason}); checking in this thread.`);
      return;
    case 'key': {
      // A key file by the path a publisher can find it at from where they typed the command.
      const source = event.file ? shownFile(event.file) : event.source;
      if (event.created) {
        log('');
        log(`*** ardsite created a new signing key: ${source}`);
        log(
          "*** It is your site's identity (did:web). Keep it, back it up, never commit it (git ignores it).",
        );
        log('*** For CI deploys, store it as a secret and pass it in ARDSITE_SIGNING_KEY.');
        log('');
      } else if (event.ephemeral) {
        log(
          'Signing with a throw-away key (ARDSITE_DEV_KEY=1): this build is for tests, not for deployment.',
        );
      } else {
        log(`Signing with the key from ${source} (${event.kid}).`);
      }
    }
  }
}

/** The figures `--report` writes (read by scripts/bench.ts). */
function reportFigures(result: BuildResult): Record<string, unknown> {
  return {
    agents: result.agents,
    entries: result.entries,
    wallMs: result.wallMs,
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
    manifestBytes: result.manifestBytes,
    phasesMs: result.phasesMs,
    cpu: result.cpu,
  };
}

/**
 * Runs `ardsite build` with `options` and returns its exit code. Content errors are printed as
 * diagnostics, never as a stack trace.
 */
export async function runBuild(options: BuildCommandOptions): Promise<number> {
  // Before the site is loaded: the heap grows by at most half its live size between full collections.
  limitHeapGrowth();
  // Fewer functions compiled by TurboFan for a batch that runs most of its code a moderate number of times.
  delayTierUp();
  const root = projectFolder(options.root);
  let result: BuildResult;
  try {
    result = await build({ root, out: options.out, registry: options.registry, onEvent: tell });
  } catch (error) {
    if (error instanceof ArdsiteError) {
      for (const d of error.diagnostics) log(formatDiagnostic(d));
      log(`Build of ${shownFolder(root)} failed: ${error.message} [${error.code}]`);
    } else {
      log(`Build of ${shownFolder(root)} failed: ${(error as Error).stack ?? String(error)}`);
    }
    return 1;
  }
  if (options.report) await writeFile(options.report, `${JSON.stringify(reportFigures(result), null, 2)}\n`);
  const seconds = (result.wallMs / 1000).toFixed(1);
  log(
    `Built ${shownFolder(result.outDir)}: ${counted(result.agents, 'agent')}, ${counted(result.entries, 'manifest entry', 'manifest entries')}; self-check: ${counted(result.checksPassed, 'check')} passed (${seconds} s).`,
  );
  if (options.vercel) {
    const { writeVercelOutput } = await import('../../core/hosting/vercel-output.js');
    const output = await writeVercelOutput(root, result.outDir);
    log(`Wrote Vercel's Build Output (${shownFolder(output)}), with the headers of _headers.`);
  }
  if (result.serverDir) {
    log(
      `Registry mode: the lookup API (${result.registryUrl}) is in ${shownFolder(result.serverDir)}; ${npmCommand('serve', root)} starts it.`,
    );
  }
  return 0;
}
