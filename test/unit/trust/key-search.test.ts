/**
 * The search of a built folder for the private key's bytes (src/core/trust/key-guards.ts
 * `filesHoldingPatterns`), which reads every file synchronously into one reused buffer: a pattern at the
 * end of a file larger than that buffer, files that are no regular files, links (followed, each real
 * folder once, loops ended) and unreadable files.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { filesHoldingPatterns } from '../../../src/core/trust/key-guards.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function folder(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'ardsite-key-search-'));
  dirs.push(dir);
  for (const [rel, bytes] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), bytes);
  }
  return dir;
}

const SECRET = 'q3l8QZkPp2vB0t9XfW1mYc4sD7eR5uHjK6nA';
const PATTERNS = [Buffer.from(SECRET, 'latin1'), Buffer.from('00ff'.repeat(8), 'latin1')];

describe('filesHoldingPatterns', () => {
  it('finds a pattern anywhere in files of every size (across the 1 MiB chunks a file is read in), and names each file once, sorted', () => {
    const big = Buffer.alloc(3 * 1024 * 1024 + 17, 'a');
    const bigWithSecret = Buffer.concat([big, Buffer.from(SECRET)]);
    // Read in 1 MiB chunks: a pattern across the first boundary is still found.
    const across = Buffer.alloc(2 * 1024 * 1024, 'b');
    across.write(SECRET, 1024 * 1024 - 10, 'latin1');
    const dir = folder({
      'z/late.bin': bigWithSecret,
      'y/across.bin': across,
      'a/big-clean.bin': big,
      'a/small.html': `<p>${SECRET}</p>`,
      'b/hex.txt': `0x${'00ff'.repeat(8)}`,
      // After a large file, a small one must not see the large one's bytes left in the buffer.
      'z/tail.txt': 'clean',
      'empty.txt': '',
      'clean.html': '<p>nothing here</p>',
    });
    expect(filesHoldingPatterns(dir, PATTERNS)).toEqual([
      'a/small.html',
      'b/hex.txt',
      'y/across.bin',
      'z/late.bin',
    ]);
    // A pattern cut by the end of the file is no match.
    const cut = folder({ 'x.txt': SECRET.slice(0, -1) });
    expect(filesHoldingPatterns(cut, PATTERNS)).toEqual([]);
  });

  it('leaves out what `skip` names, and reads nothing without patterns', () => {
    const dir = folder({ 'a.txt': SECRET, 'b.txt': SECRET });
    expect(filesHoldingPatterns(dir, PATTERNS, { skip: (rel) => rel === 'a.txt' })).toEqual(['b.txt']);
    expect(filesHoldingPatterns(dir, [])).toEqual([]);
  });

  it('follows links to files and folders, each real folder once, and ends link loops', () => {
    const dir = folder({ 'real/key.txt': SECRET, 'real/ok.txt': 'ok' });
    symlinkSync('real', path.join(dir, 'alias'));
    symlinkSync('..', path.join(dir, 'real', 'loop'));
    symlinkSync('real/key.txt', path.join(dir, 'file-link.txt'));
    const found = filesHoldingPatterns(dir, PATTERNS);
    // The folder is searched once, under the first name the walk meets it by; the loop back ends there.
    expect(found).toContain('file-link.txt');
    expect(found.filter((f) => f.endsWith('/key.txt'))).toHaveLength(1);
  });

  it('lists what it cannot clear: a broken link, a FIFO (without waiting for a writer), an unreadable file', () => {
    const dir = folder({ 'ok.txt': 'ok' });
    symlinkSync('nowhere', path.join(dir, 'broken'));
    execFileSync('mkfifo', [path.join(dir, 'pipe')]);
    const expected = ['broken', 'pipe'];
    if (process.getuid?.() !== 0) {
      writeFileSync(path.join(dir, 'locked.txt'), 'x');
      chmodSync(path.join(dir, 'locked.txt'), 0);
      expected.splice(1, 0, 'locked.txt');
    }
    expect(filesHoldingPatterns(dir, PATTERNS)).toEqual(expected);
  });
});
