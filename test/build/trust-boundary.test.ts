/**
 * The trust boundary (DESIGN.md §10, docs/security.md "Trust boundary"): content (what a pull request
 * changes) decides no key material and no reach outside the project, and public/ never publishes a
 * secret of the project. The operator's word comes from the environment: ARDSITE_TRUSTED_KEYS and
 * ARDSITE_ALLOW_OUTSIDE (src/core/operator-trust.ts). Each case is a small project made here, checked and
 * prepared in-process with an explicit environment.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadAndCheck } from '../../src/core/content/index.js';
import { prepareBuild } from '../../src/core/build/prepare.js';
import { publicJwkThumbprint } from '../../src/core/trust/jwk.js';
import { SOURCE_DATE_EPOCH, TEST_KEY_ES256 } from '../helpers/build.js';
import { agentMd, DEFAULT_PUBLISHER, makeSite, removeSites } from '../helpers/site.js';

afterAll(removeSites);

/** An attacker's public key, as a pull request would list it under signing.retiredKeys. */
const ATTACKER = { kty: 'EC', crv: 'P-256', ...pickXY(TEST_KEY_ES256) };
const ATTACKER_THUMBPRINT = publicJwkThumbprint(ATTACKER);

function pickXY(text: string): { x: string; y: string } {
  const { x, y } = JSON.parse(text) as { x: string; y: string };
  return { x, y };
}

const errorsOf = async (root: string, env: NodeJS.ProcessEnv = {}) =>
  (await loadAndCheck({ root, env })).diagnostics.filter((d) => d.severity === 'error');

describe('item 2: key material comes from the operator, not from content', () => {
  const publisher = (revoked = false) =>
    `${DEFAULT_PUBLISHER}signing:\n  retiredKeys:\n    - jwk: ${JSON.stringify(ATTACKER)}\n${revoked ? '      revoked: true\n' : ''}`;

  it('a key content lists under signing.retiredKeys is an error at its line until ARDSITE_TRUSTED_KEYS names it', async () => {
    const root = await makeSite({ 'content/publisher.yaml': publisher(), 'content/agents/a.md': agentMd() });
    const errors = await errorsOf(root);
    expect(errors).toEqual([
      expect.objectContaining({
        code: 'KEY_NOT_CONFIRMED',
        file: 'content/publisher.yaml',
        path: 'signing.retiredKeys[0]',
        line: 7,
      }),
    ]);
    expect(errors[0]!.message).toContain(`ARDSITE_TRUSTED_KEYS="${ATTACKER_THUMBPRINT}"`);
    // The build stops there: the attacker's key is never published in did.json.
    const env = { ARDSITE_DEV_KEY: '1', SOURCE_DATE_EPOCH };
    await expect(prepareBuild({ root, env })).rejects.toMatchObject({ code: 'BUILD_CONTENT_INVALID' });
    // Confirmed by the operator (a thumbprint or a full key id), it is published.
    expect(await errorsOf(root, { ARDSITE_TRUSTED_KEYS: ATTACKER_THUMBPRINT })).toEqual([]);
    const kid = `did:web:agents.example.test#${ATTACKER_THUMBPRINT}`;
    const prepared = await prepareBuild({ root, env: { ...env, ARDSITE_TRUSTED_KEYS: `other, ${kid}` } });
    expect(prepared.site.artifacts.get('/.well-known/did.json')).toBeDefined();
  });

  it('a revoked key content lists needs the same word', async () => {
    const root = await makeSite({
      'content/publisher.yaml': publisher(true),
      'content/agents/a.md': agentMd(),
    });
    expect((await errorsOf(root)).map((d) => d.code)).toEqual(['KEY_NOT_CONFIRMED']);
  });

  it('signing.keyFile (content) signs only when ARDSITE_TRUSTED_KEYS names its key', async () => {
    const root = await makeSite({
      'content/publisher.yaml': `${DEFAULT_PUBLISHER}signing:\n  keyFile: content/attacker.jwk.json\n`,
      'content/attacker.jwk.json': TEST_KEY_ES256,
      'content/agents/a.md': agentMd(),
    });
    const env = { SOURCE_DATE_EPOCH };
    await expect(prepareBuild({ root, env })).rejects.toMatchObject({
      code: 'KEY_NOT_CONFIRMED',
      message: expect.stringContaining(`ARDSITE_TRUSTED_KEYS="${ATTACKER_THUMBPRINT}"`),
    });
    const prepared = await prepareBuild({ root, env: { ...env, ARDSITE_TRUSTED_KEYS: ATTACKER_THUMBPRINT } });
    expect(prepared.key.kid).toContain(ATTACKER_THUMBPRINT);
  });
});

