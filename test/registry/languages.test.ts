/**
 * `/search` on a site in two languages, over HTTP: the bilingual fixture built in registry mode (the
 * real `scripts/build.ts --registry`, fixed TEST-ONLY key, once a run: test/helpers/shared-build.ts) and served by the one server. A Portuguese
 * question, asked with `Accept-Language: pt-BR` (RFC 9110 §12.5.4), finds the agent whose Portuguese
 * texts (the texts of its /pt-br/ pages) say it; asked in English, the same words find nothing.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGISTRY_TEXTS_FILE, type RegistryTexts } from '../../src/core/registry/entry-texts.js';
import { loadRegistryIndex } from '../../src/core/registry/load-index.js';
import { fixedKeyEnv, removeProjects } from '../helpers/build.js';
import { sharedBuild } from '../helpers/shared-build.js';
import { fixture } from '../helpers/site.js';
import { postJson, startTestRegistry, type TestRegistry } from '../helpers/registry.js';

const CONCIERGE = 'urn:air:agents.example.com:travel:itinerary-concierge';

let root: string;
let registry: TestRegistry;

type Answer = { results: Array<{ identifier: string; score: number }> };
const search = (text: string, headers: Record<string, string> = {}) =>
  postJson<Answer>(`${registry.apiUrl}/search`, { query: { text } }, headers);

beforeAll(async () => {
  // The bilingual registry build, shared with registry/federation-languages.test.ts: `root` holds this
  // file's copy of it, `dist` and `dist-server` (test/helpers/shared-build.ts).
  const dist = await sharedBuild(fixture('pages-bilingual'), {
    copy: true,
    env: fixedKeyEnv(),
    registry: true,
  });
  root = path.dirname(dist);
  registry = await startTestRegistry(path.join(root, 'dist'));
});

afterAll(async () => {
  await registry?.close();
  await removeProjects();
});

describe('a Portuguese question on the bilingual site', () => {
  it('the server collected its start-up garbage before listening (full-collection.ts)', () => {
    expect(registry.logs.join('\n')).toMatch(/Collected the start-up's garbage in \d+ ms\./);
  });

  it('the registry build keeps the Portuguese texts of the entries, bound to its ard.json', async () => {
    const texts = JSON.parse(
      await readFile(path.join(`${root}/dist-server`, REGISTRY_TEXTS_FILE), 'utf8'),
    ) as RegistryTexts;
    expect(texts.languages).toEqual(['en', 'pt-BR']);
    const concierge = texts.entries.find((e) => e.identifier === CONCIERGE);
    expect(concierge?.texts['pt-BR']?.representativeQueries).toContain(
      'Planeje três dias em Paris entre as minhas reuniões',
    );
  });

  it('answers in Portuguese with Accept-Language: pt-BR, and finds nothing in English', async () => {
    const pt = await search('roteiros de viagem', { 'Accept-Language': 'pt-BR,pt;q=0.9,en;q=0.5' });
    expect(pt.status).toBe(200);
    expect(pt.body.results[0]?.identifier).toBe(CONCIERGE);
    expect(pt.headers.get('vary')).toContain('Accept-Language');
    const en = await search('roteiros de viagem', { 'Accept-Language': 'en' });
    expect(en.body.results.map((r) => r.identifier)).not.toContain(CONCIERGE);
    const none = await search('roteiros de viagem');
    expect(none.body).toEqual(en.body);
  });

  it('the English ranking is the one without the header', async () => {
    const en = await search('plan my itinerary', { 'Accept-Language': 'en-US' });
    const none = await search('plan my itinerary');
    expect(en.body.results[0]?.identifier).toBe(CONCIERGE);
    expect(none.body).toEqual(en.body);
  });

  it('/explore matches its text in the language Accept-Language picks, as /search ranks it', async () => {
    type Facets = { facets: { identifier: { buckets: Array<{ value: string; count: number }> } } };
    const explore = (headers: Record<string, string>) =>
      postJson<Facets>(
        `${registry.apiUrl}/explore`,
        {
          query: { text: 'roteiros de viagem' },
          resultType: { facets: [{ field: 'identifier', limit: 100 }] },
        },
        headers,
      );
    const pt = await explore({ 'Accept-Language': 'pt-BR,pt;q=0.9,en;q=0.5' });
    expect(pt.status).toBe(200);
    const matched = pt.body.facets.identifier.buckets.map((b) => b.value).sort();
    const ranked = await search('roteiros de viagem', { 'Accept-Language': 'pt-BR' });
    expect(matched).toContain(CONCIERGE);
    expect(matched).toEqual(ranked.body.results.map((r) => r.identifier).sort());
    const en = await explore({ 'Accept-Language': 'en' });
    expect(en.body.facets.identifier.buckets.map((b) => b.value)).not.toContain(CONCIERGE);
    expect((await explore({})).body).toEqual(en.body);
  });

  it('texts of another build are not indexed (they are bound to ard.json by its digest)', async () => {
    const dir = path.join(root, 'dist');
    const file = path.join(`${root}/dist-server`, REGISTRY_TEXTS_FILE);
    const loaded = await loadRegistryIndex({ dir, origin: 'https://agents.example.com' });
    expect([...loaded.catalog.byLanguage.keys()]).toEqual(['pt-BR']);
    const texts = JSON.parse(await readFile(file, 'utf8')) as RegistryTexts;
    await writeFile(file, JSON.stringify({ ...texts, manifestDigest: `sha256:${'0'.repeat(64)}` }));
    const logs: string[] = [];
    const stale = await loadRegistryIndex({
      dir,
      origin: 'https://agents.example.com',
      log: (l) => logs.push(l),
    });
    expect(stale.catalog.byLanguage.size).toBe(0);
    expect(logs.join('\n')).toMatch(/texts in other languages belong to another build/);
  });
});
