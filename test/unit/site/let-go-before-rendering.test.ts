/**
 * What a build lets go of before and while Astro renders, to bound its memory: the source texts of the
 * content (`releaseSourceTexts`), and each agent's page parts once both of its pages took them.
 */
import { describe, expect, it } from 'vitest';
import { loadAndCheck, releaseSourceTexts } from '../../../src/core/content/index.js';
import { prepareBuild } from '../../../src/core/build/prepare.js';
import { agentBySlug, agentPageParts } from '../../../src/lib/site.js';
import { fixedKeyEnv } from '../../helpers/build.js';
import { EXAMPLE_LIKE } from '../../helpers/site.js';

describe('releaseSourceTexts', () => {
  it('empties every source document of the model; a later diagnostic names the file without a line', async () => {
    const { model } = await loadAndCheck({ root: EXAMPLE_LIKE });
    const agent = model!.agents[0]!;
    const resource = [...model!.resources.values()][0]!;
    expect(agent.source.value).toBeDefined();
    const located = agent.source.diagnostic(
      { code: 'SCHEMA_INVALID_VALUE', severity: 'error', message: 'm' },
      ['name'],
    );
    expect(located.line).toBeGreaterThan(0);
    releaseSourceTexts(model!);
    const docs = [
      model!.publisherSource,
      agent.source,
      agent.accesses[0]!.origin.source,
      resource.origin.source,
      ...model!.entries.map((e) => e.source),
    ];
    for (const doc of docs) expect(doc.value, doc.file).toBeUndefined();
    const after = agent.source.diagnostic({ code: 'SCHEMA_INVALID_VALUE', severity: 'error', message: 'm' }, [
      'name',
    ]);
    expect(after).toEqual({
      code: 'SCHEMA_INVALID_VALUE',
      severity: 'error',
      message: 'm',
      file: agent.file,
    });
    // The model the pages read is whole.
    expect(agent.front.name).toBeTruthy();
    expect(agent.ram.resourceAccesses.length).toBeGreaterThan(0);
  });
});

describe('agentPageParts', () => {
  it('gives both pages of an agent the same parts, then lets go of them', async () => {
    const { site } = await prepareBuild({ root: EXAMPLE_LIKE, env: fixedKeyEnv() });
    const slug = site.agents[0]!.agent.slug;
    const first = agentPageParts(site, agentBySlug(site, slug));
    expect(agentPageParts(site, agentBySlug(site, slug))).toBe(first);
    const third = agentPageParts(site, agentBySlug(site, slug));
    expect(third).not.toBe(first);
    expect(third).toEqual(first);
  });
});
