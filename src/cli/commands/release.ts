/**
 * `ardsite release [--root <project>] [--dry-run]`: records, for each agent, the version it publishes now and its RAM in
 * `content/releases/<slug>.json` (DESIGN.md §9 "Releases"; docs/releases.md), for the publisher to commit.
 * The content must check clean first (a widening under an unchanged version is an error there).
 * Dates: SOURCE_DATE_EPOCH, else now. Exit 0 done, 1 content errors or a refused agent.
 */
import { loadAndCheck } from '../../core/content/index.js';
import { formatDiagnostic, hasErrors } from '../../core/util/errors.js';
import { sourceDateEpoch } from '../../core/project/git-time.js';
import { recordReleases } from '../../core/releases/record.js';
import { releaseWords } from '../lib/release-words.js';
import { projectFolder } from '../lib/args.js';

/** The options of `ardsite release` (src/cli/program.ts declares them). */
export interface ReleaseCommandOptions {
  /** The project folder. */
  root: string;
  /** Says what would be recorded, writes nothing. */
  dryRun: boolean;
}

/**
 * Runs `ardsite release` and returns its exit code: 0 done, 1 content errors or a refused agent. The date of
 * a release is `SOURCE_DATE_EPOCH` of `env` (reproducible-builds.org), else now; the operator's variables
 * of the content checks are read from `env` too.
 *
 * @throws UsageError when `--root` is not a folder.
 */
export async function runRelease(
  values: ReleaseCommandOptions,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const { model, diagnostics } = await loadAndCheck({ root: projectFolder(values.root), env });
  if (!model || hasErrors(diagnostics)) {
    for (const d of diagnostics) if (d.severity === 'error') process.stderr.write(`${formatDiagnostic(d)}\n`);
    process.stderr.write('Nothing was recorded: the content has errors (npm run check lists them).\n');
    return 1;
  }
  const outcomes = await recordReleases(model, sourceDateEpoch(env) ?? new Date(), { write: !values.dryRun });
  for (const o of outcomes) {
    process.stdout.write(`${o.slug} ${o.version}: ${releaseWords(o, values.dryRun)} (${o.file})\n`);
    if (o.diagnostic) process.stderr.write(`${formatDiagnostic(o.diagnostic)}\n`);
  }
  return outcomes.some((o) => o.status === 'refused') ? 1 : 0;
}
