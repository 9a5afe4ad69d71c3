/**
 * The options of the commands that serve a built folder (`npm run preview`, `npm run serve`): the
 * project (`--root`, default the working folder), the folder (`--dir`, default `<root>/dist`), and where
 * to listen (`--port`, `--host`; the environment's `PORT` and `HOST`, else 4321 and 127.0.0.1), and the one
 * rule both read `--root` and `--dir` by ({@link servedFolders}).
 */
import path from 'node:path';
import { projectFolder } from './args.js';

/** The `parseArgs` options of the serving flags, to spread into a command's own options. */
export const SERVING_OPTIONS = {
  root: { type: 'string', default: process.cwd() },
  dir: { type: 'string' },
  port: { type: 'string', default: process.env.PORT ?? '4321' },
  host: { type: 'string', default: process.env.HOST ?? '127.0.0.1' },
} as const;

/** The text the usage of both serving commands gives the rule of {@link servedFolders}. */
export const SERVED_FOLDER_RULE =
  'a relative --dir is read from the project folder (--root), as npm run build reads --out; ' +
  'default <root>/dist';

/**
 * The project folder and the folder to serve, for `npm run preview` and `npm run serve` alike. `--root`
 * is read as every command reads it ({@link projectFolder}: relative to the working folder, which `npm run`
 * makes this checkout; a missing folder exits 2). A relative `--dir` is read from that project folder, as
 * `npm run build` reads `--out` (scripts/build.ts) and as the default `<root>/dist` is: `--root ../acme
 * --dir dist-staging` serves `../acme/dist-staging/`, what `npm run build -- --root ../acme --out
 * dist-staging` wrote. An absolute `--dir` is taken as it is. Without `--root` the project is the working
 * folder, so `--dir` is then read from there, where `--root` would be.
 *
 * @param values the parsed `root` (default the working folder) and `dir` (optional) options.
 * @returns the absolute project folder and folder to serve (which may not exist: the command says so).
 */
export function servedFolders(values: { root?: string | undefined; dir?: string | undefined }): {
  root: string;
  dir: string;
} {
  const root = projectFolder(values.root ?? process.cwd());
  return { root, dir: path.resolve(root, values.dir ?? 'dist') };
}
