/**
 * `npm run new -- <folder> --domain <fqdn> --organization <name> [--namespace <ns>]
 * [--organization-url <https URL>]`: creates a publisher project of one's own (src/core/new-project.ts):
 * content/ with one starter agent and resource, an empty public/, a .gitignore and a README. Refuses a
 * folder that exists and is not empty. A folder outside any git repository gets `git init`: the first build
 * writes the signing key only where git is seen to ignore it (src/core/trust/keys.ts). Exit 0 on success, 1 when the folder or an option is refused, 2
 * on bad usage.
 */
import { execFile } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import path from 'node:path';
import { newProjectFiles, newProjectProblems } from '../src/core/new-project.js';
import { parseCommandLine } from './lib/args.js';
import { shellWord } from '../src/core/shell-word.js';

const usage =
  'usage: npm run new -- <folder> --domain <fqdn> --organization <name> [--namespace <ns>] [--organization-url <https URL>]';
const { values, positionals } = parseCommandLine(
  {
    allowPositionals: true,
    options: {
      domain: { type: 'string' },
      organization: { type: 'string' },
      namespace: { type: 'string' },
      'organization-url': { type: 'string' },
    },
  },
  usage,
);
if (positionals.length !== 1 || values.domain === undefined || values.organization === undefined) {
  process.stderr.write(`${usage}\n`);
  process.exit(2);
}
const options = {
  // A domain name is case-insensitive (RFC 4343): Agents.Acme.com is agents.acme.com.
  domain: values.domain.toLowerCase(),
  organization: values.organization,
  namespace: values.namespace,
  organizationUrl: values['organization-url'],
};
const problems = newProjectProblems(options);
if (problems.length > 0) {
  process.stderr.write(`${problems.join('\n')}\n`);
  process.exit(1);
}
const root = path.resolve(positionals[0]!);
// A project inside ardsite's own folder would share its git repository (and its ignored key folder), and
// the app's own content/ sits there: the README's project lives beside the app, in a repository of its own.
// Real paths (a link to the app's folder is the app's folder), of the folder or of its nearest existing
// parent; a name such as "..my-site" is inside, not above.
const real = (p: string): string => {
  try {
    return realpathSync(p);
  } catch {
    const parent = path.dirname(p);
    return parent === p ? p : path.join(real(parent), path.basename(p));
  }
};
const app = real(path.resolve(import.meta.dirname, '..'));
const fromApp = path.relative(app, real(root));
const outside = fromApp === '..' || fromApp.startsWith(`..${path.sep}`) || path.isAbsolute(fromApp);
if (!outside) {
  process.stderr.write(
    `${root} is inside ardsite's own folder (${app}): make the project beside it, e.g. npm run new -- ../${path.basename(root)} …, so that it gets a git repository of its own\n`,
  );
  process.exit(1);
}
const existing = await readdir(root).catch(() => undefined);
if (existing && existing.length > 0) {
  process.stderr.write(`${root} exists and is not empty: name a new folder\n`);
  process.exit(1);
}
for (const [file, text] of newProjectFiles(options)) {
  const target = path.join(root, file);
  if (text === null) {
    await mkdir(target, { recursive: true });
    continue;
  }
  await mkdir(path.dirname(target), { recursive: true });
  await writeFile(target, text, { flag: 'wx' });
}
// The key of the first build is written only where git ignores it: make the project a repository.
const git = promisify(execFile);
const inRepository = await git('git', ['rev-parse', '--is-inside-work-tree'], { cwd: root }).then(
  () => true,
  () => false,
);
let gitNote = '';
if (!inRepository) {
  gitNote = await git('git', ['init', '-q'], { cwd: root }).then(
    () => ' (a new git repository)',
    () => ' (git not found: install it, or the first build cannot keep the key out of git)',
  );
}
const relative = path.relative(process.cwd(), root);
const shown = relative === '' ? '.' : relative.startsWith('..') ? root : relative;
process.stdout.write(
  `Created the publisher project ${shown}/ for ${options.domain}${gitNote}.\nNext: npm run check -- --root ${shellWord(shown)} && npm run build -- --root ${shellWord(shown)}\n`,
);
