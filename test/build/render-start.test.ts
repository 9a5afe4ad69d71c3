/**
 * Astro starts before the site is computed (scripts/lib/render.ts): it bundles the pages while
 * the site is computed and each agent's pages wait for that agent. A site that cannot be computed ends
 * Astro's run with the site's own error, the build's working folder is as it was, and pages Astro still
 * had queued find a stopped build rather than the dev server's path.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  pendingAgents,
  provideSiteBuild,
  providedAgentSource,
  providedSiteBuild,
} from '../../src/core/site/build-context.js';
import { getAgentBuild, getSiteOutline } from '../../src/lib/site.js';
import { ArdsiteError } from '../../src/core/util/errors.js';
import { PhaseTimer } from '../../src/core/util/timings.js';
import { startRender } from '../../src/core/build/render.js';
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
    const publisher = { siteUrl: 'https://agents.example.test/', language: 'en', languages: ['en'] };
    const agents = pendingAgents({
      // More agents than pages render at once (4): pages still queued when the run ends must not start
      // the dev server's loading of the project.
      model: { publisher, agents: Array.from({ length: 12 }, (_, i) => ({ slug: `agent-${i}` })) },
      did: 'did:web:agents.example.test',
      kid: 'did:web:agents.example.test#k',
      alg: 'ES256',
      builtAt: '2026-12-01T00:00:00Z',
    } as never);
    const run = startRender(site, {
      appRoot: REPO_ROOT,
      publicDir,
      renderDir,
      registry: false,
      publisher: publisher as never,
      agents: agents.source,
      timer: new PhaseTimer(),
    });
    // Astro runs from the app while it bundles; computing fails meanwhile, as scripts/build.ts tells it:
    // the agents not yet computed and the site reject with the build's own error.
    expect(process.cwd()).toBe(REPO_ROOT);
    expect(providedSiteBuild()).toBe(site);
    expect(providedAgentSource()).toBeDefined();
    agents.failed(failure);
    fail(failure);
    await expect(run.done).rejects.toBe(failure);
    expect(process.cwd()).toBe(cwd);
    // A page Astro still had queued finds a stopped build, which rejects, not an empty slot.
    await expect(providedSiteBuild()).rejects.toMatchObject({ code: 'BUILD_RENDER_FAILED' });
    expect(providedAgentSource()).toBeUndefined();
    await expect(getSiteOutline()).rejects.toMatchObject({ code: 'BUILD_RENDER_FAILED' });
    await expect(getAgentBuild('agent-11')).rejects.toMatchObject({ code: 'BUILD_RENDER_FAILED' });
    provideSiteBuild(undefined);
    // No agent's page was written (pages that need only the outline, as 404.html, may be: the build
    // removes its temporary folder on failure).
    const pages = (await readdir(renderDir, { recursive: true })).filter((f) => f.endsWith('.html'));
    expect(pages.filter((f) => f.startsWith('agents'))).toEqual([]);
  }, 120_000);
});
