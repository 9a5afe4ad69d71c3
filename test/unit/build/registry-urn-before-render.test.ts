/**
 * A registry whose URN an agent already has (ARD draft §3.4: one identifier, one entry) is refused from the
 * model alone, before the build calls `beforeComputing`, where Astro starts rendering
 * (src/core/build/pipeline.ts): the build fails in the time of the content checks, with the message it
 * gave when the registry entry was computed.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { prepareBuild } from '../../../src/core/build/prepare.js';
import { modelIdentifiers } from '../../../src/core/site/site-registry-entry.js';
import { loadAndCheck } from '../../../src/core/content/index.js';
import { ArdsiteError } from '../../../src/core/util/errors.js';
import { fixedKeyEnv } from '../../helpers/build.js';
import { agentMd, makeSite, removeSites } from '../../helpers/site.js';

afterAll(removeSites);

describe('the registry URN, checked before rendering', () => {
  it('refuses an agent with the registry’s URN without starting to compute or render', async () => {
    const root = await makeSite({ 'content/agents/registry.md': agentMd() });
    const beforeComputing = vi.fn();
    const error = await prepareBuild({ root, env: fixedKeyEnv(), registry: true, beforeComputing }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ArdsiteError);
    expect((error as ArdsiteError).code).toBe('ARD_DUPLICATE_ENTRY');
    expect((error as ArdsiteError).message).toBe(
      "the registry entry's identifier urn:air:agents.example.test:agents:registry is already used by an agent or entry; set registry.name in content/publisher.yaml to another name",
    );
    expect(beforeComputing).not.toHaveBeenCalled();
  });

  it('lists every agent’s and entry’s identifier, as the manifest does', async () => {
    const root = await makeSite({ 'content/agents/one.md': agentMd(), 'content/agents/two.md': agentMd() });
    const { model } = await loadAndCheck({ root });
    expect(modelIdentifiers(model!)).toEqual(model!.agents.map((a) => a.identifier));
    expect(modelIdentifiers(model!)).toHaveLength(2);
  });
});
