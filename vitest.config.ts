import { readFileSync } from 'node:fs';
import fg from 'fast-glob';
import { defineConfig } from 'vitest/config';

/**
 * Four groups, one after the other (`sequence.groupOrder`), sharing one folder of builds for the run
 * (test/global-setup.ts, test/helpers/shared-build.ts), so a fixture a later group needs built alike is
 * built once.
 *
 * - The unit, verifier and fuzz tests check code in their own process, two files at a time, one per core.
 *   Their files share one module cache per worker process (`isolate: false`): each file used to import
 *   the sources again in a fresh process, which cost more CPU than most of their tests. A file that
 *   changes shared state (an environment variable, a spy) puts it back in `afterEach`/`afterAll`.
 * - The build, registry and package tests, and any test folder added later, start builds and servers in
 *   child processes, where much of a file's time is spent waiting on one of them, so two files run at a
 *   time too.
 * - The browser tests drive Chromium (each file its own, in a profile folder of its own), and wait on it
 *   and on the pages it loads much of the time: two files at a time.
 * - Lighthouse, last and alone: its scores (best practices, the timings behind them) depend on how
 *   quickly the pages load, so a second file keeping the cores busy could make a passing site fail.
 */
const TWO_AT_A_TIME = ['test/unit/**/*.test.ts', 'test/verify/**/*.test.ts', 'test/fuzz/**/*.test.ts'];
const BROWSERS = ['test/browser/**/*.test.ts'];
const LIGHTHOUSE = ['test/browser/lighthouse.test.ts'];
/**
 * The files of that group that replace a module (`vi.mock`): a replacement applies only to a module
 * imported after it, which a shared module cache cannot promise, so these run isolated, in a project of
 * their own beside the group.
 */
const MOCKING = fg.sync(TWO_AT_A_TIME).filter((file) => readFileSync(file, 'utf8').includes('vi.mock('));

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
          exclude: MOCKING,
          globalSetup: ['test/global-setup.ts'],
          maxWorkers: 2,
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'unit-mocking',
          include: MOCKING.length > 0 ? MOCKING : ['no-such-file'],
          globalSetup: ['test/global-setup.ts'],
          maxWorkers: 1,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'builds-registry-package',
          include: ['test/**/*.test.ts'],
          exclude: [...TWO_AT_A_TIME, ...BROWSERS],
          globalSetup: ['test/global-setup.ts'],
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'browsers',
          include: BROWSERS,
          exclude: LIGHTHOUSE,
          globalSetup: ['test/global-setup.ts'],
          maxWorkers: 2,
          sequence: { groupOrder: 2 },
        },
      },
      {
        extends: true,
        test: {
          name: 'lighthouse',
          include: LIGHTHOUSE,
          globalSetup: ['test/global-setup.ts'],
          maxWorkers: 1,
          sequence: { groupOrder: 3 },
        },
      },
    ],
  },
});
