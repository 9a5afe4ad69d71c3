/**
 * `ardsite preview`: serves a built site (default `dist/`) with the headers its `_headers` declares,
 * as Netlify and Cloudflare Pages would (DESIGN.md §7). Astro's own preview ignores `_headers`.
 *
 * Options: --root <project folder>, --dir <folder>, --port <port>, --host <interface>. Environment: PORT and HOST, overridden by the flags. Defaults: <root>/dist (root: the working folder),
 * 4321, 127.0.0.1. A relative --dir is read from the project folder (--root), as `npm run build` reads
 * --out and as `npm run serve` reads its --dir (src/cli/lib/serving-options.ts `servedFolders`).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { startPreviewServer } from '../../core/hosting/preview-server.js';
import { portNumber, servedFolders, type ServingValues } from '../lib/serving-options.js';
import { npmCommand } from '../../core/util/shell-word.js';

/**
 * Starts `ardsite preview` with the serving options `values` and returns its exit code: 1 when there is
 * no built site or the port cannot be listened on, else undefined, the server running until SIGINT or
 * SIGTERM.
 *
 * @throws UsageError for a `--port` that is not a port or a `--root` that is not a folder.
 */
export async function runPreview(values: ServingValues): Promise<number | undefined> {
  const { root, dir } = servedFolders(values);
  const port = portNumber(values.port);
  if (!existsSync(dir)) {
    // build reads --out by the rule preview reads --dir by: the same words build this very folder.
    const build = npmCommand('build', root, values.dir === undefined ? [] : ['--out', values.dir]);
    process.stderr.write(`No site at ${dir}: run ${build} first, or pass --dir <folder>.\n`);
    return 1;
  }
  let preview: Awaited<ReturnType<typeof startPreviewServer>>;
  try {
    preview = await startPreviewServer({ dir, port, host: values.host });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const hint =
      code === 'EADDRINUSE'
        ? `: port ${port} is in use (another preview or dev server?); choose another with --port <port> or PORT`
        : `: ${(error as Error).message}`;
    process.stderr.write(`Cannot serve ${values.host}:${port}${hint}.\n`);
    return 1;
  }
  process.stderr.write(
    `Serving ${path.relative(process.cwd(), dir) || dir}/ with its _headers at ${preview.origin}/\n`,
  );
  const stop = () => void preview.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return undefined;
}
