/**
 * `npm run import` over real published cards (test/fixtures/import-cards/, copied from
 * ../shared/testdata/cards/, sources in its README) and two RAM-carrying cards: each imported into a
 * project made by `npm run new`, the project checked (no error) and built, and each built card compared
 * with the card it came from: every value ardsite can express is still there.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { camelKeys } from '../../src/core/a2a/a2a-forms.js';
import { importAgentCard } from '../../src/core/import/import-card.js';
import { buildExampleSite, cleanUpSites } from '../helpers/ard-site.js';
import { buildProject, fixedKeyEnv, type BuildResult } from '../helpers/build.js';
import { runCommandInProcess, runScript } from '../helpers/cli.js';
import { fixture } from '../helpers/site.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const CARDS: ReadonlyArray<[file: string, slug: string]> = [
  ['a2a-samples--air_ticketing_agent.json', 'air-ticketing'],
  ['a2a-samples--currency_agent--agent_card.json', 'currency-v03'],
  ['a2a-samples--skills_agent--agent_card.json', 'currency-v10'],
  ['a2a-spec-cli-testdata--full.json', 'recipe'],
  ['ram-extension-hybrid-snake.json', 'trip-booker'],
  ['ram-top-level-camel.json', 'weather-desk'],
];
const cardFile = (file: string) => path.join(fixture('import-cards'), file);
const source = (file: string): Json => camelKeys(JSON.parse(readFileSync(cardFile(file), 'utf8'))) as Json;

let parent: string;
let root: string;
/** What each import of `CARDS` gave (run in this process: the child-process runs are `new`, `check` and https). */
const imports = new Map<string, Awaited<ReturnType<typeof runScript>>>();
let built: BuildResult;
let check: Awaited<ReturnType<typeof runScript>>;
let server: http.Server;

beforeAll(async () => {
  parent = await mkdtemp(path.join(tmpdir(), 'ardsite-import-'));
  root = path.join(parent, 'site');
  const made = await runScript(
    'new.ts',
    root,
    '--domain',
    'agents.importer.test',
    '--organization',
    'Importer',
  );
  if (made.code !== 0) throw new Error(made.stderr);
  // These cards are other publishers' (their addresses are on other sites): taken over as agents
  // (--as-own), to check that every value ardsite can express is kept (test/build/import-foreign.test.ts
  // checks the default, an entry of theirs).
  for (const [file, slug] of CARDS)
    imports.set(
      slug,
      await runCommandInProcess('import.ts', cardFile(file), '--root', root, '--slug', slug, '--as-own'),
    );
  check = await runScript('check.ts', '--root', root);
  built = await buildProject(root, { env: { ...fixedKeyEnv(), CI: '1' } });
}, 240_000);

afterAll(async () => {
  server?.close();
  if (parent) await rm(parent, { recursive: true, force: true });
  await cleanUpSites(); // the copy of the example site buildExampleSite gave
});

const builtCard = async (slug: string): Promise<Json> =>
  JSON.parse(await readFile(path.join(built.outDir, 'agents', slug, 'agent-card.json'), 'utf8'));

