/**
 * `npm run release`: records, for each agent, the version it publishes now and its RAM in
 * `content/releases/<slug>.json` (DESIGN.md §9 "Releases"; docs/releases.md), for the publisher to commit.
 * The content must check clean first (a widening under an unchanged version is an error there).
 * Dates: SOURCE_DATE_EPOCH, else now. Exit 0 done, 1 content errors or a refused agent.
 *
 * Usage: npm run release [-- --root <project folder>] [-- --dry-run]
 */
import { loadAndCheck } from '../../core/content/index.js';
import { formatDiagnostic, hasErrors } from '../../core/errors.js';
import { sourceDateEpoch } from '../../core/git-time.js';
import { recordReleases } from '../../core/releases/record.js';
import { releaseWords } from '../lib/release-words.js';
import { parseCommandLine, projectFolder } from '../lib/args.js';

const { values } = parseCommandLine(
  {
    options: {
      root: { type: 'string', default: process.cwd() },
      'dry-run': { type: 'boolean', default: false },
    },
  },
  'usage: ardsite release [--root <project folder>] [--dry-run]',
);

const { model, diagnostics } = await loadAndCheck({ root: projectFolder(values.root!) });
if (!model || hasErrors(diagnostics)) {
  for (const d of diagnostics) if (d.severity === 'error') process.stderr.write(`${formatDiagnostic(d)}\n`);
  process.stderr.write('Nothing was recorded: the content has errors (npm run check lists them).\n');
  process.exit(1);
}
const outcomes = await recordReleases(model, sourceDateEpoch() ?? new Date(), { write: !values['dry-run'] });
for (const o of outcomes) {
  process.stdout.write(`${o.slug} ${o.version}: ${releaseWords(o, values['dry-run']!)} (${o.file})\n`);
  if (o.diagnostic) process.stderr.write(`${formatDiagnostic(o.diagnostic)}\n`);
}
process.exitCode = outcomes.some((o) => o.status === 'refused') ? 1 : 0;
