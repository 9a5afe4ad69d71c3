/**
 * The one writer (src/core/project/contained-write.ts): a write stays in its folder and never goes through a
 * symbolic link, whatever the relative path or the folders on the way say; an exclusive write never
 * replaces a file; a replaced file keeps its mode.
 */
import {
  chmod,
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ContainedFolder,
  relativePathProblem,
  writeContained,
} from '../../../src/core/project/contained-write.js';
import { ArdsiteError } from '../../../src/core/util/errors.js';
import { pathSlugProblem } from '../../../src/core/project/path-slug.js';

let base: string;
let root: string;
let outside: string;
beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'ardsite-contained-'));
  root = path.join(base, 'project');
  outside = path.join(base, 'outside');
  await mkdir(path.join(root, '.ardsite', 'keys'), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(root, '.ardsite/keys/signing.jwk.json'), 'THE KEY\n');
});
afterEach(() => rm(base, { recursive: true, force: true }));

const code = (f: () => unknown): string | undefined => {
  try {
    f();
    return undefined;
  } catch (error) {
    return error instanceof ArdsiteError ? error.code : `not an ArdsiteError: ${String(error)}`;
  }
};

describe('writeContained', () => {
  it('refuses a path that leaves the folder, in any spelling, and writes nothing', async () => {
    for (const rel of [
      '../outside/x.json',
      'content/specs/../../../outside/x.json',
      '/etc/x.json',
      `${outside}/x.json`,
      'content//x.json',
      './x.json',
      'content\\..\\..\\outside\\x.json',
      'a\0b',
      '',
    ]) {
      expect(
        code(() => writeContained(root, rel, 'attacker')),
        rel,
      ).toBe('FILE_WRITE_REFUSED');
    }
    expect(await readdir(outside)).toEqual([]);
  });

  it('refuses a folder on the way that is a symbolic link (content/specs -> ../.ardsite/keys)', async () => {
    await mkdir(path.join(root, 'content'));
    await symlink('../.ardsite/keys', path.join(root, 'content', 'specs'));
    expect(code(() => writeContained(root, 'content/specs/signing.jwk.json', 'attacker'))).toBe(
      'FILE_WRITE_REFUSED',
    );
    expect(await readFile(path.join(root, '.ardsite/keys/signing.jwk.json'), 'utf8')).toBe('THE KEY\n');
  });

  it('refuses a target that is a symbolic link, and leaves the file it names as it was', async () => {
    await mkdir(path.join(root, 'content/specs'), { recursive: true });
    await symlink(
      path.join(root, '.ardsite/keys/signing.jwk.json'),
      path.join(root, 'content/specs/notes.json'),
    );
    expect(code(() => writeContained(root, 'content/specs/notes.json', 'attacker'))).toBe(
      'FILE_WRITE_REFUSED',
    );
    expect(await readFile(path.join(root, '.ardsite/keys/signing.jwk.json'), 'utf8')).toBe('THE KEY\n');
    expect((await lstat(path.join(root, 'content/specs/notes.json'))).isSymbolicLink()).toBe(true);
  });

  it('makes missing folders, replaces a file keeping its mode, and leaves no temporary file', async () => {
    expect(writeContained(root, 'content/specs/a.json', 'one')).toBe('written');
    await chmod(path.join(root, 'content/specs/a.json'), 0o600);
    expect(writeContained(root, 'content/specs/a.json', 'two')).toBe('written');
    expect(await readFile(path.join(root, 'content/specs/a.json'), 'utf8')).toBe('two');
    expect((await stat(path.join(root, 'content/specs/a.json'))).mode & 0o777).toBe(0o600);
    expect(await readdir(path.join(root, 'content/specs'))).toEqual(['a.json']);
  });

  it('an exclusive write leaves a file that exists as it is', async () => {
    const folder = new ContainedFolder(root);
    expect(folder.write('content/a.md', 'one', { exclusive: true, mode: 0o600 })).toBe('written');
    expect(folder.write('content/a.md', 'two', { exclusive: true })).toBe('exists');
    expect(await readFile(path.join(root, 'content/a.md'), 'utf8')).toBe('one');
    expect((await stat(path.join(root, 'content/a.md'))).mode & 0o777).toBe(0o600);
  });
});

describe('ContainedFolder.makeFolder', () => {
  it('makes a folder written with its final slash, and refuses one that leaves or goes through a link', async () => {
    const folder = new ContainedFolder(root);
    folder.makeFolder('public/');
    folder.makeFolder('content/agents');
    expect((await stat(path.join(root, 'public'))).isDirectory()).toBe(true);
    expect((await stat(path.join(root, 'content/agents'))).isDirectory()).toBe(true);
    expect(code(() => folder.makeFolder('../outside/x/'))).toBe('FILE_WRITE_REFUSED');
    await symlink(outside, path.join(root, 'linked'));
    expect(code(() => folder.makeFolder('linked/x'))).toBe('FILE_WRITE_REFUSED');
    expect(await readdir(outside)).toEqual([]);
  });
});

describe('relativePathProblem and pathSlugProblem', () => {
  it('accept plain relative paths and slugs, refuse the rest', () => {
    expect(relativePathProblem('content/specs/notes.json')).toBeUndefined();
    expect(relativePathProblem('content/../x')).toMatch(/\.\./);
    expect(pathSlugProblem('google-calendar.v3')).toBeUndefined();
    for (const id of ['..', '.', '.env', '../../.ardsite/keys/signing.jwk', 'a/b', 'A', '', 'x'.repeat(129)])
      expect(pathSlugProblem(id), id).toBeDefined();
  });
});
