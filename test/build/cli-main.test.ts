/**
 * The one command line, `ardsite <command>` (src/cli/main.ts), as a user meets it: `--version`, the
 * generated help listing every command, and bad usage answered with exit 2 and no stack trace.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommandLine } from '../../src/cli/run.js';
import { DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT_MS } from '../../src/core/verify/http-reader.js';
import { CLI_COMMANDS } from '../helpers/cli.js';
import { REPO_ROOT } from '../helpers/site.js';

/** Runs `ardsite …args` from the sources; never throws for a non-zero exit. */
function ardsite(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', path.join(REPO_ROOT, 'src', 'cli', 'main.ts'), ...args],
      { cwd: REPO_ROOT, env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

describe('ardsite', () => {
  it('--version prints the version of package.json', async () => {
    const { version } = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      version: string;
    };
    const run = await ardsite('--version');
    expect([run.code, run.stdout]).toEqual([0, `${version}\n`]);
  });

  it('--help lists every command and the exit codes', async () => {
    const run = await ardsite('--help');
    expect(run.code).toBe(0);
    const listed = [...run.stdout.matchAll(/^ {2}([a-z]+)\b/gm)].map((m) => m[1]);
    expect(listed.filter((c) => c !== 'help').sort()).toEqual([...CLI_COMMANDS].sort());
    expect(run.stdout).toContain('Exit codes: 0 success, 1 the work failed');
  });

  it('build --help shows its options, generated from the declaration', async () => {
    const run = await ardsite('build', '--help');
    expect(run.code).toBe(0);
    for (const option of ['--root <folder>', '--out <folder>', '--registry', '--report <file>'])
      expect(run.stdout).toContain(option);
  });

  it('an unknown command or option is exit 2, named, without a stack trace', async () => {
    const command = await ardsite('biuld');
    expect(command.code).toBe(2);
    expect(command.stderr).toMatch(/unknown command 'biuld'/);
    const option = await ardsite('build', '--outt', 'x');
    expect(option.code).toBe(2);
    expect(option.stderr).toMatch(/unknown option '--outt'/);
    expect(command.stderr + option.stderr).not.toMatch(/\n\s+at /);
  });

  it("a refusal of the machine (a folder under a file) is exit 1, with Node's message and no stack trace", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ardsite-enotdir-'));
    try {
      writeFileSync(path.join(dir, 'a-file'), '');
      const target = path.join(dir, 'a-file', 'site');
      const run = await ardsite('new', target, '--domain', 'agents.example.com', '--organization', 'Example');
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(`ardsite new: ENOTDIR: not a directory, mkdir '${target}'\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Runs `ardsite …args` in this process through the error boundary, with its output in strings. */
async function inProcess(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const run = { code: 0, stdout: '', stderr: '' };
  run.code = await runCommandLine(args, {
    stdout: { write: (text: string) => (run.stdout += text) },
    stderr: { write: (text: string) => (run.stderr += text) },
  });
  return run;
}

describe.each([...CLI_COMMANDS])('ardsite %s, declared in commander', (command) => {
  it('--help is generated from the declaration: its usage line, exit 0', async () => {
    const run = await inProcess(command, '--help');
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toMatch(new RegExp(`^Usage: ardsite ${command} `));
    expect(run.stdout).toContain('-h, --help');
  });

  it('refuses an unknown option as every command does: named, its usage, exit 2', async () => {
    const run = await inProcess(command, '--colour');
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr: expect.stringMatching(
        new RegExp(
          `^error: unknown option '--colour'\nUsage: ardsite ${command} .*\n\\(ardsite ${command} --help lists the options\\)\n$`,
        ),
      ),
    });
  });
});

describe('--root, one option shared by the commands that read a project', () => {
  it.each(['check', 'build', 'dev', 'preview', 'serve', 'release', 'pin', 'specs', 'keygen', 'import'])(
    'ardsite %s --help declares it, with the current folder as default',
    async (command) => {
      const run = await inProcess(command, '--help');
      expect(run.stdout).toMatch(/--root <folder> +the project folder \(content\/, public\/\)/);
    },
  );

  it('a --root that is not a folder is a usage error naming it, from the one boundary', async () => {
    const run = await inProcess('release', '--root', 'no/such/project');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^--root no\/such\/project: no such folder/);
  });
});

describe('the network options, declared once', () => {
  it.each(['verify', 'diff', 'pin', 'specs'])(
    'ardsite %s --help gives the reader’s own defaults',
    async (command) => {
      const help = (await inProcess(command, '--help')).stdout.replace(/\s+/g, ' ');
      expect(help).toContain(`(default ${DEFAULT_TIMEOUT_MS}, as verify's)`);
      expect(help).toContain(`(default ${DEFAULT_MAX_BYTES / 1024 / 1024} MiB, as verify’s)`);
    },
  );
});
