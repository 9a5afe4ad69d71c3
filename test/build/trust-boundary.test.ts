/**
 * The trust boundary (DESIGN.md §10, docs/security.md "Trust boundary"): content (what a pull request
 * changes) decides no key material and no reach outside the project, and public/ never publishes a
 * secret of the project. The operator's word comes from the environment: ARDSITE_TRUSTED_KEYS and
 * ARDSITE_ALLOW_OUTSIDE (src/core/trust/operator-trust.ts). Each case is a small project made here, checked and
 * prepared in-process with an explicit environment.
 */
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadAndCheck } from '../../src/core/content/index.js';
import { prepareBuild } from '../../src/core/build/prepare.js';
import { publicJwkThumbprint } from '../../src/core/trust/jwk.js';
import { copyProject, removeProjects, SOURCE_DATE_EPOCH, TEST_KEY_ES256 } from '../helpers/build.js';
import { runCommandInProcess } from '../helpers/cli.js';
import { AGENT, gainCalendarWrite, RELEASES_FIXTURE } from '../helpers/releases.js';
import { recordReleases } from '../../src/core/releases/record.js';
import { readProjectFile } from '../../src/core/ram/catalog.js';
import { agentMd, DEFAULT_PUBLISHER, makeSite, removeSites } from '../helpers/site.js';

afterAll(removeSites);
afterAll(removeProjects);

/** An attacker's public key, as a pull request would list it under signing.retiredKeys. */
const ATTACKER = { kty: 'EC', crv: 'P-256', ...pickXY(TEST_KEY_ES256) };
const ATTACKER_THUMBPRINT = publicJwkThumbprint(ATTACKER);

function pickXY(text: string): { x: string; y: string } {
  const { x, y } = JSON.parse(text) as { x: string; y: string };
  return { x, y };
}

const errorsOf = async (root: string, env: NodeJS.ProcessEnv = {}) =>
  (await loadAndCheck({ root, env })).diagnostics.filter((d) => d.severity === 'error');

