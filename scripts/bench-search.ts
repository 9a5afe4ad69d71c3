/**
 * `npm run bench:search`: full-text engines side by side on the registry's `/search` step, in one
 * process, over N synthetic ARD entries made in memory ({@link syntheticEntries}: the texts the
 * synthetic publisher of bench/synthetic.ts gives its agents, with a seeded share of distinct words so
 * that not every query matches everything) and a set of never-seen query texts ({@link neverSeenTexts}).
 *
 * Each engine indexes the same five text members with the registry's boosts (src/core/registry/
 * catalog.ts `TEXT_BOOSTS`) and Orama's English tokenizer (stemming, stop words), then answers every
 * text once, timed by the CPU time of this process (`process.cpuUsage`, user + system: less sensitive
 * to other jobs on a shared machine than the wall clock). Engines:
 * - `inverted-index`: the registry's QueryEngine.rank (src/core/registry/text-index.ts: postings
 *   precomputed from Orama's BM25 statistics, the best 1,000 kept by a bounded heap), as `/search` does
 *   for its first page and the pages after;
 * - `inverted-index-orama-weights`: the same with prefix matches weighing what Orama gives them (1), so
 *   its results are Orama's own;
 * - `orama-bounded`: Orama 3.1 with the bounded full-text step (bounded-index.ts), every match ranked:
 *   what `/search` ran before the inverted index;
 * - `orama-top10`: the same index asked for one page (`limit: 10`): Orama used for what a page needs;
 * - `minisearch`: MiniSearch 7.2 (BM25+, prefix search on the last word, field boosts), every match;
 * - `flexsearch`: FlexSearch 0.8 Document index (forward tokenizer, no BM25 score to give as `score`), the
 *   best 100.
 * For each: index time, CPU per query (p50, p99, max, mean) and the questions a second one core answers
 * at that mean; the top-10 overlap of each engine with `orama-bounded` (how much the ranking changes).
 * `--seed` picks another set of never-seen texts (held-out probes: the default set, 99, is the one the
 * bounds were tuned on).
 *
 * Usage: npm run bench:search [-- --entries 10000] [-- --queries 2000] [-- --json <file>] [-- --only orama]
 *        [-- --seed 99]
 */
import { writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { create, insertMultiple, search as oramaSearch } from '@orama/orama';
import FlexSearch from 'flexsearch';
import MiniSearch from 'minisearch';
import { parseCommandLine } from '../src/cli/lib/args.js';
import {
  STOP_WORDS,
  TEXT_BOOSTS,
  TEXT_FIELDS,
  buildCatalog,
  runSearch,
} from '../src/core/registry/catalog.js';
import { QueryEngine } from '../src/core/registry/search.js';
import { oramaRank } from '../test/helpers/orama-rank.js';

/** Mulberry32, as bench/synthetic.ts: the same entries and texts on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Words of the domains real agents serve: each entry takes a few, so texts differ between entries. */
const DOMAIN_WORDS = (
  'flight hotel train bus ferry taxi calendar meeting invoice receipt payroll expense tax weather ' +
  'forecast map route traffic parking recipe grocery pharmacy doctor appointment insurance claim ' +
  'mortgage loan budget stock crypto news podcast music playlist photo video translate contract ' +
  'lawyer ticket concert museum restaurant booking delivery package shipment warehouse inventory ' +
  'recruiting interview resume onboarding vacation holiday visa passport airport luggage refund'
).split(' ');

/** `n` ARD-entry-like objects with the synthetic publisher's texts plus three domain words each. */
export function syntheticEntries(n: number): Array<Record<string, unknown>> {
  const rand = prng(7);
  const pick = () => DOMAIN_WORDS[Math.floor(rand() * DOMAIN_WORDS.length)]!;
  return Array.from({ length: n }, (_, i) => {
    const [a, b, c] = [pick(), pick(), pick()];
    return {
      identifier: `urn:air:bench.example.com:agents:agent-${i}`,
      displayName: `Synthetic Agent ${i} for ${a}`,
      type: 'application/a2a-agent-card+json',
      url: `https://bench.example.com/agents/agent-${i}/agent-card.json`,
      description: `Synthetic agent number ${i}, with three skills and eight accesses to five services: ${a}, ${b} and ${c}.`,
      tags: ['synthetic', 'plan', 'search', 'summarise', a, b],
      capabilities: [`${a} planning`, `${c} search`],
      representativeQueries: [
        `Please plan my ${a} week number ${i}`,
        `Can you search everything about ${b} topic ${(i * 7) % 97}?`,
        `summarise my ${c} for agent ${i}`,
      ],
    };
  });
}

/** `count` query texts no entry was made from: domain words, numbers, misspellings and stop words. */
export function neverSeenTexts(count: number, entries: number, seed = 99): string[] {
  const rand = prng(seed);
  const pick = () => DOMAIN_WORDS[Math.floor(rand() * DOMAIN_WORDS.length)]!;
  const forms = [
    () => `when is my next ${pick()}`,
    () => `find a ${pick()} and a ${pick()} near me tomorrow`,
    () => `plan my ${pick()} week number ${Math.floor(rand() * entries)}`,
    () =>
      `can you ${['plan', 'search', 'summarise'][Math.floor(rand() * 3)]} everything about topic ${Math.floor(rand() * 97)}`,
    () => `${pick()} ${pick()} ${pick()}`,
    () => `help me with ${pick()}s and ${pick()}ing for agent ${Math.floor(rand() * entries)}`,
    () => `synthetic agent number plan search summarise week topic ${Math.floor(rand() * 1000)}`,
  ];
  return Array.from({ length: count }, (_, i) => `${forms[i % forms.length]!()} ${i.toString(36)}q`);
}

interface EngineRun {
  engine: string;
  indexSeconds: number;
  cpuMs: { p50: number; p99: number; max: number; mean: number };
  questionsPerCoreSecond: number;
  top10OverlapWithOramaToday?: number;
  note?: string;
}

const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** Times `answer` over every text: CPU ms per query, and the top 10 identifiers (positions) of each. */
function measure(
  texts: readonly string[],
  answer: (text: string) => number[],
): { cpu: number[]; tops: number[][] } {
  const cpu: number[] = [];
  const tops: number[][] = [];
  for (const text of texts) {
    const t0 = cpuNow();
    const top = answer(text);
    cpu.push(cpuNow() - t0);
    tops.push(top.slice(0, 10));
  }
  return { cpu, tops };
}

function summary(engine: string, indexSeconds: number, cpu: number[]): EngineRun {
  const sorted = [...cpu].sort((a, b) => a - b);
  const mean = cpu.reduce((s, x) => s + x, 0) / cpu.length;
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return {
    engine,
    indexSeconds: round(indexSeconds),
    cpuMs: {
      p50: round(percentile(sorted, 50)),
      p99: round(percentile(sorted, 99)),
      max: round(sorted.at(-1)!),
      mean: round(mean),
    },
    questionsPerCoreSecond: Math.round(1000 / mean),
  };
}

/** Mean share of `b`'s top 10 that is in `a`'s top 10 (1: the same entries), over queries where `a` has any. */
function overlap(a: number[][], b: number[][]): number {
  let sum = 0;
  let counted = 0;
  a.forEach((top, i) => {
    if (top.length === 0) return;
    const other = new Set(b[i]);
    sum += top.filter((p) => other.has(p)).length / top.length;
    counted++;
  });
  return Math.round((sum / Math.max(1, counted)) * 1000) / 1000;
}

async function main(): Promise<void> {
  const { values } = parseCommandLine(
    {
      options: {
        entries: { type: 'string', default: '10000' },
        queries: { type: 'string', default: '2000' },
        json: { type: 'string' },
        only: { type: 'string' },
        seed: { type: 'string', default: '99' },
      },
    },
    'usage: npm run bench:search [-- --entries 10000] [-- --queries 2000] [-- --json <file>] [-- --only orama] [-- --seed 99]',
  );
  // `--only orama`: the registry's own engine alone (a quick before/after of a change to it).
  const others = values.only !== 'orama';
  const n = Number(values.entries);
  const entries = syntheticEntries(n);
  const texts = neverSeenTexts(Number(values.queries), n, Number(values.seed));
  const warm = neverSeenTexts(50, n).map((t) => `${t} warm`);
  const runs: EngineRun[] = [];
  const log = (line: string) => process.stderr.write(`${line}\n`);

  // The registry's index: Orama's statistics, /search from the inverted index.
  let t0 = performance.now();
  const catalog = await buildCatalog(
    entries.map((entry) => ({ entry, verified: true })),
    { keepOrama: true },
  );
  const oramaIndex = (performance.now() - t0) / 1000;
  const byEngine = (engine: QueryEngine) => (text: string) => [
    ...engine.rank({ text, filter: [], context: new Map() }).positions,
  ];
  // What /search ran before the inverted index: Orama's search (bounded step), every match ranked.
  const boundedTop = (text: string) => oramaRank(catalog, text).positions;
  measure(warm, boundedTop);
  const today = measure(texts, boundedTop);
  runs.push(summary('orama-bounded', oramaIndex, today.cpu));
  log(`orama-bounded: ${JSON.stringify(runs.at(-1))}`);
  for (const [name, engine] of [
    ['inverted-index', new QueryEngine(catalog, 1)],
    ['inverted-index-orama-weights', new QueryEngine(catalog, 1, 1)],
  ] as const) {
    measure(warm, byEngine(engine));
    const run = measure(texts, byEngine(engine));
    runs.push({
      ...summary(name, oramaIndex, run.cpu),
      top10OverlapWithOramaToday: overlap(today.tops, run.tops),
    });
    log(`${name}: ${JSON.stringify(runs.at(-1))}`);
  }

  // The same index, asked for one page.
  const pageTop = (text: string) =>
    runSearch(catalog, {
      term: text,
      properties: TEXT_FIELDS,
      boost: TEXT_BOOSTS,
      threshold: 1,
      limit: 10,
      includeVectors: true,
    }).hits.map((h) => Number(h.id));
  measure(warm, pageTop);
  const page = measure(texts, pageTop);
  runs.push({
    ...summary('orama-top10', oramaIndex, page.cpu),
    top10OverlapWithOramaToday: overlap(today.tops, page.tops),
  });
  log(`orama-top10: ${JSON.stringify(runs.at(-1))}`);

  if (others) await compareOthers();
  async function compareOthers(): Promise<void> {
    // Orama's own full-text step (no bound), for reference.
    t0 = performance.now();
    const stock = create({
      schema: Object.fromEntries(TEXT_FIELDS.map((f) => [f, 'string'])) as never,
      components: { tokenizer: { stemming: true, stopWords: [...STOP_WORDS] } },
    });
    await insertMultiple(
      stock,
      entries.map((e, i) => ({
        id: String(i),
        ...Object.fromEntries(
          TEXT_FIELDS.map((f) => [f, Array.isArray(e[f]) ? (e[f] as string[]).join('\n') : e[f]]),
        ),
      })) as never,
      1000,
    );
    const stockIndex = (performance.now() - t0) / 1000;
    const stockTop = (text: string) => {
      const r = oramaSearch(stock, {
        term: text,
        properties: TEXT_FIELDS,
        boost: TEXT_BOOSTS,
        threshold: 1,
        limit: 10,
      } as never) as unknown as { hits: Array<{ id: string }> };
      return r.hits.map((h) => Number(h.id));
    };
    const stockTexts = texts.slice(0, Math.min(texts.length, 200));
    measure(warm.slice(0, 5), stockTop);
    const stockRun = measure(stockTexts, stockTop);
    runs.push({
      ...summary('orama-unbounded-top10', stockIndex, stockRun.cpu),
      top10OverlapWithOramaToday: overlap(today.tops.slice(0, stockTexts.length), stockRun.tops),
      note: `first ${stockTexts.length} texts only`,
    });
    log(`orama-unbounded-top10: ${JSON.stringify(runs.at(-1))}`);

    // MiniSearch, with Orama's tokenizer (the same words as the registry's index).
    const tokenizer = (
      catalog.db as unknown as { tokenizer: { tokenize(text: string, language?: string): string[] } }
    ).tokenizer;
    t0 = performance.now();
    const mini = new MiniSearch<Record<string, unknown>>({
      fields: [...TEXT_FIELDS],
      idField: 'position',
      extractField: (doc, field) => {
        const v = doc[field];
        return Array.isArray(v) ? v.join('\n') : ((v as string | undefined) ?? '');
      },
      tokenize: (text) => tokenizer.tokenize(text),
      processTerm: (term) => term,
      searchOptions: { boost: { ...TEXT_BOOSTS }, prefix: true, combineWith: 'OR' },
    });
    mini.addAll(entries.map((e, position) => ({ ...e, position })));
    const miniIndex = (performance.now() - t0) / 1000;
    const miniTop = (text: string) => mini.search(text).map((r) => r.id as number);
    measure(warm, miniTop);
    const miniRun = measure(texts, miniTop);
    runs.push({
      ...summary('minisearch', miniIndex, miniRun.cpu),
      top10OverlapWithOramaToday: overlap(today.tops, miniRun.tops),
    });
    log(`minisearch: ${JSON.stringify(runs.at(-1))}`);

    // FlexSearch Document index.
    t0 = performance.now();
    const flex = new FlexSearch.Document({
      document: {
        id: 'position',
        index: TEXT_FIELDS.map((field) => ({ field, tokenize: 'forward' as const })),
      },
    });
    entries.forEach((e, position) => {
      const doc: Record<string, unknown> = { position };
      for (const f of TEXT_FIELDS) doc[f] = Array.isArray(e[f]) ? (e[f] as string[]).join('\n') : e[f];
      flex.add(doc as never);
    });
    const flexIndex = (performance.now() - t0) / 1000;
    const flexTop = (text: string) => {
      const seen = new Set<number>();
      for (const field of flex.search(text, { limit: 100 }) as Array<{ result: number[] }>)
        for (const id of field.result) seen.add(id);
      return [...seen];
    };
    measure(warm, flexTop);
    const flexRun = measure(texts, flexTop);
    runs.push({
      ...summary('flexsearch', flexIndex, flexRun.cpu),
      top10OverlapWithOramaToday: overlap(today.tops, flexRun.tops),
      note: 'no BM25 score; results per field, merged in field order',
    });
    log(`flexsearch: ${JSON.stringify(runs.at(-1))}`);
  }

  const load = (await import('node:os'))
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
  const rows = runs.map(
    (r) =>
      `| ${r.engine} | ${r.indexSeconds} | ${r.cpuMs.p50} | ${r.cpuMs.p99} | ${r.cpuMs.max} | ${r.cpuMs.mean} | ${r.questionsPerCoreSecond} | ${r.top10OverlapWithOramaToday ?? '—'} |`,
  );
  process.stdout.write(
    [
      `${n} entries, ${texts.length} never-seen texts, Node ${process.version}, load average ${load}.`,
      '',
      '| engine | index s | CPU p50 ms | CPU p99 ms | CPU max ms | CPU mean ms | questions/core-s | top-10 overlap |',
      '| --- | --- | --- | --- | --- | --- | --- | --- |',
      ...rows,
      '',
    ].join('\n'),
  );
  if (values.json)
    await writeFile(
      values.json,
      `${JSON.stringify({ entries: n, queries: texts.length, load, runs }, null, 2)}\n`,
    );
}

// Run only as a command, so the entries and texts can be imported (a profile of one engine).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
