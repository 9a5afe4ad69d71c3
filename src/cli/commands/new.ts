/**
 * `ardsite new <folder> --domain <fqdn> --organization <name> [--namespace <ns>]
 * [--organization-url <https URL>]`: creates a publisher project of one's own (src/core/project/new-project.ts):
 * content/ with one starter agent and resource, an empty public/, a .gitignore and a README. Refuses a
 * folder that exists and is not empty, or lies inside ardsite's own folder. A folder outside any git
 * repository gets `git init`: the first build writes the signing key only where git is seen to ignore it
 * (src/core/trust/key-file.ts). Every problem of the options' values and the folder is reported in one
 * run, one line each, before anything is written (commander refuses an unknown option first). Exit 0 on
 * success, 2 on bad usage (no folder, a required option missing: the usage line follows), else 1 when
 * the folder or an option's value is refused.
 */
import { execFile } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { mkdir, readdir, stat } from 'node:fs/promises';
import { ContainedFolder } from '../../core/project/contained-write.js';
import { promisify } from 'node:util';
import path from 'node:path';
import { newProjectFiles, newProjectProblems } from '../../core/project/new-project.js';
import { appRoot } from '../../core/project/app-root.js';
import { shellWord } from '../../core/util/shell-word.js';
import { isWithin } from '../../core/util/within.js';

/**
 * Why the project cannot be made in `root`: inside ardsite's own folder, where it would share the app's
 * git repository (and its ignored key folder), and the app's own content/ sits; or an existing file or
 * folder that is not empty.
 */
async function folderProblems(root: string): Promise<string[]> {
  const found: string[] = [];
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
  const app = real(appRoot());
  const outside = !isWithin(app, real(root));
  if (!outside) {
    found.push(
      `${root} is inside ardsite's own folder (${app}): make the project beside it, e.g. npm run new -- ../${path.basename(root)} …, so that it gets a git repository of its own`,
    );
  }
  const kind = await stat(root).then(
    (s) => (s.isDirectory() ? 'folder' : 'file'),
    () => undefined,
  );
  if (kind === 'file') found.push(`${root} is a file: name a new folder`);
  else if (kind === 'folder' && (await readdir(root)).length > 0)
    found.push(`${root} exists and is not empty: name a new folder`);
  return found;
}

/** The options of `ardsite new` (src/cli/program.ts declares them; `--domain` and `--organization` are required). */
export interface NewCommandOptions {
  /** The site's domain (any case; written in lower case). */
  domain?: string;
  /** The publisher's name. */
  organization?: string;
  /** The namespace of the URNs (default from the domain). */
  namespace?: string;
  /** The publisher's https home page. */
  organizationUrl?: string;
}

/** The usage line `ardsite new` prints after a usage problem. */
export const NEW_USAGE =
  'usage: ardsite new <folder> --domain <fqdn> --organization <name> [--namespace <ns>] [--organization-url <https URL>]';

/**
 * Runs `ardsite new` for `folders` (the positional arguments: exactly one is expected) and returns its exit
 * code: 0 made, 1 a value or the folder refused, 2 bad usage (every problem is printed in one run).
 */
export async function runNew(folders: readonly string[], values: NewCommandOptions): Promise<number> {
  const usageProblems: string[] = [];
  if (folders.length === 0) usageProblems.push('name the folder of the new project');
  if (folders.length > 1) usageProblems.push(`one folder only, got ${folders.length}: ${folders.join(', ')}`);
  if (values.domain === undefined)
    usageProblems.push('--domain is required: the domain the site is served from, e.g. agents.acme.com');
  if (values.organization === undefined)
    usageProblems.push("--organization is required: the publisher's name");

  // A domain name is case-insensitive (RFC 4343): Agents.Acme.com is agents.acme.com.
  const lowerDomain = values.domain?.toLowerCase();
  const { organization, namespace, organizationUrl } = values;
  // What is wrong with the options given, and with the folder: each is said whatever else is wrong.
  const problems = [
    ...usageProblems,
    ...newProjectProblems({ domain: lowerDomain, organization, namespace, organizationUrl }),
    ...(folders.length === 1 ? await folderProblems(path.resolve(folders[0]!)) : []),
  ];
  if (problems.length > 0 || lowerDomain === undefined || organization === undefined) {
    process.stderr.write(`${problems.join('\n')}\n${usageProblems.length > 0 ? `${NEW_USAGE}\n` : ''}`);
    // Bad usage (an option or the folder missing) is exit 2, as for every command; the rest 1.
    return usageProblems.length > 0 ? 2 : 1;
  }
  const options = { domain: lowerDomain, organization, namespace, organizationUrl };
  const root = path.resolve(folders[0]!);

  await mkdir(root, { recursive: true });
  const project = new ContainedFolder(root);
  for (const [file, text] of newProjectFiles(options)) {
    if (text === null) project.makeFolder(file);
    else if (project.write(file, text, { exclusive: true }) === 'exists')
      throw new Error(`${file} appeared while the project was made; it is left as it is`);
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
    `Created the publisher project ${shown}/ for ${options.domain}${gitNote}.\nNext: cd ${shellWord(shown)} && npm install && npm run check && npm run build\n`,
  );
  return 0;
}
