/**
 * The Astro integration's robots.txt check before the build (src/astro/early-checks.ts): the site's
 * `public/robots.txt` that disallows, for every crawler (RFC 9309), a file every ardsite build publishes is
 * a conflict worded as the merge of the outputs words it; one that disallows only other paths, or that is
 * the project's own robots.txt byte for byte, is left to the merge.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ALWAYS_PUBLISHED, robotsConflictBeforeBuild } from '../../../src/astro/early-checks.js';
import { mergeSiteFile } from '../../../src/astro/merge-site-files.js';

let siteRoot: string;
let project: string;

beforeEach(async () => {
  siteRoot = await mkdtemp(path.join(tmpdir(), 'ardsite-early-checks-'));
  project = path.join(siteRoot, 'ardsite');
  await mkdir(path.join(siteRoot, 'public'), { recursive: true });
  await mkdir(path.join(project, 'public'), { recursive: true });
});
afterEach(async () => {
  await rm(siteRoot, { recursive: true, force: true });
});

const siteRobots = (text: string) => writeFile(path.join(siteRoot, 'public', 'robots.txt'), text);

describe('robotsConflictBeforeBuild', () => {
  it('names every well-known file the rule disallows, in one message in the words of the merge', async () => {
    const robots = 'User-agent: *\nAllow: /\nDisallow: /.well-known/\n';
    await siteRobots(robots);
    const conflict = await robotsConflictBeforeBuild({ siteRoot, project });
    expect(conflict).toEqual({
      file: 'robots.txt',
      reason:
        "public/robots.txt:3 disallows /.well-known/ai-catalog.json, /.well-known/ard.json, /.well-known/did.json and /.well-known/jwks.json for every crawler, which ardsite's robots.txt (made from ardsite/content) allows and ardsite publishes",
    });
    const merged = mergeSiteFile(
      'robots.txt',
      Buffer.from(robots),
      Buffer.from('User-agent: *\nAllow: /\n'),
      { site: 'public/robots.txt', ardsite: "ardsite's robots.txt (made from ardsite/content)" },
      ALWAYS_PUBLISHED,
    );
    expect(merged).toEqual({ conflict });
  });

  it('names the project’s own robots.txt when it has one', async () => {
    await siteRobots('User-agent: *\nDisallow: /.well-known/did.json\n');
    await writeFile(path.join(project, 'public', 'robots.txt'), 'User-agent: *\nAllow: /\n');
    const conflict = await robotsConflictBeforeBuild({ siteRoot, project });
    expect(conflict?.reason).toBe(
      'public/robots.txt:2 disallows /.well-known/did.json for every crawler, which ardsite/public/robots.txt allows and ardsite publishes',
    );
  });

  it('names only the files the rules block, each rule with its line', async () => {
    await siteRobots('User-agent: *\nDisallow: /.well-known/jwks\nAllow: /\nDisallow: /.well-known/ai-\n');
    const conflict = await robotsConflictBeforeBuild({ siteRoot, project });
    expect(conflict?.reason).toBe(
      "public/robots.txt:4 disallows /.well-known/ai-catalog.json, public/robots.txt:2 disallows /.well-known/jwks.json for every crawler, which ardsite's robots.txt (made from ardsite/content) allows and ardsite publishes",
    );
  });

  it('leaves the rest to the merge: no robots.txt, other paths, the project’s own file', async () => {
    expect(await robotsConflictBeforeBuild({ siteRoot, project })).toBeUndefined();
    await siteRobots('User-agent: *\nDisallow: /agents/\nDisallow: /admin/\n');
    expect(await robotsConflictBeforeBuild({ siteRoot, project })).toBeUndefined();
    await siteRobots('User-agent: other\nDisallow: /\n');
    expect(await robotsConflictBeforeBuild({ siteRoot, project })).toBeUndefined();
    const same = 'User-agent: *\nDisallow: /.well-known/\n';
    await siteRobots(same);
    await writeFile(path.join(project, 'public', 'robots.txt'), same);
    expect(await robotsConflictBeforeBuild({ siteRoot, project })).toBeUndefined();
  });

  it('lists the files every build publishes in the order the merge sorts them', () => {
    expect([...ALWAYS_PUBLISHED].sort()).toEqual(ALWAYS_PUBLISHED);
    expect(ALWAYS_PUBLISHED).toContain('/.well-known/ard.json');
  });
});
