/**
 * The failure side of the build CLI (DESIGN.md §4): wrong, malformed and missing keys; a key the
 * build generates itself (and never leaks); and builds that fail — on the content, or in the self-check
 * after rendering — leaving the previous dist/ byte-identical and no temporary folder behind.
 *
 * One full successful build (the generated-key one, in beforeAll) and one full failing build (the
 * self-check failure); the other runs stop before rendering.
 */
import { existsSync, statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { generateKeyPairSync } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildProject,
  copyProject,
  leftovers,
  readTree,
  removeProjects,
  SOURCE_DATE_EPOCH,
  TEST_KEY_ES256,
  type BuildResult,
} from '../helpers/build.js';
import { DID, directProblems, readJson, thumbprint, type Json } from '../helpers/direct-checks.js';

const KEY_FILE = '.ardsite/keys/signing.jwk.json';

/** What the root looks like, ignoring git's own folder. */
const rootState = (root: string) => readTree(root, ['.git']);

function sameTree(a: Map<string, Buffer>, b: Map<string, Buffer>): boolean {
  return a.size === b.size && [...a].every(([k, v]) => b.get(k)?.equals(v) === true);
}

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' });
const p384Jwk = p384.privateKey.export({ format: 'jwk' });
const p256Jwk = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });

/**
 * Keys that must be refused, with the code and a secret that must not be echoed. `built`: run against
 * the project whose dist/ exists (it must stay byte-identical); else against the never-built project
 * (no dist/ may appear). Fewer cases than test/unit/trust/keys.test.ts: each run here costs a process.
 */
const BAD_KEYS: { name: string; text: string; code: string; secret: string; built: boolean }[] = [
  {
    name: 'an RSA private key (PKCS#8 PEM)',
    text: rsa.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    code: 'KEY_WRONG_TYPE',
    secret: rsa.privateKey.export({ format: 'jwk' }).d!,
    built: false,
  },
  {
    name: 'a P-384 private JWK',
    text: JSON.stringify(p384Jwk),
    code: 'KEY_WRONG_TYPE',
    secret: p384Jwk.d!,
    built: true,
  },
  {
    name: 'a malformed JWK (truncated JSON)',
    text: JSON.stringify(p256Jwk).slice(0, -10),
    code: 'KEY_INVALID',
    secret: p256Jwk.d!.slice(0, 20),
    built: false,
  },
];

let fresh: string; // a project with no key anywhere, never built
let generated: string; // a project built once with a key the build created
let first: BuildResult;

beforeAll(async () => {
  [fresh, generated] = await Promise.all([copyProject(), copyProject()]);
  first = await buildProject(generated, { env: { SOURCE_DATE_EPOCH } });
  if (first.code !== 0)
    throw new Error(`the generated-key build failed (exit ${first.code}):\n${first.stderr}`);
});

afterAll(removeProjects);

