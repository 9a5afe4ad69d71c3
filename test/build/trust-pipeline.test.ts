/**
 * The trust profile end to end (DESIGN.md §4; ARD draft §3.5), over the example publisher (content/ + public/
 * of the repository): the real build CLI with the fixed TEST-ONLY ES256 key and SOURCE_DATE_EPOCH, its dist/
 * checked with jose, canonicalize, node:crypto and @a2a-js/sdk directly (test/helpers/direct-checks.ts), then
 * tampered copies of it checked both ways (directly and with src/core's verifySite).
 *
 * The example is built once (beforeAll); the reproducibility test builds it a second time.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AgentCard } from '@a2a-js/sdk';
import { DefaultAgentCardResolver } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folderReader } from '../../src/core/verify/folder-reader.js';
import type { VerifyFinding } from '../../src/core/verify/findings.js';
import { verifySite } from '../../src/core/verify/site.js';
import {
  buildProject,
  COMMIT_EPOCH,
  copyProject,
  fixedKeyEnv,
  leftovers,
  readTree,
  removeProjects,
  SOURCE_DATE_EPOCH,
  TEST_KEY_ES256,
  type BuildResult,
} from '../helpers/build.js';
import {
  A2A_TYPE,
  camelCaseKeys,
  DID,
  directProblems,
  DOMAIN,
  emptyValues,
  fileOf,
  JKU,
  ORIGIN,
  RAM_EXTENSION_URI,
  readJson,
  sha256,
  thumbprint,
  verifyCard,
  verifyTrustManifest,
  type Json,
} from '../helpers/direct-checks.js';
import { REPO_ROOT } from '../helpers/site.js';

/** The RAM proposal's example, as copied into test/fixtures/seed/ (content-ram.test.ts checks the copy). */
const SEED_RAM = path.join(REPO_ROOT, 'test/fixtures/seed/travel-agent-ram.json');
const AGENTS = ['itinerary-concierge', 'travel-policy-helper', 'travel-reservation'] as const;
const WITH_RAM = ['itinerary-concierge', 'travel-reservation'];
const HYBRID = 'travel-reservation';
const V03_FIELDS = [
  'url',
  'preferredTransport',
  'protocolVersion',
  'additionalInterfaces',
  'supportsAuthenticatedExtendedCard',
  'security',
];
const FOREIGN = 'urn:air:hotels.example.org:agents:hotel-booking';
const KEY_D = (JSON.parse(TEST_KEY_ES256) as { d: string }).d;

let root: string;
let build: BuildResult;
let dist: string;
let ard: Json;
let entries: Json[];
let did: Json;
let jwks: Json;
const cards = new Map<string, { bytes: Buffer; card: Json }>();

beforeAll(async () => {
  root = await copyProject();
  build = await buildProject(root, { env: fixedKeyEnv() });
  if (build.code !== 0) throw new Error(`the example build failed (exit ${build.code}):\n${build.stderr}`);
  dist = build.outDir;
  ard = await readJson(dist, '.well-known/ard.json');
  entries = ard.entries as Json[];
  did = await readJson(dist, '.well-known/did.json');
  jwks = await readJson(dist, '.well-known/jwks.json');
  for (const slug of AGENTS) {
    const bytes = await readFile(path.join(dist, 'agents', slug, 'agent-card.json'));
    cards.set(slug, { bytes, card: JSON.parse(bytes.toString('utf8')) as Json });
  }
});

afterAll(removeProjects);

function entryOf(slug: string): Json {
  const e = entries.find((x) => x.identifier === `urn:air:${DOMAIN}:travel:${slug}`);
  if (!e) throw new Error(`no entry for ${slug}`);
  return e;
}

function card(slug: string): Json {
  const c = cards.get(slug)?.card;
  if (!c) throw new Error(`no card for ${slug}`);
  return c;
}

function errors(findings: VerifyFinding[]): string[] {
  return findings.filter((f) => f.severity === 'error').map((f) => `${f.subject} ${f.code}`);
}

