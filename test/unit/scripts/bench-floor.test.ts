/**
 * The benchmark floor (bench/floor) writes the files ardsite writes for the synthetic publisher, from the
 * same agents in memory: a route for each kind of page, a plain write for each JSON and text file, and per agent a card with the RAM extension and
 * two signatures, a permission file, a label and grants (BENCHMARKS.md, the floor's definition).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { syntheticAgents, writeSyntheticPublisher } from '../../../bench/synthetic.js';
import { floorModels } from '../../../bench/floor/src/agent-model.js';
import { cardText, permissionsText } from '../../../bench/floor/src/agent-files.js';
import { labelOf, permissionViewOf } from '../../../bench/floor/src/agent-views.js';
import { ardText, llmsText, sitemapText } from '../../../bench/floor/src/site-files.js';
import { writeFloorFiles } from '../../../bench/floor/src/plain-files.js';

const FLOOR = path.resolve(import.meta.dirname, '../../../bench/floor');

describe('the benchmark floor', () => {
  it('has a route or a static file for every kind of page and static file ardsite writes', () => {
    const files = [
      'src/pages/index.astro',
      'src/pages/404.astro',
      'src/pages/agents/[slug]/index.astro',
      'src/pages/agents/[slug]/permissions.astro',
      'public/_headers',
      'public/.nojekyll',
    ];
    expect(files.filter((f) => !existsSync(path.join(FLOOR, f)))).toEqual([]);
  });

  it('writes every JSON and text file ardsite writes with plain file writes', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'ardsite-floor-'));
    const agents = process.env.FLOOR_AGENTS;
    try {
      process.env.FLOOR_AGENTS = '3';
      expect(writeFloorFiles(dir)).toBe(2 * 3 + 7);
      const perAgent = ['agent-card.json', 'permissions.json'];
      const files = [
        ...['agent-0', 'agent-1', 'agent-2'].flatMap((slug) => perAgent.map((f) => `agents/${slug}/${f}`)),
        ...['ard.json', 'ai-catalog.json', 'did.json', 'jwks.json'].map((f) => `.well-known/${f}`),
        'llms.txt',
        'sitemap.xml',
        'robots.txt',
      ];
      expect(files.filter((f) => !existsSync(path.join(dir, f)))).toEqual([]);
    } finally {
      if (agents === undefined) delete process.env.FLOOR_AGENTS;
      else process.env.FLOOR_AGENTS = agents;
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('knows the same agents as the synthetic publisher writes', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'ardsite-floor-'));
    try {
      await writeSyntheticPublisher(dir, { agents: 25 });
      const plans = syntheticAgents(25);
      for (const plan of [plans[0]!, plans[13]!, plans[24]!]) {
        const text = await readFile(
          path.join(dir, `content/agents/agent-${String(plan.n).padStart(2, '0')}.md`),
          'utf8',
        );
        const written = [...text.matchAll(/- id: (access-\S+)\n\s+operation: \S+\n\s+identityUsed: (\w+)/g)];
        expect(written.map((m) => [m[1], m[2]])).toEqual(
          plan.accesses.map((a) => [a.id, a.asUser ? 'END_USER' : 'AGENT']),
        );
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('writes per agent a signed-looking card with the RAM extension and a permission file', () => {
    const models = floorModels(25);
    for (const m of models) {
      const card = JSON.parse(cardText(m)) as {
        capabilities: { extensions: Array<{ uri: string; params: Record<string, unknown> }> };
        signatures: Array<{ protected: string; signature: string }>;
      };
      expect(card.capabilities.extensions.map((e) => e.uri)).toEqual([
        'https://github.com/a2aproject/A2A/issues/1426',
        'urn:ardsite:ext:ard-entry:v1',
      ]);
      expect(card.capabilities.extensions[0]!.params.resourceAccesses).toHaveLength(8);
      expect(card.signatures.map((s) => s.signature.length)).toEqual([86, 86]);
      const file = JSON.parse(permissionsText(m)) as { agent: string; accesses: unknown[] };
      expect(file.agent).toBe(`urn:air:bench.example.com:bench:${m.slug}`);
      expect(file.accesses).toHaveLength(m.accesses.filter((x) => x.res.protocol !== 'A2A').length);
    }
  });

  it('gives each agent a label of every service and grants on the visitor’s own services', () => {
    for (const m of floorModels(25)) {
      expect(
        labelOf(m)
          .services.map((s) => s.id)
          .sort(),
      ).toEqual(m.resources.map((r) => r.id).sort());
      const yours = permissionViewOf(m).groups.find((g) => g.key === 'yours')!.resources;
      expect(yours.every((r) => r.grant !== undefined)).toBe(true);
    }
  });

  it('lists every agent in the manifest, llms.txt and the sitemap', () => {
    const models = floorModels(12);
    expect((JSON.parse(ardText(models)) as { entries: unknown[] }).entries).toHaveLength(12);
    expect(llmsText(models).match(/^## Synthetic Agent/gm)).toHaveLength(12);
    expect(sitemapText(models).match(/<url>/g)).toHaveLength(1 + 2 * 12);
  });
});
