import { defineConfig } from 'vitest/config';

/**
 * Two groups, one after the other (`sequence.groupOrder`). The unit, verifier and fuzz tests check code
 * in their own process (the few sites they verify are built once for the group, test/helpers/
 * shared-build.ts), so two of their files run at a time, one per core. The build, browser and registry
 * tests, and any test folder added later, start builds, browsers and servers that use both cores
 * themselves (and Lighthouse scores pages as they load), so they run one file at a time. Each group
 * shares the builds its files need alike (test/global-setup.ts).
 */
const TWO_AT_A_TIME = ['test/unit/**/*.test.ts', 'test/verify/**/*.test.ts', 'test/fuzz/**/*.test.ts'];

export default defineConfig({
  test: {
    // Besides the terminal's report, each file's duration is recorded for CONTRIBUTING.md's slowest files
    // (`npm run test:slowest` reads it).
    reporters: ['default', ['json', { outputFile: 'test-results/vitest-results.json' }]],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit-verify-fuzz',
          include: TWO_AT_A_TIME,
          globalSetup: ['test/global-setup.ts'],
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'builds-browsers-registry',
          include: ['test/**/*.test.ts'],
          exclude: TWO_AT_A_TIME,
          globalSetup: ['test/global-setup.ts'],
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
