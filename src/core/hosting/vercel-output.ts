/**
 * Vercel's Build Output API (version 3: `.vercel/output/config.json` beside the files in
 * `.vercel/output/static/`), made from the `_headers` rules the build writes for Netlify and Cloudflare
 * Pages, so that Vercel sends the same response headers and no host's configuration is copied by hand.
 * Vercel does not read `_headers`; a project whose build leaves `.vercel/output/` behind is deployed as it
 * stands (Vercel, "Build Output API"), with the routes of `config.json` applied: one route per rule,
 * `continue: true` so that every matching rule adds its headers, then the filesystem.
 */
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { headerPatternSource, parseHeadersFile, type HeaderRule } from './headers-file.js';

/** One route of Vercel's `config.json` that adds headers (Build Output API v3, "routes", `Source`). */
export interface VercelHeaderRoute {
  /** A PCRE regular expression matched against the whole URL path. */
  src: string;
  headers: Record<string, string>;
  continue: true;
}

/** The `config.json` of Vercel's Build Output API v3 that ardsite writes. */
export interface VercelOutputConfig {
  version: 3;
  routes: Array<VercelHeaderRoute | { handle: 'filesystem' }>;
}

/** The folder, relative to the project, that Vercel reads a Build Output from. */
export const VERCEL_OUTPUT_DIR = '.vercel/output';

/**
 * The Build Output configuration that gives each URL path the headers `rules` give it (the `_headers`
 * rules of src/core/build/site-files.ts `headerRules`): one header route per rule, in order, then Vercel's
 * filesystem handler. Never throws (the rules were checked when `_headers` was written or read).
 */
export function vercelOutputConfig(rules: readonly HeaderRule[]): VercelOutputConfig {
  return {
    version: 3,
    routes: [
      ...rules.map((rule): VercelHeaderRoute => ({
        src: headerPatternSource(rule.path),
        headers: Object.fromEntries(rule.headers),
        continue: true,
      })),
      { handle: 'filesystem' },
    ],
  };
}

/**
 * Writes Vercel's Build Output for the built site in `outDir` into `<root>/.vercel/output/`, replacing
 * what was there: the site's files (without `_headers`, which Vercel would serve as a page) in `static/`,
 * and `config.json` from the site's own `_headers`.
 *
 * @param root the project folder (absolute).
 * @param outDir the built site (absolute), with its `_headers`.
 * @returns the absolute path of the Build Output folder.
 * @throws ArdsiteError `HEADERS_FILE_INVALID` for a `_headers` that does not parse; a file-system error
 *   when a folder cannot be read or written.
 */
export async function writeVercelOutput(root: string, outDir: string): Promise<string> {
  const headersFile = path.join(outDir, '_headers');
  const rules = parseHeadersFile(await readFile(headersFile, 'utf8'));
  const output = path.join(root, VERCEL_OUTPUT_DIR);
  await rm(output, { recursive: true, force: true });
  await mkdir(output, { recursive: true });
  await cp(outDir, path.join(output, 'static'), {
    recursive: true,
    filter: (source) => source !== headersFile,
  });
  await writeFile(
    path.join(output, 'config.json'),
    `${JSON.stringify(vercelOutputConfig(rules), null, 2)}\n`,
  );
  return output;
}
