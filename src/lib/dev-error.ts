/**
 * How content that does not load shows in `npm run dev`: Astro's error overlay and the dev server's log
 * show an error's message, its `loc` (a file, line and column, with the lines around it) and its `hint`,
 * and take a `loc` from the stack when the error has none (Astro 5 `collectErrorMetadata`). Without help
 * they would point a publisher at ardsite's own source, where the load threw, instead of at the content
 * file at fault.
 */
import path from 'node:path';
import { ArdsiteError, withDiagnosticsInMessage } from '../core/util/errors.js';

/** An error as Astro's dev overlay reads it: `loc` is the file shown, `hint` the advice under it. */
export type DevOverlayError = ArdsiteError & {
  loc?: { file: string; line: number; column: number };
  hint?: string;
};

/** What the overlay says under a content error. */
export const DEV_CONTENT_HINT =
  'Each line above names a file of the project, the field and the line at fault. Fix them and save: the page reloads. `npm run check` lists the same problems.';

/**
 * `error` as the dev server should show it: for an {@link ArdsiteError} with error diagnostics (the
 * content's faults), a new error with them spelled out in its message (src/core/util/errors.ts
 * `withDiagnosticsInMessage`), no stack (ardsite's own frames say nothing about the content),
 * {@link DEV_CONTENT_HINT}, and `loc` at the first error diagnostic that names a file inside `root` and a
 * line, so that the overlay shows that file's lines. Any other error (a key that is missing, a fault of
 * ardsite's own) is returned as it is, with its stack and without the content hint.
 *
 * Astro (5.18) joins a `loc.file` outside its own root onto that root, so the file is given relative to
 * `appRoot` (Astro's root, the ardsite app) when it is known: joined back, it is the project's file again
 * (a project folder outside the app, as `--root` allows, is the usual case).
 *
 * @param error what loading the project threw.
 * @param root the project folder (absolute); diagnostics name files relative to it.
 * @param appRoot Astro's root (absolute), or undefined: `loc.file` is then absolute.
 * @returns the error to throw to Astro.
 */
export function devOverlayError(error: unknown, root: string, appRoot?: string): unknown {
  if (!(error instanceof ArdsiteError) || !error.diagnostics.some((d) => d.severity === 'error'))
    return error;
  const out = withDiagnosticsInMessage(error) as DevOverlayError;
  out.stack = '';
  out.hint = DEV_CONTENT_HINT;
  // Astro 5.18 replaces any hint with its "Browser APIs are not available on the server" advice when the
  // error's toString() contains `document` or `window`, as a file name or a path such as `(document)` in
  // the message may: there the error gives only its name and code.
  Object.defineProperty(out, 'toString', {
    value: () => `${out.name}: ${out.code}`,
    enumerable: false,
    writable: true,
    configurable: true,
  });
  for (const d of out.diagnostics) {
    if (d.severity !== 'error' || d.file === undefined || d.line === undefined) continue;
    const file = path.resolve(root, d.file);
    const inProject = path.relative(root, file);
    if (inProject === '' || inProject.startsWith('..') || path.isAbsolute(inProject)) continue;
    out.loc = {
      file: appRoot === undefined ? file : path.relative(appRoot, file),
      line: d.line,
      column: d.column ?? 1,
    };
    break;
  }
  return out;
}
