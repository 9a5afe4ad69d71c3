/**
 * src/core/permissions/catalog.ts `readProjectFile`, the reader of stored specs: inside the project only,
 * regular files only (a FIFO would block the read), and a file system error becomes FILE_UNREADABLE with
 * the error's code and the project-relative name, never the absolute path.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ArdsiteError } from '../../src/core/errors.js';
import { readProjectFile } from '../../src/core/permissions/catalog.js';

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
