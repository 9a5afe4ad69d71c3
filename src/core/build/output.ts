/**
 * Writing a build's output safely (DESIGN.md §4): everything goes into a temporary folder inside the
 * project root; only after the self-check passed is it swapped into place (dist → dist.old,
 * temp → dist, remove dist.old), so a failed build never leaves a half-written `dist/`.
 */
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Artifact } from '../site.js';

/** Prefix of the temporary build folders (git-ignored). */
export const TEMP_PREFIX = '.ardsite-tmp-';

/** Creates a fresh temporary output folder inside `root`. */
export async function makeTempOutput(root: string): Promise<string> {
  return mkdtemp(path.join(root, TEMP_PREFIX));
}

/**
 * Writes every artifact under `outDir` (URL path → file path). A path ending in `/` is written as
 * `index.html` in that folder.
 */
export async function writeArtifacts(outDir: string, artifacts: Iterable<Artifact>): Promise<void> {
  for (const artifact of artifacts) {
    const rel = artifact.path.endsWith('/') ? `${artifact.path}index.html` : artifact.path;
    const file = path.join(outDir, ...rel.split('/').filter(Boolean));
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, artifact.bytes);
  }
}

/**
 * Moves `tempDir` into place as `distDir`: dist → dist.old, temp → dist, then removes dist.old. If the
 * second rename fails, the old dist is moved back.
 */
export async function swapIntoPlace(tempDir: string, distDir: string): Promise<void> {
  const old = `${distDir}.old`;
  await rm(old, { recursive: true, force: true });
  const hadDist = existsSync(distDir);
  if (hadDist) await rename(distDir, old);
  try {
    await rename(tempDir, distDir);
  } catch (error) {
    if (hadDist) await rename(old, distDir);
    throw error;
  }
  await rm(old, { recursive: true, force: true });
}
