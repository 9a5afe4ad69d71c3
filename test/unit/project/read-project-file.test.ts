/**
 * src/core/ram/catalog.ts `readProjectFile`, the reader of stored specs, and the bounded read
 * under it (src/core/project/regular-file.ts `readRegularFile`, which content files go through too): inside the
 * project only, regular files only (a FIFO would block the read), and a file system error becomes
 * FILE_UNREADABLE with the error's code and the project-relative name, never the absolute path.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ArdsiteError } from '../../../src/core/util/errors.js';
import { readProjectFile } from '../../../src/core/ram/catalog.js';
import { isFileSystemError, readRegularFile } from '../../../src/core/project/regular-file.js';

const root = mkdtempSync(path.join(tmpdir(), 'ardsite-project-file-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function codeOf(file: string): string {
  try {
    readProjectFile(root, file);
  } catch (error) {
    expect(error).toBeInstanceOf(ArdsiteError);
    expect((error as Error).message).not.toContain(root);
    return (error as ArdsiteError).code;
  }
  return 'read';
}

it('reads a regular file of the project, and refuses a FIFO, a missing file and an unreadable one', () => {
  writeFileSync(path.join(root, 'spec.json'), '{"openapi":"3.0.0"}');
  expect(Buffer.from(readProjectFile(root, 'spec.json')).toString()).toBe('{"openapi":"3.0.0"}');
  execFileSync('mkfifo', [path.join(root, 'pipe.json')]);
  expect(codeOf('pipe.json')).toBe('FILE_UNREADABLE');
  expect(codeOf('missing.json')).toBe('FILE_MISSING');
  if (process.getuid?.() !== 0) {
    writeFileSync(path.join(root, 'locked.json'), '{}');
    chmodSync(path.join(root, 'locked.json'), 0);
    expect(codeOf('locked.json')).toBe('FILE_UNREADABLE');
  }
});

it('readRegularFile: the bytes up to the bound, a size over it, and no read of what is no regular file', () => {
  writeFileSync(path.join(root, 'ten.txt'), '0123456789');
  expect(readRegularFile(path.join(root, 'ten.txt'), 10)).toEqual({
    kind: 'bytes',
    bytes: Buffer.from('0123456789'),
  });
  expect(readRegularFile(path.join(root, 'ten.txt'), 9)).toEqual({ kind: 'too-large', size: 10 });
  writeFileSync(path.join(root, 'empty.txt'), '');
  expect(readRegularFile(path.join(root, 'empty.txt'), 0)).toEqual({ kind: 'bytes', bytes: Buffer.alloc(0) });
  mkdirSync(path.join(root, 'folder'));
  expect(readRegularFile(path.join(root, 'folder'), 10)).toEqual({ kind: 'not-regular' });
  execFileSync('mkfifo', [path.join(root, 'fifo')]);
  expect(readRegularFile(path.join(root, 'fifo'), 10)).toEqual({ kind: 'not-regular' });
  expect(() => readRegularFile(path.join(root, 'nothing'), 10)).toThrow(/ENOENT/);
});

it("isFileSystemError: an errno error is the file system's; Node's argument errors and plain faults are not", () => {
  let enoent: unknown;
  try {
    readRegularFile(path.join(root, 'absent'), 1);
  } catch (error) {
    enoent = error;
  }
  expect(isFileSystemError(enoent)).toBe(true);
  expect(isFileSystemError(Object.assign(new TypeError('x'), { code: 'ERR_INVALID_ARG_TYPE' }))).toBe(false);
  expect(isFileSystemError(new Error('a bug'))).toBe(false);
  expect(isFileSystemError(null)).toBe(false);
});
