/**
 * The publisher project `npm run dev` serves: the folder `scripts/dev.ts` was given with `--root`
 * (passed on in `ARDSITE_ROOT`, since Astro loads the pages and the config's plugin as separate
 * modules), else the working folder.
 */
import path from 'node:path';

/** Absolute path of the project folder (its `content/`, `public/`, `.ardsite/`). */
export function devProjectRoot(): string {
  return path.resolve(process.env.ARDSITE_ROOT ?? process.cwd());
}

/**
 * Absolute path of the ardsite app `npm run dev` runs Astro in (its `root`: astro.config.mjs, src/pages),
 * passed on by `scripts/dev.ts` in `ARDSITE_APP_ROOT`; undefined when not set (a dev server started
 * otherwise).
 */
export function devAppRoot(): string | undefined {
  const appRoot = process.env.ARDSITE_APP_ROOT;
  return appRoot ? path.resolve(appRoot) : undefined;
}
