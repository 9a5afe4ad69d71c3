/**
 * The `_headers` file of Netlify and Cloudflare Pages (DESIGN.md §2, §7): written by the build, read by
 * `npm run preview` so that the local server sends exactly what those hosts would.
 *
 * Syntax (the common subset of both hosts): a rule is a path pattern on an unindented line, followed by
 * indented `Name: value` lines; `#` starts a comment line. In a pattern, `*` (a splat) matches any run
 * of characters, `/` included, and `:name` (a placeholder) matches one path segment. A request gets the
 * headers of every rule that matches, in file order; a header name given by several matching rules
 * gets their values joined with `, ` (Cloudflare Pages' documented behaviour).
 */
import { ArdsiteError } from '../util/errors.js';

/** One header of a rule: name as written, value. */
export type HeaderField = [name: string, value: string];

/** One rule: a path pattern and its headers, in order. */
export interface HeaderRule {
  path: string;
  headers: HeaderField[];
}

/** RFC 9110 §5.1 field name (`token`). */
const FIELD_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function assertValidField(name: string, value: string, where: string): void {
  if (!FIELD_NAME.test(name))
    throw new ArdsiteError('HEADERS_FILE_INVALID', `${where}: "${name}" is not a header name`);
  if (/[\r\n\0]/.test(value))
    throw new ArdsiteError('HEADERS_FILE_INVALID', `${where}: the value of ${name} spans lines`);
}

function assertValidPattern(pattern: string, where: string): void {
  if (!/^(\/|https:\/\/)/.test(pattern) || /\s/.test(pattern)) {
    throw new ArdsiteError(
      'HEADERS_FILE_INVALID',
      `${where}: "${pattern}" must be a path starting with / (or an https:// URL)`,
    );
  }
}

/**
 * Writes `rules` in `_headers` syntax, with optional leading comment lines.
 * @throws ArdsiteError `HEADERS_FILE_INVALID` for a pattern that is not a path, an invalid header name
 *   or a value with a line break (it would inject a header).
 */
export function serializeHeadersFile(rules: readonly HeaderRule[], comments: readonly string[] = []): string {
  const lines = comments.map((c) => `# ${c}`);
  for (const rule of rules) {
    assertValidPattern(rule.path, `rule ${rule.path}`);
    if (lines.length > 0) lines.push('');
    lines.push(rule.path);
    for (const [name, value] of rule.headers) {
      assertValidField(name, value, `rule ${rule.path}`);
      lines.push(`  ${name}: ${value}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Parses a `_headers` file. Blank lines and `#` comments are skipped.
 * @throws ArdsiteError `HEADERS_FILE_INVALID` naming the line: a header line before any path, an
 *   indented line without `:`, an unindented line that is not a path, an invalid header name.
 */
export function parseHeadersFile(text: string): HeaderRule[] {
  const rules: HeaderRule[] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, index) => {
    const where = `_headers line ${index + 1}`;
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    if (!/^\s/.test(raw)) {
      assertValidPattern(line, where);
      rules.push({ path: line, headers: [] });
      return;
    }
    const rule = rules[rules.length - 1];
    if (!rule) throw new ArdsiteError('HEADERS_FILE_INVALID', `${where}: a header comes before any path`);
    const colon = line.indexOf(':');
    if (colon <= 0) throw new ArdsiteError('HEADERS_FILE_INVALID', `${where}: expected "Name: value"`);
    const name = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    assertValidField(name, value, where);
    rule.headers.push([name, value]);
  });
  return rules;
}

const patternCache = new Map<string, RegExp>();

/**
 * The anchored regular expression (its source, `^…$`) that matches the URL paths the `_headers` pattern
 * `pattern` matches: a splat `*` any run of characters, a placeholder `:name` one path segment, the rest
 * literally. An absolute pattern (`https://host/path`) is matched on its path: a site serves one origin.
 * The source is valid in JavaScript and in PCRE (Vercel's route `src`). Never throws.
 */
export function headerPatternSource(pattern: string): string {
  const path = pattern.replace(/^https:\/\/[^/]+/, '') || '/';
  const source = path
    .split(/(\*|:[A-Za-z_][A-Za-z0-9_]*)/)
    .map((part) =>
      part === '*'
        ? '.*'
        : part.startsWith(':') && part.length > 1
          ? '[^/]+'
          : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('');
  return `^${source}$`;
}

function patternRegExp(pattern: string): RegExp {
  let re = patternCache.get(pattern);
  if (!re) {
    re = new RegExp(headerPatternSource(pattern));
    patternCache.set(pattern, re);
  }
  return re;
}

/** True when the rule pattern `pattern` matches the URL path `urlPath` (no query string). */
export function matchesHeaderPath(pattern: string, urlPath: string): boolean {
  return patternRegExp(pattern).test(urlPath);
}

/**
 * The headers a request for `urlPath` gets from `rules`: every matching rule's headers, in file order;
 * a name repeated across rules (compared case-insensitively) appears once, its values joined with `, `.
 */
export function headersForPath(rules: readonly HeaderRule[], urlPath: string): HeaderField[] {
  const merged = new Map<string, HeaderField>();
  for (const rule of rules) {
    if (!matchesHeaderPath(rule.path, urlPath)) continue;
    for (const [name, value] of rule.headers) {
      const key = name.toLowerCase();
      const seen = merged.get(key);
      if (seen) seen[1] = `${seen[1]}, ${value}`;
      else merged.set(key, [name, value]);
    }
  }
  return [...merged.values()];
}
