/**
 * The build's last safety net at unit level (DESIGN.md §4): the pieces of scripts/build.ts —
 * prepareBuild, makeTempOutput, writeArtifacts, selfCheck, swapIntoPlace — over a copy of the example,
 * without Astro. A tampered artifact makes selfCheck throw BUILD_SELF_CHECK_FAILED, so the swap never
 * happens and the previous dist/ stays as it was; swapIntoPlace itself never loses the old dist/.
 */
import { existsSync, statSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertReplaceableOutDir,
  makeTempOutput,
  swapIntoPlace,
  writeArtifacts,
} from '../../src/core/build/output.js';
import { prepareBuild, type PreparedBuild } from '../../src/core/build/prepare.js';
import { selfCheck } from '../../src/core/build/self-check.js';
import { ArdsiteError } from '../../src/core/util/errors.js';
import { copyProject, fixedKeyEnv, leftovers, readTree, removeProjects } from '../helpers/build.js';

let root: string;
let prepared: PreparedBuild;

beforeAll(async () => {
  root = await copyProject();
  prepared = await prepareBuild({ root, env: fixedKeyEnv() });
});

afterAll(removeProjects);

/**
 * A temp output folder as scripts/build.ts makes it, minus the pages: public/ copied (Astro's part),
 * then every artifact written.
 */
async function writtenTemp(): Promise<string> {
  const temp = await makeTempOutput(root);
  await cp(path.join(root, 'public'), temp, { recursive: true });
  await writeArtifacts(temp, prepared.site.artifacts.values());
  return temp;
}

async function selfCheckError(temp: string): Promise<ArdsiteError> {
  try {
    await selfCheck(temp, prepared.site);
  } catch (error) {
    if (error instanceof ArdsiteError) return error;
    throw error;
  }
  throw new Error('selfCheck passed');
}

/** The order of scripts/build.ts: write, self-check, swap; on any failure remove the temp folder. */
async function finishBuild(temp: string, distDir: string): Promise<void> {
  try {
    await selfCheck(temp, prepared.site);
    await swapIntoPlace(temp, distDir);
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    throw error;
  }
}

