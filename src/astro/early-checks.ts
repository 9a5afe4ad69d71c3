/**
 * What the Astro integration refuses at `astro:config:setup` of `astro build`, before Astro renders a
 * page of the site and before ardsite's own build starts (a build that must fail fails in seconds): the
 * site's `public/robots.txt` disallowing, for every crawler (RFC 9309 §2.2.2), files that every ardsite
 * build publishes, the ARD manifest (ARD draft §3.5), its ai-catalog copy, the did:web document and the
 * JWKS; one refusal names every one of them the rules block. The conflict is worded as the merge of the outputs words it (./merge-output.ts), which still
 * checks every path ardsite built: the agents' cards and pages, and a robots.txt written by a page of the site.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { AI_CATALOG_PATH, DID_PATH, JWKS_PATH, MANIFEST_PATH } from '../core/ard/well-known.js';
import { namesOf, type MergeSources } from './merge-output.js';
import { robotsConflict, type SiteFileConflict } from './merge-site-files.js';

/**
 * The URL paths every ardsite build publishes whatever the content (src/core/build/site.ts writes each),
 * in the order the merge lists the output's files (sorted by path). The one list of them: the check
 * before the build reads it, and the refusal names each of them the site's robots.txt blocks.
 */
export const ALWAYS_PUBLISHED: readonly string[] = [AI_CATALOG_PATH, MANIFEST_PATH, DID_PATH, JWKS_PATH];

/** The bytes of `file`, or undefined when it does not exist. @throws any other file-system error. */
async function readIfThere(file: string): Promise<Buffer | undefined> {
  try {
    return await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * The conflict of the site's `public/robots.txt` with {@link ALWAYS_PUBLISHED}, as the merge would report
 * it; undefined when the site has none, when it is the ardsite project's own `public/robots.txt` byte for
 * byte (the merge keeps it), or when it disallows none of those paths. One conflict names every path of
 * the list the rules block, each with the line of its rule.
 * @throws the file-system error of reading either robots.txt, but for a missing one.
 */
export async function robotsConflictBeforeBuild(
  sources: MergeSources,
): Promise<SiteFileConflict | undefined> {
  const site = await readIfThere(path.join(sources.siteRoot, 'public', 'robots.txt'));
  if (site === undefined) return undefined;
  const ours = await readIfThere(path.join(sources.project, 'public', 'robots.txt'));
  if (ours !== undefined && site.equals(ours)) return undefined;
  return robotsConflict(site.toString('utf8'), namesOf('robots.txt', sources), ALWAYS_PUBLISHED);
}