describe('npm run import over real cards', () => {
  it('imports each card, and the project checks with no error and builds', () => {
    for (const [slug, run] of imports) expect(run.code, `${slug}: ${run.stderr}`).toBe(0);
    expect(check.stdout.split('\n').at(-2)).toMatch(
      /^checked \S+\/: 7 agents, \d+ resources, 0 entries, 0 errors, \d+ warnings?$/,
    );
    expect(built.code, built.stderr).toBe(0);
  });

  it.each(CARDS)('the card built from %s keeps its values', async (file, slug) => {
    const from = source(file);
    const card = await builtCard(slug);
    for (const field of ['name', 'description', 'version']) expect(card[field], field).toBe(from[field]);
    expect(card.skills.map((s: Json) => [s.id, s.name, s.description, s.tags, s.examples])).toEqual(
      from.skills.map((s: Json) => [s.id, s.name, s.description, s.tags, s.examples]),
    );
    for (const name of ['streaming', 'pushNotifications'])
      if (from.capabilities?.[name] !== undefined)
        expect(card.capabilities[name], name).toBe(from.capabilities[name]);
    for (const side of ['defaultInputModes', 'defaultOutputModes'])
      expect(card[side]).toEqual(from[side].filter((m: string) => m.includes('/')));
    for (const field of ['documentationUrl', 'iconUrl'])
      if (from[field]) expect(card[field]).toBe(from[field]);
    if (from.provider?.url?.startsWith('https:')) expect(card.provider).toEqual(from.provider);
    // Every address of the card is still served (a GRPC target as host:port).
    const urls = card.supportedInterfaces.map((i: Json) => i.url);
    const given = from.supportedInterfaces?.map((i: Json) => i.url) ?? [from.url];
    for (const url of given) expect(urls).toContain(/grpc/.test(url) ? new URL(url).host + ':443' : url);
    if (from.securitySchemes)
      expect(Object.keys(card.securitySchemes).sort()).toEqual(Object.keys(from.securitySchemes).sort());
  });

  it('keeps a RAM from an extension (snake_case, with skill accesses) and from the top level', async () => {
    const seed = camelKeys(
      JSON.parse(readFileSync(path.join(fixture('seed'), 'travel-agent-ram.json'), 'utf8')),
    ) as Json;
    const trip = await builtCard('trip-booker');
    const ext = trip.capabilities.extensions.find((e: Json) => Array.isArray(e.params?.resourceAccesses));
    const { skillAccesses, permissions: _p, ...ram } = ext.params;
    expect(ram.resources).toEqual(seed.resources);
    expect(ram.operations).toEqual(seed.operations);
    expect(ram.resourceAccesses).toEqual(seed.resourceAccesses);
    expect(skillAccesses).toEqual(
      source('ram-extension-hybrid-snake.json').capabilities.extensions[0].params.skill_accesses,
    );
    expect(trip.resourceAccessManifest).toBeUndefined(); // the card had it in the extension only
    const weather = await builtCard('weather-desk');
    expect(weather.resourceAccessManifest).toEqual(source('ram-top-level-camel.json').resourceAccessManifest);
  });

  it("takes a card ardsite built as it is: no RAM difference for the members beside the extension's RAM", async () => {
    // The example's concierge card: its extension carries the skill map, the permission sets and the page
    // facts beside the RAM, which the top-level copy does not.
    const card = path.join(await buildExampleSite(), 'agents', 'itinerary-concierge', 'agent-card.json');
    const run = await runCommandInProcess(
      'import.ts',
      card,
      '--root',
      root,
      '--slug',
      'concierge-copy',
      '--as-own',
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toContain('resourceAccessManifest');
  });

  it('lists what it drops and why', () => {
    const out = (slug: string) => imports.get(slug)!.stdout;
    expect(out('air-ticketing')).toContain(
      'dropped  capabilities.stateTransitionHistory: not an AgentCapabilities field',
    );
    expect(out('air-ticketing')).toContain('dropped  defaultInputModes[0]: "text" is not a media type');
    expect(out('currency-v03')).toContain('dropped  provider.url: "http://example.com" must use https:');
    expect(out('recipe')).toContain('dropped  security[0]: requires bearerAuth without scopes');
    expect(out('recipe')).toContain(
      'dropped  capabilities.extensions[0]: extension "https://example.com/extensions/recipe-rating"',
    );
    expect(out('recipe')).toContain(
      'changed  supportedInterfaces[0].transport: written as protocolBinding: JSONRPC',
    );
    expect(out('trip-booker')).toContain('dropped  signatures: ardsite signs the card');
    expect(out('trip-booker')).toContain(
      'changed  securitySchemes.google: the v0.3 form written in the v1.0 form',
    );
    expect(out('weather-desk')).toMatch(/0 changed, 0 dropped/);
    // A card without a RAM: the publisher is told what its pages will then say.
    for (const slug of ['air-ticketing', 'currency-v03', 'currency-v10', 'recipe'])
      expect(out(slug), slug).toContain(
        'changed  resourceAccessManifest: absent: the pages will say this agent uses none of the user’s accounts and no outside service; if it does, declare each use under resourceAccesses',
      );
    expect(out('trip-booker')).not.toContain('changed  resourceAccessManifest');
  });

  it('reads a card over https through the network reader, and refuses http and private addresses', async () => {
    const body = readFileSync(cardFile('a2a-samples--skills_agent--agent_card.json'));
    server = http.createServer((_req, res) => res.end(body));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const fetched = await runScript(
      'import.ts',
      'https://cards.example.test/card.json',
      '--root',
      root,
      '--slug',
      'fetched',
      '--resolve',
      `cards.example.test=http://127.0.0.1:${port}`,
      '--as-own',
    );
    expect(fetched.code, fetched.stderr).toBe(0);
    expect(await readFile(path.join(root, 'content/agents/fetched.md'), 'utf8')).toContain(
      'name: Currency Conversion Agent',
    );
    const plain = await runScript('import.ts', `http://127.0.0.1:${port}/card.json`, '--root', root);
    expect([plain.code, plain.stderr]).toEqual([1, expect.stringContaining('over https only')]);
    const inside = await runScript('import.ts', `https://127.0.0.1:${port}/card.json`, '--root', root);
    expect([inside.code, inside.stderr]).toEqual([1, expect.stringContaining('private address')]);
    const again = await runScript(
      'import.ts',
      cardFile('ram-top-level-camel.json'),
      '--root',
      root,
      '--slug',
      'weather-desk',
      '--as-own',
    );
    expect([again.code, again.stderr]).toEqual([
      1,
      'content/agents/weather-desk.md exists: the project has an agent weather-desk already; choose another --slug [IMPORT_SLUG_TAKEN]\n',
    ]);
  });

  it('refuses what is not a card, a file that is not JSON at its line and column', async () => {
    expect(() => importAgentCard({ description: 'no name' }, { source: 'x.json' })).toThrow(
      /not an A2A AgentCard/,
    );
    expect(() =>
      importAgentCard({ name: 'N', url: 'http://example.com/', skills: [] }, { source: 'x.json' }),
    ).toThrow(
      'x.json names no interface ardsite can publish (an https URL, or host:port for GRPC): interfaces[0].url: "http://example.com/" must use https:',
    );
    expect(() =>
      importAgentCard({ name: 'N', url: 'https://a.test/', skills: [{ name: 'S' }] }, { source: 'x.json' }),
    ).toThrow('x.json has no skill ardsite can keep: skills[0]: a skill without an id');
    // V8 gives no position for an unexpected token: the line and column are found again.
    const notJson = path.join(parent, 'not-json.json');
    await writeFile(notJson, '{\n  "name": "N",\n  "skills": [ , ]\n}\n');
    const run = await runCommandInProcess('import.ts', notJson, '--root', root, '--slug', 'not-json');
    expect([run.code, run.stderr]).toEqual([
      1,
      expect.stringContaining(`${notJson} is not JSON at line 3, column 15: Unexpected token`),
    ]);
    // A file that is not there, or a folder: a sentence, exit 1, not a stack trace.
    const missing = path.join(parent, 'no-such-card.json');
    expect(await runCommandInProcess('import.ts', missing, '--root', root)).toEqual({
      code: 1,
      stdout: '',
      stderr: `${missing} could not be read: there is no such file [IMPORT_NOT_A_CARD]\n`,
    });
    expect((await runCommandInProcess('import.ts', parent, '--root', root)).stderr).toBe(
      `${parent} could not be read: it is a folder, not a card file [IMPORT_NOT_A_CARD]\n`,
    );
  });
});
