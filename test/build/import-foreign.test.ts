/**
 * `npm run import` of a card that is not the publisher's: another organisation's card (its addresses on
 * another site than publisher.yaml's `domain`) becomes an entry of theirs pointing at their card (url +
 * digest of the bytes read, or the card inline when read from a file), never an agent the site signs;
 * `--as-own` takes it over as an agent, with a warning. And the address checks: a template address is an
 * error naming the field and value; a relative interface address is resolved against the card's URL (or
 * `--base-url`), and is an error from a file without one; `contact.email` and `protocols.mcp.serverUrl`
 * are reported with the publisher.yaml field and the entry file that hold them.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProject, fixedKeyEnv, type BuildResult } from '../helpers/build.js';
import { runScript, type ScriptRun } from '../helpers/cli.js';
import { fixture } from '../helpers/site.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const cardFile = (file: string) => path.join(fixture('import-cards'), file);
const TRIPS = cardFile('ram-extension-hybrid-snake.json'); // provider and interfaces on trips.test
const OWN = cardFile('own-relative-contact-mcp.json'); // provider www.importer.test, a relative interface
const TRIPS_URL = 'https://agents.trips.test/cards/ram-extension-hybrid-snake.json';
const TRIPS_DIGEST = `sha256:${createHash('sha256').update(readFileSync(TRIPS)).digest('hex')}`;
/** Their entry for the card, as their own manifest would list it (the signature is not checked here). */
const THEIR_ENTRY = {
  identifier: 'urn:air:agents.trips.test:travel:trip-booker',
  displayName: 'Trip Booker',
  type: 'application/a2a-agent-card+json',
  url: TRIPS_URL,
  digest: TRIPS_DIGEST,
  trustManifest: {
    identity: 'did:web:agents.trips.test',
    identityType: 'did',
    subject: {
      identifier: 'urn:air:agents.trips.test:travel:trip-booker',
      type: 'application/a2a-agent-card+json',
      digest: TRIPS_DIGEST,
    },
    // A compact JWS of the right shape (RFC 7515 Appendix F): the build checks its form, not its key.
    signature: `${Buffer.from(JSON.stringify({ alg: 'ES256', kid: 'did:web:agents.trips.test#k1' })).toString('base64url')}..c2ln`,
  },
};

let parent: string;
let root: string;
let server: http.Server;
let origin: string;
const runs: Record<string, ScriptRun> = {};
let built: BuildResult;

const importCard = (...args: string[]) => runScript('import.ts', ...args, '--root', root);
const resolveTo = (host: string) => ['--resolve', `${host}=${origin}`];

