/**
 * Path containment, the one rule every check of "inside a folder" uses: `inner` is within `outer` when
 * the relative path from `outer` to `inner` (Node's `path.relative`, lexical: no symbolic link resolved,
 * so callers pass real paths when links matter) is empty, or climbs no `..` segment and is not on
 * another root (POSIX.1-2017 §3.271 pathname resolution: `..` names the parent, while a name that only
 * begins with two dots, such as `..cache`, is an ordinary child).
 */
import path from 'node:path';

/**
 * True when `inner` is `outer` itself or lies inside it. Both are absolute paths, or both relative to the
 * same folder; never throws.
 */
export function isWithin(outer: string, inner: string): boolean {
  const rel = path.relative(outer, inner);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}
