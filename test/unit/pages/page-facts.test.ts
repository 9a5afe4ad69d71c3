/**
 * Say only what is signed (DESIGN.md §4, §6): the permission page's facts beyond the RAM (`readOnly`
 * operations, `manageAccessUrl` of the visitor's own services) are signed in the card's RAM extension params
 * beside the RAM, never inside it, and the page reads them from there.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { prepareBuild } from '../../../src/core/build/prepare.js';
import { buildAgentCard, pageFacts, ramExtensionParams } from '../../../src/core/a2a/card.js';
import { permissionView } from '../../../src/core/pages/permissions.js';
import type { SiteBuild } from '../../../src/core/site/site-build.js';
import { fixture } from '../../helpers/site.js';

let edge: SiteBuild;

beforeAll(async () => {
  edge = (await prepareBuild({ root: fixture('pages-edge'), env: { ARDSITE_DEV_KEY: '1', CI: '1' } })).site;
});

describe('the permission page facts in the card', () => {
  it('sits beside the RAM in the extension params, with exactly the authored flags of the agent', () => {
    const build = edge.agents.find((a) => a.agent.slug === 'risky-helper')!;
    const { agent } = build;
    const model = edge.model;
    const params = ramExtensionParams(agent, model);
    const authoredReadOnly = agent.ram.operations
      .filter((o) => model.operations.get(o.id)?.readOnly === true)
      .map((o) => o.id)
      .sort();
    expect(authoredReadOnly.length).toBeGreaterThan(0);
    expect(params.readOnlyOperations).toEqual(authoredReadOnly);
    const manage = Object.fromEntries(
      agent.ram.resources
        .filter((r) => r.owner === 'CONSUMER' && model.resources.get(r.id)?.manageAccessUrl)
        .map((r) => [r.id, model.resources.get(r.id)!.manageAccessUrl!]),
    );
    expect(Object.keys(manage).length).toBeGreaterThan(0);
    expect(params.manageAccessUrls).toEqual(manage);
    // Never inside the RAM object: the RAM copy is the emitted RAM, unchanged.
    const {
      readOnlyOperations: _r,
      manageAccessUrls: _m,
      skillAccesses: _s,
      permissions: _p,
      ...ram
    } = params;
    expect(ram).toEqual(agent.ram);
    expect(JSON.stringify(agent.ram)).not.toContain('manageAccessUrl');
    expect(JSON.stringify(agent.ram)).not.toContain('readOnly');
  });

  it('is what the built card signs, and what the page shows', () => {
    const build = edge.agents.find((a) => a.agent.slug === 'risky-helper')!;
    const card = buildAgentCard(build.agent, edge.model, { did: 'did:web:x' });
    const ext = (card.capabilities as { extensions: Array<{ params: Record<string, unknown> }> })
      .extensions[0]!;
    expect(ext.params.readOnlyOperations).toEqual(pageFacts(build.agent, edge.model).readOnlyOperations);
    expect(ext.params.manageAccessUrls).toEqual(pageFacts(build.agent, edge.model).manageAccessUrls);
    const view = permissionView(build, edge.model);
    const shown = Object.fromEntries(
      view.groups
        .flatMap((g) => g.resources)
        .flatMap((r) => (r.manageAccessUrl ? [[r.id, r.manageAccessUrl]] : [])),
    );
    expect(shown).toEqual(ext.params.manageAccessUrls);
  });
});
