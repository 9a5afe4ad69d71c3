/**
 * The files a site and ardsite may both write at the root of the output folder, and what happens when
 * both do: the site's file is kept, never overwritten.
 *
 * - `llms.txt` (llmstxt.org): merged, the site's first (./merge-llms-txt.ts).
 * - `_headers` (Netlify, Cloudflare Pages): ardsite's rules (content types, CORS and the `Link: rel="ard"`
 *   of the manifest and cards) are appended to the site's; a rule of the same path in both that sets the
 *   same header to another value is a conflict, since a host would join the two values. The rule of a
 *   page the site's own page replaces (its home page at `/`) keeps only the `Link` header.
 * - `robots.txt` (RFC 9309): the site's is kept and ardsite's left out; a conflict when the site's
 *   disallows, for every crawler, a path ardsite publishes (the manifest, a card, a page).
 * - anything else both write (a page, a card) with different bytes: a conflict; ardsite's sitemap is
 *   never one of them (./merge-sitemap.ts).
 */
import { parseHeadersFile, serializeHeadersFile } from '../core/hosting/headers-file.js';
import { mergeLlmsTxt, LlmsTxtMergeError } from './merge-llms-txt.js';
import { andList } from '../core/util/word-list.js';

/** One file both write that cannot be kept as the site's alone: where each side's line is, and why. */
export interface SiteFileConflict {
  /** The path in the output folder, `/`-separated. */
  file: string;
  /** What is wrong, naming the site's file and ardsite's, with lines where known. */
  reason: string;
}

/** What to do with one file both write. */
export type SiteFileOutcome = { keep: 'site' } | { write: string } | { conflict: SiteFileConflict };

/** Where each side's copy of a file comes from, as the messages name it. */
export interface SiteFileNames {
  /** The site's (`public/robots.txt`, or `robots.txt written by a page of the site`). */
  site: string;
  /** ardsite's (`ardsite/public/llms.txt`, or `llms.txt made from ardsite/content`). */
  ardsite: string;
}

/** The RFC 9309 groups for every crawler (`User-agent: *`) of a robots.txt, as rules with their lines. */
function robotsRulesForAll(text: string): { allow: boolean; path: string; line: number }[] {
  const rules: { allow: boolean; path: string; line: number }[] = [];
  let agents: string[] = [];
  let inRules = false;
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.replace(/#.*/, '').trim();
    const colon = line.indexOf(':');
    if (colon < 0) return;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === 'user-agent') {
      if (inRules) agents = [];
      inRules = false;
      agents.push(value);
    } else if (key === 'allow' || key === 'disallow') {
      inRules = true;
      if (agents.includes('*') && value !== '')
        rules.push({ allow: key === 'allow', path: value, line: index + 1 });
    }
  });
  return rules;
}

/** True when the RFC 9309 `pattern` (`*` any run, `$` end) matches the start of `urlPath`. */
function robotsMatch(pattern: string, urlPath: string): boolean {
  const source = pattern
    .split('')
    .map((c, i) =>
      c === '*' ? '.*' : c === '$' && i === pattern.length - 1 ? '$' : c.replace(/[.+?^{}()|[\]\\]/g, '\\$&'),
    )
    .join('');
  return new RegExp(`^${source}`).test(urlPath);
}

/**
 * Every one of `paths` the site's robots.txt disallows for every crawler (RFC 9309 §2.2.2: the longest
 * matching rule wins, `Allow` on a tie), in the order of `paths`, each with the line of its rule.
 */
export function disallowedPaths(robots: string, paths: readonly string[]): { path: string; line: number }[] {
  const rules = robotsRulesForAll(robots);
  const blocked: { path: string; line: number }[] = [];
  for (const urlPath of paths) {
    const matching = rules
      .filter((r) => robotsMatch(r.path, urlPath))
      .sort((a, b) => b.path.length - a.path.length || Number(b.allow) - Number(a.allow));
    const rule = matching[0];
    if (rule && !rule.allow) blocked.push({ path: urlPath, line: rule.line });
  }
  return blocked;
}

/** How many blocked paths a robots.txt conflict names before it says how many more there are. */
export const MAX_NAMED_BLOCKED_PATHS = 10;

/**
 * The conflict of the site's robots.txt (`robots`, its text) with what ardsite publishes (`published`, URL
 * paths): one message naming every path it disallows for every crawler ({@link disallowedPaths}, RFC
 * 9309), grouped by the line of the rule that blocks them (at most {@link MAX_NAMED_BLOCKED_PATHS} paths
 * named, then how many more); undefined when it disallows none of them.
 */
