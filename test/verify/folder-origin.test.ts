/**
 * The origin `npm run verify` reads a folder as when none is given (src/core/verify/folder-origin.ts):
 * the did:web of the folder's own did.json, read only as the verifier reads a folder (a regular file
 * inside it, at most 1 MiB): a hostile folder cannot make it read elsewhere, hang on a FIFO, or read a
 * device without end.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isProjectFolder, originFromDidDocument } from '../../src/core/verify/folder-origin.js';

const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A folder with `.well-known/` made, and the path of its did.json. */
async function site(): Promise<{ dir: string; did: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ardsite-folder-origin-'));
  made.push(dir);
  await mkdir(path.join(dir, '.well-known'));
  return { dir, did: path.join(dir, '.well-known', 'did.json') };
}

describe('originFromDidDocument', () => {
  it('is https://<domain> of the did:web its did.json names, with or without a byte order mark', async () => {
    const { dir, did } = await site();
    await writeFile(did, JSON.stringify({ id: 'did:web:agents.valid.example' }));
    expect(await originFromDidDocument(dir)).toBe('https://agents.valid.example');
    await writeFile(did, `\uFEFF${JSON.stringify({ id: 'did:web:Agents.Valid.Example' })}`);
    expect(await originFromDidDocument(dir)).toBe('https://agents.valid.example');
  });

  it('is nothing for a missing, non-JSON or non-did:web document', async () => {
    const { dir, did } = await site();
    expect(await originFromDidDocument(dir)).toBeUndefined();
    await writeFile(did, '{');
    expect(await originFromDidDocument(dir)).toBeUndefined();
    for (const id of ['did:key:z6Mk', 'did:web:example.com:users:alice', 42]) {
      await writeFile(did, JSON.stringify({ id }));
      expect(await originFromDidDocument(dir)).toBeUndefined();
    }
  });

  it('reads no file outside the folder, no FIFO (no hang), no device and nothing over 1 MiB', async () => {
    const outside = await site();
    await writeFile(outside.did, JSON.stringify({ id: 'did:web:elsewhere.example' }));
    const { dir, did } = await site();
    await symlink(outside.did, did);
    expect(await originFromDidDocument(dir)).toBeUndefined();
    await rm(did);
    execFileSync('mkfifo', [did]);
    expect(await originFromDidDocument(dir)).toBeUndefined();
    await rm(did);
    await symlink('/dev/zero', did);
    expect(await originFromDidDocument(dir)).toBeUndefined();
    await rm(did);
    await writeFile(did, JSON.stringify({ id: 'did:web:big.example', pad: 'x'.repeat(1024 * 1024) }));
    expect(await originFromDidDocument(dir)).toBeUndefined();
  });
});

describe('isProjectFolder', () => {
  it('is a folder with content/publisher.yaml and no .well-known/', async () => {
    const { dir } = await site();
    expect(isProjectFolder(dir)).toBe(false);
    await mkdir(path.join(dir, 'content'));
    await writeFile(path.join(dir, 'content', 'publisher.yaml'), 'domain: a.example\n');
    expect(isProjectFolder(dir)).toBe(false); // a built site beside content/ is read as a site
    await rm(path.join(dir, '.well-known'), { recursive: true });
    expect(isProjectFolder(dir)).toBe(true);
  });
});