describe('key material comes from the operator (ARDSITE_TRUSTED_KEYS), not from content', () => {
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

  it('a revoked entry needs no word (it only takes a key away), and turning it back into a retired one does', async () => {
    const root = await makeSite({
      'content/publisher.yaml': publisher(true),
      'content/agents/a.md': agentMd(),
    });
    expect(await errorsOf(root)).toEqual([]);
    // A pull request flips the compromised key back to "retired until 2099": refused, as the operator took
    // its thumbprint out of ARDSITE_TRUSTED_KEYS when revoking it.
    const flipped = await makeSite({
      'content/publisher.yaml': `${publisher()}      retireAt: 2099-01-01\n`,
      'content/agents/a.md': agentMd(),
    });
    expect((await errorsOf(flipped)).map((d) => d.code)).toEqual(['KEY_NOT_CONFIRMED']);
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

describe('reach outside the project comes from the operator (ARDSITE_ALLOW_OUTSIDE), not from content', () => {
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

describe('public/ never publishes a secret of the project', () => {
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

describe('content never reads a secret of the project', () => {
  it('a ramFile, an attestation file or a stored spec linked to the key, .env or .git is refused, quoting nothing', async () => {
    const root = await makeSite({
      'content/agents/a.md': agentMd({
        ramFile: './ram.json',
        attestations: [{ type: 'audit', uri: 'https://audit.example.test/a', file: 'content/audit.txt' }],
      }),
      'content/resources/notes.yaml': `id: notes\ninteractionProtocol: REST\nowner: THIRD_PARTY\ndisplayName: Notes\ndescription: Notes.\nspecFile: content/specs/notes.json\nspecDigest: sha256:${'0'.repeat(64)}\noperations:\n  - id: notes-list\n    description: Lists notes.\n    apiOperationSpec: { operationId: notes.list, httpMethod: GET }\n`,
      '.ardsite/keys/signing.jwk.json': TEST_KEY_ES256,
      '.env': 'TOKEN=hunter2token\n',
    });
    await symlink('../../.ardsite/keys/signing.jwk.json', path.join(root, 'content/agents/ram.json'));
    await symlink('../.env', path.join(root, 'content/audit.txt'));
    await mkdir(path.join(root, 'content/specs'));
    await symlink('../../.ardsite/keys/signing.jwk.json', path.join(root, 'content/specs/notes.json'));
    const errors = await errorsOf(root);
    const secretFindings = errors.filter((d) => d.message.includes('a secret of the project'));
    expect(secretFindings.map((d) => d.path).sort()).toEqual(['attestations[0].file', 'ramFile']);
    // The stored spec's reader (its resource is used by no agent here, so it is read directly).
    expect(() => readProjectFile(root, 'content/specs/notes.json')).toThrow(/a secret of the project/);
    expect(JSON.stringify(errors)).not.toContain('hunter2token');
    expect(JSON.stringify(errors)).not.toContain((JSON.parse(TEST_KEY_ES256) as { d: string }).d);
  });
});

describe('a release history cannot lose what is already published', () => {
  /** The releases fixture with 1.0.0 and then 1.1.0 (which gained a calendar write) recorded, and its build. */
  async function releasedTwice(): Promise<{ root: string; published: string }> {
    const root = await copyProject(RELEASES_FIXTURE);
    const record = async (at: string) => {
      const { model } = await loadAndCheck({ root, env: {} });
      await recordReleases(model!, new Date(at));
    };
    await record('2025-11-20T10:00:00Z');
    await gainCalendarWrite(root);
    const agent = path.join(root, AGENT);
    await writeFile(agent, (await readFile(agent, 'utf8')).replace('version: 1.0.0', 'version: 1.1.0'));
    await record('2025-11-22T10:00:00Z');
    const prepared = await prepareBuild({ root, env: { ARDSITE_DEV_KEY: '1', SOURCE_DATE_EPOCH } });
    const published = path.join(root, 'dist');
    const changes = prepared.site.artifacts.get('/agents/trip-booker/ram-changes.json')!;
    await mkdir(path.join(published, 'agents/trip-booker'), { recursive: true });
    await writeFile(path.join(published, 'agents/trip-booker/ram-changes.json'), changes.bytes);
    return { root, published };
  }
  const HISTORY = 'content/releases/trip-booker.json';
  const lostOf = async (root: string, published: string) =>
    (await loadAndCheck({ root, env: {}, publishedDir: published })).diagnostics.filter(
      (d) => d.code === 'RELEASE_HISTORY_LOST',
    );

  it('a history file deleted, or rewritten to hide a widening, is an error against the published site', async () => {
    const { root, published } = await releasedTwice();
    expect(await lostOf(root, published)).toEqual([]);
    const text = await readFile(path.join(root, HISTORY), 'utf8');
    const history = JSON.parse(text) as { releases: Array<{ version: string; ram: unknown }> };

    // Rewritten: 1.1.0 dropped and its RAM put under 1.0.0, so the write looks as old as the agent.
    const [first, second] = history.releases;
    await writeFile(
      path.join(root, HISTORY),
      JSON.stringify({ ...history, releases: [{ ...first, ram: second!.ram }] }, null, 2),
    );
    await writeFile(
      path.join(root, AGENT),
      (await readFile(path.join(root, AGENT), 'utf8')).replace('1.1.0', '1.0.0'),
    );
    const rewritten = await lostOf(root, published);
    expect(rewritten.map((d) => [d.code, d.file])).toEqual([['RELEASE_HISTORY_LOST', HISTORY]]);
    expect(rewritten[0]!.message).toContain('version 1.1.0 of 2025-11-22T10:00:00Z is no longer recorded');
    await expect(
      prepareBuild({ root, env: { ARDSITE_DEV_KEY: '1', SOURCE_DATE_EPOCH }, publishedDir: published }),
    ).rejects.toMatchObject({
      code: 'BUILD_CONTENT_INVALID',
      diagnostics: expect.arrayContaining([expect.objectContaining({ code: 'RELEASE_HISTORY_LOST' })]),
    });

    // Deleted: check says nothing without the published site, and names the file with it.
    await rm(path.join(root, HISTORY));
    expect(await lostOf(root, published)).toEqual([
      expect.objectContaining({ code: 'RELEASE_HISTORY_LOST', file: HISTORY }),
    ]);
  });

  it('npm run check -- --published <folder> reports it too', async () => {
    const { root, published } = await releasedTwice();
    await rm(path.join(root, HISTORY));
    const run = await runCommandInProcess('check.ts', '--root', root, '--published', published);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('[RELEASE_HISTORY_LOST]');
  });
});
