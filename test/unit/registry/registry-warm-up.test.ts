/**
 * The registry's warm-up (src/core/registry/warm-up.ts): questions made of the catalog's own words, each
 * asked once, answered through the service and thrown away, leaving no ranking kept.
 */
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../../src/core/registry/catalog.js';
import { createRegistryService } from '../../../src/core/registry/service.js';
import { warmUp, warmUpTexts } from '../../../src/core/registry/warm-up.js';
import { RegistrySettings } from '../../../src/core/schema/registry-settings.js';
import { syntheticEntries } from '../../helpers/synthetic-entries.js';

async function service() {
  const catalog = await buildCatalog(syntheticEntries(120).map((entry) => ({ entry, verified: true })));
  return {
    catalog,
    service: createRegistryService({
      catalog,
      settings: RegistrySettings.parse({}),
      self: { identifier: 'urn:air:r.example.com:registry:main', url: 'https://r.example.com/ard/v1' },
      secret: new Uint8Array(32).fill(5),
      indexFingerprint: 'sha256:0123456789abcdef',
    }),
  };
}

describe('registry warm-up', () => {
  it('makes distinct questions of two to four words from the entries’ own texts', async () => {
    const { catalog } = await service();
    const texts = warmUpTexts(catalog, 50);
    expect(texts).toHaveLength(50);
    expect(new Set(texts).size).toBe(50);
    const words = new Set(catalog.entries.flatMap((e) => JSON.stringify(e.entry).split(/[^\p{L}\p{N}]+/u)));
    for (const text of texts) {
      const parts = text.split(' ');
      expect(parts.length).toBeGreaterThanOrEqual(2);
      expect(parts.length).toBeLessThanOrEqual(4);
      for (const part of parts) expect(words.has(part), text).toBe(true);
    }
    expect(warmUpTexts({ entries: [] }, 10)).toEqual([]);
  });

  it('answers every question and list page with a 200, ranks each question once and keeps no ranking', async () => {
    const { catalog, service: s } = await service();
    const answered = await warmUp(s, catalog, '/ard/v1', 40);
    // 40 questions and one GET /agents page per ten of them.
    expect(answered).toBe(44);
    expect(s.engine.ranked).toBe(40);
    expect(s.engine.rankingsKept).toBe(0);
  });
});
