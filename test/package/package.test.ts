/**
 * ardsite as a publisher installs it: `npm pack` of this repository, the tarball installed into an empty
 * folder that has only its own package.json (ardsite's dependencies come from the npm registry, as in CI,
 * so this test needs the registry and takes minutes), then, as a publisher types them, `npx ardsite new`
 * and, in the new project, `npm run check`, `npm run build` (with a throw-away key, `ARDSITE_DEV_KEY=1`,
 * as CI builds, and `VERCEL=1`, as Vercel builds: its Build Output is written too) and `npm run verify`. publint and @arethetypeswrong/cli check the same tarball.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/site.js';

/** What one command gave. */
interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Variables of the parent process that must not reach the publisher's commands. */
const SCRUBBED = /^(CI|ARDSITE_.*|SOURCE_DATE_EPOCH|NODE_ENV|VITEST.*|TEST|GIT_.*|INIT_CWD|npm_.*)$/;

/** Runs `command args` in `cwd` over a clean environment plus `env`; never throws for a non-zero exit. */
function run(
  command: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<Ran> {
  const clean: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !SCRUBBED.test(k)) clean[k] = v;
  return new Promise((resolve) => {
    execFile(
      command,
      [...args],
      { cwd, env: { ...clean, NO_COLOR: '1', ...env }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

const own = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
let work: string;
let tarball: string;
let installed: string;
let site: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'ardsite-package-'));
  // prepack compiles lib/ (tsc -p tsconfig.build.json) before the tarball is made.
  const packed = await run('npm', ['pack', '--pack-destination', work], REPO_ROOT);
  expect(packed.code, packed.stderr).toBe(0);
  const name = (await readdir(work)).find((f) => f.endsWith('.tgz'));
  expect(name).toBeDefined();
  tarball = path.join(work, name!);
  installed = path.join(work, 'publisher');
  await mkdir(installed);
  await writeFile(path.join(installed, 'package.json'), '{ "name": "a-publisher", "private": true }\n');
  const install = await run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball],
    installed,
  );
  expect(install.code, install.stderr).toBe(0);
  site = path.join(installed, 'transit-agents');
}, 900_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the packed ardsite, installed from its tarball', () => {
  it('publishes no example content and no tests', async () => {
    const listed = await run('tar', ['-tzf', tarball], work);
    const files = listed.stdout.split('\n').filter(Boolean);
    expect(files).toContain('package/lib/cli/main.js');
    expect(files).toContain('package/lib/index.d.ts');
    expect(files).toContain('package/astro.config.mjs');
    expect(files.filter((f) => /^package\/(content|public|test|scripts)\//.test(f))).toEqual([]);
  });

  it('npx ardsite --version prints the version of the package', async () => {
    const version = await run('npx', ['ardsite', '--version'], installed);
    expect([version.code, version.stdout.trim()]).toEqual([0, own.version]);
  });

  it('npx ardsite new, then npm run check, build and verify in the new project', async () => {
    const made = await run(
      'npx',
      ['ardsite', 'new', 'transit-agents', '--domain', 'agents.transit.test', '--organization', 'Transit'],
      installed,
    );
    expect(made.code, made.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(path.join(site, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(manifest.dependencies.ardsite).toBe(own.version);
    // The project finds the installed ardsite in the folder above (npm run puts every node_modules/.bin
    // on the way up on PATH), as it would in its own node_modules after npm install.
    const checked = await run('npm', ['run', '--silent', 'check'], site);
    expect(checked.code, checked.stdout + checked.stderr).toBe(0);
    expect(checked.stdout).toMatch(/checked \.\/: 1 agent, 1 resource, 0 entries, 0 errors, 0 warnings/);
    // Built as on Vercel (VERCEL=1, docs/deploying.md): Vercel's Build Output is written beside dist/.
    const built = await run('npm', ['run', '--silent', 'build'], site, { ARDSITE_DEV_KEY: '1', VERCEL: '1' });
    expect(built.code, built.stderr).toBe(0);
    expect(existsSync(path.join(site, 'dist', '.well-known', 'ard.json'))).toBe(true);
    const vercel = JSON.parse(readFileSync(path.join(site, '.vercel/output/config.json'), 'utf8')) as {
      routes: Array<{ src?: string; headers?: Record<string, string> }>;
    };
    expect(vercel.routes.find((r) => r.src === '^/\\.well-known/ard\\.json$')?.headers).toMatchObject({
      'Content-Type': 'application/ard+json',
    });
    expect(existsSync(path.join(site, '.vercel/output/static/.well-known/ard.json'))).toBe(true);
    expect(existsSync(path.join(site, 'dist', 'agents', 'helper', 'permissions', 'index.html'))).toBe(true);
    const verified = await run('npm', ['run', '--silent', 'verify'], site);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    expect(verified.stdout).toMatch(/ passed, 0 failed/);
  }, 600_000);

  it('publint and @arethetypeswrong/cli find nothing wrong with the tarball', async () => {
    const lint = await run(
      path.join(REPO_ROOT, 'node_modules/.bin/publint'),
      ['run', tarball, '--strict'],
      work,
    );
    expect(lint.code, lint.stdout + lint.stderr).toBe(0);
    expect(lint.stdout).toContain('All good!');
    // ardsite is ESM only (as Astro is): the CommonJS resolutions are out of scope.
    const types = await run(
      path.join(REPO_ROOT, 'node_modules/.bin/attw'),
      [tarball, '--profile', 'esm-only', '--format', 'ascii'],
      work,
    );
    expect(types.code, types.stdout + types.stderr).toBe(0);
  }, 300_000);
});
