/**
 * `updatedAt` from git (DESIGN.md §2, src/core/project/git-time.ts): the last commit that touched an artifact's
 * files, over a real repository with commits at fixed dates; SOURCE_DATE_EPOCH or the build time when a
 * file was never committed or there is no repository.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitLastCommitTimes, lastModified, sourceDateEpoch } from '../../../src/core/project/git-time.js';

const run = promisify(execFile);
let repo: string;
const OLD = 1_700_000_000; // 2023-11-14
const NEW = 1_750_000_000; // 2025-06-15

async function commitAt(seconds: number, files: Record<string, string>): Promise<void> {
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(repo, file)), { recursive: true });
    await writeFile(path.join(repo, file), text);
  }
  const date = `@${seconds} +0000`;
  const env = { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
  await run('git', ['add', '-A'], { cwd: repo });
  await run('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.test', 'commit', '-qm', 'c'], {
    cwd: repo,
    env,
  });
}

beforeAll(async () => {
  repo = await mkdtemp(path.join(tmpdir(), 'ardsite-git-time-'));
  await run('git', ['init', '-q'], { cwd: repo });
  await commitAt(OLD, { 'content/resources/notes.yaml': 'a\n', 'content/agents/a.md': 'a\n' });
  await commitAt(NEW, { 'content/agents/a.md': 'b\n' });
  // A new agent, never committed, sharing the old resource file.
  await writeFile(path.join(repo, 'content/agents/new.md'), 'n\n');
});
afterAll(() => rm(repo, { recursive: true, force: true }));

describe('gitLastCommitTimes and lastModified', () => {
  const fallback = new Date('2026-01-01T00:00:00Z');

  it('reads the last commit of each tracked file in one walk', async () => {
    const times = await gitLastCommitTimes(repo);
    expect(times.get('content/resources/notes.yaml')).toBe(OLD);
    expect(times.get('content/agents/a.md')).toBe(NEW);
    expect(times.has('content/agents/new.md')).toBe(false);
  });

  it('gives the newest commit of an artifact’s files', async () => {
    const times = await gitLastCommitTimes(repo);
    const files = ['content/agents/a.md', 'content/resources/notes.yaml'];
    expect(lastModified(files, times, fallback)).toEqual(new Date(NEW * 1000));
  });

  it('never gives a time later than the fallback (SOURCE_DATE_EPOCH, the signature’s issuedAt): a later commit is clamped to it', async () => {
    const times = await gitLastCommitTimes(repo);
    const epoch = new Date((NEW - 60) * 1000);
    expect(lastModified(['content/agents/a.md'], times, epoch)).toEqual(epoch);
    expect(lastModified(['content/resources/notes.yaml'], times, epoch)).toEqual(new Date(OLD * 1000));
  });

  it('gives the fallback when one of the files was never committed (a new agent sharing an old resource)', async () => {
    const times = await gitLastCommitTimes(repo);
    const files = ['content/agents/new.md', 'content/resources/notes.yaml'];
    expect(lastModified(files, times, fallback)).toEqual(fallback);
  });

  it('gives the fallback outside a git work tree', async () => {
    const bare = await mkdtemp(path.join(tmpdir(), 'ardsite-no-git-'));
    try {
      const times = await gitLastCommitTimes(bare);
      expect(times.size).toBe(0);
      expect(lastModified(['content/agents/a.md'], times, fallback)).toEqual(fallback);
    } finally {
      await rm(bare, { recursive: true, force: true });
    }
  });

  it('reads SOURCE_DATE_EPOCH, and refuses one that is not whole seconds', () => {
    expect(sourceDateEpoch({ SOURCE_DATE_EPOCH: String(OLD) })).toEqual(new Date(OLD * 1000));
    expect(sourceDateEpoch({})).toBeUndefined();
    expect(() => sourceDateEpoch({ SOURCE_DATE_EPOCH: '1.5' })).toThrow(/whole number of seconds/);
  });
});
