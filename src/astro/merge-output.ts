/**
 * Puts what ardsite built (the signed manifest, cards, permission files, did.json/jwks.json, pages) into
 * the output folder of the publisher's Astro site, without overwriting any file of the site's own
 * (its robots.txt, sitemap, `_headers`, llms.txt, pages): a file both have is kept, merged or a conflict
 * naming both (./merge-site-files.ts); the sitemap says what is true of the merged site (./merge-sitemap.ts). The site's own pages get the `rel="ard"` link to the manifest
 * (ARD draft §3.1, initial contact).
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { MANIFEST_PATH } from '../core/ard/well-known.js';
import {
  mergeSiteFile,
  yieldPageRules,
  type SiteFileConflict,
  type SiteFileNames,
} from './merge-site-files.js';
import { fitSitemap, pagePath, type SitemapOutcome } from './merge-sitemap.js';

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

/** Where the two copies of a file both write come from, in the words of an error message. */
export interface MergeSources {
  /** The Astro site's root folder. */
  siteRoot: string;
  /** The ardsite project folder. */
  project: string;
}

/**
 * How each side's copy of `file` (a path of the output folder, `/`-separated) is named in messages: its
 * file in `public/` (relative to the site's root) when it has one, else what writes it.
 */
export function namesOf(file: string, sources: MergeSources): SiteFileNames {
  const shown = (p: string) => path.relative(sources.siteRoot, p).split(path.sep).join('/') || '.';
  const sitePublic = path.join(sources.siteRoot, 'public', ...file.split('/'));
  const ourPublic = path.join(sources.project, 'public', ...file.split('/'));
  return {
    site: existsSync(sitePublic) ? shown(sitePublic) : `the site's ${file} (written by one of its pages)`,
    ardsite: existsSync(ourPublic)
      ? shown(ourPublic)
      : `ardsite's ${file} (made from ${shown(path.join(sources.project, 'content'))})`,
  };
}

/** What {@link mergeOutput} did. */
export interface MergeResult {
  /** Files both write that cannot be kept as the site's (nothing was written when there is one). */
  conflicts: SiteFileConflict[];
  /** ardsite's files copied into the site's output, `/`-separated paths. */
  copied: string[];
  /** The site's files rewritten with ardsite's merged in (llms.txt, `_headers`). */
  merged: string[];
  /** ardsite's sitemap: merged with the site's pages, beside the site's own, or none built. */
  sitemap: SitemapOutcome;
}

/**
 * Merges what ardsite built (`ardsiteDir`) into the site's output folder (`siteDir`, whose own files are
 * `siteFiles`): a file both write is kept, merged or a conflict (./merge-site-files.ts); when there is
 * no conflict, the merged files are written and every file the site lacks is copied. Where the site's
 * own page wins over ardsite's (its `index.html`), ardsite's `_headers` rule of that path keeps only the
 * `Link` header (`yieldPageRules`), whether or not the site has a `_headers` of its own. ardsite's
 * sitemap lists the site's own pages too, or goes beside the site's own sitemap (./merge-sitemap.ts).
 * @returns the conflicts (nothing written then), or the paths copied and merged; and what became of
 *   ardsite's sitemap.
 * @throws ArdsiteError `HEADERS_FILE_INVALID` for a `_headers` not in that syntax; file-system errors.
 */
export async function mergeOutput(
  ardsiteDir: string,
  siteDir: string,
  siteFiles: readonly string[],
  sources: MergeSources,
): Promise<MergeResult> {
  const before = await listFiles(ardsiteDir);
  // The site's own front and error pages win (SITE_WINS): ardsite's page headers are not theirs.
  const taken = siteFiles.filter((file) => SITE_WINS.has(file) && before.includes(file)).map(pagePath);
  const sitemap = await fitSitemap(ardsiteDir, siteDir, siteFiles, taken);
  const ours = await listFiles(ardsiteDir);
  const published = ours.map(pagePath);
  if (taken.length > 0 && ours.includes('_headers')) {
    const at = path.join(ardsiteDir, '_headers');
    await writeFile(at, yieldPageRules(await readFile(at, 'utf8'), taken));
  }
  const conflicts: SiteFileConflict[] = [];
  const writes: [string, string][] = [];
  for (const { file } of findConflicts(siteFiles, ours)) {
    const at = (dir: string) => path.join(dir, ...file.split('/'));
    const [site, own] = [await readFile(at(siteDir)), await readFile(at(ardsiteDir))];
    const outcome = mergeSiteFile(file, site, own, namesOf(file, sources), published);
    if ('conflict' in outcome) conflicts.push(outcome.conflict);
    else if ('write' in outcome) writes.push([at(siteDir), outcome.write]);
  }
  if (conflicts.length > 0) return { conflicts, copied: [], merged: [], sitemap };
  for (const [to, text] of writes) await writeFile(to, text);
  const copied = await copyMissing(ardsiteDir, siteDir, siteFiles);
  return { conflicts, copied, merged: writes.map(([to]) => path.relative(siteDir, to)), sitemap };
}
