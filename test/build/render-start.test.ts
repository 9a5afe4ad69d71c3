/**
 * Astro starts before the site is computed (scripts/lib/render.ts, issue 19): it bundles the pages while
 * the site is computed and the pages wait for it. A site that cannot be computed ends Astro's run with
 * the site's own error, and the build's working folder and the pages' slot are as they were.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { providedSiteBuild } from '../../src/core/build-context.js';
import { ArdsiteError } from '../../src/core/errors.js';
import { PhaseTimer } from '../../src/core/timings.js';
import { startRender } from '../../scripts/lib/render.js';
import { REPO_ROOT } from '../helpers/site.js';

const made: string[] = [];
afterAll(async () => Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true }))));

describe('startRender', () => {
  it('ends with the error of a site that could not be computed; cwd and the pages slot are restored', async () => {
    const renderDir = await mkdtemp(path.join(REPO_ROOT, '.ardsite-tmp-test-render-'));
    made.push(renderDir);
    const publicDir = await mkdtemp(path.join(tmpdir(), 'ardsite-render-public-'));
    made.push(publicDir);
    const cwd = process.cwd();
    const failure = new ArdsiteError('FILE_UNREADABLE', 'attestation file x cannot be read (EACCES)');
    let fail!: (error: unknown) => void;
    const site = new Promise<never>((_, reject) => (fail = reject));
    site.catch(() => {});
    const run = startRender(site, {
      appRoot: REPO_ROOT,
      publicDir,
      renderDir,
      registry: false,
      publisher: { siteUrl: 'https://agents.example.test/' } as never,
      timer: new PhaseTimer(),
    });
    // Astro runs from the app while it bundles; the site fails meanwhile.
    expect(process.cwd()).toBe(REPO_ROOT);
    expect(providedSiteBuild()).toBe(site);
    fail(failure);
    await expect(run.done).rejects.toBe(failure);
    expect(process.cwd()).toBe(cwd);
    expect(providedSiteBuild()).toBeUndefined();
    // No page was written.
    expect((await readdir(renderDir, { recursive: true })).filter((f) => f.endsWith('.html'))).toEqual([]);
  }, 120_000);
});
