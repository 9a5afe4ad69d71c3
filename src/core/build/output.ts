/**
 * Writing a build's output safely (DESIGN.md §4): everything goes into a temporary folder inside the
 * project root; only after the self-check passed is it swapped into place (dist → dist.old,
 * temp → dist, remove dist.old), so a failed build never leaves a half-written `dist/`.
 */
import { chmod, cp, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { ContainedFolder } from '../project/contained-write.js';
import path from 'node:path';
import { sha256Digest } from '../ard/digest.js';
import { ArdsiteError } from '../util/errors.js';
import { isWithin } from '../util/within.js';
import type { Artifact } from '../site/site-build.js';
import { ownedPrefix, TEMP_PREFIX } from './stale-temp.js';

export { TEMP_PREFIX };

/**
 * Replaces the folder `dest` with `src`: a rename when both are on one file system, else a recursive
 * copy and removal of `src`.
 */
export async function moveFolder(src: string, dest: string): Promise<void> {
  await rm(dest, { recursive: true, force: true });
  try {
    await rename(src, dest);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await cp(src, dest, { recursive: true });
    await rm(src, { recursive: true, force: true });
  }
}

/**
 * Removes the folder of a build that failed, never throwing: a page Astro still writes there could make
 * the removal fail (ENOTEMPTY), and that must not replace the error the build reports. A folder left
 * behind is removed by the next build (./stale-temp.ts).
 */
export async function removeAfterFailure(dir: string | undefined): Promise<void> {
  if (dir) await rm(dir, { recursive: true, force: true, maxRetries: 3 }).catch(() => {});
}

/** Creates a fresh temporary output folder inside `root`. */
export async function makeTempOutput(root: string): Promise<string> {
  // The pid in the name tells a later build whether this one still runs (stale-temp.ts).
  const dir = await mkdtemp(path.join(root, ownedPrefix(TEMP_PREFIX)));
  // mkdtemp makes a private (0700) folder; the site it becomes must be readable by a web server
  // running as another user (0755, as a folder made under the usual umask 022).
  await chmod(dir, 0o755);
  return dir;
}

/** What was written of one artifact: enough to check the file later without keeping its bytes. */
export interface WrittenArtifact {
  /** `sha256:<hex>` of the bytes written. */
  digest: string;
  /** Size in bytes. */
  size: number;
}

/** The file of an artifact's URL path under `outDir`; a path ending in `/` is that folder's `index.html`. */
export function artifactFile(outDir: string, urlPath: string): string {
  const rel = urlPath.endsWith('/') ? `${urlPath}index.html` : urlPath;
  return path.join(outDir, ...rel.split('/').filter(Boolean));
}

/**
 * The {@link ContainedFolder} of a build's output folder `outDir`, made when missing (a registry build
 * renders into its `client/` folder, made here).
 * @throws the file system's error when it cannot be made.
 */
function containedOutput(outDir: string): ContainedFolder {
  mkdirSync(outDir, { recursive: true });
  return new ContainedFolder(outDir);
}

/**
 * Writes every artifact under `outDir` (URL path → file path, see {@link artifactFile}), making folders
 * as needed and replacing files that are there, through src/core/project/contained-write.ts (never out of
 * `outDir`, never through a symbolic link). The writes are synchronous, one file open at a time: the
 * build calls this for each agent while others are computed, and concurrent writes per call added up
 * past the open-file limit (EMFILE at 600 agents under `ulimit -n 128`, which a macOS shell's default of
 * 256 is not far from); they are also cheaper on the main thread than a promise per `mkdir`, `open`,
 * `write` and `close`.
 * `folder`, the {@link ContainedFolder} of `outDir` from an earlier call, keeps the folders it checked
 * (each agent's call would otherwise look at `agents/` and the rest again).
 * @returns URL path → `sha256:<hex>` digest and size of what was written, so the bytes need not be kept.
 * @throws the file system's error (ENOSPC, EACCES, …) when a file cannot be written; ArdsiteError
 *   `FILE_WRITE_REFUSED` for a path that would leave `outDir`.
 */
export async function writeArtifacts(
  outDir: string,
  artifacts: Iterable<Artifact>,
  folder = containedOutput(outDir),
): Promise<Map<string, WrittenArtifact>> {
  const list = [...artifacts];
  const written = new Map<string, WrittenArtifact>();
  // A card's digest was computed with its bytes (its entry pins it): not hashed again.
  for (const a of list)
    written.set(a.path, { digest: a.digest ?? sha256Digest(a.bytes), size: a.bytes.length });
  for (const artifact of list) {
    // The URL path as it is: a `..` or empty segment is refused, not folded away.
    const rel = artifact.path.endsWith('/') ? `${artifact.path}index.html` : artifact.path;
    folder.write(rel.replace(/^\//, ''), artifact.bytes);
  }
  return written;
}

/**
 * Writes a build's artifacts into `outDir` as they come (each agent's card and permission file while
 * computing, the rest after), keeping
 * what the self-check needs of each (digest and size, {@link writeArtifacts}) and the artifacts a file of
 * `publicDir` shadows: Astro copies public/ into the same folder after rendering, so those are written
 * again then ({@link ArtifactWriter.shadowed}).
 */
export class ArtifactWriter {
  /** URL path → digest and size of what was written. */
  readonly written = new Map<string, WrittenArtifact>();
  /** The artifacts written so far that a file of public/ shadows (their bytes are kept). */
  readonly shadowed: Artifact[] = [];
  /** The output folder, with the folders already checked on the way of earlier writes. */
  private folder: ContainedFolder | undefined;

  constructor(
    private readonly outDir: string,
    private readonly publicDir: string,
  ) {}

  /**
   * Writes `artifacts` ({@link writeArtifacts}).
   * @throws the file system's errors.
   */
  async write(artifacts: Iterable<Artifact>): Promise<void> {
    const list = [...artifacts];
    this.folder ??= containedOutput(this.outDir);
    for (const [p, w] of await writeArtifacts(this.outDir, list, this.folder)) this.written.set(p, w);
    for (const a of list) if (existsSync(artifactFile(this.publicDir, a.path))) this.shadowed.push(a);
  }
}

/**
 * Refuses an output folder whose replacement would destroy something other than a previous build
 * (the swap deletes the old folder): the project root or a folder holding it, a folder inside the
 * project's `content/` or `public/`, a file, or an existing non-empty folder that is not an ardsite
 * build (it has no `.well-known/ard.json`). `--out content` used to replace the publisher's content
 * with the built site.
 * @throws ArdsiteError `BUILD_OUT_DIR_UNSAFE` saying why and what to do.
 */
export function assertReplaceableOutDir(root: string, distDir: string): void {
  const r = path.resolve(root);
  const d = path.resolve(distDir);
  const refuse = (why: string): never => {
    throw new ArdsiteError(
      'BUILD_OUT_DIR_UNSAFE',
      `the output folder ${d} ${why}; choose another --out (default: dist)`,
    );
  };
  if (isWithin(d, r)) refuse('is the project folder or contains it, and a build replaces its output folder');
  for (const own of ['content', 'public']) {
    if (isWithin(path.join(r, own), d)) refuse(`is inside the project's ${own}/ folder`);
  }
  let stats;
  try {
    stats = statSync(d);
  } catch {
    return; // does not exist yet
  }
  if (!stats.isDirectory()) refuse('is a file, not a folder');
  if (readdirSync(d).length > 0 && !existsSync(path.join(d, '.well-known', 'ard.json'))) {
    refuse(
      'is not empty and is not an ardsite build (it has no .well-known/ard.json), so replacing it could delete your files; remove it yourself if it is an old build',
    );
  }
}

/**
 * Moves `tempDir` into place as `distDir`: dist → dist.old, temp → dist, then removes dist.old. If the
 * second rename fails, the old dist is moved back. `tempDir` is one of {@link makeTempOutput}, so its
 * parent is the project root.
 * @throws ArdsiteError `BUILD_OUT_DIR_UNSAFE` (see {@link assertReplaceableOutDir}), before anything moves.
 */
export async function swapIntoPlace(tempDir: string, distDir: string): Promise<void> {
  assertReplaceableOutDir(path.dirname(path.resolve(tempDir)), distDir);
  await swapFolder(tempDir, distDir);
}

/**
 * The swap of {@link swapIntoPlace} without its check, for a folder the caller has checked itself (the
 * registry's server bundle, src/core/registry/bundle.ts): temp → dest.new, dest → dest.old, dest.new →
 * dest, remove dest.old; the old folder is moved back if the last rename fails. The folders leading to
 * `destDir` are made when missing (`--out /somewhere/new/dist`). When `destDir` is on another file system
 * than `tempDir` (the first rename fails with EXDEV), the build is copied to dest.new instead, so the
 * swap itself is still one rename within one folder.
 * @throws the file system's errors; the old folder is back in place when they come from the swap.
 */
export async function swapFolder(tempDir: string, destDir: string): Promise<void> {
  const dest = path.resolve(destDir);
  await mkdir(path.dirname(dest), { recursive: true });
  const ready = `${dest}.new`;
  await rm(ready, { recursive: true, force: true });
  await moveOrCopy(tempDir, ready);
  const old = `${dest}.old`;
  await rm(old, { recursive: true, force: true });
  const hadDest = existsSync(dest);
  if (hadDest) await rename(dest, old);
  try {
    await rename(ready, dest);
  } catch (error) {
    if (hadDest) await rename(old, dest);
    await removeAfterFailure(ready);
    throw error;
  }
  await rm(old, { recursive: true, force: true });
}

/** Renames `from` to `to`, or copies it there (then removes `from`) when they are on two file systems. */
async function moveOrCopy(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
  }
  try {
    await cp(from, to, { recursive: true, preserveTimestamps: true });
  } catch (error) {
    await removeAfterFailure(to);
    throw error;
  }
  await rm(from, { recursive: true, force: true });
}
