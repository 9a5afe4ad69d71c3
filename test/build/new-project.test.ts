/**
 * `npm run new`: a publisher project of one's own, from nothing. Made by the real CLI in an
 * empty temporary folder, then checked, built (the first build makes the key, as for any publisher),
 * verified, previewed and served by `npm run dev`, each with `--root`: 0 warnings, and nothing of the
 * example publisher in the project or its dist/. The project is made, built and served by child
 * processes, and one refusal of `new` is one (its exit code); the other commands and refusals, and a
 * second project (a domain in capitals), run in the test's process, through the CLI's same error boundary
 * (test/helpers/cli.ts `runCommandInProcess`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fg from 'fast-glob';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newProjectFiles, newProjectProblems } from '../../src/core/project/new-project.js';
import { buildProject, type BuildResult } from '../helpers/build.js';
import { runCommandInProcess, runScript, startServerScript } from '../helpers/cli.js';
import { EXAMPLE_LIKE, REPO_ROOT } from '../helpers/site.js';

let parent: string;
let root: string;
let made: Awaited<ReturnType<typeof runScript>>;
let built: BuildResult;

beforeAll(async () => {
  parent = await mkdtemp(path.join(tmpdir(), 'ardsite-new-'));
  root = path.join(parent, 'acme-agents');
  made = await runScript(
    'new.ts',
    root,
    '--domain',
    'agents.acme.test',
    '--organization',
    'Acme "Rockets" Inc.',
    '--namespace',
    'rockets',
  );
  // No CI, no key given: the first build makes the site's key, as a publisher's first build does.
  built = await buildProject(root, { env: {} });
}, 240_000);

afterAll(async () => {
  if (parent) await rm(parent, { recursive: true, force: true });
});

/** Every file of the example (content/, public/) by its name, and words only the example uses. */
const exampleFiles = fg
  .sync(['content/**', 'public/**'], { cwd: EXAMPLE_LIKE })
  .map((f) => path.basename(f).replace(/\.(md|ya?ml)$/, ''));
const exampleWords = /travel|itinerary|trip-tools|partner-hotel|example\.com/i;

