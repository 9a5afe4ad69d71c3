/**
 * `npm run dev` serves what a build would publish, and nothing else (DESIGN.md §10; src/core/build/dev-requests.ts):
 * the real dev server over a project (`--root`) whose public/ holds links to the key and to /etc/passwd and
 * whose folder holds the key, `.env` and `.git`, asked for them in every spelling an attacker would try
 * (direct, `?raw`, `?url`, `/@fs/`, percent-encoded once or twice, through a link in public/). A page and a
 * plain public file still answer.
 */
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyProject, removeProjects, TEST_KEY_ES256 } from '../helpers/build.js';
import { startServerScript, type RunningServer } from '../helpers/cli.js';

let server: RunningServer;
let root: string;
const D = (JSON.parse(TEST_KEY_ES256) as { d: string }).d;

beforeAll(async () => {
  root = await copyProject();
  await mkdir(path.join(root, '.ardsite/keys'), { recursive: true });
  await writeFile(path.join(root, '.ardsite/keys/signing.jwk.json'), TEST_KEY_ES256);
  await writeFile(path.join(root, '.env'), 'TOKEN=hunter2token\n');
  await mkdir(path.join(root, '.git'), { recursive: true });
  await writeFile(path.join(root, '.git/config'), '[remote]\n\turl = https://hunter2token@example.com\n');
  await writeFile(path.join(root, 'public/plain.css'), 'p {}\n');
  // Named so the artifact middleware does not take them (an artifact-like path answers the build error).
  await symlink('../.ardsite/keys/signing.jwk.json', path.join(root, 'public/key.css'));
  await symlink('../.ardsite', path.join(root, 'public/ardsite'));
  await symlink('..', path.join(root, 'public/project'));
  await symlink('/etc/passwd', path.join(root, 'public/passwd.css'));
  const port = String(40_000 + Math.floor(Math.random() * 20_000));
  server = await startServerScript(
    'dev.ts',
    ['--root', root, '--port', port],
    /(http:\/\/127\.0\.0\.1:\d+)\//,
    {
      env: { ARDSITE_DEV_KEY: '1' },
    },
  );
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await removeProjects();
});

async function get(target: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${server.origin}${target}`, { redirect: 'manual' });
  return { status: response.status, text: await response.text() };
}

describe('npm run dev: the trust boundary', () => {
  it('answers a plain public file (the content itself has errors: the build refuses these links too)', async () => {
    expect(await get('/plain.css')).toEqual({ status: 200, text: 'p {}\n' });
    expect((await get('/.well-known/ard.json')).text).toContain('[PUBLIC_LINK_TO_SECRET]');
  });

  it('never answers the key, .env, .git or /etc/passwd, in any spelling', async () => {
    const abs = (p: string) => `/@fs${path.join(root, p)}`;
    const targets = [
      '/key.css',
      '/key.css?raw',
      '/key%2ecss',
      '/ardsite/keys/signing.jwk.json',
      '/project/.ardsite/keys/signing.jwk.json',
      '/project/.env',
      '/project/.git/config',
      '/passwd.css',
      '/.ardsite/keys/signing.jwk.json',
      '/.ardsite/keys/signing.jwk.json?raw',
      '/.ardsite/keys/signing.jwk.json?url',
      '/%2eardsite/keys/signing.jwk.json',
      '/%252eardsite%252fkeys%252fsigning.jwk.json',
      '/.env',
      '/.git/config',
      abs('.ardsite/keys/signing.jwk.json'),
      `${abs('.ardsite/keys/signing.jwk.json')}?raw`,
      `${abs('.env')}?import&raw`,
      abs('public/key.css'),
      '/@fs/etc/passwd',
      '/@fs/etc/passwd?raw',
    ];
    for (const target of targets) {
      const { status, text } = await get(target);
      expect(text, target).not.toContain(D);
      expect(text, target).not.toContain('hunter2token');
      expect(text, target).not.toContain('root:x:0:0');
      expect(status, target).toBe(404);
    }
  });
});