describe('selfCheck', () => {
  it('passes on the artifacts as written', async () => {
    const temp = await writtenTemp();
    const report = await selfCheck(temp, prepared.site);
    expect(report.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(report.passed).toBeGreaterThan(10);
    await rm(temp, { recursive: true });
  });

  it('throws BUILD_SELF_CHECK_FAILED when one byte of a card changed after writeArtifacts', async () => {
    const temp = await writtenTemp();
    const file = path.join(temp, 'agents', 'itinerary-concierge', 'agent-card.json');
    const bytes = await readFile(file);
    const at = bytes.indexOf('Itinerary Concierge');
    bytes[at] = 'J'.charCodeAt(0);
    await writeFile(file, bytes);
    const error = await selfCheckError(temp);
    expect(error.code).toBe('BUILD_SELF_CHECK_FAILED');
    expect(error.message).toContain('/agents/itinerary-concierge/agent-card.json: the file on disk differs');
    expect(error.message).toContain('ARD_DIGEST_MISMATCH');
    expect(error.message).toContain('CARD_PAYLOAD_CHANGED');
    await rm(temp, { recursive: true });
  });

  it('checks by digest what writeArtifacts wrote when the bytes were let go (scripts/build.ts order)', async () => {
    // As the build does it: artifacts written first and their bytes dropped, then the renderer's files.
    const { site } = await prepareBuild({ root, env: fixedKeyEnv() });
    const temp = await makeTempOutput(root);
    const written = await writeArtifacts(temp, site.artifacts.values());
    expect(written.get('/.well-known/ard.json')).toMatchObject({ digest: expect.stringMatching(/^sha256:/) });
    site.artifacts.clear();
    await cp(path.join(root, 'public'), temp, { recursive: true });
    expect((await selfCheck(temp, site, { written })).passed).toBeGreaterThan(10);
    // A file the renderer put where an artifact was (a public/robots.txt): found through the digest.
    await writeFile(path.join(temp, 'robots.txt'), 'copied from public/ over the artifact\n');
    await expect(selfCheck(temp, site, { written })).rejects.toThrow(
      /\/robots\.txt: the file on disk differs/,
    );
    await writeFile(
      path.join(temp, 'robots.txt'),
      (await prepareBuild({ root, env: fixedKeyEnv() })).site.artifacts.get('/robots.txt')!.bytes,
    );
    // One byte changed on disk: found through the digest alone.
    const file = path.join(temp, 'agents', 'itinerary-concierge', 'agent-card.json');
    const bytes = await readFile(file);
    bytes[bytes.indexOf('Itinerary Concierge')] = 'J'.charCodeAt(0);
    await writeFile(file, bytes);
    await expect(selfCheck(temp, site, { written })).rejects.toThrow(
      /\/agents\/itinerary-concierge\/agent-card\.json: the file on disk differs/,
    );
    await rm(temp, { recursive: true });
  });

  it('throws BUILD_SELF_CHECK_FAILED when a well-known file is missing', async () => {
    const temp = await writtenTemp();
    await rm(path.join(temp, '.well-known', 'did.json'));
    const error = await selfCheckError(temp);
    expect(error.code).toBe('BUILD_SELF_CHECK_FAILED');
    expect(error.message).toContain('/.well-known/did.json');
    await rm(temp, { recursive: true });
  });

  it('a tampered artifact stops the build before the swap: the previous dist/ stays byte-identical, no temp folder remains', async () => {
    const distDir = path.join(root, 'dist-selfcheck');
    await finishBuild(await writtenTemp(), distDir);
    const before = await readTree(distDir);
    expect(before.has('.well-known/ard.json')).toBe(true);

    const temp = await writtenTemp();
    const ard = path.join(temp, '.well-known', 'ard.json');
    await writeFile(
      ard,
      (await readFile(ard, 'utf8')).replace(
        '"issuedAt": "2025-11-24T16:00:00Z"',
        '"issuedAt": "2025-11-24T16:00:01Z"',
      ),
    );
    await expect(finishBuild(temp, distDir)).rejects.toMatchObject({ code: 'BUILD_SELF_CHECK_FAILED' });

    const after = await readTree(distDir);
    expect([...after.keys()]).toEqual([...before.keys()]);
    for (const [f, b] of before) expect(after.get(f)?.equals(b), f).toBe(true);
    expect(existsSync(temp)).toBe(false);
    expect(await leftovers(root)).toEqual([]);
  });
});

/** A folder that looks like a previous ardsite build. */
async function previousBuild(dir: string, file: string, text: string): Promise<void> {
  await mkdir(path.join(dir, '.well-known'), { recursive: true });
  await writeFile(path.join(dir, '.well-known', 'ard.json'), '{"entries":[]}\n');
  await writeFile(path.join(dir, file), text);
}

describe('swapIntoPlace', () => {
  it('replaces a previous build with the new folder and removes dist.old and the temp folder', async () => {
    const distDir = path.join(root, 'dist-swap');
    await previousBuild(distDir, 'stale.txt', 'old build');
    const temp = await makeTempOutput(root);
    await writeFile(path.join(temp, 'fresh.txt'), 'new build');
    await swapIntoPlace(temp, distDir);
    expect([...(await readTree(distDir)).keys()]).toEqual(['fresh.txt']);
    expect(existsSync(temp)).toBe(false);
    expect(await leftovers(root)).toEqual([]);
  });

  it('creates dist/ when there was none, or replaces an empty folder', async () => {
    for (const name of ['dist-new', 'dist-empty']) {
      const distDir = path.join(root, name);
      if (name === 'dist-empty') await mkdir(distDir);
      const temp = await makeTempOutput(root);
      await writeFile(path.join(temp, 'a.txt'), 'a');
      await swapIntoPlace(temp, distDir);
      expect(await readFile(path.join(distDir, 'a.txt'), 'utf8')).toBe('a');
    }
  });

  it('makes the folders leading to an output folder that do not exist yet (--out /new/place/dist)', async () => {
    const outside = await mkdtemp(path.join(tmpdir(), 'ardsite-out-'));
    try {
      const distDir = path.join(outside, 'new', 'place', 'dist');
      const temp = await makeTempOutput(root);
      await writeFile(path.join(temp, 'a.txt'), 'a');
      await swapIntoPlace(temp, distDir);
      expect(await readFile(path.join(distDir, 'a.txt'), 'utf8')).toBe('a');
      expect(existsSync(temp)).toBe(false);
      expect(await readdir(path.dirname(distDir))).toEqual(['dist']);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  // /dev/shm is a file system of its own on Linux hosts: a rename into it fails with EXDEV.
  const otherFileSystem = existsSync('/dev/shm') && statSync('/dev/shm').dev !== statSync(tmpdir()).dev;
  it.runIf(otherFileSystem)(
    'copies the build when the output folder is on another file system (EXDEV)',
    async () => {
      const outside = await mkdtemp(path.join('/dev/shm', 'ardsite-out-'));
      try {
        const distDir = path.join(outside, 'dist');
        await previousBuild(distDir, 'stale.txt', 'old build');
        const temp = await makeTempOutput(root);
        await mkdir(path.join(temp, '.well-known'));
        await writeFile(path.join(temp, '.well-known', 'ard.json'), '{"entries":[]}\n');
        await swapIntoPlace(temp, distDir);
        expect([...(await readTree(distDir)).keys()].sort()).toEqual(['.well-known/ard.json']);
        expect(existsSync(temp)).toBe(false);
        expect(await readdir(outside)).toEqual(['dist']);
      } finally {
        await rm(outside, { recursive: true, force: true });
      }
    },
  );

  it('puts the old dist/ back when the new folder cannot be moved in', async () => {
    const distDir = path.join(root, 'dist-keep');
    await previousBuild(distDir, 'kept.txt', 'previous build');
    await expect(swapIntoPlace(path.join(root, '.ardsite-tmp-missing'), distDir)).rejects.toThrow(/ENOENT/);
    expect(await readFile(path.join(distDir, 'kept.txt'), 'utf8')).toBe('previous build');
    expect(await leftovers(root)).toEqual([]);
  });

  it('refuses (BUILD_OUT_DIR_UNSAFE) an output folder whose replacement would destroy other files, before moving anything', async () => {
    await mkdir(path.join(root, 'notes'), { recursive: true });
    await writeFile(path.join(root, 'notes', 'todo.txt'), 'mine');
    await writeFile(path.join(root, 'a-file'), 'mine');
    const unsafe = [
      root,
      path.dirname(root),
      path.join(root, 'content'),
      path.join(root, 'public'),
      path.join(root, 'public', 'site'),
      path.join(root, 'notes'),
      path.join(root, 'a-file'),
    ];
    for (const distDir of unsafe) {
      expect(() => assertReplaceableOutDir(root, distDir), distDir).toThrow(
        expect.objectContaining({ code: 'BUILD_OUT_DIR_UNSAFE' }),
      );
      const temp = await makeTempOutput(root);
      await expect(swapIntoPlace(temp, distDir), distDir).rejects.toMatchObject({
        code: 'BUILD_OUT_DIR_UNSAFE',
      });
      expect(existsSync(temp)).toBe(true);
      await rm(temp, { recursive: true });
    }
    expect(await readFile(path.join(root, 'notes', 'todo.txt'), 'utf8')).toBe('mine');
    expect(existsSync(path.join(root, 'content', 'publisher.yaml'))).toBe(true);
    expect(await leftovers(root)).toEqual([]);
  });
});
