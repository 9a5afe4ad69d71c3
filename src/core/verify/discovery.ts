/**
 * Finding a site's ARD manifest the way a crawler does (ARD draft §3.6, §4.1.1; DESIGN.md §4, §9): the
 * well-known URI `/.well-known/ard.json`, `<link rel="ard">` in an HTML page or the HTTP `Link` header
 * with `rel="ard"` (RFC 8288), and the `Agentmap:` line of robots.txt when there is one. Each signal
 * found is checked to point at the same manifest (an `Agentmap:` may also name the site's ARD v0.9
 * compatibility copy, `/.well-known/ai-catalog.json`, which ./ai-catalog-check.ts compares with the
 * manifest); a missing page signal, or a signal that holds no valid URL, is a warning. `Agentmap:` is
 * not in the ARD draft (draft-bu-dawn-ard-discovery-00) and ardsite writes none by default (`hosting.agentmap`), so a
 * robots.txt without one is not a finding.
 */
import { AI_CATALOG_PATH } from '../ard/well-known.js';
import type { VerifyFinding } from './findings.js';
import type { FetchedDocument, SiteReader } from './reader.js';

/** What discovery found. */
export interface DiscoveryResult {
  /** The manifest URL to verify. */
  manifestUrl: string;
  findings: VerifyFinding[];
  /** Discovery signals that held. */
  passed: number;
}

/** The `href` of every `<link>` whose `rel` contains `ard` (HTML attribute order and quoting vary). */
export function ardLinksInHtml(html: string): string[] {
  const out: string[] = [];
  for (const tag of html.match(/<link\b[^>]*>/gi) ?? []) {
    const attr = (name: string) =>
      new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
    const rel = attr('rel');
    const relValue = rel ? (rel[1] ?? rel[2] ?? rel[3] ?? '') : '';
    if (!relValue.toLowerCase().split(/\s+/).includes('ard')) continue;
    const href = attr('href');
    if (href) out.push(href[1] ?? href[2] ?? href[3] ?? '');
  }
  return out;
}

/** Targets of `rel="ard"` in an HTTP Link header (RFC 8288 §3). */
export function ardLinksInHeader(link: string | undefined): string[] {
  if (!link) return [];
  const out: string[] = [];
  for (const part of link.split(/,(?=\s*<)/)) {
    const m = /<([^>]*)>(.*)/.exec(part.trim());
    if (m && /;\s*rel\s*=\s*"?([^";]*\s)?ard(\s[^";]*)?"?/i.test(m[2] ?? '')) out.push(m[1]!);
  }
  return out;
}

/** `Agentmap:` values of a robots.txt (case-insensitive field name). */
export function agentmapsInRobots(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => /^\s*agentmap\s*:\s*(\S+)/i.exec(line)?.[1])
    .filter((v): v is string => v !== undefined);
}

/**
 * The absolute URLs of `hrefs` resolved against `base` (WHATWG URL); each one that is no URL is a
 * `DISCOVERY_INVALID` warning on `subject` instead (a hostile page's `href="http://[x"` is a finding, not
 * the end of the run).
 */
function resolveSignals(
  hrefs: readonly string[],
  base: string,
  subject: string,
  signal: string,
  findings: VerifyFinding[],
): string[] {
  const out: string[] = [];
  for (const href of hrefs) {
    if (URL.canParse(href, base)) out.push(new URL(href, base).href);
    else {
      findings.push({
        code: 'DISCOVERY_INVALID',
        severity: 'warning',
        subject,
        message: `${signal} ${JSON.stringify(href.slice(0, 200))} is not a valid URL, so it does not point at the manifest`,
      });
    }
  }
  return out;
}

/** The document at `url`, or why it could not be read (the reader's message; "not read from here"). */
async function tryRead(
  reader: SiteReader,
  url: string,
): Promise<{ doc: FetchedDocument; problem?: undefined } | { doc?: undefined; problem: string }> {
  try {
    const doc = await reader.read(url);
    return doc ? { doc } : { problem: 'it is on another origin, not read from here' };
  } catch (error) {
    return { problem: (error as Error).message };
  }
}

/**
 * Runs discovery for the site at `origin`, starting from `startUrl` (a page, or the manifest itself).
 * Never throws: unreadable pages become warnings, and the well-known URI is the fallback.
 */
export async function discoverManifest(
  reader: SiteReader,
  origin: string,
  startUrl?: string,
): Promise<DiscoveryResult> {
  const wellKnown = `${origin}/.well-known/ard.json`;
  const findings: VerifyFinding[] = [];
  let passed = 0;
  const candidates = new Set<string>();
  const page = startUrl && !/\.json(\?|$)/.test(startUrl) ? startUrl : `${origin}/`;
  const { doc: html, problem: pageProblem } = await tryRead(reader, page);
  const headerLinks = ardLinksInHeader(html?.link);
  const htmlLinks = html ? ardLinksInHtml(new TextDecoder().decode(html.bytes)) : [];
  const fromPage = [
    ...resolveSignals(headerLinks, page, page, 'the Link: rel="ard" target', findings),
    ...resolveSignals(htmlLinks, page, page, 'the <link rel="ard"> href', findings),
  ];
  if (fromPage.length === 0 && headerLinks.length + htmlLinks.length === 0) {
    findings.push({
      code: 'DISCOVERY_MISSING',
      severity: 'warning',
      subject: page,
      message: html
        ? 'the page has no <link rel="ard"> and no Link: rel="ard" header'
        : `the page could not be read (${pageProblem}), so its <link rel="ard"> was not looked for`,
    });
  } else if (fromPage.length > 0) {
    passed++;
    fromPage.forEach((u) => candidates.add(u));
  }
  const { doc: robots, problem: robotsProblem } = await tryRead(reader, `${origin}/robots.txt`);
  const robotsUrl = `${origin}/robots.txt`;
  const agentmapValues = robots ? agentmapsInRobots(new TextDecoder().decode(robots.bytes)) : [];
  const agentmaps = resolveSignals(agentmapValues, origin, robotsUrl, 'the Agentmap: value', findings);
  if (!robots) {
    findings.push({
      code: 'DISCOVERY_MISSING',
      severity: 'warning',
      subject: robotsUrl,
      message: `robots.txt could not be read (${robotsProblem}), so no Agentmap: line was looked for`,
    });
  } else if (agentmaps.length > 0) {
    passed++;
    const catalog = `${origin}${AI_CATALOG_PATH}`;
    agentmaps.filter((u) => u !== catalog).forEach((u) => candidates.add(u));
  }
  const manifestUrl = startUrl && /\.json(\?|$)/.test(startUrl) ? startUrl : wellKnown;
  for (const c of candidates) {
    if (c !== manifestUrl) {
      findings.push({
        code: 'DISCOVERY_MISSING',
        severity: 'warning',
        subject: c,
        message: `a discovery signal points at ${c}, not at ${manifestUrl}`,
      });
    }
  }
  return { manifestUrl, findings, passed };
}
