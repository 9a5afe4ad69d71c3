/**
 * docs/security.md, "Build-side promises and their tests": a private key can never be published, and a
 * revoked or retired key never signs. Builds over copies of test/fixtures/hardening/ with the TEST-ONLY keys
 * of test/vectors/; most stop before rendering, one renders (the self-check's search of every written file).
 */
import { createPrivateKey } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareBuild } from '../../src/core/build/prepare.js';
import { loadAndCheck } from '../../src/core/content/index.js';
import { filesHoldingPatterns, privateKeyPatterns } from '../../src/core/trust/key-guards.js';
import { createSigningKey } from '../../src/core/trust/keys.js';
import { publicJwkThumbprint, type PrivateSigningJwk } from '../../src/core/trust/jwk.js';
import {
  buildProject,
  copyProject,
  leftovers,
  rememberForRemoval,
  removeProjects,
  SOURCE_DATE_EPOCH,
  TEST_KEY_ES256,
} from '../helpers/build.js';
import { fixture, lineOf, REPO_ROOT } from '../helpers/site.js';

afterAll(removeProjects);

const ES256 = JSON.parse(TEST_KEY_ES256) as PrivateSigningJwk & { kty: 'EC'; y: string };
const ED25519 = JSON.parse(
  readFileSync(path.join(REPO_ROOT, 'test/vectors/test-key-ed25519.jwk.json'), 'utf8'),
) as PrivateSigningJwk;
const { d: _d, ...ES256_PUBLIC } = ES256;
const PUBLISHER = 'content/publisher.yaml';
/** A folder outside every project (a CI secret file's), removed with the projects. */
const outside = mkdtempSync(path.join(tmpdir(), 'ardsite-outside-'));
rememberForRemoval(outside);

async function project(change: (root: string) => Promise<void> = async () => {}): Promise<string> {
  const root = await copyProject(fixture('hardening'));
  await change(root);
  return root;
}

/** The errors `npm run check` reports for `root` (warnings of other features left out). */
async function errorsOf(root: string) {
  return (await loadAndCheck({ root })).diagnostics.filter((d) => d.severity === 'error');
}

async function appendPublisher(root: string, yaml: string): Promise<void> {
  const file = path.join(root, PUBLISHER);
  await writeFile(file, `${await readFile(file, 'utf8')}${yaml}`);
}

