/**
 * ardsite in `astro dev` (Astro's `astro:server:setup` hook, a Vite dev server): the project is built
 * into a temporary folder when the server starts and again whenever a file of its `content/` or `public/`
 * changes, and the dev server answers ardsite's paths (`/.well-known/ard.json`, the cards, did.json and
 * jwks.json, the agent and permission pages, ARD draft §3.5, A2A §8.4) from the last build, with the
 * headers its `_headers` declares (../core/preview-server.ts). The site's own pages and `public/` files
 * keep their paths, as in `astro build`. While the content has errors, ardsite's paths answer
 * 503 with the diagnostics of `ardsite check` (file and line) instead of an older build's files.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AstroIntegrationLogger } from 'astro';
import type { ViteDevServer } from 'vite';
import { previewHandler, requestPath } from '../core/hosting/preview-server.js';
import { TEMP_PREFIX } from '../core/build/stale-temp.js';
import { isWithin } from '../core/util/within.js';
import { buildArdsite, type ArdsiteBuildPlace } from './build-ardsite.js';
import { listFiles } from './merge-output.js';

/** What the dev server can answer for ardsite's paths now. */
type DevState =
  | { kind: 'building'; done: Promise<void> }
  | { kind: 'ready'; dir: string; files: Set<string>; handler: RequestListener }
  | { kind: 'failed'; message: string };

/**
 * Path prefixes that are ardsite's even before a build says which files it has (the pages' own prefix,
 * the `pagesPrefix` option, is added).
 */
const ARDSITE_PREFIXES = ['/.well-known/', '/agents/'];

/** Paths of the site's own front and error pages, which win over ardsite's (as in `astro build`). */
const SITE_WINS = new Set(['/', '/index.html', '/404.html']);

/** The output-folder file a clean request path names (`/a/` is `a/index.html`). */
function fileOf(clean: string): string {
  return `${clean.slice(1)}${clean.endsWith('/') ? 'index.html' : ''}`;
}

/**
 * What the dev server logs after a build of `files` files: Astro's logger labels every line with the
 * integration's name (`[ardsite]`), so the text does not repeat it; the content folder is named from the
 * site's root.
 */
export function builtMessage(place: Pick<DevBuildPlace, 'siteRoot' | 'project'>, files: number): string {
  const content = path
    .relative(place.siteRoot, path.join(place.project, 'content'))
    .split(path.sep)
    .join('/');
  return `built ${files} files from ${content}`;
}

/** `message` without a leading `ardsite: `, the label Astro's logger already puts before it. */
export function unlabelled(message: string): string {
  return message.replace(/^ardsite: /, '');
}

/**
 * Vite's `server.watch.ignored` patterns (chokidar's `ignored`, anymatch globs) for the temporary folders
 * ardsite's build writes inside the project (`.ardsite-tmp-<pid>-<random>`, swapped into place when the
 * build is done): without them `astro dev` reports every file of each rebuild as a change of the site.
 */
export const WATCH_IGNORED = [`**/${TEMP_PREFIX}*`, `**/${TEMP_PREFIX}*/**`];

/** Where the dev server's ardsite builds run, without `out` (each build gets a fresh temporary folder). */
export type DevBuildPlace = Omit<ArdsiteBuildPlace, 'out' | 'logger'>;

/**
 * Adds ardsite to the dev server: builds now and on each change of the project's `content/` or
 * `public/`, and serves the result ahead of Astro's routes for the paths ardsite owns.
 * Never throws: a failed build is logged (every error line) and served as 503 until the next build.
 */
export function serveArdsiteInDev(
  server: ViteDevServer,
  logger: AstroIntegrationLogger,
  place: DevBuildPlace,
): void {
  let state: DevState = { kind: 'failed', message: 'not built yet' };
  let queued = false;
  const rebuild = (): void => {
    if (state.kind === 'building') {
      queued = true;
      return;
    }
    const previous = state.kind === 'ready' ? state.dir : undefined;
    const done = (async () => {
      const work = await mkdtemp(path.join(tmpdir(), 'ardsite-astro-dev-'));
      const out = path.join(work, 'dist');
      try {
        await buildArdsite({ ...place, out, logger });
        const files = new Set(await listFiles(out));
        state = { kind: 'ready', dir: work, files, handler: await previewHandler(out) };
        logger.info(builtMessage(place, files.size));
      } catch (error) {
        await rm(work, { recursive: true, force: true });
        const message = error instanceof Error ? error.message : String(error);
        state = { kind: 'failed', message };
        logger.error(`${unlabelled(message)}\nardsite's paths answer 503 until the content is fixed.`);
      }
      if (previous) await rm(previous, { recursive: true, force: true });
      server.ws.send({ type: 'full-reload' });
      if (queued) {
        queued = false;
        rebuild();
      }
    })();
    state = { kind: 'building', done };
  };

  const watched = ['content', 'public'].map((f) => path.join(place.project, f));
  server.watcher.add(watched);
  server.watcher.on('all', (_event, file) => {
    if (watched.some((dir) => isWithin(dir, path.resolve(file)))) rebuild();
  });
  server.httpServer?.on('close', () => {
    if (state.kind === 'ready') void rm(state.dir, { recursive: true, force: true });
  });

  const ours = (clean: string): boolean => {
    if (SITE_WINS.has(clean)) return false;
    if (existsSync(path.join(place.siteRoot, 'public', ...clean.split('/').filter(Boolean)))) return false;
    if (state.kind === 'ready')
      return state.files.has(fileOf(clean)) || state.files.has(`${fileOf(clean)}/index.html`);
    const pages = place.options.pagesPrefix ? [`${place.options.pagesPrefix}/`] : [];
    return [...ARDSITE_PREFIXES, ...pages].some((p) => clean.startsWith(p));
  };

  server.middlewares.use((req: IncomingMessage, res: ServerResponse, next: () => void) => {
    void (async () => {
      const clean = requestPath(new URL(req.url ?? '/', 'http://dev.invalid').pathname);
      if (clean === undefined || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
      while (state.kind === 'building') await state.done;
      if (!ours(clean)) return next();
      if (state.kind === 'failed') {
        res.statusCode = 503;
        res.setHeader('Content-Type', 'text/plain; charset=utf-8');
        res.setHeader('Cache-Control', 'no-store');
        return res.end(`${state.message}\n`);
      }
      if (state.kind === 'ready') state.handler(req, res);
      else next();
    })().catch(next);
  });

  rebuild();
}
