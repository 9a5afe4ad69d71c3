/**
 * `ardsite dev`: Astro's dev server over a publisher project: pages rendered from its `content/`,
 * reloaded on each change, its `public/` served, and the artifacts (`/.well-known/ard.json`, the cards,
 * …) answered as a build would write them (src/lib/dev-content-plugin.ts).
 *
 * Options: --root <project folder>, --port <n>, --host <ip>. Defaults: the working folder, port 4321 (or PORT), 127.0.0.1 (only --host changes it). Stops on
 * SIGINT/SIGTERM. Answers only what a build would publish (src/core/build/dev-requests.ts).
 */
import path from 'node:path';
import { dev } from 'astro';
import { projectFolder } from '../lib/args.js';
import { portNumber } from '../lib/serving-options.js';
import { appRoot as ardsiteRoot } from '../../core/project/app-root.js';

/** The options of `ardsite dev` (src/cli/program.ts declares them). */
export interface DevCommandOptions {
  /** The project folder. */
  root: string;
  /** The TCP port (text, checked here). */
  port: string;
  /**
   * The interface to listen on: loopback unless the command line says otherwise, not from HOST, which
   * shells and hosts set to the machine's name (the dev server answers only what a build publishes,
   * src/core/build/dev-requests.ts, but it is a development server).
   */
  host: string;
}

/**
 * Starts `ardsite dev` and resolves once the server listens; it runs until SIGINT or SIGTERM.
 *
 * @throws UsageError for a `--port` that is not a port or a `--root` that is not a folder.
 */
export async function runDev(values: DevCommandOptions): Promise<void> {
  const port = portNumber(values.port);
  // The app (astro.config.mjs, src/pages) stays here; the project's content/ and public/ come from --root.
  const appRoot = ardsiteRoot();
  const root = projectFolder(values.root);
  process.env.ARDSITE_ROOT = root;
  // Astro's error overlay reads a file it is pointed at relative to the app (src/lib/dev-error.ts).
  process.env.ARDSITE_APP_ROOT = appRoot;
  // ardsite pins Astro 5 (Astro 6 and later need Node 22): Astro's own "new version available, run
  // npx @astrojs/upgrade" notice would lead a publisher to break the app, so its update check is off.
  process.env.ASTRO_DISABLE_UPDATE_CHECK ??= 'true';
  const server = await dev({
    root: appRoot,
    publicDir: path.join(root, 'public'),
    server: { port, host: values.host },
    logLevel: 'info',
  });
  const stop = () => void server.stop().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
