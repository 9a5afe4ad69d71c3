/**
 * Nothing derived twice: an agent's permission view (src/core/pages/permissions.ts `permissionView`) is
 * the most costly view of a build, and llms.txt and the pages each need it. llms.txt computes it once
 * per agent (its index part lists no agents' labels), and the index page and the agent page share one
 * label per agent and language. Neither llms.txt nor the labels make the grant views (what the visitor
 * will be asked to allow, the costliest part of a view): only the permission page shows them. The count of
 * calls is what these tests pin; the bytes of llms.txt and of the pages are pinned by the crawler-file and
 * page tests.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { prepareBuild } from '../../../src/core/build/prepare.js';
import { llmsTxt } from '../../../src/core/pages/llms-txt.js';
import { agentPageView } from '../../../src/core/pages/agent-page.js';
import { indexView } from '../../../src/core/pages/index-page.js';
import { pageTrees } from '../../../src/core/site/page-paths.js';
import { permissionView } from '../../../src/core/pages/permissions.js';
import type * as PermissionsModule from '../../../src/core/pages/permissions.js';
import type * as GrantsModule from '../../../src/core/pages/permission-grants.js';
import type * as PublisherServiceModule from '../../../src/core/pages/publisher-service.js';
import type { SiteBuild } from '../../../src/core/site/site-build.js';
import { EXAMPLE_LIKE } from '../../helpers/site.js';

const calls = vi.hoisted(() => ({ permissionView: 0, grantView: 0, runByPublisher: 0 }));
vi.mock('../../../src/core/pages/publisher-service.js', async (importOriginal) => {
  const actual = await importOriginal<typeof PublisherServiceModule>();
  return {
    ...actual,
    runByPublisher: (...args: Parameters<typeof actual.runByPublisher>) => {
      calls.runByPublisher += 1;
      return actual.runByPublisher(...args);
    },
  };
});
vi.mock('../../../src/core/pages/permission-grants.js', async (importOriginal) => {
  const actual = await importOriginal<typeof GrantsModule>();
  return {
    ...actual,
    grantView: (...args: Parameters<typeof actual.grantView>) => {
      calls.grantView += 1;
      return actual.grantView(...args);
    },
  };
});
vi.mock('../../../src/core/pages/permissions.js', async (importOriginal) => {
  const actual = await importOriginal<typeof PermissionsModule>();
  return {
    ...actual,
    permissionView: (...args: Parameters<typeof actual.permissionView>) => {
      calls.permissionView += 1;
      return actual.permissionView(...args);
    },
  };
});

const env = {
  ARDSITE_SIGNING_KEY: readFileSync(
    path.resolve(import.meta.dirname, '../../vectors/test-key-es256.jwk.json'),
    'utf8',
  ),
  SOURCE_DATE_EPOCH: '1764000000',
};

let site: SiteBuild;
beforeAll(async () => {
  site = (await prepareBuild({ root: EXAMPLE_LIKE, env, signingWorkers: 0 })).site;
});
beforeEach(() => {
  calls.permissionView = 0;
  calls.grantView = 0;
  calls.runByPublisher = 0;
});

describe('llms.txt', () => {
  it("computes each agent's permission view once", () => {
    const withAccess = site.agents.filter((b) => b.agent.ram.resourceAccesses.length > 0);
    expect(withAccess.length).toBeGreaterThan(1);
    const text = llmsTxt({ ...site, sitemapPath: '/sitemap.xml' });
    expect(calls.permissionView).toBe(site.agents.length);
    // Still says how many agents the site lists, and each agent's section.
    expect(text).toContain(`lists ${site.agents.length} agents`);
    for (const b of site.agents) expect(text).toContain(`## ${b.agent.front.name}`);
  });
});

describe('the index page and the agent pages', () => {
  it('share one label per agent and language: one permission view each, and the same label object', () => {
    const tree = pageTrees(site.model.publisher)[0];
    const index = indexView(site, undefined, tree);
    expect(calls.permissionView).toBe(site.agents.length);
    const pages = site.agents.map((b) => agentPageView(b, site, tree));
    expect(calls.permissionView).toBe(site.agents.length);
    const labelled = pages.filter((p) => p.label !== undefined);
    expect(labelled.length).toBeGreaterThan(1);
    site.agents.forEach((_, i) => expect(pages[i]!.label).toBe(index.agents[i]!.label));
  });

  it('makes another label for other words or another language', () => {
    const [tree] = pageTrees(site.model.publisher);
    indexView(site, undefined, tree);
    const before = calls.permissionView;
    indexView(site, undefined, { ...tree!, prefix: '/other' });
    expect(calls.permissionView).toBe(before + site.agents.length);
  });
});

describe('the grant views', () => {
  it('are made for the permission page only: not for llms.txt, not for the labels', () => {
    // A tree of its own, so that no label made by an earlier test is found made.
    const tree = { ...pageTrees(site.model.publisher)[0]!, prefix: '/grants' };
    llmsTxt({ ...site, sitemapPath: '/sitemap.xml' });
    indexView(site, undefined, tree);
    for (const b of site.agents) agentPageView(b, site, tree);
    expect(calls.permissionView).toBe(2 * site.agents.length);
    expect(calls.grantView).toBe(0);
    for (const b of site.agents) permissionView(b, site.model, undefined, tree);
    expect(calls.grantView).toBeGreaterThan(0);
  });
});

describe("a resource's section of the page", () => {
  it('is found once per resource and view, not once per section', () => {
    const [tree] = pageTrees(site.model.publisher);
    const withAccess = site.agents.filter((b) => b.agent.ram.resourceAccesses.length > 0);
    const resources = withAccess.reduce((n, b) => n + b.agent.ram.resources.length, 0);
    expect(resources).toBeGreaterThan(1);
    for (const b of withAccess) permissionView(b, site.model, undefined, tree);
    expect(calls.runByPublisher).toBe(resources);
  });
});