describe('the example build', () => {
  it('exits 0, names the key it signed with, and writes the well-known files, every card and the index', async () => {
    expect(build.code).toBe(0);
    expect(build.stderr).toContain('Signing with the key from ARDSITE_SIGNING_KEY');
    const files = [...(await readTree(dist)).keys()];
    expect(files).toEqual(
      expect.arrayContaining([
        '.well-known/ard.json',
        '.well-known/did.json',
        '.well-known/jwks.json',
        '.well-known/agent-card.json',
        '.well-known/agent.json',
        ...AGENTS.map((s) => `agents/${s}/agent-card.json`),
        'index.html',
        'mcp/trip-tools.json',
      ]),
    );
    expect(await leftovers(root)).toEqual([]);
  });

  it('ard.json lists every agent and content/entries file once, sorted by identifier', () => {
    const ids = entries.map((e) => e.identifier as string);
    for (const slug of AGENTS) expect(entryOf(slug).type).toBe(A2A_TYPE);
    expect(ids).toEqual([...ids].sort());
    expect(ids).toEqual([
      `urn:air:${DOMAIN}:tools:trip-tools`,
      ...AGENTS.map((s) => `urn:air:${DOMAIN}:travel:${s}`),
      FOREIGN,
    ]);
  });

  it('every own entry: digest = sha256 of the exact bytes its url serves from dist/', async () => {
    const own = entries.filter((e) => (e.identifier as string).split(':')[2] === DOMAIN);
    expect(own).toHaveLength(4);
    for (const e of own) {
      const file = fileOf(dist, e.url as string);
      expect(file, String(e.identifier)).toBeDefined();
      expect(e.digest, String(e.identifier)).toBe(sha256(await readFile(file!)));
    }
    // The agent entries point at the card files, the MCP entry at the public/ file copied as is.
    expect(entryOf(HYBRID).url).toBe(`${ORIGIN}/agents/${HYBRID}/agent-card.json`);
    const mcp = entries[0]!;
    expect(mcp.digest).toBe(sha256(await readFile(path.join(root, 'public/mcp/trip-tools.json'))));
  });

  it('every own entry carries a trustManifest: detached compact JWS that jose verifies with the did.json assertion key', async () => {
    const own = entries.filter((e) => (e.identifier as string).split(':')[2] === DOMAIN);
    for (const e of own) {
      const tm = e.trustManifest as Json;
      expect(tm, String(e.identifier)).toBeDefined();
      expect(tm.signature).toMatch(/^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+$/);
      const header = await verifyTrustManifest(tm, did);
      expect(Object.keys(header).sort()).toEqual(['alg', 'kid']);
      expect(header.alg).toBe('ES256');
      expect(tm.identity).toBe(DID);
      expect(tm.identityType).toBe('did');
      expect(tm.subject).toEqual({
        identifier: e.identifier,
        type: e.type,
        version: e.version,
        digest: e.digest,
      });
      expect(tm.trustSchema).toMatchObject({ verificationMethods: ['did:web'] });
      const kid = header.kid as string;
      expect(kid.startsWith(`${DID}#`)).toBe(true);
      const method = (did.verificationMethod as Json[]).find((m) => m.id === kid)!;
      expect(kid).toBe(`${DID}#${await thumbprint(method.publicKeyJwk as Json)}`);
      expect(did.assertionMethod).toContain(kid);
    }
  });

  it('the trustManifest signature covers exactly the JCS of the manifest without signature', async () => {
    // Each member matters: changing any one of them, in memory, breaks jose's verification.
    const tm = entryOf(HYBRID).trustManifest as Json;
    for (const member of Object.keys(tm).filter((k) => k !== 'signature')) {
      const changed = {
        ...tm,
        [member]: member === 'subject' ? { ...(tm.subject as Json), digest: 'sha256:00' } : 'x',
      };
      await expect(verifyTrustManifest(changed, did), member).rejects.toThrow();
    }
    await expect(verifyTrustManifest({ ...tm, extra: 1 }, did)).rejects.toThrow();
  });

  it('did.json and jwks.json publish the same single public key (kid = did#thumbprint), no private member', async () => {
    expect(did.id).toBe(DID);
    const [method] = did.verificationMethod as Json[];
    const [key] = jwks.keys as Json[];
    expect((did.verificationMethod as Json[]).length).toBe(1);
    expect((jwks.keys as Json[]).length).toBe(1);
    expect(method).toMatchObject({ type: 'JsonWebKey2020', controller: DID });
    expect(key!.kid).toBe(method!.id);
    expect(key).toMatchObject({ ...(method!.publicKeyJwk as Json), alg: 'ES256', use: 'sig' });
    const fixed = JSON.parse(TEST_KEY_ES256) as Json;
    expect(method!.publicKeyJwk).toEqual({ kty: 'EC', crv: 'P-256', x: fixed.x, y: fixed.y });
    expect(key!.kid).toBe(`${DID}#${await thumbprint({ kty: 'EC', crv: 'P-256', x: fixed.x, y: fixed.y })}`);
    for (const doc of [did, jwks]) expect(JSON.stringify(doc)).not.toMatch(/"(d|p|q|dp|dq|qi|k)":/);
  });

  it('the foreign entry (hotels.example.org) is listed as written, with no trustManifest of ours', () => {
    const foreign = entries.find((e) => e.identifier === FOREIGN)!;
    expect(foreign).toMatchObject({
      url: 'https://hotels.example.org/agents/hotel-booking/agent-card.json',
      version: '3.1.0',
    });
    expect(foreign.trustManifest).toBeUndefined();
    expect(foreign.trustManifests).toBeUndefined();
    expect(JSON.stringify(foreign)).not.toContain(DID);
  });

  it('updatedAt comes from the git commit, issuedAt from SOURCE_DATE_EPOCH', () => {
    const committed = new Date(COMMIT_EPOCH * 1000).toISOString().replace('.000Z', 'Z');
    const epoch = new Date(Number(SOURCE_DATE_EPOCH) * 1000).toISOString().replace('.000Z', 'Z');
    for (const e of entries.filter((x) => x.identifier !== FOREIGN)) {
      expect(e.updatedAt, String(e.identifier)).toBe(committed);
      expect((e.trustManifest as Json).issuedAt).toBe(epoch);
    }
  });

  it('every agent card verifies with @a2a-js/sdk against jwks.json by kid, jku = the site JWK Set', async () => {
    for (const slug of AGENTS) {
      const c = card(slug);
      const sigs = c.signatures as Json[];
      // Two signatures (docs/trust-profile.md): @a2a-js/sdk's canonical form, then the whole served card.
      expect(sigs, slug).toHaveLength(2);
      const [header, wholeHeader] = sigs.map(
        (sig) => JSON.parse(Buffer.from(sig.protected as string, 'base64url').toString('utf8')) as Json,
      );
      const kid = (jwks.keys as Json[])[0]!.kid;
      expect(header).toEqual({ alg: 'ES256', kid, typ: 'JOSE', jku: JKU });
      expect(wholeHeader).toEqual({
        alg: 'ES256',
        kid,
        typ: 'JOSE',
        jku: JKU,
        canonicalization: 'jcs-served-card',
      });
      expect(await verifyCard(c, jwks), slug).toEqual([JKU]);
      // The signature covers the RAM extension: change it and the SDK refuses the card.
      const changed = structuredClone(c);
      ((changed.capabilities as Json).extensions as Json[])[0]!.description = 'changed';
      await expect(verifyCard(changed, jwks), slug).rejects.toThrow();
    }
  });

  it('the hybrid card carries the v0.3 fields of its 0.3 interface and parses with the SDK v1 types and the v0.3-compat resolver', () => {
    const c = card(HYBRID);
    const interfaces = c.supportedInterfaces as Json[];
    const v03 = interfaces.find((i) => i.protocolVersion === '0.3')!;
    expect(v03).toBeDefined();
    expect(c.protocolVersion).toBe('0.3.0');
    expect(c.url).toBe(v03.url);
    expect(c.url).toBe('https://api.agents.example.com/a2a/travel-reservation/v0');
    expect(c.preferredTransport).toBe(v03.protocolBinding);
    expect(c.additionalInterfaces).toEqual([{ url: v03.url, transport: v03.protocolBinding }]);
    // The v0.3 JSON forms beside the v1.0 ones (DESIGN.md §9 "Hybrid cards amended").
    expect(c.security).toEqual([{ example_oauth: ['trips.read', 'trips.write'] }]);
    expect((c.securitySchemes as Json).example_oauth).toMatchObject({
      type: 'oauth2',
      oauth2SecurityScheme: {},
    });

    const resolver = new DefaultAgentCardResolver({ legacyCompat: { enabled: true } });
    const normalized = resolver.normalizeAgentCard(structuredClone(c));
    const viaTypes = AgentCard.fromJSON(c);
    for (const parsed of [normalized, viaTypes]) {
      expect(parsed.name).toBe(c.name);
      expect(parsed.version).toBe('1.2.0');
      expect(parsed.supportedInterfaces.map((i) => [i.url, i.protocolBinding, i.protocolVersion])).toEqual(
        interfaces.map((i) => [i.url, i.protocolBinding, i.protocolVersion]),
      );
      expect(parsed.skills.map((s) => s.id)).toEqual((c.skills as Json[]).map((s) => s.id));
      expect(parsed.signatures).toHaveLength(2);
      const ram = parsed.capabilities?.extensions.find((e) => e.uri === RAM_EXTENSION_URI);
      expect(ram?.params).toEqual(((c.capabilities as Json).extensions as Json[])[0]!.params);
      expect(Object.keys(parsed.securitySchemes)).toEqual(['example_oauth']);
      expect(parsed.securityRequirements[0]?.schemes.example_oauth?.list).toEqual([
        'trips.read',
        'trips.write',
      ]);
    }
  });

  it('the v1-only cards have none of the v0.3 fields and parse with the SDK types', () => {
    for (const slug of AGENTS.filter((s) => s !== HYBRID)) {
      const c = card(slug);
      for (const field of V03_FIELDS) expect(c, `${slug}.${field}`).not.toHaveProperty(field);
      for (const s of c.skills as Json[]) expect(s).not.toHaveProperty('security');
      expect((c.supportedInterfaces as Json[]).every((i) => i.protocolVersion === '1.0')).toBe(true);
      const parsed = new DefaultAgentCardResolver({ legacyCompat: { enabled: true } }).normalizeAgentCard(
        structuredClone(c),
      );
      expect(parsed.name).toBe(c.name);
      expect(parsed.supportedInterfaces.length).toBe((c.supportedInterfaces as Json[]).length);
      expect(AgentCard.fromJSON(c).name).toBe(c.name);
    }
  });

  it('every agent with a RAM carries both copies, deep-equal; the agent without RAM carries neither', () => {
    for (const slug of AGENTS) {
      const c = card(slug);
      const ext = ((c.capabilities as Json).extensions as Json[]).find((e) => e.uri === RAM_EXTENSION_URI);
      if (!WITH_RAM.includes(slug)) {
        expect(c.resourceAccessManifest, slug).toBeUndefined();
        expect(ext, slug).toBeUndefined();
        expect(entryOf(slug)['ram:accessCount']).toBe(0);
        continue;
      }
      // `required: false` is the default, omitted (A2A v1.0 §8.4.1).
      expect(ext, slug).not.toHaveProperty('required');
      expect(typeof ext!.description).toBe('string');
      // Beside the RAM: the skill map, the permission sets and the permission page's facts (DESIGN.md §6).
      const {
        skillAccesses: _skills,
        permissions: _permissions,
        readOnlyOperations: _readOnly,
        manageAccessUrls: _manage,
        ...extRam
      } = ext!.params as Json;
      expect(c.resourceAccessManifest, slug).toBeDefined();
      expect(extRam, slug).toEqual(c.resourceAccessManifest);
      expect((c.resourceAccessManifest as Json).skillAccesses).toBeUndefined();
      expect((c.resourceAccessManifest as Json).manageAccessUrls).toBeUndefined();
      expect(entryOf(slug)['ram:accessCount']).toBe(
        ((c.resourceAccessManifest as Json).resourceAccesses as unknown[]).length,
      );
    }
    // The itinerary agent maps accesses to skills: that map sits beside the RAM in the extension only.
    const ext = ((card('itinerary-concierge').capabilities as Json).extensions as Json[]).find(
      (e) => e.uri === RAM_EXTENSION_URI,
    )!;
    expect((ext.params as Json).skillAccesses).toBeDefined();
  });

  it("the travel-reservation RAM equals the seed's JSON example, camelCased by this test", async () => {
    const seedText = await readFile(SEED_RAM, 'utf8');
    const seed = camelCaseKeys(JSON.parse(seedText));
    const keys = (v: unknown): string[] =>
      Array.isArray(v)
        ? v.flatMap(keys)
        : v && typeof v === 'object'
          ? Object.entries(v).flatMap(([k, x]) => [k, ...keys(x)])
          : [];
    expect(keys(JSON.parse(seedText))).toContain('resource_accesses');
    expect(keys(seed).filter((k) => k.includes('_'))).toEqual([]);
    expect(card(HYBRID).resourceAccessManifest).toEqual(seed);
  });

  it('no card holds "", [] or {} anywhere', () => {
    for (const slug of AGENTS) expect(emptyValues(card(slug)), slug).toEqual([]);
  });

  it("/.well-known/agent-card.json (and the legacy agent.json) are byte-identical to the primary agent's card", async () => {
    const primary = cards.get(HYBRID)!.bytes;
    expect((await readFile(path.join(dist, '.well-known/agent-card.json'))).equals(primary)).toBe(true);
    expect((await readFile(path.join(dist, '.well-known/agent.json'))).equals(primary)).toBe(true);
  });

  it('the direct checks find nothing wrong, and neither does verifySite', async () => {
    expect(await directProblems(dist)).toEqual([]);
    const report = await verifySite(folderReader(dist, ORIGIN), { origin: ORIGIN });
    expect(errors(report.findings)).toEqual([]);
    expect(report.entries).toBe(5);
  });

  it("the private key's d appears in no file of dist/ and in no build output", async () => {
    const needles = [
      KEY_D,
      Buffer.from(KEY_D, 'base64url').toString('hex'),
      Buffer.from(KEY_D, 'base64url').toString('base64').replace(/=+$/, ''),
    ];
    for (const [file, bytes] of await readTree(dist)) {
      const text = bytes.toString('latin1');
      for (const n of needles) expect(text.includes(n), file).toBe(false);
    }
    for (const n of needles) {
      expect(build.stdout).not.toContain(n);
      expect(build.stderr).not.toContain(n);
    }
  });

  it('is reproducible: a second build with the same key and SOURCE_DATE_EPOCH is byte-identical, HTML included', async () => {
    const again = await buildProject(root, { env: fixedKeyEnv(), out: 'dist-again' });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr + again.stdout).not.toContain(KEY_D);
    const a = await readTree(dist);
    const b = await readTree(again.outDir);
    expect([...b.keys()]).toEqual([...a.keys()]);
    expect([...a.keys()].some((f) => f.endsWith('.html'))).toBe(true);
    for (const [file, bytes] of a) expect(b.get(file)?.equals(bytes), file).toBe(true);
  });

  it("a public/ file at an artifact's path does not replace the artifact (robots.txt)", async () => {
    const own = path.join(root, 'public', 'robots.txt');
    await writeFile(own, 'User-agent: *\nDisallow: /\n');
    try {
      const shadowed = await buildProject(root, { env: fixedKeyEnv(), out: 'dist-public-robots' });
      expect(shadowed.code, shadowed.stderr).toBe(0);
      expect(await readFile(path.join(shadowed.outDir, 'robots.txt'))).toEqual(
        await readFile(path.join(dist, 'robots.txt')),
      );
    } finally {
      await rm(own);
    }
  });
});

