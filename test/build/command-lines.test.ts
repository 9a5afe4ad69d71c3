/**
 * The command lines of the serving and measuring scripts (`npm run preview`, `serve`, `bench`,
 * `load:registry`) as a newcomer first meets them: `--help` prints the usage and exits 0, an unknown
 * option says which and exits 2, and a busy port is a sentence, not a stack trace. And a mistyped
 * `--root` of the commands that read a project is named as such (exit 2), not reported as a missing
 * `content/publisher.yaml`. And `npm run preview` reads a relative `--dir` from the project folder
 * (`--root`), as `npm run serve` does (test/registry/serve-cli.test.ts) and `npm run build` reads `--out`.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rememberForRemoval, removeProjects } from '../helpers/build.js';
import { runScript, startServerScript } from '../helpers/cli.js';
import { REPO_ROOT } from '../helpers/site.js';

/** The serving commands of the CLI (commander's help and refusal) and the measuring scripts of scripts/. */
const SCRIPTS = [
  ['preview.ts', /^Usage: ardsite preview /, /^error: unknown option '--colour'\nUsage: ardsite preview /],
  ['serve.ts', /^Usage: ardsite serve /, /^error: unknown option '--colour'\nUsage: ardsite serve /],
  ['bench.ts', /^usage: npm run /, /^Unknown option '--colour'.*\nusage: npm run /s],
  ['load-registry.ts', /^usage: npm run /, /^Unknown option '--colour'.*\nusage: npm run /s],
] as const;

describe.each(SCRIPTS)('%s', (script, help, unknown) => {
  it('--help prints the usage and exits 0', async () => {
    const run = await runScript(script, '--help');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(help);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('an unknown option is named, with the usage, exit 2 and no stack trace', async () => {
    const run = await runScript(script, '--colour');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(unknown);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('npm run preview on a port in use', () => {
  let busy: Server;
  let port: number;
  beforeAll(async () => {
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    port = (busy.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => busy.close(() => resolve())));

  it('says the port is in use and how to choose another, exit 1', async () => {
    const run = await runScript('preview.ts', '--dir', 'test/fixtures', '--port', String(port));
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `Cannot serve 127.0.0.1:${port}: port ${port} is in use (another preview or dev server?); choose another with --port <port> or PORT.\n`,
    );
  });
});

describe.each(['check.ts', 'build.ts', 'release.ts', 'specs.ts', 'pin.ts', 'keygen.ts', 'preview.ts'])(
  'scripts/%s --root <a folder that does not exist>',
  (script) => {
    it('names the folder, exit 2, and reads nothing', async () => {
      const run = await runScript(script, '--root', 'no/such/project');
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^--root no\/such\/project: no such folder \(\/\S+\/no\/such\/project\)\n$/);
      expect(run.stdout).toBe('');
    });
  },
);

describe('npm run preview -- --root <project> --dir <relative folder>', () => {
  let project: string;
  beforeAll(async () => {
    project = await mkdtemp(path.join(tmpdir(), 'ardsite-served-dir-'));
    rememberForRemoval(project);
    await mkdir(path.join(project, 'site'));
    await writeFile(path.join(project, 'site/index.html'), '<p>The project’s own site.</p>\n');
  });
  afterAll(removeProjects);

  it('serves the folder of that name in the project, not in the working folder', async () => {
    const server = await startServerScript(
      'preview.ts',
      ['--root', project, '--dir', 'site', '--port', '0'],
      /with its _headers at (http:\/\/127\.0\.0\.1:\d+)\//,
    );
    try {
      expect(server.output()).toContain(`Serving ${path.relative(REPO_ROOT, path.join(project, 'site'))}/ `);
      expect(await (await fetch(`${server.origin}/`)).text()).toContain('The project’s own site.');
    } finally {
      await server.stop();
    }
  });

  it('names the missing folder in the project, and the build that writes it there', async () => {
    const run = await runScript('preview.ts', '--root', project, '--dir', 'dist-staging');
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `No site at ${path.join(project, 'dist-staging')}: run npm run build -- --root ${path.relative(REPO_ROOT, project)} --out dist-staging first, or pass --dir <folder>.\n`,
    );
  });

  it.each(['preview.ts', 'serve.ts'])('%s --help states the rule', async (script) => {
    const run = await runScript(script, '--help');
    expect(run.stdout.replace(/\s+/g, ' ')).toContain(
      'a relative --dir is read from the project folder (--root), as npm run build reads --out',
    );
  });
});
