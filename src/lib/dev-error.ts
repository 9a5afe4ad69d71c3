/**
 * How content that does not load shows in `npm run dev`: Astro's error overlay and the dev server's log
 * show an error's message, its `loc` (a file, line and column, with the lines around it) and its `hint`,
 * and take a `loc` from the stack when the error has none (Astro 5 `collectErrorMetadata`). Without help
 * they would point a publisher at ardsite's own source, where the load threw, instead of at the content
 * file at fault.
 */
import path from 'node:path';
import { ArdsiteError, withDiagnosticsInMessage } from '../core/errors.js';

/** An error as Astro's dev overlay reads it: `loc` is the file shown, `hint` the advice under it. */
export type DevOverlayError = ArdsiteError & {
  loc?: { file: string; line: number; column: number };
  hint?: string;
};

/** What the overlay says under a content error. */
export const DEV_CONTENT_HINT =
  'Each line above names a file of the project, the field and the line at fault. Fix them and save: the page reloads. `npm run check` lists the same problems.';

/**
 * `error` as the dev server should show it: for an {@link ArdsiteError}, its error diagnostics spelled out
 * in the message (src/core/errors.ts `withDiagnosticsInMessage`), a stack that is only that message (no
 * frames of ardsite's code), {@link DEV_CONTENT_HINT}, and `loc` at the first error diagnostic that names
 * a file inside `root` and a line (so the overlay shows that file's lines). Any other error is returned as
 * it is, with its stack: it is ardsite's own fault, not the content's.
 *
 * @param error what loading the project threw.
 * @param root the project folder (absolute); diagnostics name files relative to it.
 * @returns the error to throw to Astro.
 */
export function devOverlayError(error: unknown, root: string): unknown {
  const shown = withDiagnosticsInMessage(error);
  if (!(shown instanceof ArdsiteError)) return shown;
  const out = shown as DevOverlayError;
  out.stack = `${shown.name}: ${shown.message}`;
  out.hint = DEV_CONTENT_HINT;
  for (const d of shown.diagnostics) {
    if (d.severity !== 'error' || d.file === undefined || d.line === undefined) continue;
    const file = path.resolve(root, d.file);
    const relative = path.relative(root, file);
    if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) continue;
    out.loc = { file, line: d.line, column: d.column ?? 1 };
    break;
  }
  return out;
}
