/**
 * Fuzz test of the two other inputs a pull request can change (docs/security.md, "contributor pull
 * request"): stored specs (`parseSpec`, what check, build and `npm run specs` read) and release history
 * files (`parseHistory`, what check, build and `npm run release` read). Real specs (test/fixtures/specs/:
 * OpenAPI in YAML, a Google Discovery document in JSON, an MCP tools/list) and a release history are
 * mutated (test/helpers/mutations.ts: byte flips, truncations, deep nesting, huge strings, YAML alias
 * bombs, type swaps, BOMs). A spec either parses or is refused with a coded ArdsiteError naming its file;
 * a history either parses or comes back as coded diagnostics naming its file; neither ever throws
 * anything else. An input whose alias bomb were expanded would run for minutes, past the test's timeout,
 * which fails it: no clock is read.
 *
 * Bounded by count: {@link RUNS} inputs per kind from the fixed seed {@link SEED} (`FUZZ_SEED`,
 * `FUZZ_RUNS` choose others; fast-check prints the seed and the shrunk input of a failure).
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { load as loadYaml } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { ArdsiteError, ERROR_CODES } from '../../src/core/util/errors.js';
import { parseSpec } from '../../src/core/ram/parse-spec.js';
import { parseHistory, serializeHistory } from '../../src/core/releases/history.js';
import type { Ram } from '../../src/core/schema/ram.js';
import { applyMutation, mutation } from '../helpers/mutations.js';
import { fixture } from '../helpers/site.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 100);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_203);

const SPECS = {
  'content/specs/openapi.yaml': 'openapi.yaml',
  'content/specs/tasks-api.json': 'tasks-api.json',
  'content/specs/github-tools-list.json': 'github-tools-list.json',
} as const;
type SpecFile = keyof typeof SPECS;

const specBytes = Object.fromEntries(
  Object.entries(SPECS).map(([file, name]) => [file, readFileSync(fixture(`specs/${name}`))]),
) as Record<SpecFile, Buffer>;

const yamlCodec = {
  parse: (t: string) => loadYaml(t) as unknown,
  serialise: (v: unknown) => JSON.stringify(v, null, 2),
};
const jsonCodec = { parse: (t: string) => JSON.parse(t) as unknown, serialise: yamlCodec.serialise };

const RAM: Ram = {
  resources: [
    {
      id: 'notes',
      interactionProtocol: 'MCP',
      owner: 'CONSUMER',
      displayName: 'Notes',
      description: 'Notes.',
    },
  ],
  operations: [{ id: 'notes-read', resource: 'notes', description: 'Reads notes.' }],
  resourceAccesses: [
    {
      id: 'read',
      operation: 'notes-read',
      identityUsed: 'END_USER',
      confirmationRequired: true,
      accessJustification: 'To read your notes.',
      necessity: 'REQUIRED',
    },
  ],
} as unknown as Ram;
const HISTORY = Buffer.from(
  serializeHistory('urn:air:agents.example.test:agents:notes', [
    { version: '1.0.0', releasedAt: '2026-01-01T00:00:00Z', ram: RAM },
    { version: '1.1.0', releasedAt: '2026-02-01T00:00:00Z', ram: RAM, readOnlyOperations: ['notes-read'] },
  ]),
);

describe('stored specs and release files under mutation', () => {
  it('the unmutated inputs parse, so the fuzzer starts from files that load', async () => {
    for (const file of Object.keys(SPECS) as SpecFile[])
      await expect(parseSpec(specBytes[file], file)).resolves.toBeDefined();
    expect(Array.isArray(parseHistory('content/releases/notes.json', HISTORY.toString('utf8')))).toBe(false);
  });

  it(`parseSpec resolves or throws a coded ArdsiteError naming the file, on ${RUNS} mutated specs`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...(Object.keys(SPECS) as SpecFile[])),
        fc.array(mutation, { minLength: 1, maxLength: 3 }),
        async (file, mutations) => {
          let bytes = specBytes[file];
          for (const m of mutations)
            bytes = applyMutation(bytes, m, file.endsWith('.yaml') ? yamlCodec : jsonCodec);
          try {
            await parseSpec(new Uint8Array(bytes), file);
          } catch (error) {
            expect(error).toBeInstanceOf(ArdsiteError);
            expect(Object.keys(ERROR_CODES)).toContain((error as ArdsiteError).code);
            expect((error as Error).message).toContain(file);
            expect((error as Error).message).not.toMatch(/\n\s+at .+:\d+:\d+/);
          }
        },
      ),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  }, 300_000);

  it(`parseHistory never throws and codes every diagnostic, on ${RUNS} mutated release files`, async () => {
    await fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 3 }), (mutations) => {
        let bytes: Buffer = HISTORY;
        for (const m of mutations) bytes = applyMutation(bytes, m, jsonCodec);
        const parsed = parseHistory('content/releases/notes.json', Buffer.from(bytes).toString('utf8'));
        if (Array.isArray(parsed)) {
          for (const d of parsed) {
            expect(Object.keys(ERROR_CODES)).toContain(d.code);
            expect(d.file).toBe('content/releases/notes.json');
            expect(d.message).not.toMatch(/\n\s+at .+:\d+:\d+/);
          }
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  }, 300_000);
});
