/**
 * The options of the commands that serve a built folder (`npm run preview`, `npm run serve`): the
 * project (`--root`, default the working folder), the folder (`--dir`, default `<root>/dist`), and where
 * to listen (`--port`, `--host`; the environment's `PORT` and `HOST`, else 4321 and 127.0.0.1).
 */

/** The `parseArgs` options of the serving flags, to spread into a command's own options. */
export const SERVING_OPTIONS = {
  root: { type: 'string', default: process.cwd() },
  dir: { type: 'string' },
  port: { type: 'string', default: process.env.PORT ?? '4321' },
  host: { type: 'string', default: process.env.HOST ?? '127.0.0.1' },
} as const;
