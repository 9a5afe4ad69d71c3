/**
 * ardsite's own build (`build()`, the pipeline of `ardsite build`: check, sign, render, self-check) run
 * for the Astro integration, with its failures as the errors Astro shows a user (`AstroUserError` of
 * `astro/errors`: a message and a hint) and its events on Astro's logger. Used at the end of
 * `astro build` and by `astro dev`.
 */
import path from 'node:path';
import type { AstroIntegrationLogger } from 'astro';
import { AstroError as AstroUserError } from 'astro/errors';
import { build } from '../core/build/pipeline.js';
import { ArdsiteError, formatDiagnostic, type Diagnostic } from '../core/util/errors.js';
import type { BuildEvent } from '../core/build/events.js';
import type { ArdsiteAstroOptions } from './options.js';

/**
 * The error lines of `diagnostics`, one `ardsite check` line each (`file:line:column code message`), the
 * file prefixed with `shown`, the project folder as the site's root names it.
 */
export function errorLines(diagnostics: readonly Diagnostic[], shown: string): string {
  return diagnostics
    .filter((d) => d.severity === 'error')
    .map((d) => `  ${formatDiagnostic({ ...d, ...(d.file ? { file: path.join(shown, d.file) } : {}) })}`)
    .join('\n');
}

/**
 * What the integration logs about the signing key of one build (the `key` event of `build()`): its id and
 * where it came from, a key file by its path from the site's root (`siteRoot`), where the publisher finds
 * it; a key this build created as a warning, as `ardsite build` shouts it, since it is the site's did:web
 * identity (W3C did:web method, §3.2) and must be kept and never committed. Never the key's material.
 */
export function keyMessage(
  event: Extract<BuildEvent, { type: 'key' }>,
  siteRoot: string,
): { level: 'info' | 'warn'; text: string } {
  const source = event.file ? path.relative(siteRoot, event.file) || event.file : event.source;
  if (event.created)
    return {
      level: 'warn',
      text: `created a new signing key ${event.kid} in ${source}: it is your site's identity (did:web); back it up, never commit it, and give it to CI as the secret ARDSITE_SIGNING_KEY`,
    };
  return { level: 'info', text: `signing key ${event.kid} from ${source}` };
}

/** Logs one event of `build()`: warnings and the key's source (never its material). */
function logEvent(logger: AstroIntegrationLogger, event: BuildEvent, siteRoot: string): void {
  if (event.type === 'diagnostic') logger.warn(formatDiagnostic(event.diagnostic));
  else if (event.type === 'key') {
    const { level, text } = keyMessage(event, siteRoot);
    logger[level](text);
  }
}

/** Where one ardsite build runs for the integration. */
export interface ArdsiteBuildPlace {
  /** The Astro site's root folder (absolute). */
  siteRoot: string;
  /** The ardsite project folder (absolute). */
  project: string;
  /** The integration's parsed options (for `keyFile`). */
  options: ArdsiteAstroOptions;
  /** The output folder to build into (absolute; `build()` swaps it in when the self-check passed). */
  out: string;
  logger: AstroIntegrationLogger;
}

/**
 * Builds the ardsite project into `place.out`, the key found as `ardsite build` finds it, or from the
 * `keyFile` option (as `ARDSITE_SIGNING_KEY_FILE`); the pages under the `pagesPrefix` option when given.
 * @throws AstroUserError for an ArdsiteError of the build (content errors spelled out one per line with
 *   file and line, a missing key, a failed self-check), with a hint naming `ardsite check`; any other
 *   error unchanged.
 */
export async function buildArdsite(place: ArdsiteBuildPlace): Promise<void> {
  const shown = path.relative(place.siteRoot, place.project) || '.';
  const env = { ...process.env };
  if (place.options.keyFile)
    env.ARDSITE_SIGNING_KEY_FILE = path.resolve(place.siteRoot, place.options.keyFile);
  try {
    await build({
      root: place.project,
      out: place.out,
      env,
      ...(place.options.pagesPrefix ? { pagesPrefix: place.options.pagesPrefix } : {}),
      onEvent: (e) => logEvent(place.logger, e, place.siteRoot),
    });
  } catch (error) {
    if (!(error instanceof ArdsiteError)) throw error;
    const lines = errorLines(error.diagnostics, shown);
    throw new AstroUserError(
      `ardsite: ${error.message} [${error.code}]${lines ? `\n${lines}` : ''}`,
      `Run \`npx ardsite check --root ${shown}\` for the same diagnostics.`,
    );
  }
}
