/**
 * Ids that become file names (DESIGN.md §10, trust boundary): a resource id naming its stored spec
 * (`content/specs/<id>.json`), an imported card's resource (`content/resources/<id>.yaml`), an agent's
 * release history (`content/releases/<slug>.json`). Such an id comes from content or from an imported
 * card, so it is checked here, at one place, before it names a file: a slug is one path segment of
 * lower-case letters, digits, `.`, `_` and `-`, starting with a letter or digit (so never `.`, `..` or a
 * hidden file), at most 128 characters (POSIX.1-2017 §3.282, portable filename character set).
 */
import { ArdsiteError } from '../util/errors.js';

/** A slug: `[a-z0-9][a-z0-9._-]{0,127}`. */
export const PATH_SLUG = /^[a-z0-9][a-z0-9._-]{0,127}$/;

/** Why `id` cannot name a file, or undefined when it is a slug ({@link PATH_SLUG}). */
export function pathSlugProblem(id: string): string | undefined {
  return PATH_SLUG.test(id)
    ? undefined
    : `"${id}" cannot name a file: it must be 1 to 128 of a-z, 0-9, ".", "_", "-", starting with a letter or digit`;
}

/**
 * Returns `id` when it is a slug ({@link PATH_SLUG}).
 * @param what how messages name the id (`resource id`, `agent slug`).
 * @throws ArdsiteError `FILE_WRITE_REFUSED` naming the id and the rule.
 */
export function pathSlug(id: string, what: string): string {
  const problem = pathSlugProblem(id);
  if (problem !== undefined) throw new ArdsiteError('FILE_WRITE_REFUSED', `${what} ${problem}`);
  return id;
}
