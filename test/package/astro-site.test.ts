/**
 * The Astro integration as a publisher uses it: the packed ardsite (test/helpers/packed-ardsite.ts, the
 * tarball `npm pack` makes, installed with its dependencies, Astro among them) in an Astro site that has
 * pages of its own, `import ardsite from 'ardsite/astro'` in its astro.config.mjs, built with the Astro the
 * package brought. The result passes `ardsite verify`, the A2A SDK and the A2A v0.3 JSON Schema (A2A §8.4,
 * ARD draft §3.5); the site's own pages are byte-identical to those of the same site built without
 * ardsite, but for the `rel="ard"` link; a broken content file fails the build naming the file and line.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ARD_LINK_TAG } from '../../src/astro/merge-output.js';
import { astroBuild, OWN_PAGES, writeAstroSite } from '../helpers/astro-site.js';
import { siteCardVerdicts } from '../helpers/consumers.js';
import { packedArdsite, run } from '../helpers/packed-ardsite.js';

let installed: string;
let astroBin: string;

beforeAll(async () => {
  ({ installed } = await packedArdsite());
  astroBin = path.join(installed, 'node_modules', 'astro', 'astro.js');
}, 900_000);

describe('ardsite/astro from the packed tarball, in an Astro site with pages of its own', () => {
  it('builds a site that ardsite verify, the A2A SDK and the v0.3 schema accept; own pages gain only rel="ard"', async () => {
    const plain = path.join(installed, 'astro-plain');
    const site = path.join(installed, 'astro-site');
    await writeAstroSite(plain);
    // example-like: one of its agents also offers A2A v0.3, so the v0.3 schema has a card to check.
    await writeAstroSite(site, { integration: 'ardsite/astro', fixture: 'example-like' });
    const before = await astroBuild(astroBin, plain);
    expect(before.code, before.output).toBe(0);
    const built = await astroBuild(astroBin, site);
    expect(built.code, built.output).toBe(0);
    const dist = path.join(site, 'dist');

    const verified = await run('npx', ['ardsite', 'verify', dist], installed);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    expect(verified.stdout).toMatch(/ passed, 0 failed/);
    const verdicts = await siteCardVerdicts(dist);
    expect(verdicts.length).toBeGreaterThan(0);
    for (const v of verdicts) {
      expect([v.file, v.sdkSignature, v.wholeCard, v.v1Resolver]).toEqual([v.file, '', '', '']);
      if (v.offersV03) expect([v.file, v.v03Schema]).toEqual([v.file, '']);
    }
    expect(verdicts.some((v) => v.offersV03)).toBe(true);
    for (const page of OWN_PAGES) {
      const own = await readFile(path.join(plain, 'dist', page), 'utf8');
      const now = await readFile(path.join(dist, page), 'utf8');
      expect(now.split(ARD_LINK_TAG)).toHaveLength(2);
      expect(now.replace(ARD_LINK_TAG, '')).toBe(own);
    }
  }, 600_000);

  it('fails the build on a broken content file, naming the file and the line', async () => {
    const site = path.join(installed, 'astro-broken');
    await writeAstroSite(site, { integration: 'ardsite/astro' });
    const publisher = path.join(site, 'ardsite', 'content', 'publisher.yaml');
    const text = await readFile(publisher, 'utf8');
    const line = text.replace(/\n*$/, '').split('\n').length + 1;
    await writeFile(publisher, `${text.replace(/\n*$/, '\n')}siteUrl: [not, a, url\n`);
    const built = await astroBuild(astroBin, site);
    expect(built.code).not.toBe(0);
    expect(built.output).toContain(`ardsite/content/publisher.yaml:${line}`);
  }, 300_000);
});
