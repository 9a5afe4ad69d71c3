/**
 * The Vite plugin of `npm run dev` (DESIGN.md §1, §10): refuses, before Vite sees them, the requests a
 * build would never publish (src/core/build/dev-requests.ts: the key, `.git`, `.env`, `/@fs/` outside the app,
 * links in public/ the build refuses); watches `content/`, drops the cached site on any
 * change and reloads the browser; and answers the artifact paths (`/.well-known/ard.json`, the agent
 * cards, `robots.txt`, …) from the computed site, so the dev server serves what a build would write.
 * It does nothing during `astro build`.
 */
import path from 'node:path';
import type { ViteUserConfig } from 'astro';
import { ArdsiteError, formatDiagnostic } from '../core/util/errors.js';
import { isWithin } from '../core/util/within.js';
import { devAppRoot, devProjectRoot } from './project-root.js';
import { devRequestProblem, devServing } from '../core/build/dev-requests.js';
import { loadPublisherFile } from '../core/content/load.js';
import { getSiteBuild, invalidateDevSite } from './site.js';

/** Paths that may be artifacts: answered with the build error when the content does not load. */
const ARTIFACT_LIKE = /(\.(json|txt|xml)|^\/_headers|^\/\.nojekyll)$/;

function describe(error: unknown): string {
  if (error instanceof ArdsiteError) {
    return [`${error.message} [${error.code}]`, ...error.diagnostics.map(formatDiagnostic), ''].join('\n');
  }
  return `${error instanceof Error ? error.message : String(error)}\n`;
}

/** A Vite plugin object (the one member of Vite's `PluginOption` union that has a name). */
type VitePlugin = Extract<NonNullable<ViteUserConfig['plugins']>[number], { name: string }>;

/** Options of {@link devContentPlugin}. */
export interface DevContentPluginOptions {
  /** The content folder to watch (default the dev project's `content/`, src/lib/project-root.ts). */
  contentDir?: string;
}

/** The dev plugin: content watcher with full reload, and the artifact middleware. */
export function devContentPlugin(options: DevContentPluginOptions = {}): VitePlugin {
  const contentDir = path.resolve(options.contentDir ?? path.join(devProjectRoot(), 'content'));
  return {
    name: 'ardsite:dev-content',
    apply: 'serve',
    configureServer(server) {
      // First of all: what a build would never publish is never answered (src/core/build/dev-requests.ts).
      const projectRoot = path.dirname(contentDir);
      const appRoot = devAppRoot() ?? server.config.root;
      let serving = devServing(projectRoot, appRoot);
      // publisher.yaml may name a key file too: its secret is added once the file is read.
      void loadPublisherFile({ root: projectRoot }).then(
        ({ publisher }) => {
          const keyFile = publisher?.signing.keyFile;
          if (keyFile) serving = devServing(projectRoot, appRoot, process.env, keyFile);
        },
        () => {},
      );
      server.middlewares.use((req, res, next) => {
        const problem = devRequestProblem(req.url ?? '/', serving);
        if (problem === undefined) return next();
        res.statusCode = 404;
        res.setHeader('Content-Type', 'text/plain; charset=utf-8');
        res.end(`Not served: ${problem}; the dev server serves what a build would publish.\n`);
      });

      server.watcher.add(contentDir);
      const onChange = (file: string) => {
        if (!isWithin(contentDir, path.resolve(file))) return;
        invalidateDevSite();
        server.ws.send({ type: 'full-reload', path: '*' });
      };
      server.watcher.on('add', onChange);
      server.watcher.on('change', onChange);
      server.watcher.on('unlink', onChange);

      server.middlewares.use((req, res, next) => {
        if (req.method !== 'GET' && req.method !== 'HEAD') return next();
        const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
        getSiteBuild().then(
          (site) => {
            const artifact = site.artifacts.get(pathname);
            if (!artifact) return next();
            res.statusCode = 200;
            res.setHeader('Content-Type', artifact.mediaType);
            res.setHeader('Content-Length', String(artifact.bytes.byteLength));
            res.setHeader('Access-Control-Allow-Origin', '*');
            res.end(req.method === 'HEAD' ? undefined : Buffer.from(artifact.bytes));
          },
          (error: unknown) => {
            // Pages show the error themselves (Astro's overlay); a machine-readable file answers 500.
            if (!ARTIFACT_LIKE.test(pathname)) return next();
            res.statusCode = 500;
            res.setHeader('Content-Type', 'text/plain; charset=utf-8');
            res.end(describe(error));
          },
        );
      });
    },
  };
}