describe('signing keys', () => {
  it.each(BAD_KEYS)(
    '$name in ARDSITE_SIGNING_KEY: exit 1, a clear error, nothing written',
    async ({ text, code, secret, built }) => {
      const root = built ? generated : fresh;
      const before = await rootState(root);
      expect(before.has('dist/.well-known/ard.json')).toBe(built);
      const r = await buildProject(root, { env: { ARDSITE_SIGNING_KEY: text, SOURCE_DATE_EPOCH } });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('ARDSITE_SIGNING_KEY');
      expect(r.stderr).toContain(`[${code}]`);
      expect(r.stderr).toMatch(/ES256/);
      expect(r.stderr).toMatch(/Ed25519/);
      expect(r.stderr + r.stdout).not.toContain(secret);
      expect(sameTree(await rootState(root), before)).toBe(true);
      expect(existsSync(r.outDir)).toBe(built);
      expect(await leftovers(root)).toEqual([]);
    },
  );

  it('CI=1 without a key fails with the explanation and writes nothing', async () => {
    const before = await rootState(fresh);
    const r = await buildProject(fresh, { env: { CI: '1', SOURCE_DATE_EPOCH } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('[KEY_MISSING]');
    expect(r.stderr).toContain('ARDSITE_SIGNING_KEY');
    expect(r.stderr).toContain('ARDSITE_DEV_KEY');
    expect(r.stderr).toMatch(/CI/);
    expect(existsSync(r.outDir)).toBe(false);
    expect(existsSync(path.join(fresh, '.ardsite'))).toBe(false);
    expect(sameTree(await rootState(fresh), before)).toBe(true);
  });

  it('with no key outside CI the build creates .ardsite/keys/signing.jwk.json (0600), says where, signs with it', async () => {
    const file = path.join(generated, KEY_FILE);
    // Named where the publisher finds it, not as `.ardsite/…`, which from ardsite's folder is the example's key.
    expect(first.stderr).toContain(`created a new signing key: ${file}\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    const jwk = JSON.parse(await readFile(file, 'utf8')) as Json;
    expect(jwk).toMatchObject({ kty: 'EC', crv: 'P-256' });
    const did = await readJson(first.outDir, '.well-known/did.json');
    const method = (did.verificationMethod as Json[])[0]!;
    expect(method.publicKeyJwk).toEqual({ kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y });
    expect(method.id).toBe(`${DID}#${await thumbprint(jwk)}`);
    expect(await directProblems(first.outDir)).toEqual([]);
  });

  it("the generated key's d appears in no file of dist/ and in no build output", async () => {
    const d = (JSON.parse(await readFile(path.join(generated, KEY_FILE), 'utf8')) as { d: string }).d;
    const raw = Buffer.from(d, 'base64url');
    const needles = [d, raw.toString('hex'), raw.toString('base64').replace(/=+$/, '')];
    const files = await readTree(first.outDir);
    expect(files.size).toBeGreaterThan(5);
    for (const [name, bytes] of files) {
      for (const n of needles) expect(bytes.toString('latin1').includes(n), name).toBe(false);
    }
    for (const n of needles) expect(first.stdout + first.stderr).not.toContain(n);
  });
});

describe('a failed build leaves the previous dist/ untouched', () => {
  async function withFile(
    root: string,
    rel: string,
    change: (text: string) => string,
    run: () => Promise<void>,
  ): Promise<void> {
    const file = path.join(root, rel);
    const original = await readFile(file, 'utf8');
    await writeFile(file, change(original));
    try {
      await run();
    } finally {
      await writeFile(file, original);
    }
  }

  it('content errors (a broken agent): exit 1 before anything is written', async () => {
    const before = await readTree(first.outDir);
    await withFile(
      generated,
      'content/agents/travel-policy-helper.md',
      (t) => t.replace('protocolBinding: JSONRPC', 'protocolBinding: CARRIER_PIGEON'),
      async () => {
        const r = await buildProject(generated, { env: { SOURCE_DATE_EPOCH } });
        expect(r.code).toBe(1);
        expect(r.stderr).toContain('content/agents/travel-policy-helper.md');
        expect(r.stderr).toContain('[BUILD_CONTENT_INVALID]');
      },
    );
    expect(sameTree(await readTree(first.outDir), before)).toBe(true);
    expect(await leftovers(generated)).toEqual([]);
  });

  it('a self-check failure (trustManifests already expired, found by the checks beside rendering): exit 1, dist/ unchanged, no temp folder', async () => {
    // A realistic way to fail only the self-check: SOURCE_DATE_EPOCH from an old commit plus a short
    // expiresInDays makes every trustManifest expired when the self-check runs (now).
    const before = await readTree(first.outDir);
    await withFile(
      generated,
      'content/publisher.yaml',
      (t) => t.replace('signing:\n', 'signing:\n  expiresInDays: 1\n'),
      async () => {
        const r = await buildProject(generated, { env: { SOURCE_DATE_EPOCH: '1000000000' } });
        expect(r.code).toBe(1);
        expect(r.stderr).toContain(`Signing with the key from ${path.join(generated, KEY_FILE)} (`);
        expect(r.stderr).toContain('[BUILD_SELF_CHECK_FAILED]');
        expect(r.stderr).toContain('TRUST_EXPIRED');
      },
    );
    expect(sameTree(await readTree(first.outDir), before)).toBe(true);
    expect(await leftovers(generated)).toEqual([]);
  });
  it('--out content (a folder a swap would destroy) is refused before anything is built', async () => {
    const before = await rootState(fresh);
    const r = await buildProject(fresh, {
      env: { ARDSITE_SIGNING_KEY: TEST_KEY_ES256, SOURCE_DATE_EPOCH },
      out: 'content',
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('[BUILD_OUT_DIR_UNSAFE]');
    expect(r.stderr).not.toContain('Signing with');
    expect(sameTree(await rootState(fresh), before)).toBe(true);
    expect(await leftovers(fresh)).toEqual([]);
  });
});
