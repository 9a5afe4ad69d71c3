/**
 * ardsite as an Astro integration (`import ardsite from 'ardsite/astro'`; Astro's Integration API,
 * `astro:config:setup`, `astro:server:setup` and `astro:build:done`): a publisher's existing Astro site
 * serves the signed `/.well-known/ard.json` (ARD draft §3.5), the A2A cards with their Resource Access
 * Manifest (A2A §8.4, the RAM proposal), did.json/jwks.json and the permission pages from its own domain.
 *
 * - `astro:config:setup` (in `astro build`): the content is checked with `check()`, the diagnostics of
 *   `ardsite check`; an error fails the run naming the file, field and line. So does a site's
 *   robots.txt that disallows ardsite's well-known files (./early-checks.ts): before Astro renders.
 * - `astro:server:setup` (in `astro dev`): ./dev-server.ts builds the project and serves ardsite's
 *   paths from that build, again on every content change; content errors answer 503 with the same lines.
 *   Vite's watcher ignores the build's temporary folders (`server.watch.ignored`, set at config setup).
 * - `astro:build:done`: ardsite's own pipeline (`build()`: sign, render, self-check) builds the project
 *   into a temporary folder; its files are added to the site's output folder, none of the site's own
 *   overwritten (./merge-output.ts: llms.txt and `_headers` merged, a conflict an error naming both
 *   files), the site's own pages get the `rel="ard"` link, and the merged folder is verified with `verify()`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { AstroError as AstroUserError } from 'astro/errors';
import { check } from '../core/build/check.js';
import { formatDiagnostic } from '../core/util/errors.js';
import { verify } from '../core/verify/verify-folder.js';
import { buildArdsite, errorLines } from './build-ardsite.js';
import { serveArdsiteInDev, WATCH_IGNORED } from './dev-server.js';
import { robotsConflictBeforeBuild } from './early-checks.js';
import { linkSitePages, listFiles, mergeOutput } from './merge-output.js';
import type { SiteFileConflict } from './merge-site-files.js';
import { ARDSITE_SITEMAP, type SitemapOutcome } from './merge-sitemap.js';
import { parseOptions, type ArdsiteAstroUserOptions } from './options.js';

/** The integration's name, as Astro logs it. */
const NAME = 'ardsite';

/** How the build's last log line says what became of ardsite's sitemap (./merge-sitemap.ts). */
const SITEMAP_WORDS: Record<SitemapOutcome, string> = {
  merged: "the site's pages listed in sitemap.xml",
  beside: `ardsite's pages in ${ARDSITE_SITEMAP} beside the site's own sitemap`,
  none: 'no sitemap',
};

/** The error of files of the site and of ardsite that cannot both be kept, one line a conflict. */
function conflictError(conflicts: readonly SiteFileConflict[]): AstroUserError {
  return new AstroUserError(
    `ardsite: ${conflicts.length} file(s) of the site and of ardsite cannot both be kept:\n${conflicts
      .map((c) => `  ${c.file}: ${c.reason}`)
      .join('\n')}`,
    'Change or remove one of each pair; the site’s own files are never overwritten.',
  );
}

/**
 * Creates the integration. `options`: `{ project?: string; keyFile?: string; pagesPrefix?: string }`
 * (./options.ts).
 * @throws AstroUserError for bad options; the hooks throw AstroUserError for content errors, a build that
 *   failed (key, rendering, self-check) and files of the site and of ardsite that cannot both be kept.
 */
export default function ardsite(options?: ArdsiteAstroUserOptions): AstroIntegration {
  const parsed = parseOptions(options);
  let project = '';
  let siteRoot = '';
  return {
    name: NAME,
    hooks: {
      'astro:config:setup': async ({ config, command, logger, updateConfig }) => {
        siteRoot = fileURLToPath(config.root);
        project = path.resolve(siteRoot, parsed.project);
        // ardsite's own temporary build folders are no change of the site (Vite merges the arrays).
        updateConfig({ vite: { server: { watch: { ignored: WATCH_IGNORED } } } });
        // `astro dev` checks in its own build (./dev-server.ts) and reports errors without stopping.
        if (command !== 'build') return;
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
        const robots = await robotsConflictBeforeBuild({ siteRoot, project });
        if (robots) throw conflictError([robots]);
        logger.info(`content of ${shown} checked: ${result.agents} agent(s), ${result.entries} entries`);
      },
      'astro:server:setup': ({ server, logger }) => {
        serveArdsiteInDev(server, logger, { siteRoot, project, options: parsed });
      },
      'astro:build:done': async ({ dir, logger }) => {
        const siteDir = fileURLToPath(dir);
        const siteFiles = await listFiles(siteDir);
        const work = await mkdtemp(path.join(tmpdir(), 'ardsite-astro-'));
        const out = path.join(work, 'dist');
        try {
          await buildArdsite({ siteRoot, project, options: parsed, out, logger });
          const merge = await mergeOutput(out, siteDir, siteFiles, { siteRoot, project });
          if (merge.conflicts.length > 0) throw conflictError(merge.conflicts);
          const linked = await linkSitePages(siteDir, siteFiles);
          const report = await verify({ folder: siteDir });
          if (report.failed > 0) {
            throw new AstroUserError(
              `ardsite: the merged site failed ${report.failed} verification(s) of ${report.entries} entries`,
              'Run `npx ardsite verify` on the output folder for the findings.',
            );
          }
          logger.info(
            `${merge.copied.length} file(s) added, ${merge.merged.length} merged (${merge.merged.join(', ') || 'none'}), rel="ard" on ${linked} page(s), ${SITEMAP_WORDS[merge.sitemap]}, verified`,
          );
        } finally {
          await rm(work, { recursive: true, force: true });
        }
      },
    },
  };
}
