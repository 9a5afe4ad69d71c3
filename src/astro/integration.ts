/**
 * ardsite as an Astro integration (`import ardsite from 'ardsite/astro'`; Astro's Integration API,
 * `astro:config:setup` and `astro:build:done`): a publisher's existing Astro site serves the signed
 * `/.well-known/ard.json` (ARD draft §3.5), the A2A cards with their Resource Access Manifest (A2A §8.4,
 * the RAM proposal), did.json/jwks.json and the permission pages from its own domain.
 *
 * - `astro:config:setup` (in `astro build` and `astro dev`): the content is checked with `check()`, the
 *   diagnostics of `ardsite check`; an error fails the run naming the file, field and line.
 * - `astro:build:done`: ardsite's own pipeline (`build()`: sign, render, self-check) builds the project
 *   into a temporary folder; its files are added to the site's output folder, none of the site's own
 *   overwritten (a file both have is an error naming both), the site's own pages get the `rel="ard"`
 *   link, and the merged folder is verified with `verify()`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration, AstroIntegrationLogger } from 'astro';
import { AstroError as AstroUserError } from 'astro/errors';
import { build } from '../core/build/pipeline.js';
import { check } from '../core/check.js';
import { ArdsiteError, formatDiagnostic, type Diagnostic } from '../core/errors.js';
import type { BuildEvent } from '../core/events.js';
import { verify } from '../core/verify/verify-folder.js';
import { copyMissing, findConflicts, linkSitePages, listFiles } from './merge-output.js';
import { parseOptions, type ArdsiteAstroUserOptions } from './options.js';

/** The integration's name, as Astro logs it. */
const NAME = 'ardsite';

/** The error lines of `diagnostics`, one `ardsite check` line each, prefixed with the project folder. */
function errorLines(diagnostics: readonly Diagnostic[], project: string): string {
  return diagnostics
    .filter((d) => d.severity === 'error')
    .map((d) => `  ${formatDiagnostic({ ...d, ...(d.file ? { file: path.join(project, d.file) } : {}) })}`)
    .join('\n');
}

/** Logs one event of `build()`: warnings and the key's source (never its material). */
function logEvent(logger: AstroIntegrationLogger, event: BuildEvent): void {
  if (event.type === 'diagnostic') logger.warn(formatDiagnostic(event.diagnostic));
  else if (event.type === 'key') logger.info(`signing key ${event.kid} from ${event.source}`);
}

/**
 * Turns what `build()` threw into the error Astro shows a user: an ArdsiteError with its diagnostics
 * spelled out and a hint; anything else is returned unchanged.
 */
function userError(error: unknown, project: string): unknown {
  if (!(error instanceof ArdsiteError)) return error;
  const lines = errorLines(error.diagnostics, project);
  return new AstroUserError(
    `ardsite: ${error.message} [${error.code}]${lines ? `\n${lines}` : ''}`,
    `Run \`npx ardsite check --root ${project}\` for the same diagnostics.`,
  );
}

/**
 * Creates the integration. `options`: `{ project?: string; keyFile?: string }` (./options.ts).
 * @throws AstroUserError for bad options; the hooks throw AstroUserError for content errors, a build that
 *   failed (key, rendering, self-check) and a file both the site and ardsite would write.
 */
export default function ardsite(options?: ArdsiteAstroUserOptions): AstroIntegration {
  const parsed = parseOptions(options);
  let project = '';
  let siteRoot = '';
  return {
    name: NAME,
    hooks: {
      'astro:config:setup': async ({ config, logger }) => {
        siteRoot = fileURLToPath(config.root);
        project = path.resolve(siteRoot, parsed.project);
        const shown = path.relative(siteRoot, project) || '.';
        const result = await check({ root: project });
        for (const d of result.diagnostics.filter((x) => x.severity === 'warning')) {
          logger.warn(formatDiagnostic(d));
        }
        if (result.errors > 0) {
          throw new AstroUserError(
            `ardsite: the content of ${shown} has ${result.errors} error(s):\n${errorLines(result.diagnostics, shown)}`,
            `Fix the files named above; \`npx ardsite check --root ${shown}\` shows the same diagnostics.`,
          );
        }
        logger.info(`content of ${shown} checked: ${result.agents} agent(s), ${result.entries} entries`);
      },
      'astro:build:done': async ({ dir, logger }) => {
        const siteDir = fileURLToPath(dir);
        const shown = path.relative(siteRoot, project) || '.';
        const siteFiles = await listFiles(siteDir);
        const work = await mkdtemp(path.join(tmpdir(), 'ardsite-astro-'));
        const out = path.join(work, 'dist');
        try {
          const env = { ...process.env };
          if (parsed.keyFile) env.ARDSITE_SIGNING_KEY_FILE = path.resolve(siteRoot, parsed.keyFile);
          await build({ root: project, out, env, onEvent: (e) => logEvent(logger, e) }).catch(
            (error: unknown) => {
              throw userError(error, shown);
            },
          );
          const conflicts = findConflicts(siteFiles, await listFiles(out));
          if (conflicts.length > 0) {
            const outName = path.relative(siteRoot, siteDir) || siteDir;
            throw new AstroUserError(
              `ardsite: ${conflicts.length} file(s) would be written by both the site and ardsite:\n${conflicts
                .map(
                  (c) =>
                    `  ${outName}/${c.file}: the site's own (public/ or a page) and ardsite's (built from ${shown}/content)`,
                )
                .join('\n')}`,
              'Remove one of each pair: keep the site’s file and drop it from ardsite, or the reverse.',
            );
          }
          const linked = await linkSitePages(siteDir, siteFiles);
          const copied = await copyMissing(out, siteDir, siteFiles);
          const report = await verify({ folder: siteDir });
          if (report.failed > 0) {
            throw new AstroUserError(
              `ardsite: the merged site failed ${report.failed} verification(s) of ${report.entries} entries`,
              'Run `npx ardsite verify` on the output folder for the findings.',
            );
          }
          logger.info(`${copied.length} file(s) added, rel="ard" on ${linked} page(s), verified`);
        } finally {
          await rm(work, { recursive: true, force: true });
        }
      },
    },
  };
}
