/**
 * Fuzz test of the content loader and checks (docs/security.md, "Fuzz tests" and "Threat model": a
 * contributor's pull request): content files made from ardsite's own schemas
 * (test/helpers/schema-arbitrary.ts) and mutated (test/helpers/mutations.ts: byte flips, truncations, deep
 * nesting, huge strings, type swaps, BOMs, YAML aliases and tags) are given to `loadAndCheck`, the one call
 * behind `npm run check`, the build and the dev server. It never throws, and every diagnostic carries a known
 * code, a message and, for an error, the file it is about.
 *
 * Bounded by count so CI stays fast: {@link RUNS} inputs a run, from the fixed seed {@link SEED}
 * (`FUZZ_SEED` and `FUZZ_RUNS` choose others; fast-check prints the seed and the shrunk input of a
 * failure, which replays it). The base project is test/fixtures/content-valid plus one agent with a
 * `ramFile`.
 */
import fc from 'fast-check';
import { load as loadYaml } from 'js-yaml';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadAndCheck } from '../../src/core/content/index.js';
import { ERROR_CODES } from '../../src/core/util/errors.js';
import { AgentFrontMatter } from '../../src/core/schema/agent.js';
import { OtherEntryFile } from '../../src/core/schema/entry.js';
import { Publisher } from '../../src/core/schema/publisher.js';
import { ResourceAccessManifest, ResourceFile } from '../../src/core/schema/ram.js';
import { applyMutation, mutation, type Mutation } from '../helpers/mutations.js';
import { arbitraryOf } from '../helpers/schema-arbitrary.js';
import { fixture } from '../helpers/site.js';

/** Inputs tried per run (each a whole project checked once). */
const RUNS = Number(process.env.FUZZ_RUNS ?? 100);
/** The seed of the run (fixed, so CI runs the same inputs; printed by fast-check on a failure). */
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_201);

/** The content files a publisher writes, with the schema of each one's document. */
const FILES = {
  'content/publisher.yaml': { schema: Publisher, format: 'yaml' },
  'content/agents/note-taker.md': { schema: AgentFrontMatter, format: 'front-matter' },
  'content/agents/ram-holder.md': { schema: AgentFrontMatter, format: 'front-matter' },
  'content/agents/ram-holder.ram.json': { schema: ResourceAccessManifest, format: 'json' },
  'content/resources/notes-api.yaml': { schema: ResourceFile, format: 'yaml' },
  'content/entries/notes-mcp.yaml': { schema: OtherEntryFile, format: 'yaml' },
} as const;
type ContentFile = keyof typeof FILES;
const NAMES = Object.keys(FILES) as ContentFile[];

/** The front matter and the rest of an agent file. */
function splitFrontMatter(text: string): { yaml: string; body: string } {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  return m ? { yaml: m[1]!, body: m[2]! } : { yaml: '', body: text };
}

/** Reads and writes a file's document for type swaps (JSON is YAML, so every document is written as JSON). */
function codecOf(file: ContentFile) {
  const { format } = FILES[file];
  if (format === 'json')
    return {
      parse: (t: string) => JSON.parse(t) as unknown,
      serialise: (v: unknown) => JSON.stringify(v, null, 2),
    };
  if (format === 'yaml')
    return { parse: (t: string) => loadYaml(t), serialise: (v: unknown) => JSON.stringify(v) };
  let body = '';
  return {
    parse: (t: string) => {
      const parts = splitFrontMatter(t);
      body = parts.body;
      return loadYaml(parts.yaml);
    },
    serialise: (v: unknown) => `---\n${JSON.stringify(v)}\n---\n${body}`,
  };
}

/** Writes a schema-made document as `file` holds it (agent bodies kept). */
function documentText(file: ContentFile, value: unknown, base: string): string {
  if (FILES[file].format !== 'front-matter') return `${JSON.stringify(value, null, 2)}\n`;
  const withRam =
    file.endsWith('ram-holder.md') && value && typeof value === 'object'
      ? { ...value, ramFile: './ram-holder.ram.json' }
      : value;
  return `---\n${JSON.stringify(withRam)}\n---\n${splitFrontMatter(base).body}`;
}

