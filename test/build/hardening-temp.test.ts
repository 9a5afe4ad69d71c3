/**
 * docs/security.md, "Build-side promises and their tests": the temporary folders of killed builds
 * (`.ardsite-tmp-*` in the project, `ardsite-vite-*` in the system temp folder) are removed by the next
 * build; only ardsite's own, by name and age, and never those of a build that still runs. The build runs with
 * its own TMPDIR, so the machine's real temp folder is not touched; it stops early (no key under CI), after
 * the clean-up.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isStale, MAX_AGE_MS } from '../../src/core/build/stale-temp.js';
import { buildProject, copyProject, rememberForRemoval, removeProjects } from '../helpers/build.js';
import { fixture } from '../helpers/site.js';

afterAll(removeProjects);

/** The pid of a process that has ended: a killed build's. */
const deadPid = spawnSync(process.execPath, ['-e', '']).pid!;
const HOUR = 3_600_000;

async function folder(dir: string, name: string, ageMs: number, file = true): Promise<string> {
  const abs = path.join(dir, name);
  await mkdir(abs, { recursive: true });
  if (file) await writeFile(path.join(abs, 'index.html'), '<p>half-written</p>');
  const t = new Date(Date.now() - ageMs);
  await utimes(abs, t, t);
  return abs;
}

describe('finding 10: stale temporary folders', () => {
  it('the next build removes what killed builds left, and nothing else', async () => {
    const root = await copyProject(fixture('hardening'));
    const tmp = mkdtempSync(path.join(tmpdir(), 'ardsite-tmpdir-'));
    rememberForRemoval(tmp);
    const gone = [
      await folder(root, `.ardsite-tmp-${deadPid}-a1b2c3`, 2 * 60_000),
      await folder(root, '.ardsite-tmp-Xy12Zq', 2 * HOUR), // named before the pid was in the name
      await folder(root, `.ardsite-tmp-${process.pid}-old999`, MAX_AGE_MS + HOUR), // a day old: whatever runs
      await folder(tmp, `ardsite-vite-${deadPid}-q9w8e7`, 5 * 60_000),
      await folder(tmp, 'ardsite-vite-Lm3Np4', 3 * HOUR),
    ];
    const kept = [
      await folder(root, `.ardsite-tmp-${process.pid}-live01`, 10 * 60_000), // its build still runs
      await folder(root, `.ardsite-tmp-${deadPid}-fresh1`, 0), // too new to judge
      await folder(root, '.ardsite-tmp-Ab34Cd', 10 * 60_000), // no pid, not an hour old
      await folder(root, 'my-ardsite-tmp-notes', 2 * HOUR), // not ardsite's name
      await folder(tmp, `ardsite-vite-${process.pid}-live02`, 10 * 60_000),
      await folder(tmp, 'other-vite-cache', 2 * HOUR),
    ];
    const result = await buildProject(root, { env: { CI: '1', TMPDIR: tmp } });
    expect(result.code).toBe(1); // no key under CI: the build stops after its clean-up
    expect(result.stderr).toContain('[KEY_MISSING]');
    expect(result.stderr).toContain('Removed 5 temporary folders left by a killed build.');
    expect(gone.filter((f) => existsSync(f))).toEqual([]);
    expect(kept.filter((f) => !existsSync(f))).toEqual([]);
  });

  it('judges by pid and age', () => {
    const prefix = '.ardsite-tmp-';
    expect(isStale(`${prefix}${deadPid}-abcdef`, prefix, 61_000)).toBe(true);
    expect(isStale(`${prefix}${deadPid}-abcdef`, prefix, 30_000)).toBe(false);
    expect(isStale(`${prefix}${process.pid}-abcdef`, prefix, 23 * HOUR)).toBe(false);
    expect(isStale(`${prefix}${process.pid}-abcdef`, prefix, 25 * HOUR)).toBe(true);
    expect(isStale(`${prefix}abcdef`, prefix, 59 * 60_000)).toBe(false);
    expect(isStale(`${prefix}abcdef`, prefix, 61 * 60_000)).toBe(true);
  });
});