describe('finding 1: the private key is never published', () => {
  it('the self-check patterns find d as JWK, base64, hex and in PKCS#8 / SEC1 PEM, and nothing in the public key', async () => {
    for (const [name, jwk] of [
      ['ES256', ES256],
      ['Ed25519', ED25519],
    ] as const) {
      const dir = mkdtempSync(path.join(tmpdir(), 'ardsite-leak-'));
      rememberForRemoval(dir);
      const d = Buffer.from(jwk.d, 'base64url');
      const keyObject = createPrivateKey({ key: { ...jwk }, format: 'jwk' });
      const { d: _private, ...publicJwk } = jwk;
      const files: Record<string, string> = {
        'a-jwk.json': `{"keys":[${JSON.stringify(jwk)}]}`,
        'b-base64.txt': `secret=${d.toString('base64')}`,
        'c-hex.txt': `0x${d.toString('hex')}`,
        'd-hex-upper.txt': d.toString('hex').toUpperCase(),
        'e-pkcs8.pem': keyObject.export({ format: 'pem', type: 'pkcs8' }).toString(),
        'z-public.json': JSON.stringify(publicJwk),
      };
      if (name === 'ES256')
        files['f-sec1.pem'] = keyObject.export({ format: 'pem', type: 'sec1' }).toString();
      for (const [file, text] of Object.entries(files)) {
        await mkdir(path.join(dir, 'deep', 'er'), { recursive: true });
        await writeFile(path.join(dir, 'deep', 'er', file), text);
      }
      const patterns = privateKeyPatterns(createSigningKey(jwk, 'agents.hardening.example'));
      const found = filesHoldingPatterns(dir, patterns);
      expect(found, name).toEqual(
        Object.keys(files)
          .filter((f) => f !== 'z-public.json')
          .sort()
          .map((f) => `deep/er/${f}`),
      );
    }
  });

  it('a build whose public/ holds the key bytes fails with KEY_PRIVATE_PUBLISHED naming the file; nothing is published', async () => {
    const root = await project(async (r) => {
      await mkdir(path.join(r, 'public/notes'));
      const hex = Buffer.from(ES256.d, 'base64url').toString('hex');
      await writeFile(path.join(r, 'public/notes/backup.txt'), `old key, do not lose: ${hex}\n`);
    });
    const result = await buildProject(root, {
      env: { ARDSITE_SIGNING_KEY: TEST_KEY_ES256, SOURCE_DATE_EPOCH },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('[KEY_PRIVATE_PUBLISHED]');
    expect(result.stderr).toContain('notes/backup.txt');
    expect(result.stderr).not.toContain(ES256.d);
    expect(result.stderr).not.toContain(Buffer.from(ES256.d, 'base64url').toString('hex'));
    expect(existsSync(result.outDir)).toBe(false);
    expect(await leftovers(root)).toEqual([]);
  });

  it('refuses a key file in public/ (signing.keyFile, ARDSITE_SIGNING_KEY_FILE) and a link public/x -> ../.ardsite', async () => {
    const inPublic = await project(async (r) => {
      await mkdir(path.join(r, 'public/keys'));
      await writeFile(path.join(r, 'public/keys/site.jwk.json'), TEST_KEY_ES256);
      await appendPublisher(r, 'signing:\n  keyFile: public/keys/site.jwk.json\n');
    });
    const byEnv = await project(async (r) => {
      await writeFile(path.join(r, 'public/site.jwk.json'), TEST_KEY_ES256);
    });
    const linked = await project(async (r) => {
      await mkdir(path.join(r, '.ardsite/keys'), { recursive: true });
      await writeFile(path.join(r, '.ardsite/keys/signing.jwk.json'), TEST_KEY_ES256);
      await symlink('../.ardsite', path.join(r, 'public/x'));
    });
    const runs = await Promise.all([
      buildProject(inPublic, { env: { SOURCE_DATE_EPOCH } }),
      buildProject(byEnv, { env: { SOURCE_DATE_EPOCH, ARDSITE_SIGNING_KEY_FILE: 'public/site.jwk.json' } }),
      buildProject(linked, { env: { SOURCE_DATE_EPOCH } }),
    ]);
    const named = ['public/keys/site.jwk.json', 'public/site.jwk.json', 'public/x'];
    // A link to .ardsite is refused by the content check itself, key or not (a secret of the project).
    const refused = ['KEY_IN_PUBLIC_FOLDER', 'KEY_IN_PUBLIC_FOLDER', 'PUBLIC_LINK_TO_SECRET'];
    runs.forEach((run, i) => {
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).toContain(`[${refused[i]}]`);
      expect(run.stderr).toContain(named[i]);
      expect(run.stderr).not.toContain(ES256.d);
      expect(existsSync(run.outDir)).toBe(false);
    });
    // check reports the publisher.yaml case at its line.
    const diagnostics = await errorsOf(inPublic);
    const text = await readFile(path.join(inPublic, PUBLISHER), 'utf8');
    expect(diagnostics).toEqual([
      expect.objectContaining({
        code: 'KEY_IN_PUBLIC_FOLDER',
        file: PUBLISHER,
        path: 'signing.keyFile',
        line: lineOf(text, 'keyFile:'),
      }),
    ]);
  });

  it('allows ARDSITE_SIGNING_KEY_FILE outside the project (a CI secret file), never signing.keyFile', async () => {
    const secret = path.join(outside, 'ci-secret.jwk.json');
    await writeFile(secret, TEST_KEY_ES256);
    const root = await project();
    const prepared = await prepareBuild({
      root,
      env: { ARDSITE_SIGNING_KEY_FILE: secret, SOURCE_DATE_EPOCH },
    });
    expect(prepared.key.source).toBe(secret);
    const viaContent = await project((r) => appendPublisher(r, `signing:\n  keyFile: ${secret}\n`));
    // The build stops at its content check, which names the field (below).
    await expect(prepareBuild({ root: viaContent, env: { SOURCE_DATE_EPOCH } })).rejects.toMatchObject({
      code: 'BUILD_CONTENT_INVALID',
      diagnostics: expect.arrayContaining([expect.objectContaining({ code: 'FILE_OUTSIDE_PROJECT' })]),
    });
    const diagnostics = await errorsOf(viaContent);
    expect(diagnostics).toEqual([
      expect.objectContaining({ code: 'FILE_OUTSIDE_PROJECT', file: PUBLISHER, path: 'signing.keyFile' }),
    ]);
  });
});

describe('finding 2: a revoked key never signs, nor a retired key past its retireAt', () => {
  const LISTED = publicJwkThumbprint(ES256_PUBLIC as never);
  const listed = (extra: string) =>
    `signing:\n  retiredKeys:\n    - jwk: ${JSON.stringify({ ...ES256_PUBLIC, kid: 'any', use: 'sig' })}\n${extra}`;

  it('npm run build refuses to sign with a key listed as revoked (matched by RFC 7638 thumbprint)', async () => {
    const root = await project((r) => appendPublisher(r, listed('      revoked: true\n')));
    const result = await buildProject(root, {
      env: { ARDSITE_SIGNING_KEY: TEST_KEY_ES256, SOURCE_DATE_EPOCH, ARDSITE_TRUSTED_KEYS: LISTED },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('[KEY_REVOKED]');
    expect(result.stderr).toContain('signing.retiredKeys[0]');
    expect(existsSync(result.outDir)).toBe(false);
  });

  it('a retired key signs until its retireAt, and not after', async () => {
    // 2025-11-24T16:00:00Z; the operator confirms the listed key (src/core/trust/operator-trust.ts).
    const env = { ARDSITE_SIGNING_KEY: TEST_KEY_ES256, SOURCE_DATE_EPOCH, ARDSITE_TRUSTED_KEYS: LISTED };
    const past = await project((r) => appendPublisher(r, listed('      retireAt: 2025-11-24\n')));
    await expect(prepareBuild({ root: past, env })).rejects.toMatchObject({ code: 'KEY_RETIRED' });
    const future = await project((r) => appendPublisher(r, listed('      retireAt: 2025-11-25\n')));
    const prepared = await prepareBuild({ root: future, env });
    expect(prepared.key.kid).toMatch(/^did:web:agents\.hardening\.example#/);
  });
});
