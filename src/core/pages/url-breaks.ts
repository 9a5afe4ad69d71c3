/**
 * Where a long URL shown as text may break across lines ("long URLs break at sensible
 * points"): after each `/`, `.`, `_` and `-` past the scheme (never inside `https://`), and before each
 * `?`, `#`, `&` and `=`, where a reader expects a URL to go on. The page puts a `<wbr>` between the parts; the CSS `overflow-wrap: anywhere` stays the last
 * resort for a part longer than the line.
 */

/** `url` cut into the parts between break points; joining them gives `url` back. Pure. */
export function urlParts(url: string): string[] {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(url)?.[0] ?? '';
  const rest = url.slice(scheme.length);
  const parts: string[] = [];
  let current = scheme;
  for (const ch of rest) {
    if ((ch === '?' || ch === '#' || ch === '&' || ch === '=') && current !== '') {
      parts.push(current);
      current = ch;
      continue;
    }
    current += ch;
    if (ch === '/' || ch === '.' || ch === '_' || ch === '-') {
      parts.push(current);
      current = '';
    }
  }
  if (current !== '') parts.push(current);
  return parts;
}