describe('a tampered copy of dist/ fails verification, both directly and with verifySite', () => {
  const copies: string[] = [];
  async function tamperedCopy(): Promise<string> {
    const dir = await mkdtemp(path.join(tmpdir(), 'ardsite-tampered-'));
    copies.push(dir);
    await cp(dist, dir, { recursive: true });
    return dir;
  }
  afterAll(async () => {
    await Promise.all(copies.map((d) => rm(d, { recursive: true, force: true })));
  });

  const idOf = (slug: string) => `urn:air:${DOMAIN}:travel:${slug}`;

  it('one byte of a card changed', async () => {
    const dir = await tamperedCopy();
    const file = path.join(dir, 'agents', HYBRID, 'agent-card.json');
    const bytes = await readFile(file);
    const at = bytes.indexOf('Travel Reservation Agent') + 'Travel '.length;
    expect(String.fromCharCode(bytes[at]!)).toBe('R');
    bytes[at] = 'P'.charCodeAt(0);
    await writeFile(file, bytes);

    expect(await directProblems(dir)).toEqual([
      `${idOf(HYBRID)}: card signature`,
      `${idOf(HYBRID)}: digest`,
      `${idOf(HYBRID)}: whole-card signature`,
    ]);
    const report = await verifySite(folderReader(dir, ORIGIN), { origin: ORIGIN });
    // Both signatures (the SDK's reading and the whole card's) say the card changed.
    expect(errors(report.findings).sort()).toEqual([
      `${idOf(HYBRID)} ARD_DIGEST_MISMATCH`,
      `${idOf(HYBRID)} CARD_PAYLOAD_CHANGED`,
      `${idOf(HYBRID)} CARD_PAYLOAD_CHANGED`,
    ]);
  });

  it('one trustManifest field (issuedAt) changed in ard.json', async () => {
    const dir = await tamperedCopy();
    const file = path.join(dir, '.well-known', 'ard.json');
    const text = await readFile(file, 'utf8');
    const manifest = JSON.parse(text) as { entries: Json[] };
    const target = manifest.entries.find((e) => e.identifier === idOf('itinerary-concierge'))!;
    (target.trustManifest as Json).issuedAt = '2025-11-24T16:00:01Z';
    await writeFile(file, `${JSON.stringify(manifest, null, 2)}\n`);

    expect(await directProblems(dir)).toEqual([`${idOf('itinerary-concierge')}: trustManifest signature`]);
    const report = await verifySite(folderReader(dir, ORIGIN), { origin: ORIGIN });
    expect(errors(report.findings)).toEqual([`${idOf('itinerary-concierge')} TRUST_SIGNATURE_INVALID`]);
  });

  it("two cards' files swapped", async () => {
    const dir = await tamperedCopy();
    const a = path.join(dir, 'agents', 'itinerary-concierge', 'agent-card.json');
    const b = path.join(dir, 'agents', 'travel-policy-helper', 'agent-card.json');
    const [ba, bb] = [await readFile(a), await readFile(b)];
    await writeFile(a, bb);
    await writeFile(b, ba);

    // Each card is still validly signed, but not the one its entry pins nor the one it names.
    expect(await directProblems(dir)).toEqual(
      [
        `${idOf('itinerary-concierge')}: card entry extension`,
        `${idOf('itinerary-concierge')}: digest`,
        `${idOf('travel-policy-helper')}: card entry extension`,
        `${idOf('travel-policy-helper')}: digest`,
      ].sort(),
    );
    const report = await verifySite(folderReader(dir, ORIGIN), { origin: ORIGIN });
    expect(errors(report.findings).sort()).toEqual(
      [
        `${idOf('itinerary-concierge')} ARD_DIGEST_MISMATCH`,
        `${idOf('itinerary-concierge')} CARD_IDENTITY_MISMATCH`,
        `${idOf('travel-policy-helper')} ARD_DIGEST_MISMATCH`,
        `${idOf('travel-policy-helper')} CARD_IDENTITY_MISMATCH`,
      ].sort(),
    );
  });
  it('the top-level RAM copy changed: the SDK-reading signature still verifies (it does not cover that copy), the whole-card signature, the digest and the copies check catch it', async () => {
    const dir = await tamperedCopy();
    const file = path.join(dir, 'agents', HYBRID, 'agent-card.json');
    const c = JSON.parse(await readFile(file, 'utf8')) as Json;
    const ram = c.resourceAccessManifest as { resourceAccesses: Json[] };
    ram.resourceAccesses[0]!.confirmationRequired = false;
    await writeFile(file, `${JSON.stringify(c, null, 2)}\n`);

    expect(await verifyCard(c, jwks)).toEqual([JKU]);
    expect(await directProblems(dir)).toEqual([
      `${idOf(HYBRID)}: RAM copies`,
      `${idOf(HYBRID)}: digest`,
      `${idOf(HYBRID)}: whole-card signature`,
    ]);
    const report = await verifySite(folderReader(dir, ORIGIN), { origin: ORIGIN });
    expect(errors(report.findings).sort()).toEqual([
      `${idOf(HYBRID)} ARD_DIGEST_MISMATCH`,
      `${idOf(HYBRID)} CARD_PAYLOAD_CHANGED`,
      `${idOf(HYBRID)} CARD_RAM_COPIES_DIFFER`,
    ]);
  });
});