beforeAll(async () => {
  parent = await mkdtemp(path.join(tmpdir(), 'ardsite-import-foreign-'));
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
  // One server plays every host: it answers the fixture file its path names, and an ARD manifest that
  // lists the trips card under its publisher's identifier, with their trustManifest.
  server = http.createServer((req, res) => {
    if (req.url === '/.well-known/ard.json') return res.end(JSON.stringify({ entries: [THEIR_ENTRY] }));
    const file = cardFile(path.basename(req.url!));
    if (!existsSync(file)) return res.writeHead(404).end();
    res.end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  runs.fromFile = await importCard(TRIPS, '--slug', 'trips-file');
  runs.fromUrl = await importCard(TRIPS_URL, '--slug', 'trips-url', ...resolveTo('agents.trips.test'));
  runs.asOwn = await importCard(TRIPS, '--slug', 'trips-own', '--as-own');
  runs.ownFromUrl = await importCard(
    'https://agents.importer.test/cards/own-relative-contact-mcp.json',
    '--slug',
    'timetable',
    ...resolveTo('agents.importer.test'),
  );
  built = await buildProject(root, { env: { ...fixedKeyEnv(), CI: '1' } });
}, 240_000);

afterAll(async () => {
  server?.close();
  if (parent) await rm(parent, { recursive: true, force: true });
});

const manifestEntry = async (identifier: string): Promise<Json | undefined> =>
  (
    JSON.parse(await readFile(path.join(built.outDir, '.well-known', 'ard.json'), 'utf8')) as {
      entries: Json[];
    }
  ).entries.find((e) => e.identifier === identifier);

describe('npm run import of another publisher’s card', () => {
  it('lists it as their entry, with a warning, and writes no agent and no resource', async () => {
    for (const run of [runs.fromFile!, runs.fromUrl!]) {
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toMatch(
        /^warning {2}another publisher's card: its addresses are on other sites than agents\.importer\.test: trips\.test \(.*provider\.url\)\. .*--as-own\n$/,
      );
    }
    expect(runs.fromUrl!.stderr).toContain('trips.test ((read from), supportedInterfaces[0].url');
    expect(runs.fromFile!.stdout).toBe(
      `wrote content/entries/trips-file.yaml\nlisted trips-file as another publisher's entry (not signed by you). Next: npm run check -- --root ${root}\n`,
    );
    for (const slug of ['trips-file', 'trips-url'])
      expect(existsSync(path.join(root, 'content/agents', `${slug}.md`)), slug).toBe(false);
    // The card's RAM stays in their card: one file written, no resource file in the publisher's catalog.
    expect(runs.fromUrl!.stdout).toMatch(/^wrote content\/entries\/trips-url\.yaml\nlisted trips-url /);
  });

  it('read from a URL, points at their card with the digest of the bytes read, under the identifier and trustManifest their own manifest gives; built, not signed by us', async () => {
    expect(built.code, built.stderr).toBe(0);
    // Their own manifest lists the card: its identifier and trustManifest are kept, as theirs.
    const entry = await manifestEntry(THEIR_ENTRY.identifier);
    expect(entry).toBeDefined();
    expect(entry!.url).toBe(TRIPS_URL);
    expect(entry!.digest).toBe(TRIPS_DIGEST);
    expect(entry!.trustManifest).toEqual(THEIR_ENTRY.trustManifest);
    // Listed as they list it: their entry has no version (the card's 2.1.0 would break their subject).
    expect(entry!.version).toBeUndefined();
    expect(entry!.type).toBe('application/a2a-agent-card+json');
    expect(existsSync(path.join(built.outDir, 'agents', 'trips-url'))).toBe(false);
  });

  it('read from a file, lists the card inline as data, unsigned', async () => {
    const entry = await manifestEntry('urn:air:trips.test:agents:trips-file');
    expect(entry!.data).toEqual(JSON.parse(readFileSync(TRIPS, 'utf8')));
    expect(entry!.url).toBeUndefined();
    expect(entry!.trustManifest).toBeUndefined();
  });

  it('--as-own takes it over as an agent the site signs, saying so', async () => {
    const run = runs.asOwn!;
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(
      /^warning {2}taken over as your own \(--as-own\): the card names "Trips Test Ltd\." as its provider and its addresses are on other sites than agents\.importer\.test: trips\.test \(.*\); the build will sign it with your key/,
    );
    const agentFile = await readFile(path.join(root, 'content/agents/trips-own.md'), 'utf8');
    expect(agentFile).toContain('# Warning: taken over as your own (--as-own)');
    const entry = await manifestEntry('urn:air:agents.importer.test:agents:trips-own');
    expect(entry!.trustManifest.identity).toBe('did:web:agents.importer.test');
    expect(existsSync(path.join(built.outDir, 'agents', 'trips-own', 'agent-card.json'))).toBe(true);
  });
});

describe('npm run import: addresses and members outside the card', () => {
  it('a card of the publisher’s own site (another host of its registrable domain) is an agent, no warning', () => {
    const run = runs.ownFromUrl!;
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('wrote content/agents/timetable.md');
  });

  it('resolves a relative interface address against the URL the card was read from, and says so', async () => {
    expect(runs.ownFromUrl!.stdout).toContain(
      'changed  supportedInterfaces[0].url: the relative address "/api/a2a" resolved against https://agents.importer.test/cards/own-relative-contact-mcp.json: https://agents.importer.test/api/a2a',
    );
    const card = JSON.parse(
      await readFile(path.join(built.outDir, 'agents', 'timetable', 'agent-card.json'), 'utf8'),
    ) as Json;
    expect(card.supportedInterfaces.map((i: Json) => i.url)).toEqual([
      'https://agents.importer.test/api/a2a',
    ]);
  });

  it('from a file, a relative interface address needs --base-url, or is an error naming it', async () => {
    const refused = await importCard(OWN, '--slug', 'timetable-file');
    expect(refused).toEqual({
      code: 1,
      stdout: '',
      stderr: `${OWN}: supportedInterfaces[0].url "/api/a2a" is a relative address, which a card read from a file has nothing to resolve against: import the card from its https URL, or pass --base-url https://<the host it is served from>/ [IMPORT_RELATIVE_URL]\n`,
    });
    const based = await importCard(
      OWN,
      '--slug',
      'timetable-file',
      '--base-url',
      'https://agents.importer.test/',
    );
    expect(based.code, based.stderr).toBe(0);
    expect(await readFile(path.join(root, 'content/agents/timetable-file.md'), 'utf8')).toContain(
      'url: https://agents.importer.test/api/a2a',
    );
  });

  it('says where contact.email and protocols.mcp.serverUrl belong instead of dropping them silently', () => {
    const out = runs.ownFromUrl!.stdout;
    expect(out).toContain(
      "dropped  contact.email: a card's contact is its publisher's, shown on every page: contactEmail in content/publisher.yaml holds it (it has none: add contactEmail: timetables@importer.test)",
    );
    expect(out).toContain(
      'dropped  protocols.mcp.serverUrl: an MCP server (https://agents.importer.test/mcp) is listed as an entry of its own, not inside an agent: write content/entries/timetable-mcp.yaml',
    );
  });

  it('a template address is an error naming the field and its value', async () => {
    const file = cardFile('looker-template.json');
    expect(await importCard(file)).toEqual({
      code: 1,
      stdout: '',
      stderr: `${file} is a template, not a published card: url is "https://<LOOKER_URL>/api/4.0/a2a/agents/<AGENT_ID>". Replace <LOOKER_URL>, <AGENT_ID> with the real values (or import the card from the address it is published at) [IMPORT_TEMPLATE_URL]\n`,
    });
  });
});
