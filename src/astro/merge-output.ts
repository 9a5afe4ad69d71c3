/**
 * Puts what ardsite built (the signed manifest, cards, permission files, did.json/jwks.json, pages) into
 * the output folder of the publisher's Astro site, without overwriting any file of the site's own
 * (its robots.txt, sitemap, `_headers`, llms.txt, pages): a file both have is a conflict, reported naming
 * both. The site's own pages get the `rel="ard"` link to the manifest (ARD draft §3.1, initial contact).
 */
import { copyFile, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { MANIFEST_PATH } from '../core/site.js';

/** One file both the site and ardsite would write: paths relative to the output folder, `/`-separated. */
export interface OutputConflict {
  /** The path in the output folder. */
  file: string;
}

/** Every file under `dir`, as `/`-separated paths relative to it, sorted. */
export async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

/**
 * The files of `ardsiteDir` that `siteDir` already has. The site's `index.html` and `404.html` are the
 * site's front and error pages and win over ardsite's: they are neither copied nor conflicts.
 */
export function findConflicts(
  siteFiles: readonly string[],
  ardsiteFiles: readonly string[],
): OutputConflict[] {
  const own = new Set(siteFiles);
  return ardsiteFiles.filter((file) => own.has(file) && !SITE_WINS.has(file)).map((file) => ({ file }));
}

/** Files whose site version is kept when both have one. */
const SITE_WINS = new Set(['index.html', '404.html']);

/**
 * Copies every file of `ardsiteDir` that `siteDir` lacks into `siteDir`, keeping the folders. Call
 * {@link findConflicts} first: a file the site has is never overwritten here.
 * @returns the paths copied, `/`-separated, relative to `siteDir`.
 */
export async function copyMissing(
  ardsiteDir: string,
  siteDir: string,
  siteFiles: readonly string[],
): Promise<string[]> {
  const own = new Set(siteFiles);
  const copied: string[] = [];
  for (const file of await listFiles(ardsiteDir)) {
    if (own.has(file)) continue;
    const to = path.join(siteDir, ...file.split('/'));
    await mkdir(path.dirname(to), { recursive: true });
    await copyFile(path.join(ardsiteDir, ...file.split('/')), to);
    copied.push(file);
  }
  return copied;
}

/** The link every page of the site carries to the manifest (ARD draft §3.1; HTML `<link rel>`). */
export const ARD_LINK_TAG = `<link rel="ard" href="${MANIFEST_PATH}" type="application/ard+json">`;

/**
 * Adds {@link ARD_LINK_TAG} just before `</head>` of one HTML document; a document that has a `rel="ard"`
 * link already, or no `</head>`, is returned unchanged.
 */
export function addArdLink(html: string): string {
  if (/<link\b[^>]*\brel=["']?ard\b/i.test(html)) return html;
  const at = html.search(/<\/head\s*>/i);
  if (at < 0) return html;
  return `${html.slice(0, at)}${ARD_LINK_TAG}${html.slice(at)}`;
}

/**
 * Adds the `rel="ard"` link to each of the site's own HTML files (`files`, relative to `siteDir`).
 * @returns how many files changed.
 */
export async function linkSitePages(siteDir: string, files: readonly string[]): Promise<number> {
  let changed = 0;
  for (const file of files.filter((f) => f.endsWith('.html'))) {
    const at = path.join(siteDir, ...file.split('/'));
    const html = await readFile(at, 'utf8');
    const linked = addArdLink(html);
    if (linked === html) continue;
    await writeFile(at, linked);
    changed += 1;
  }
  return changed;
}
