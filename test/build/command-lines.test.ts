/**
 * The command lines of the serving and measuring scripts (`npm run preview`, `serve`, `bench`,
 * `load:registry`) as a newcomer first meets them: `--help` prints the usage and exits 0, an unknown
 * option says which and exits 2, and a busy port is a sentence, not a stack trace. And a mistyped
 * `--root` of the commands that read a project is named as such (exit 2), not reported as a missing
 * `content/publisher.yaml`.
 */
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScript } from '../helpers/cli.js';

const SCRIPTS = ['preview.ts', 'serve.ts', 'bench.ts', 'load-registry.ts'] as const;

describe.each(SCRIPTS)('scripts/%s', (script) => {
  it('--help prints the usage and exits 0', async () => {
    const run = await runScript(script, '--help');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^usage: npm run /);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('an unknown option is named, with the usage, exit 2 and no stack trace', async () => {
    const run = await runScript(script, '--colour');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^Unknown option '--colour'.*\nusage: npm run /s);
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