describe('npm run new', () => {
  it('creates content/, public/, a .gitignore and a README, and nothing of the example', async () => {
    expect(made.code, made.stderr).toBe(0);
    const files = await fg(['**'], { cwd: root, dot: true, ignore: ['.git/**', 'dist/**', '.ardsite/**'] });
    expect(files.sort()).toEqual([
      '.github/workflows/deploy.yml',
      '.gitignore',
      'README.md',
      'content/agents/helper.md',
      'content/publisher.yaml',
      'content/resources/public-holidays.yaml',
      'package.json',
    ]);
    expect(existsSync(path.join(root, 'public'))).toBe(true);
    for (const file of files) expect(readFileSync(path.join(root, file), 'utf8')).not.toMatch(exampleWords);
    expect(await readFile(path.join(root, '.gitignore'), 'utf8')).toMatch(/^\.ardsite\/$/m);
    expect(await readFile(path.join(root, 'content/publisher.yaml'), 'utf8')).toContain('namespace: rockets');
  });

  it('is an npm project: package.json pins this ardsite exactly and names its commands; CI deploys with the key from a secret', async () => {
    const own = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    const manifest = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      scripts: Record<string, string>;
      overrides: unknown;
      allowScripts: unknown;
    };
    expect(manifest.dependencies).toEqual({ ardsite: own.version });
    // What keeps npm install quiet on Node 20 and npm 11 (test/package/package.test.ts installs one).
    expect(manifest.overrides).toEqual({ unifont: { undici: '^6.28.0' } });
    expect(manifest.allowScripts).toEqual({ esbuild: false, sharp: false });
    expect(manifest.scripts).toMatchObject({
      check: 'ardsite check',
      build: 'ardsite build',
      dev: 'ardsite dev',
      verify: 'ardsite verify --root .',
    });
    const workflow = await readFile(path.join(root, '.github/workflows/deploy.yml'), 'utf8');
    expect(workflow).toContain('- run: npm ci');
    expect(workflow).toContain('ARDSITE_SIGNING_KEY: ${{ secrets.ARDSITE_SIGNING_KEY }}');
    expect(workflow).toContain('uses: actions/deploy-pages@v4');
    expect(made.stdout).toContain('Next: cd ');
    expect(made.stdout).toContain('npm install && npm run check && npm run build');
  });

  it('builds with 0 warnings, makes the key on the first build, and its dist/ holds nothing of the example', async () => {
    expect(built.code, built.stderr).toBe(0);
    expect(built.stderr).not.toMatch(/^W /m);
    expect(built.stderr).toContain('created a new signing key');
    expect(existsSync(path.join(root, '.ardsite/keys/signing.jwk.json'))).toBe(true);
    const dist = await fg(['**'], { cwd: built.outDir, dot: true });
    expect(dist).toContain('.well-known/ard.json');
    expect(dist).toContain('agents/helper/agent-card.json');
    // The starter agent offers v0.3, so pre-0.3 clients find its card too (hosting.legacyAgentJson default).
    expect(dist).toContain('.well-known/agent.json');
    for (const file of dist) {
      expect(exampleFiles).not.toContain(path.basename(file).replace(/\.(json|html)$/, ''));
      expect(readFileSync(path.join(built.outDir, file)).toString('latin1'), file).not.toMatch(exampleWords);
    }
    const manifest = JSON.parse(await readFile(path.join(built.outDir, '.well-known/ard.json'), 'utf8'));
    expect(manifest.entries.map((e: { identifier: string }) => e.identifier)).toEqual([
      'urn:air:agents.acme.test:rockets:helper',
    ]);
  });

  it('specs and pin say there is nothing of the kind, not that all of it is done', async () => {
    const specs = await runCommandInProcess('specs.ts', '--root', root);
    expect([specs.code, specs.stdout]).toEqual([
      0,
      `No resource of ${root}/ has a spec to fetch or pin (spec.specUrl, or a specFile kept as a local file).\n`,
    ]);
    const pin = await runCommandInProcess('pin.ts', '--root', root);
    expect([pin.code, pin.stdout]).toEqual([
      0,
      `No entry of ${root}/ points outside the site: nothing to pin.\n`,
    ]);
  });

  it('check --root finds 0 errors and 0 warnings', async () => {
    const { code, stdout } = await runCommandInProcess('check.ts', '--root', root);
    expect(code).toBe(0);
    expect(stdout).toBe(`checked ${root}/: 1 agent, 1 resource, 0 entries, 0 errors, 0 warnings\n`);
  });

  it('verify --root checks its dist/ with the origin of its publisher.yaml', async () => {
    const { code, stdout } = await runCommandInProcess('verify.ts', '--root', root, '--threads', '0');
    expect(code, stdout).toBe(0);
    expect(stdout).toContain('as https://agents.acme.test/');
    expect(stdout).toMatch(/0 failed, 0 warnings/);
  });

  it('preview --root and dev --root serve the project', async () => {
    for (const [script, ready] of [
      ['preview.ts', /Serving .* at (http:\/\/127\.0\.0\.1:\d+)\//],
      ['dev.ts', /(http:\/\/127\.0\.0\.1:\d+)\//],
    ] as const) {
      const port = String(40_000 + Math.floor(Math.random() * 20_000));
      const server = await startServerScript(script, ['--root', root, '--port', port], ready);
      try {
        const { origin } = server;
        const ard = await fetch(`${origin}/.well-known/ard.json`);
        expect(ard.status, script).toBe(200);
        expect(JSON.stringify(await ard.json())).toContain('urn:air:agents.acme.test:rockets:helper');
        const page = await fetch(`${origin}/agents/helper/`);
        expect(page.status, script).toBe(200);
        expect(await page.text()).toContain('Acme &quot;Rockets&quot; Inc. Holiday Helper');
      } finally {
        await server.stop();
      }
    }
  }, 180_000);

  it('refuses a folder that is not empty, and says what is wrong with each option', async () => {
    const again = await runScript('new.ts', root, '--domain', 'agents.acme.test', '--organization', 'Acme');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('is not empty');
    expect(
      newProjectProblems({ domain: 'https://Acme.test/', organization: ' ', namespace: 'Big NS' }),
    ).toHaveLength(3);
    expect(() => newProjectFiles({ domain: 'acme', organization: 'Acme' })).toThrow(/--domain "acme"/);
    const usage = await runCommandInProcess('new.ts', path.join(parent, 'x'), '--domain', 'a.test');
    expect(usage.code).toBe(2);
    // Capitals in the domain are written in lower case (RFC 4343), not refused.
    const capitals = path.join(parent, 'capitals');
    const upper = await runCommandInProcess(
      'new.ts',
      capitals,
      '--domain',
      'Agents.Acme.TEST',
      '--organization',
      'Acme',
    );
    expect(upper.code, upper.stderr).toBe(0);
    expect(await readFile(path.join(capitals, 'content', 'publisher.yaml'), 'utf8')).toMatch(
      /^domain: agents\.acme\.test$/m,
    );
  });

  it('reports every problem of its arguments in one run, not the first one only', async () => {
    const usageLine =
      'usage: ardsite new <folder> --domain <fqdn> --organization <name> [--namespace <ns>] [--organization-url <https URL>]';
    // Bad usage (the required --organization missing) beside bad values and a folder that is not empty:
    // all of them, exit 2.
    const all = await runCommandInProcess(
      'new.ts',
      root,
      '--domain',
      'https://Bad.test/',
      '--namespace',
      'Big NS',
      '--organization-url',
      'http://acme.test/',
    );
    expect([all.code, all.stderr.split('\n')]).toEqual([
      2,
      [
        "--organization is required: the publisher's name",
        '--domain "https://bad.test/" is not a lower-case domain name (no scheme, port or trailing dot), e.g. agents.acme.com',
        '--namespace "Big NS" must match [a-z0-9._-]+',
        '--organization-url "http://acme.test/" must be an https URL',
        `${root} exists and is not empty: name a new folder`,
        usageLine,
        '',
      ],
    ]);
    // An unknown option is refused as every command refuses it (commander), before anything is read.
    const unknown = await runCommandInProcess('new.ts', root, '--domain', 'acme.test', '--colour');
    expect([unknown.code, unknown.stderr]).toEqual([
      2,
      expect.stringMatching(/^error: unknown option '--colour'\nUsage: ardsite new /),
    ]);
    // An option without its value is refused by commander too, naming the option.
    const missing = await runCommandInProcess('new.ts', root, '--domain', 'acme', '--namespace');
    expect([missing.code, missing.stderr]).toEqual([
      2,
      expect.stringMatching(/^error: option '--namespace <ns>' argument missing\nUsage: ardsite new /),
    ]);
    // No usage problem: a refused value and a refused folder, exit 1, no usage line.
    const values = await runCommandInProcess(
      'new.ts',
      root,
      '--domain',
      'agents_acme.test',
      '--organization',
      'Acme',
    );
    expect([values.code, values.stderr.split('\n')]).toEqual([
      1,
      [
        expect.stringMatching(/^--domain "agents_acme\.test" is not a lower-case domain name/),
        `${root} exists and is not empty: name a new folder`,
        '',
      ],
    ]);
  });

  it("refuses a folder inside ardsite's own, where it would share the app's git repository", async () => {
    const inside = path.join(REPO_ROOT, 'my-new-site-test');
    const run = await runCommandInProcess(
      'new.ts',
      inside,
      '--domain',
      'agents.acme.test',
      '--organization',
      'Acme',
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `${inside} is inside ardsite's own folder (${REPO_ROOT}): make the project beside it, e.g. npm run new -- ../my-new-site-test …, so that it gets a git repository of its own\n`,
    );
    expect(existsSync(inside)).toBe(false);
    // A name that only starts with two dots is inside too, and so is the app reached through a link.
    const dots = await runCommandInProcess(
      'new.ts',
      '..my-new-site-test',
      '--domain',
      'a.test',
      '--organization',
      'A',
    );
    expect([dots.code, dots.stderr]).toEqual([1, expect.stringContaining("is inside ardsite's own folder")]);
    const link = path.join(parent, 'app-link');
    await symlink(REPO_ROOT, link);
    const linked = await runCommandInProcess(
      'new.ts',
      path.join(link, 'sub'),
      '--domain',
      'a.test',
      '--organization',
      'A',
    );
    expect([linked.code, linked.stderr]).toEqual([
      1,
      expect.stringContaining("is inside ardsite's own folder"),
    ]);
    expect(existsSync(path.join(REPO_ROOT, 'sub'))).toBe(false);
  });
});
