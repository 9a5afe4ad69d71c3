/**
 * The options of the commands that serve a built folder (`ardsite preview`, `ardsite serve`): the
 * project (`--root`, default the working folder), the folder (`--dir`, default `<root>/dist`), and where
 * to listen (`--port`, `--host`; the environment's `PORT` and `HOST`, else 4321 and 127.0.0.1), and the one
 * rule both read `--root` and `--dir` by ({@link servedFolders}).
 */
import path from 'node:path';
import { Option } from 'commander';
import { projectFolder, rootOption } from './args.js';
import { UsageError } from './usage-error.js';

/** The text the help of both serving commands gives the rule of {@link servedFolders}. */
export const SERVED_FOLDER_RULE =
  'a relative --dir is read from the project folder (--root), as npm run build reads --out; ' +
  'default <root>/dist';

/** The serving options, declared once for both commands. */
export function servingOptions(): Option[] {
  return [
    rootOption(),
    new Option('--dir <folder>', 'the built folder to serve (default <root>/dist)'),
    new Option('--port <n>', 'the TCP port').default(process.env.PORT ?? '4321', 'PORT, else 4321'),
    new Option('--host <ip>', 'the interface to listen on').default(
      process.env.HOST ?? '127.0.0.1',
      'HOST, else 127.0.0.1',
    ),
  ];
}

/** The values commander gives for {@link servingOptions}. */
export interface ServingValues {
  root: string;
  dir?: string;
  port: string;
  host: string;
}

/**
 * `value` (`--port`) as a TCP port number.
 *
 * @throws UsageError `--port must be a TCP port number, not "…"`.
 */
export function portNumber(value: string): number {
  const port = Number(value);
  if (value.trim() === '' || !Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port must be a TCP port number, not "${value}"`);
  return port;
}

/**
 * The project folder and the folder to serve, for `ardsite preview` and `ardsite serve` alike. `--root`
 * is read as every command reads it ({@link projectFolder}: relative to the working folder; a missing
 * folder is a usage error). A relative `--dir` is read from that project folder, as `ardsite build` reads
 * `--out` and as the default `<root>/dist` is: `--root ../acme --dir dist-staging` serves
 * `../acme/dist-staging/`, what `ardsite build --root ../acme --out dist-staging` wrote. An absolute
 * `--dir` is taken as it is.
 *
 * @param values the parsed `root` and `dir` (optional) options.
 * @returns the absolute project folder and folder to serve (which may not exist: the command says so).
 * @throws UsageError when `--root` is not a folder.
 */
export function servedFolders(values: { root: string; dir?: string | undefined }): {
  root: string;
  dir: string;
} {
  const root = projectFolder(values.root);
  return { root, dir: path.resolve(root, values.dir ?? 'dist') };
}
