/**
 * How a command's summary line names the folder it was about (the project, its dist/, a site folder):
 * relative to the folder the command was typed in when inside it, else absolute, with a trailing slash
 * (`./`, `dist/`, `/home/me/acme-agents/`). The folder typed in is npm's `INIT_CWD`: `npm run` (and
 * `npm --prefix <ardsite> run`) runs a script in ardsite's own folder, so a path relative to the working
 * folder would show a user in their own project the example's `./` as if it were theirs.
 */
import path from 'node:path';
import { isWithin } from '../../core/util/within.js';

/**
 * `file` (absolute) as a command's messages name it: relative to the folder the command was typed in when
 * inside it, else absolute. The signing key a build created in `../acme-agents/` is
 * `../acme-agents/.ardsite/keys/signing.jwk.json` or an absolute path, never `.ardsite/keys/signing.jwk.json`,
 * which under `npm run` is the checkout's own key.
 */
export function shownFile(file: string): string {
  const typedIn = process.env.INIT_CWD;
  const base = typedIn && path.isAbsolute(typedIn) ? typedIn : process.cwd();
  const relative = path.relative(base, file);
  return relative === '' ? '.' : isWithin(base, file) ? relative : file;
}

/** `folder` (absolute) as the summary lines show it, by the rule of {@link shownFile}, with a trailing slash. */
export function shownFolder(folder: string): string {
  const shown = shownFile(folder);
  return shown.endsWith(path.sep) ? shown : `${shown}/`;
}
