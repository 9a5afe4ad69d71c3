/**
 * Broken-site fixtures for the verifier's tests, written in code so each one reads as what it breaks.
 *
 * - {@link buildExampleSite} gives a private copy of the example-like fixture (test/fixtures/example-like/) built with
 *   the fixed TEST-ONLY ES256 key and `SOURCE_DATE_EPOCH`, built once per test run (./shared-build.ts;
 *   call it from `beforeAll`).
 * - {@link SiteCopy.of} copies that folder for one test; its methods edit the copy the way an attacker
 *   or a broken host would (change bytes, edit the manifest, re-sign with a test key, re-pin a digest).
 * - {@link expectFailures} asserts the exact set of failure codes of a report, so a test fails both
 *   when the verifier misses the planted fault and when the mutation broke more than it meant to.
 *
 * The keys are the TEST-ONLY vectors of `test/vectors/`: anything signed with them proves nothing.
 */
import { readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { aiCatalogEntry } from '../../src/core/ard/ai-catalog.js';
import { agentCardSigningPayload, signAgentCard } from '../../src/core/trust/card-signature.js';
import type { JsonObject } from '../../src/core/a2a/card.js';
import { sha256Digest } from '../../src/core/ard/digest.js';
import type { ErrorCode } from '../../src/core/util/errors.js';
import { signCompactDetached, signFlattenedDetached } from '../../src/core/trust/jws.js';
import { createSigningKey, type SigningKey } from '../../src/core/trust/keys.js';
import { parsePrivateKey } from '../../src/core/trust/key-checks.js';
import { trustManifestPayload } from '../../src/core/trust/trust-manifest.js';
import { AI_CATALOG_PATH } from '../../src/core/ard/well-known.js';
import { folderReader } from '../../src/core/verify/folder-reader.js';
import { verifySite, type VerifyReport, type VerifySiteOptions } from '../../src/core/verify/site.js';
import { fixedKeyEnv, removeProjects, TEST_KEY_ES256 } from './build.js';
import { sharedBuild } from './shared-build.js';
import { EXAMPLE_LIKE, REPO_ROOT } from './site.js';

/** The example-like site's domain and origin (its content/publisher.yaml). */
export const DOMAIN = 'agents.example.com';
export const ORIGIN = `https://${DOMAIN}`;
/** The time the folder-mode checks run at: after the build's SOURCE_DATE_EPOCH (2025-11-24). */
export const NOW = new Date('2026-06-01T00:00:00Z');

const TEST_KEY_ED25519 = readFileSync(
  path.join(REPO_ROOT, 'test', 'vectors', 'test-key-ed25519.jwk.json'),
  'utf8',
);

/** The site's key: the TEST-ONLY ES256 key the fixture site is built with. */
export const SITE_KEY: SigningKey = createSigningKey(
  parsePrivateKey(TEST_KEY_ES256, 'the ES256 test key').privateJwk,
  DOMAIN,
);

/** The TEST-ONLY Ed25519 key, named under `did:web:<domain>` (a key of another party, or a stray one). */
export function ed25519Key(domain: string): SigningKey {
  return createSigningKey(parsePrivateKey(TEST_KEY_ED25519, 'the Ed25519 test key').privateJwk, domain);
}

/** A JSON object read from the site (the verifier's input is untrusted, so everything is loose). */
export type Json = Record<string, unknown>;

/** A trustManifest as found in ard.json. */
export interface TrustManifestJson extends Json {
  identity: string;
  subject: Json;
  signature: string;
  expiresAt?: string;
  attestations?: Json[];
}

/** An entry as found in ard.json. */
export interface EntryJson extends Json {
  identifier: string;
  type: string;
  url?: string;
  version?: string;
  digest?: string;
  trustManifest?: TrustManifestJson;
  trustManifests?: TrustManifestJson[];
}

/** The URN of an entry of the example site, by its last segment (`travel-reservation`, `trip-tools`). */
export function urnOf(name: string): string {
  if (name === 'hotel-booking') return 'urn:air:hotels.example.org:agents:hotel-booking';
  if (name === 'trip-tools') return `urn:air:${DOMAIN}:tools:trip-tools`;
  return `urn:air:${DOMAIN}:travel:${name}`;
}

/** The site-relative path of an agent's card. */
export function cardPath(slug: string): string {
  return `/agents/${slug}/agent-card.json`;
}

/** The serialisation ardsite writes JSON files with (2-space indent, trailing newline). */
export function jsonBytes(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/**
 * Signs `tm` (in place) the way the build does: a compact JWS with detached payload over the JCS of the
 * trustManifest without `signature`, protected header `{alg, kid}` plus `header` (e.g. a foreign `kid`).
 */
export function signTm<T extends Json>(tm: T, key: SigningKey = SITE_KEY, header: Json = {}): T {
  const { signature: _old, ...unsigned } = tm;
  (tm as Json).signature = signCompactDetached(
    trustManifestPayload(unsigned),
    { alg: key.alg, kid: key.kid, ...header },
    key,
  );
  return tm;
}

/**
 * A third party's trustManifest over `entry` (ARD draft §3.5.1, signer profile): identity
 * `did:web:<domain>`, signed with the Ed25519 test key named under that domain.
 */
export function thirdPartyManifest(entry: EntryJson, domain: string, extra: Json = {}): TrustManifestJson {
  const subject: Json = { identifier: entry.identifier, type: entry.type };
  if (entry.version !== undefined) subject.version = entry.version;
  if (entry.digest !== undefined) subject.digest = entry.digest;
  const tm = {
    identity: `did:web:${domain}`,
    identityType: 'did',
    issuedAt: '2026-01-15T00:00:00Z',
    subject,
    ...extra,
    signature: '',
  };
  return signTm(tm, ed25519Key(domain));
}

/** The did.json of `did:web:<domain>` listing `key` (as a third party would publish it). */
export function didDocumentOf(domain: string, key: SigningKey): Json {
  const { kid: _k, alg: _a, use: _u, ...publicKeyJwk } = key.publicJwk;
  const did = `did:web:${domain}`;
  return {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/suites/jws-2020/v1'],
    id: did,
    verificationMethod: [{ id: key.kid, type: 'JsonWebKey2020', controller: did, publicKeyJwk }],
    assertionMethod: [key.kid],
  };
}

const copies: string[] = [];

/**
 * The example site built with the fixed TEST-ONLY key: a private copy of the one build the test files of
 * a group share (./shared-build.ts), built from a copy of the project (test/helpers/build.ts) so that
 * `updatedAt` comes from a fixed git commit.
 * @returns the built folder. @throws Error as `sharedBuild` (the build's output when it failed).
 */
export async function buildExampleSite(): Promise<string> {
  return sharedBuild(EXAMPLE_LIKE, { copy: true, env: { ...fixedKeyEnv(), CI: '1' } });
}

/** Removes every copy and every built project (call from `afterAll`). */
export async function cleanUpSites(): Promise<void> {
  await Promise.all(copies.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  await removeProjects();
}

/** A private copy of a built site, with small editing tools. Paths are site paths (`/.well-known/…`). */
export class SiteCopy {
  private constructor(readonly dir: string) {}

  /** Copies `built` into a fresh temporary folder. */
  static async of(built: string): Promise<SiteCopy> {
    const dir = await mkdtemp(path.join(tmpdir(), 'ardsite-verify-'));
    copies.push(dir);
    await cp(built, dir, { recursive: true });
    return new SiteCopy(dir);
  }

  file(sitePath: string): string {
    return path.join(this.dir, ...sitePath.split('/').filter(Boolean));
  }
  read(sitePath: string): Promise<Buffer> {
    return readFile(this.file(sitePath));
  }
  async readText(sitePath: string): Promise<string> {
    return (await this.read(sitePath)).toString('utf8');
  }
  async write(sitePath: string, data: string | Uint8Array): Promise<void> {
    await mkdir(path.dirname(this.file(sitePath)), { recursive: true });
    await writeFile(this.file(sitePath), data);
  }
  remove(sitePath: string): Promise<void> {
    return unlink(this.file(sitePath));
  }
  async readJson<T = Json>(sitePath: string): Promise<T> {
    return JSON.parse(await this.readText(sitePath)) as T;
  }
  writeJson(sitePath: string, value: unknown): Promise<void> {
    return this.write(sitePath, jsonBytes(value));
  }
  /** Edits a JSON file in place; `edit` changes the object it is given (or returns a replacement). */
  async editJson<T = Json>(sitePath: string, edit: (value: T) => T | void): Promise<void> {
    const value = await this.readJson<T>(sitePath);
    await this.writeJson(sitePath, edit(value) ?? value);
  }
  async editText(sitePath: string, edit: (text: string) => string): Promise<void> {
    const before = await this.readText(sitePath);
    const after = edit(before);
    if (after === before) throw new Error(`the edit of ${sitePath} changed nothing`);
    await this.write(sitePath, after);
  }

  manifest(): Promise<{ entries: EntryJson[] }> {
    return this.readJson('/.well-known/ard.json');
  }
  /** Edits the entry named by the last segment of its URN; `manifest` is the whole document. */
  async editEntry(
    name: string,
    edit: (entry: EntryJson, manifest: { entries: EntryJson[] }) => void,
  ): Promise<void> {
    await this.editJson<{ entries: EntryJson[] }>('/.well-known/ard.json', (manifest) => {
      const entry = manifest.entries.find((e) => e.identifier === urnOf(name));
      if (!entry) throw new Error(`no entry ${urnOf(name)}`);
      edit(entry, manifest);
    });
  }
  async entry(name: string): Promise<EntryJson> {
    const entry = (await this.manifest()).entries.find((e) => e.identifier === urnOf(name));
    if (!entry) throw new Error(`no entry ${urnOf(name)}`);
    return entry;
  }

  /**
   * Edits an agent's card. With `resign`, the card's A2A signature is made again with the site key (so
   * the signature still holds); the entry's digest, its trustManifest subject and signature are always
   * brought up to date, and so are the A2A well-known copies of the card (so only what the edit broke
   * fails).
   */
  async editCard(
    slug: string,
    edit: (card: JsonObject) => void,
    options: { resign?: boolean } = {},
  ): Promise<void> {
    const before = await this.read(cardPath(slug));
    let card = JSON.parse(before.toString('utf8')) as JsonObject;
    edit(card);
    if (options.resign) card = await signAgentCard(card, SITE_KEY, DOMAIN);
    await this.writeCard(slug, before, jsonBytes(card));
    await this.repin(slug);
  }

  /**
   * Writes an agent's card, and the A2A well-known copies that held its bytes (`before`), as the build
   * writes the primary agent's card to both.
   */
  private async writeCard(slug: string, before: Buffer, after: string): Promise<void> {
    await this.write(cardPath(slug), after);
    for (const copy of ['/.well-known/agent-card.json', '/.well-known/agent.json']) {
      const held = await this.read(copy).catch(() => undefined);
      if (held?.equals(before)) await this.write(copy, after);
    }
  }

  /** Re-signs an agent card with the site key but the given extra protected-header members. */
  async resignCardWithHeader(slug: string, header: Json): Promise<void> {
    const before = await this.read(cardPath(slug));
    const card = JSON.parse(before.toString('utf8')) as JsonObject;
    const { signatures: _s, ...unsigned } = card;
    const sig = signFlattenedDetached(
      agentCardSigningPayload(unsigned),
      { alg: SITE_KEY.alg, kid: SITE_KEY.kid, typ: 'JOSE', ...header },
      SITE_KEY,
    );
    await this.writeCard(
      slug,
      before,
      jsonBytes({ ...unsigned, signatures: [{ protected: sig.protected, signature: sig.signature }] }),
    );
    await this.repin(slug);
  }

  /**
   * Sets the entry's digest and its trustManifest's subject digest to the bytes now served, and re-signs;
   * then writes ai-catalog.json again from the manifest, as a build would ({@link syncAiCatalog}).
   */
  async repin(name: string): Promise<void> {
    const entry = await this.entry(name);
    const digest = sha256Digest(await this.read(new URL(entry.url!).pathname));
    await this.editEntry(name, (e) => {
      e.digest = digest;
      if (e.trustManifest) {
        e.trustManifest.subject.digest = digest;
        signTm(e.trustManifest);
      }
    });
    await this.syncAiCatalog();
  }

  /**
   * Writes `/.well-known/ai-catalog.json` (when the copy has one) again from its ard.json, as the build
   * computes it (src/core/ard/ai-catalog.ts), so that a test that re-publishes an entry breaks only what it
   * means to.
   */
  async syncAiCatalog(): Promise<void> {
    const catalog = await this.readJson<Json>(AI_CATALOG_PATH).catch(() => undefined);
    if (!catalog) return;
    const manifestUrl = `${ORIGIN}/.well-known/ard.json`;
    const entries = (await this.manifest()).entries.map((e) => aiCatalogEntry(e, manifestUrl));
    await this.writeJson(AI_CATALOG_PATH, { ...catalog, entries });
  }

  /** Verifies the copy from disk, as the build's self-check and `npm run verify <folder>` do. */
  verify(options: Partial<VerifySiteOptions> = {}): Promise<VerifyReport> {
    return verifySite(folderReader(this.dir, ORIGIN), { origin: ORIGIN, now: NOW, ...options });
  }
}

/** The failures (severity error) of a report. */
export function failures(report: VerifyReport): VerifyReport['findings'] {
  return report.findings.filter((f) => f.severity === 'error');
}

/**
 * Asserts that the report's failures are exactly the given codes (as a set), and that each expected
 * `[code, subject]` pair is among them (`subject` is a substring of the finding's subject).
 */
export function expectFailures(report: VerifyReport, ...expected: Array<[ErrorCode, string]>): void {
  const errors = failures(report);
  const shown = JSON.stringify(errors, null, 2);
  expect(new Set(errors.map((e) => e.code)), shown).toEqual(new Set(expected.map(([code]) => code)));
  for (const [code, subject] of expected) {
    expect(
      errors.some((e) => e.code === code && e.subject.includes(subject)),
      `expected ${code} on ${subject}; got ${shown}`,
    ).toBe(true);
  }
}

/** Asserts the report has no failure at all. */
export function expectClean(report: VerifyReport): void {
  expect(failures(report), JSON.stringify(failures(report), null, 2)).toEqual([]);
}
