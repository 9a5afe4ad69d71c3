import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { calculateJwkThumbprint } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { copyProject, removeProjects } from '../helpers/build.js';
import { runScript } from '../helpers/cli.js';

/** Runs `scripts/keygen.ts` for the project at `root`; never throws on a non-zero exit. */
const keygen = (root: string, ...args: string[]) => runScript('keygen.ts', '--root', root, ...args);

afterAll(removeProjects);

describe('npm run keygen', () => {
  it('writes a 0600 key where git ignores it, prints only the public JWK and its kid, and never overwrites', async () => {
    const root = await copyProject();
    const first = await keygen(root);
    expect(first.code).toBe(0);
    const file = path.join(root, '.ardsite/keys/signing.jwk.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const privateJwk = JSON.parse(await readFile(file, 'utf8')) as Record<string, string>;
    expect(privateJwk.d).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const printed = JSON.parse(first.stdout) as Record<string, string>;
    expect(printed.d).toBeUndefined();
    expect(`${first.stdout}${first.stderr}`).not.toContain(privateJwk.d);
    expect(printed.x).toBe(privateJwk.x);
    const thumbprint = await calculateJwkThumbprint({
      kty: 'EC',
      crv: 'P-256',
      x: printed.x!,
      y: printed.y!,
    });
    expect(printed.kid).toBe(`did:web:agents.example.com#${thumbprint}`);

    const again = await keygen(root);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists');
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(privateJwk);
  });

  it('refuses a key type publisher.yaml does not configure (the build would refuse it)', async () => {
    const root = await copyProject();
    const refused = await keygen(root, '--alg', 'EdDSA');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('signing.algorithm');
    await expect(stat(path.join(root, '.ardsite/keys/signing.jwk.json'))).rejects.toThrow();
  });

  it('makes the Ed25519 key publisher.yaml configures and refuses a path git does not ignore', async () => {
    const root = await copyProject();
    const publisherFile = path.join(root, 'content/publisher.yaml');
    await writeFile(
      publisherFile,
      (await readFile(publisherFile, 'utf8')).replace('algorithm: ES256', 'algorithm: EdDSA'),
    );
    const ed = await keygen(root);
    expect(ed.code).toBe(0);
    expect(JSON.parse(ed.stdout)).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA' });
    const refused = await keygen(root, '--out', 'keys/site.jwk.json');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('KEY_NOT_IGNORED');
    await expect(stat(path.join(root, 'keys/site.jwk.json'))).rejects.toThrow();
  });
});
