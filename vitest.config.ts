import { defineConfig } from 'vitest/config';

/**
 * Two groups, one after the other (`sequence.groupOrder`). The unit, verifier and fuzz tests run in
 * the Node process of their file alone: two files at a time use this machine's two cores. The build,
 * browser and registry tests start builds, browsers and servers that use both cores themselves (and
 * Lighthouse scores pages as they load), so they run one file at a time. Each group shares the builds
 * its files need alike (test/global-setup.ts, test/helpers/shared-build.ts).
 */
export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'in-process',
          include: ['test/{unit,verify,fuzz}/**/*.test.ts'],
          globalSetup: ['test/global-setup.ts'],
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'builds-and-browsers',
          include: ['test/{build,browser,registry}/**/*.test.ts'],
          globalSetup: ['test/global-setup.ts'],
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
