/**
 * A test file that makes temporary folders through a test helper also calls the helper's remover (from
 * `afterAll`, so the folders go when a test fails too): otherwise every run leaves them in the temp
 * folder. This scans every test file, the way ./tests-apart.test.ts does; it cannot see a folder a test
 * makes with `mkdtemp` itself, which test/global-setup.ts names in a warning at the end of the run.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/site.js';

/** Each helper call that makes a temporary folder, and the removers that remove it (any one will do). */
const MADE_AND_REMOVED: ReadonlyArray<{ makes: RegExp; removers: readonly string[] }> = [
  // test/helpers/site.ts
  { makes: /\bmakeSite\(/, removers: ['removeSites'] },
  // test/helpers/build.ts and shared-build.ts, and the builds of ard-site.ts and fixture-site.ts (private
  // copies of shared builds); cleanUpSites and removeFixtureSites call removeProjects
  {
    makes: /\b(copyProject|sharedBuild|rememberForRemoval|buildExampleSite|buildFixtureSite)\(/,
    removers: ['removeProjects', 'cleanUpSites', 'removeFixtureSites'],
  },
  // test/helpers/ard-site.ts
  { makes: /\bSiteCopy\.of\(/, removers: ['cleanUpSites'] },
  // test/helpers/fixture-site.ts
  { makes: /\bcopyBuiltSite\(/, removers: ['removeFixtureSites'] },
];

/** What `text` makes and never removes: `<what it calls> without <removers>`, once per kind. */
function unremoved(text: string): string[] {
  return MADE_AND_REMOVED.filter(
    ({ makes, removers }) => makes.test(text) && !removers.some((r) => new RegExp(`\\b${r}\\b`).test(text)),
  ).map(({ makes, removers }) => `${makes.exec(text)![0]} without ${removers.join(' or ')}`);
}

describe('test files remove the temporary folders their helpers make', () => {
  it('the guard recognises a folder made and not removed, and one removed', () => {
    expect(unremoved('const root = await makeSite({});')).toEqual(['makeSite( without removeSites']);
    expect(unremoved('out = await sharedBuild(fixture("x"));')).toEqual([
      'sharedBuild( without removeProjects or cleanUpSites or removeFixtureSites',
    ]);
    expect(unremoved('const site = await buildExampleSite();')).toEqual([
      'buildExampleSite( without removeProjects or cleanUpSites or removeFixtureSites',
    ]);
    expect(unremoved('await SiteCopy.of(built); afterAll(removeProjects);')).toEqual([
      'SiteCopy.of( without cleanUpSites',
    ]);
    expect(unremoved('await buildExampleSite(); afterAll(cleanUpSites);')).toEqual([]);
    expect(unremoved('await copyProject(); afterAll(removeProjects);')).toEqual([]);
    expect(unremoved('await makeSite({}); afterAll(removeProjects);')).toHaveLength(1);
  });

  it('every test file that makes one removes it', async () => {
    const files = await fg(['test/**/*.test.ts'], {
      cwd: REPO_ROOT,
      ignore: [
        'test/fixtures/**',
        'test/unit/repository/temp-folders.test.ts',
        'test/unit/repository/tests-apart.test.ts',
      ],
    });
    const found: string[] = [];
    for (const file of files)
      for (const what of unremoved(readFileSync(path.join(REPO_ROOT, file), 'utf8')))
        found.push(`${file}: ${what}`);
    expect(found).toEqual([]);
  });
});
