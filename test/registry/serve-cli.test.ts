/**
 * `npm run serve` (scripts/serve.ts) as a user runs it, in a child process: it refuses to start without
 * the pageToken secret (naming the variable), builds the example site in registry mode first when
 * `dist/` holds no registry build, honours PORT and HOST, and with an existing registry build starts at
 * once with the secret from the variable publisher.yaml names; a relative `--dir` is read from the project
 * folder (`--root`), as `npm run preview` reads it (test/build/command-lines.test.ts); a built site
 * without its registry build is not replaced unless `--rebuild`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cp, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyProject, fixedKeyEnv, removeProjects } from '../helpers/build.js';
import { REPO_ROOT } from '../helpers/site.js';
import { call, freePorts } from '../helpers/registry.js';

const SCRUBBED = /^(CI|ARDSITE_.*|SOURCE_DATE_EPOCH|NODE_ENV|VITEST.*|TEST|GIT_.*|PORT|HOST)$/;
let root: string;
const children: ChildProcess[] = [];

interface Run {
  child: ChildProcess;
  stderr: () => string;
  exit: Promise<number>;
}

function serve(args: string[], env: Record<string, string>): Run {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !SCRUBBED.test(k))) as Record<
    string,
    string
  >;
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(REPO_ROOT, 'src/cli/main.ts'), 'serve', '--root', root, ...args],
    {
      cwd: REPO_ROOT,
      env: { ...clean, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  child.stdout!.resume();
  const exit = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
  return { child, stderr: () => stderr, exit };
}

async function waitFor(run: Run, pattern: RegExp, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!pattern.test(run.stderr())) {
    if (Date.now() > deadline || run.child.exitCode !== null)
      throw new Error(`timed out; stderr:\n${run.stderr()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  root = await copyProject();
});

afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await removeProjects();
});

describe('npm run serve', () => {
  it('refuses to start without the pageToken secret, naming the variable, before any build', async () => {
    const run = serve([], fixedKeyEnv());
    expect(await run.exit).toBe(1);
    expect(run.stderr()).toMatch(/ARDSITE_REGISTRY_SECRET.*not set.*--dev.*\[REGISTRY_SECRET_MISSING\]/s);
    expect(run.stderr()).not.toMatch(/building/);
  });

  it('builds the site in registry mode first, then serves it on PORT and HOST (--dev: a throw-away secret, loudly)', async () => {
    const [port] = await freePorts(1);
    const run = serve(['--dev'], { ...fixedKeyEnv(), PORT: String(port), HOST: '127.0.0.1' });
    await waitFor(run, /lookup API at/, 240_000);
    expect(run.stderr()).toMatch(/\*\*\* ARDSITE_REGISTRY_SECRET is not set/);
    expect(run.stderr()).toMatch(/building the site in registry mode first/);
    expect(run.stderr()).toMatch(new RegExp(`http://127\\.0\\.0\\.1:${port}/ard/v1`));
    const listed = await call<{ entries: unknown[] }>(`http://127.0.0.1:${port}/ard/v1/agents`);
    expect(listed.status).toBe(200);
    expect(listed.body.entries.length).toBe(6);
    expect((await call(`http://127.0.0.1:${port}/.well-known/ard.json`)).status).toBe(200);
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
  });

  it('starts at once on an existing registry build, with the secret from the variable publisher.yaml names', async () => {
    const file = path.join(root, 'content/publisher.yaml');
    await writeFile(
      file,
      `${await readFile(file, 'utf8')}registry:\n  pageToken:\n    secretEnv: ARDSITE_REGISTRY_KEY_B\n`,
    );
    const [port] = await freePorts(1);
    const run = serve(['--port', String(port)], { ...fixedKeyEnv(), ARDSITE_REGISTRY_KEY_B: 'k'.repeat(48) });
    await waitFor(run, /lookup API at/, 60_000);
    expect(run.stderr()).not.toMatch(/building|throw-away/);
    const answer = await fetch(`http://127.0.0.1:${port}/ard/v1/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: { text: 'hotel room' } }),
    });
    expect(answer.status).toBe(200);
    // The access log names the request, never its text.
    await waitFor(run, /POST \/ard\/v1\/search 200/, 5_000);
    expect(run.stderr()).not.toMatch(/hotel room/);
    run.child.kill('SIGINT');
    expect(await run.exit).toBe(0);
  });

  it('reads a relative --dir from the project folder (--root), not from the working folder', async () => {
    // The registry build of the tests above, moved to another name in the project (its server folder too).
    await rename(path.join(root, 'dist'), path.join(root, 'site'));
    await rename(path.join(root, 'dist-server'), path.join(root, 'site-server'));
    const [port] = await freePorts(1);
    const run = serve(['--dir', 'site', '--no-build', '--port', String(port)], {
      ...fixedKeyEnv(),
      ARDSITE_REGISTRY_KEY_B: 'k'.repeat(48),
    });
    await waitFor(run, /lookup API at/, 60_000);
    expect(run.stderr()).toContain(`Serving ${path.relative(REPO_ROOT, path.join(root, 'site'))}/ at `);
    const listed = await call<{ entries: unknown[] }>(`http://127.0.0.1:${port}/ard/v1/agents`);
    expect(listed.status).toBe(200);
    expect(listed.body.entries.length).toBe(6);
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
  });

  it('does not replace a built site that has no registry build, unless --rebuild, and says so', async () => {
    // A site built without its registry build: the static files of the build above, no server bundle.
    await cp(path.join(root, 'site'), path.join(root, 'dist'), { recursive: true });
    const before = await readFile(path.join(root, 'dist/.well-known/ard.json'), 'utf8');
    const env = { ...fixedKeyEnv(), ARDSITE_REGISTRY_KEY_B: 'k'.repeat(48) };
    const refused = serve([], env);
    expect(await refused.exit).toBe(1);
    expect(refused.stderr()).toMatch(
      /holds no registry server bundle .*\. Serving the lookup API needs a registry build, which builds the content again and replaces the files in .*dist\/ .*npm run serve -- --rebuild.*\[REGISTRY_BUILD_MISSING\]/s,
    );
    expect(refused.stderr()).not.toMatch(/building the site/);
    expect(await readFile(path.join(root, 'dist/.well-known/ard.json'), 'utf8')).toBe(before);
    // --rebuild goes on, and says what it replaces before it builds.
    const [port] = await freePorts(1);
    const rebuilt = serve(['--rebuild', '--port', String(port)], env);
    await waitFor(rebuilt, /replacing the site in .*dist\/ with a registry build \(--rebuild\)/, 60_000);
    await waitFor(rebuilt, /lookup API at/, 240_000);
    expect((await call(`http://127.0.0.1:${port}/ard/v1/agents`)).status).toBe(200);
    rebuilt.child.kill('SIGTERM');
    expect(await rebuilt.exit).toBe(0);
  }, 300_000);
});
