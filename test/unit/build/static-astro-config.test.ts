/**
 * A build hands Astro its settings inline and does not read astro.config.mjs (the dev server's config,
 * which imports TypeScript and so would be loaded through a Vite server of its own, transforming and
 * running the dev plugin's whole import graph in every build). The settings are the ones astro.config.mjs
 * spreads, so the dev server and the build cannot drift apart.
 */
import { describe, expect, it, vi } from 'vitest';
import type { AstroInlineConfig } from 'astro';

const astroBuild = vi.fn(async (_config: AstroInlineConfig) => {});
vi.mock('astro', () => ({ build: astroBuild }));

const { startRender } = await import('../../../src/core/build/render.js');
const { pendingAgents } = await import('../../../src/core/site/build-context.js');
const { PhaseTimer } = await import('../../../src/core/util/timings.js');
const { STATIC_ASTRO_CONFIG, staticBuildConfig } =
  await import('../../../src/core/build/static-astro-config.js');
const { EXAMPLE_LIKE, REPO_ROOT } = await import('../../helpers/site.js');
/** The app Astro runs in (its working folder while it runs; nothing is read: `astro.build` is a mock). */
const appRoot = REPO_ROOT;

describe("the build's Astro settings", () => {
  it('are given inline with configFile: false, in one call of astro.build', async () => {
    const publisher = { siteUrl: 'https://agents.example.test/', language: 'en', languages: ['en'] };
    const agents = pendingAgents({
      model: { publisher, agents: [] },
      did: 'did:web:agents.example.test',
      kid: 'did:web:agents.example.test#k',
      alg: 'ES256',
      builtAt: '2026-12-01T00:00:00Z',
    } as never);
    const run = startRender(Promise.resolve({} as never), {
      appRoot,
      publicDir: `${EXAMPLE_LIKE}/public`,
      renderDir: `${appRoot}/.ardsite-tmp-never-written`,
      registry: false,
      publisher: publisher as never,
      agents: agents.source,
      timer: new PhaseTimer(),
    });
    await run.done;
    expect(astroBuild).toHaveBeenCalledTimes(1);
    const config = astroBuild.mock.calls[0]![0];
    expect(config.configFile).toBe(false);
    expect(config).toMatchObject({ ...STATIC_ASTRO_CONFIG, root: appRoot, site: publisher.siteUrl });
    expect(config.vite?.build?.emptyOutDir).toBe(false);
    // The pages bundle none of the dev server's loading code (src/core/build/dev-only-modules.ts).
    expect(config.vite?.plugins?.map((p) => (p as { name: string }).name)).toEqual([
      'ardsite:dev-only-modules',
    ]);
  });

  it('are the ones astro.config.mjs gives the dev server, which adds only its Vite plugin', async () => {
    const { default: devConfig } = (await import('../../../astro.config.mjs')) as {
      default: AstroInlineConfig;
    };
    const { vite, ...rest } = devConfig;
    expect(rest).toEqual(STATIC_ASTRO_CONFIG);
    expect(vite?.plugins?.map((p) => (p as { name: string }).name)).toEqual(['ardsite:dev-content']);
  });

  it('keep the static build settings under overrides of other build settings', () => {
    const config = staticBuildConfig({ build: { assets: '_x' }, trailingSlash: 'ignore' });
    expect(config.build).toEqual({ ...STATIC_ASTRO_CONFIG.build, assets: '_x' });
    expect(config.trailingSlash).toBe('ignore');
    expect(config.configFile).toBe(false);
  });
});