export function robotsConflict(
  robots: string,
  names: SiteFileNames,
  published: readonly string[],
): SiteFileConflict | undefined {
  const blocked = disallowedPaths(robots, published);
  if (blocked.length === 0) return undefined;
  const named = blocked.slice(0, MAX_NAMED_BLOCKED_PATHS);
  const byLine = new Map<number, string[]>();
  for (const { path, line } of named) byLine.set(line, [...(byLine.get(line) ?? []), path]);
  const more = blocked.length - named.length;
  const rules = [...byLine].map(([line, paths]) => `${names.site}:${line} disallows ${andList(paths)}`);
  return {
    file: 'robots.txt',
    reason: `${rules.join(', ')}${more > 0 ? ` (and ${more} more ${more === 1 ? 'path' : 'paths'})` : ''} for every crawler, which ${names.ardsite} allows and ardsite publishes`,
  };
}

/** The line (1-based) of the rule of `pattern` in a `_headers` text. */
function headersRuleLine(text: string, pattern: string): number {
  return text.split(/\r?\n/).findIndex((l) => !/^\s/.test(l) && l.trim() === pattern) + 1;
}

/**
 * The site's `_headers` with ardsite's rules appended (Netlify and Cloudflare Pages apply every matching
 * rule), or the conflicts: a path pattern both have, setting the same header name to different values.
 * @throws ArdsiteError `HEADERS_FILE_INVALID` when either file is not in `_headers` syntax.
 */
function mergeHeaders(site: string, ours: string, names: SiteFileNames): SiteFileOutcome {
  const siteRules = parseHeadersFile(site);
  for (const rule of parseHeadersFile(ours)) {
    for (const [name, value] of rule.headers) {
      const clash = siteRules
        .filter((r) => r.path === rule.path)
        .flatMap((r) => r.headers)
        .find(([n, v]) => n.toLowerCase() === name.toLowerCase() && v !== value);
      if (clash) {
        return {
          conflict: {
            file: '_headers',
            reason: `${names.site}:${headersRuleLine(site, rule.path)} sets ${clash[0]}: ${clash[1]} for ${rule.path}, ${names.ardsite}:${headersRuleLine(ours, rule.path)} sets ${name}: ${value}`,
          },
        };
      }
    }
  }
  const added = serializeHeadersFile(parseHeadersFile(ours), [
    'ardsite: the ARD manifest, agent cards, did.json and the agent pages (content types, CORS, rel="ard")',
  ]);
  return { write: `${site.replace(/\s*$/, '')}\n\n${added}` };
}

/**
 * ardsite's `_headers` (`ours`) with the rules of the page paths the site's own pages take over
 * (`sitePaths`: its home page at `/` wins over ardsite's index) cut down to the `Link` header, the
 * `rel="ard"` link to the manifest (RFC 8288 §3; ARD draft, initial contact). The Content-Security-Policy
 * (`default-src 'none'`, no script, no inline style) and `X-Frame-Options: DENY` that ardsite's pages carry
 * fit those pages only: on the site's own page they would block its scripts, inline styles and fonts on
 * Netlify and Cloudflare Pages (which apply `_headers`). Rules of other paths, and the leading comment
 * lines, are kept; a rule left with no header is dropped.
 * @throws ArdsiteError `HEADERS_FILE_INVALID` when `ours` is not in `_headers` syntax.
 */
export function yieldPageRules(ours: string, sitePaths: readonly string[]): string {
  const taken = new Set(sitePaths);
  const rules = parseHeadersFile(ours);
  if (!rules.some((rule) => taken.has(rule.path))) return ours;
  const comments: string[] = [];
  for (const line of ours.split(/\r?\n/)) {
    if (!line.startsWith('#')) break;
    comments.push(line.replace(/^#\s?/, ''));
  }
  const kept = rules
    .map((rule) =>
      taken.has(rule.path)
        ? { path: rule.path, headers: rule.headers.filter(([name]) => name.toLowerCase() === 'link') }
        : rule,
    )
    .filter((rule) => rule.headers.length > 0);
  return serializeHeadersFile(kept, comments);
}

/**
 * What to do with `file` (a path of the output folder) that the site (`site`, its bytes) and ardsite
 * (`ours`) both write; `published` lists the URL paths ardsite publishes (for robots.txt).
 * @throws ArdsiteError `HEADERS_FILE_INVALID` for a `_headers` not in that syntax.
 */
export function mergeSiteFile(
  file: string,
  site: Buffer,
  ours: Buffer,
  names: SiteFileNames,
  published: readonly string[],
): SiteFileOutcome {
  if (site.equals(ours)) return { keep: 'site' };
  if (file === 'llms.txt') {
    try {
      return { write: mergeLlmsTxt(site.toString('utf8'), ours.toString('utf8'), names.site, names.ardsite) };
    } catch (error) {
      if (error instanceof LlmsTxtMergeError) return { conflict: { file, reason: error.message } };
      throw error;
    }
  }
  if (file === '_headers') return mergeHeaders(site.toString('utf8'), ours.toString('utf8'), names);
  if (file === 'robots.txt') {
    const conflict = robotsConflict(site.toString('utf8'), names, published);
    return conflict ? { conflict } : { keep: 'site' };
  }
  return {
    conflict: { file, reason: `both ${names.site} and ${names.ardsite} write it, with different bytes` },
  };
}
