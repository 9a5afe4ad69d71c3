/**
 * `diff()`: the RAM and permission changes between two built sites' folders (the RAM proposal's
 * resource accesses, compared entry by entry over the ARD draft §3 manifests), returned as data. The
 * same comparison as `ardsite diff <old> <new>`, without printing.
 */
import { MANIFEST_PATH } from '../ard/well-known.js';
import { ArdsiteError } from '../util/errors.js';
import { originFromDidDocument } from '../verify/folder-origin.js';
import { folderReader } from '../verify/folder-reader.js';
import { DEFAULT_MAX_BYTES } from '../verify/http-reader.js';
import { diffSides, readDiffSide, type DiffSide, type EntryDiff } from './site-diff.js';

/** Reads the built site in `folder` (absolute), at `origin` or the did:web of its did.json. */
async function folderSide(folder: string, origin: string | undefined): Promise<DiffSide> {
  const given = origin ?? (await originFromDidDocument(folder));
  if (!given)
    throw new ArdsiteError('VERIFY_UNREADABLE', `${folder}: no origin given and no .well-known/did.json`);
  const base = new URL(given).origin;
  try {
    return await readDiffSide(
      folderReader(folder, base, { maxBytes: DEFAULT_MAX_BYTES }),
      `${base}${MANIFEST_PATH}`,
    );
  } catch (error) {
    throw new ArdsiteError('VERIFY_UNREADABLE', `${folder}: ${(error as Error).message}`);
  }
}

/**
 * Compares the built sites in the folders `before` and `after` (absolute paths, each with its
 * `.well-known/did.json`, or the origins `originBefore`/`originAfter`), entry by entry.
 * @returns one EntryDiff per entry of either side; `gainedAccess` marks a widening.
 * @throws ArdsiteError `VERIFY_UNREADABLE` when a side cannot be read.
 */
export async function diff(options: {
  before: string;
  after: string;
  originBefore?: string;
  originAfter?: string;
}): Promise<EntryDiff[]> {
  const [before, after] = await Promise.all([
    folderSide(options.before, options.originBefore),
    folderSide(options.after, options.originAfter),
  ]);
  return diffSides(before, after);
}
