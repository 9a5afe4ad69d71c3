/**
 * `npm run check`: validates every file of `content/` and prints every error and warning in one run,
 * then a summary line naming the project checked. Exit 0 without errors, 1 with errors (DESIGN.md §1, §5).
 *
 * Usage: npm run check [-- --root <project folder>] [-- --json] [-- --published <built site folder>]
 *   --published  a site already published (a build's output folder): a release history that lost one of
 *                its versions is an error (docs/releases.md)
 */
import path from 'node:path';
import { formatDiagnostic, hasErrors } from '../src/core/errors.js';
import { loadAndCheck } from '../src/core/content/index.js';
import { parseCommandLine, projectFolder } from './lib/args.js';
import { counted } from './lib/counted.js';
import { shownFolder } from './lib/shown-folder.js';

const { values } = parseCommandLine(
  {
    options: {
      root: { type: 'string', default: process.cwd() },
      json: { type: 'boolean', default: false },
      published: { type: 'string' },
    },
  },
  'usage: npm run check [-- --root <project folder>] [-- --json] [-- --published <built site folder>]',
);

const root = projectFolder(values.root!);
const { model, diagnostics } = await loadAndCheck({
  root,
  ...(values.published === undefined ? {} : { publishedDir: path.resolve(values.published) }),
});
const errors = diagnostics.filter((d) => d.severity === 'error').length;
const warnings = diagnostics.length - errors;
// Agents are counted by file: one with errors is still an agent of the site (reported above).
const agents = model?.agentFiles.length ?? 0;
const resources = model?.resources.size ?? 0;
const entries = model?.entries.length ?? 0;

if (values.json) {
  process.stdout.write(
    `${JSON.stringify({ agents, resources, entries, errors, warnings, diagnostics }, null, 2)}\n`,
  );
} else {
  for (const d of diagnostics) process.stdout.write(`${formatDiagnostic(d)}\n`);
  // Without a usable publisher.yaml there is no site to count: each file was checked on its own.
  const site = model
    ? `${counted(agents, 'agent')}, ${counted(resources, 'resource')}, ${counted(entries, 'entry', 'entries')}`
    : 'no site (content/publisher.yaml is unusable; the other files were checked one by one)';
  // The project is named: the diagnostics name files relative to it, and --root or npm --prefix may have
  // pointed the command at another project than the one the user is in.
  process.stdout.write(
    `checked ${shownFolder(root)}: ${site}, ${counted(errors, 'error')}, ${counted(warnings, 'warning')}\n`,
  );
}
process.exitCode = hasErrors(diagnostics) ? 1 : 0;