/** One fuzz input: some files replaced by schema-made documents, then mutations of some files. */
interface Input {
  generated: Array<[ContentFile, unknown]>;
  mutations: Array<[ContentFile, Mutation]>;
}

const input: fc.Arbitrary<Input> = fc.record({
  generated: fc.array(
    fc
      .constantFrom(...NAMES)
      .chain((file) => arbitraryOf(FILES[file].schema).map((v) => [file, v] as [ContentFile, unknown])),
    { maxLength: 2 },
  ),
  mutations: fc.array(fc.tuple(fc.constantFrom(...NAMES), mutation), { maxLength: 3 }),
});

/** The base project: content-valid, plus an agent whose RAM is in a ramFile. */
function baseFiles(): Map<ContentFile, Buffer> {
  const valid = fixture('content-valid');
  const files = new Map<ContentFile, Buffer>();
  for (const name of NAMES) {
    if (name.includes('ram-holder')) continue;
    files.set(name, readFileSync(path.join(valid, name)));
  }
  // The weather reporter with its RAM moved to a ramFile (the RAM proposal's JSON form, snake_case).
  const weather = readFileSync(path.join(valid, 'content/agents/weather-reporter.md'), 'utf8');
  const { yaml, body } = splitFrontMatter(weather);
  const { resources: _r, resourceAccesses: _a, ...holder } = loadYaml(yaml) as Record<string, unknown>;
  const ram = {
    resources: [
      {
        id: 'forecast-mcp',
        interaction_protocol: 'MCP',
        owner: 'THIRD_PARTY',
        display_name: 'Forecast MCP tool',
        description: 'Weather forecasts for any place.',
      },
    ],
    operations: [
      {
        id: 'forecast-mcp-call',
        resource: 'forecast-mcp',
        description: 'Fetches the forecast of a place.',
        read_only: true,
      },
    ],
    resource_accesses: [
      {
        id: 'fetch-forecast',
        operation: 'forecast-mcp-call',
        identity_used: 'AGENT',
        access_justification: 'To fetch the forecast of a place.',
        necessity: 'REQUIRED',
      },
    ],
  };
  files.set(
    'content/agents/ram-holder.md',
    Buffer.from(
      `---\n${JSON.stringify({ ...holder, name: 'RAM Holder', ramFile: './ram-holder.ram.json' })}\n---\n${body}`,
    ),
  );
  files.set('content/agents/ram-holder.ram.json', Buffer.from(JSON.stringify(ram, null, 2)));
  return files;
}

const work = mkdtempSync(path.join(tmpdir(), 'ardsite-fuzz-content-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('content fuzzing (no input ends in an uncaught exception)', () => {
  const base = baseFiles();

  it('the base project checks clean, so the fuzzer starts from content that loads', async () => {
    const root = path.join(work, 'base');
    cpSync(fixture('content-valid'), root, { recursive: true });
    for (const [name, bytes] of base) writeFileSync(path.join(root, name), bytes);
    const { model, diagnostics } = await loadAndCheck({ root });
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(model?.agents.map((a) => a.slug)).toEqual(['note-taker', 'ram-holder', 'weather-reporter']);
  });

  it(`loadAndCheck never throws on ${RUNS} schema-made and mutated projects; every diagnostic is coded, errors name their file`, async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(input, async ({ generated, mutations }) => {
        const root = path.join(work, `p${run++}`);
        cpSync(fixture('content-valid'), root, { recursive: true });
        const files = new Map(base);
        for (const [file, value] of generated)
          files.set(file, Buffer.from(documentText(file, value, base.get(file)!.toString('utf8'))));
        for (const [file, m] of mutations) files.set(file, applyMutation(files.get(file)!, m, codecOf(file)));
        for (const [name, bytes] of files) writeFileSync(path.join(root, name), bytes);
        try {
          const { diagnostics } = await loadAndCheck({ root });
          for (const d of diagnostics) {
            expect(Object.keys(ERROR_CODES)).toContain(d.code);
            expect(typeof d.message).toBe('string');
            expect(d.message).not.toMatch(/\n\s+at .+:\d+:\d+/); // no stack trace in a message
            if (d.severity === 'error') expect(d.file, JSON.stringify(d)).toBeTruthy();
          }
        } finally {
          rmSync(root, { recursive: true, force: true });
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  }, 600_000);
});