describe('item 3: reach outside the project comes from the operator, not from content', () => {
  it('allowOutside: [/] in publisher.yaml is an error, and public/ links to /etc/passwd stay refused', async () => {
    const root = await makeSite({
      'content/publisher.yaml': `${DEFAULT_PUBLISHER}allowOutside:\n  - /\n`,
      'content/agents/a.md': agentMd(),
    });
    await mkdir(path.join(root, 'public'));
    await symlink('/etc/passwd', path.join(root, 'public/passwd.txt'));
    const errors = await errorsOf(root);
    expect(errors.map((d) => [d.code, d.file, d.path])).toEqual([
      ['ALLOW_OUTSIDE_NOT_CONFIRMED', 'content/publisher.yaml', 'allowOutside[0]'],
      ['FILE_OUTSIDE_PROJECT', 'public/passwd.txt', undefined],
    ]);
    expect(errors[0]!.message).toContain('ARDSITE_ALLOW_OUTSIDE="/"');
  });

  it('a folder the operator lists in ARDSITE_ALLOW_OUTSIDE is let in, with or without publisher.yaml', async () => {
    const outside = await mkdtemp(path.join(os.tmpdir(), 'ardsite-shared-'));
    try {
      await writeFile(path.join(outside, 'shared.json'), '{}\n');
      const root = await makeSite({
        'content/publisher.yaml': `${DEFAULT_PUBLISHER}allowOutside:\n  - ${outside}\n`,
        'content/agents/a.md': agentMd(),
      });
      await mkdir(path.join(root, 'public'));
      await symlink(outside, path.join(root, 'public/shared'));
      expect((await errorsOf(root)).map((d) => d.code)).toEqual([
        'ALLOW_OUTSIDE_NOT_CONFIRMED',
        'FILE_OUTSIDE_PROJECT',
      ]);
      expect(await errorsOf(root, { ARDSITE_ALLOW_OUTSIDE: outside })).toEqual([]);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });
});

describe('item 4: public/ never publishes a secret of the project', () => {
  it('refuses links to .git, .git/config, .env, .ardsite, the operator key file, and to the project itself', async () => {
    const root = await makeSite({
      'content/agents/a.md': agentMd(),
      '.git/config': '[remote "origin"]\n\turl = https://x-access-token:hunter2token@github.com/o/r\n',
      '.env': 'TOKEN=hunter2token\n',
      '.ardsite/keys/signing.jwk.json': TEST_KEY_ES256,
      'secrets/ci.jwk.json': TEST_KEY_ES256,
      'public/ok.txt': 'fine\n',
    });
    const links: Array<[string, string]> = [
      ['git', '../.git'],
      ['git-config', '../.git/config'],
      ['env', '../.env'],
      ['keys', '../.ardsite'],
      ['ci-key.json', '../secrets/ci.jwk.json'],
      ['all', '..'],
    ];
    for (const [name, target] of links) await symlink(target, path.join(root, 'public', name));
    const errors = await errorsOf(root, { ARDSITE_SIGNING_KEY_FILE: 'secrets/ci.jwk.json' });
    expect(errors.map((d) => [d.code, d.file])).toEqual(
      links
        .map(([name]) => ['PUBLIC_LINK_TO_SECRET', `public/${name}`])
        .sort((a, b) => a[1]!.localeCompare(b[1]!)),
    );
    expect(JSON.stringify(errors)).not.toContain('hunter2token');
  });
});
