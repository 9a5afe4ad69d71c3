/**
 * A site handed out while it is computed: each agent's build goes to `onAgent` as soon as its
 * card is signed (its pages render meanwhile), and its card and permission file to `sink` (written then,
 * not held to the end). The files are the same bytes as a site computed whole, and the pages' source of
 * agents (src/core/site/build-context.ts `pendingAgents`) answers each agent once, or the build's own error.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pendingAgents } from '../../../src/core/site/build-context.js';
import { prepareBuild } from '../../../src/core/build/prepare.js';
import type { AgentBuild, Artifact, SiteBuild } from '../../../src/core/site/site-build.js';
import { EXAMPLE_LIKE } from '../../helpers/site.js';

const env = {
  ARDSITE_SIGNING_KEY: readFileSync(
    path.resolve(import.meta.dirname, '../../vectors/test-key-es256.jwk.json'),
    'utf8',
  ),
  SOURCE_DATE_EPOCH: '1764000000',
};

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const filesOf = (artifacts: Iterable<Artifact>) =>
  Object.fromEntries([...artifacts].map((a) => [a.path, base64(a.bytes)]));

describe('computing a site with onAgent and sink', () => {
  it('hands out each agent and its files before the site is done, the same bytes as a site computed whole', async () => {
    const whole = await prepareBuild({ root: EXAMPLE_LIKE, env, signingWorkers: 0 });
    const sunk: Artifact[] = [];
    const heard: AgentBuild[] = [];
    let done = false;
    const heardBeforeDone: boolean[] = [];
    const sunkWhenHeard: number[] = [];
    const streamed = await prepareBuild({
      root: EXAMPLE_LIKE,
      env,
      signingWorkers: 0,
      onAgent: (build) => {
        heard.push(build);
        heardBeforeDone.push(!done);
        sunkWhenHeard.push(sunk.length);
      },
      sink: async (files) => {
        sunk.push(...files);
      },
    });
    done = true;
    const site: SiteBuild = streamed.site;

    // Every agent once, before the site was complete, as the very builds the site lists.
    expect(heard.map((b) => b.agent.slug).sort()).toEqual(site.agents.map((b) => b.agent.slug).sort());
    expect(heardBeforeDone.every(Boolean)).toBe(true);
    for (const build of heard) expect(site.agents).toContain(build);
    // The first agent was handed out while others were still being computed (their files not yet sunk).
    expect(sunkWhenHeard[0]).toBeLessThan(sunk.length);

    // The sink took the cards and permission files; the site holds only what it did not take.
    const sunkPaths = sunk.map((a) => a.path).sort();
    const expected = site.agents
      .flatMap((b) => [b.cardPath, ...(b.permissionsPath ? [b.permissionsPath] : [])])
      .sort();
    expect(sunkPaths).toEqual(expected);
    expect(sunkPaths.some((p) => p.endsWith('/permissions.json'))).toBe(true);
    for (const p of sunkPaths) {
      expect(site.artifacts.has(p), p).toBe(false);
      expect(site.streamed.get(p)).toEqual({ path: p, mediaType: 'application/json' });
    }
    expect(whole.site.streamed.size).toBe(0);

    // Together, the same files byte for byte (the well-known card, _headers and llms.txt included).
    expect({ ...filesOf(site.artifacts.values()), ...filesOf(sunk) }).toEqual(
      filesOf(whole.site.artifacts.values()),
    );
    expect(site.entries).toEqual(whole.site.entries);
  });

  it('fails the computation with what the sink throws', async () => {
    const failure = new Error('disk full');
    await expect(
      prepareBuild({
        root: EXAMPLE_LIKE,
        env,
        signingWorkers: 0,
        sink: () => Promise.reject(failure),
      }),
    ).rejects.toBe(failure);
  });
});

describe('pendingAgents', () => {
  const outline = {
    model: { agents: [{ slug: 'first' }, { slug: 'second' }, { slug: 'third' }] },
  } as never;
  const buildOf = (slug: string) => ({ agent: { slug } }) as AgentBuild;

  it('answers each agent once it arrived, whatever the order', async () => {
    const pending = pendingAgents(outline);
    const second = pending.source.agent('second');
    pending.arrived(buildOf('third'));
    pending.arrived(buildOf('second'));
    expect((await second).agent.slug).toBe('second');
    expect((await pending.source.agent('third')).agent.slug).toBe('third');
  });

  it('rejects at once for a slug the outline does not list', async () => {
    await expect(pendingAgents(outline).source.agent('nobody')).rejects.toThrow(
      'no agent with the slug "nobody"',
    );
  });

  it("rejects the agents not yet computed with the build's own error; those computed stay", async () => {
    const pending = pendingAgents(outline);
    pending.arrived(buildOf('first'));
    const failure = new Error('the key was revoked');
    pending.failed(failure);
    expect((await pending.source.agent('first')).agent.slug).toBe('first');
    await expect(pending.source.agent('second')).rejects.toBe(failure);
    await expect(pending.source.agent('third')).rejects.toBe(failure);
  });

  it('gives the agents never heard of from the complete site, and refuses those it lacks', async () => {
    const pending = pendingAgents(outline);
    pending.arrived(buildOf('first'));
    pending.complete({ agents: [buildOf('first'), buildOf('second')] } as never);
    expect((await pending.source.agent('second')).agent.slug).toBe('second');
    await expect(pending.source.agent('third')).rejects.toThrow(/no agent with the slug "third"/);
  });
});
