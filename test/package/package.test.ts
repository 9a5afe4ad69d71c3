/**
 * ardsite as a publisher installs it: `npm pack` of this repository, the tarball installed into an empty
 * folder that has only its own package.json (ardsite's dependencies come from the npm registry, as in CI,
 * so this test needs the registry and takes minutes), then, as a publisher types them, `npx ardsite new`
 * and, in the new project, `npm run check`, `npm run build` (with a throw-away key, `ARDSITE_DEV_KEY=1`,
 * as CI builds, and `VERCEL=1`, as Vercel builds: its Build Output is written too) and `npm run verify`;
 * then `npm install` of the tarball in the new project, which warns of no engine and no install script, and
 * `ardsite dev` of the installed package serving the new project.
 * publint and @arethetypeswrong/cli check the same tarball. The pack and install are shared with the
 * other files of this folder (test/helpers/packed-ardsite.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess } from '../helpers/cli.js';
import { packedArdsite, run } from '../helpers/packed-ardsite.js';
import { freePorts } from '../helpers/registry.js';
import { REPO_ROOT } from '../helpers/site.js';

const own = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
let work: string;
let tarball: string;
let installed: string;
let site: string;

beforeAll(async () => {
  // Shared with the other files of test/package/ (test/helpers/packed-ardsite.ts).
  ({ tarball, installed } = await packedArdsite());
  work = path.dirname(tarball);
  site = path.join(installed, 'transit-agents');
}, 900_000);

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
    // Built as on Vercel (VERCEL=1, docs/guides/deploy/vercel.md): Vercel's Build Output is written beside dist/.
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

  it('npm install in the new project warns of no engine and no install script, and unifont gets an undici that loads', async () => {
    // As docs/getting-started.md says to install it until ardsite is on the registry.
    const install = await run(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline', '--save-exact', tarball],
      site,
    );
    expect(install.code, install.stderr).toBe(0);
    expect(install.stderr).not.toMatch(/EBADENGINE/);
    expect(install.stderr).not.toMatch(/install-scripts|allowScripts/);
    // Astro's font resolver (unifont) imports undici only to install a proxy dispatcher when HTTPS_PROXY
    // is set, and swallows a failure; the project's override gives it one that loads on this Node.
    const probe = await run(
      process.execPath,
      [
        '--input-type=module',
        '--no-warnings',
        '-e',
        [
          "import { createRequire } from 'node:module';",
          "import { pathToFileURL } from 'node:url';",
          "const unifont = createRequire(`${process.cwd()}/package.json`).resolve('unifont');",
          "const undici = createRequire(unifont)('undici');",
          'await (await import(pathToFileURL(unifont).href)).createUnifont([]);',
          'console.log(undici.getGlobalDispatcher() instanceof undici.EnvHttpProxyAgent);',
        ].join('\n'),
      ],
      site,
      { HTTPS_PROXY: 'http://127.0.0.1:9' },
    );
    expect(probe.stdout.trim(), probe.stderr).toBe('true');
  }, 600_000);

  it('ardsite dev of the installed package serves the new project: its home page with rel="ard", and the signed manifest', async () => {
    // The dev server reads the package's own astro.config.mjs (the build gives Astro its settings inline
    // instead): run from the installed package (the command `npm run dev` runs, without npm between it and
    // the signal that ends it), it must still load and serve. The project is the one `new` made above.
    const [port] = await freePorts(1);
    const cli = path.join(installed, 'node_modules', 'ardsite', 'lib', 'cli', 'main.js');
    const server = await startServerProcess(
      [cli, 'dev', '--port', String(port)],
      site,
      /Local\s+(http:\/\/[^\s/]+)/,
      { env: { ARDSITE_DEV_KEY: '1' } },
    );
    try {
      const home = await fetch(`${server.origin}/`);
      expect(home.status, server.output()).toBe(200);
      expect(await home.text()).toMatch(/<link rel="ard" href="\/\.well-known\/ard\.json"/);
      const manifest = await fetch(`${server.origin}/.well-known/ard.json`);
      expect(manifest.status, server.output()).toBe(200);
      expect(((await manifest.json()) as { entries?: unknown[] }).entries).toHaveLength(1);
    } finally {
      await server.stop();
    }
  }, 300_000);

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
