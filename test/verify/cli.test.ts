/**
 * `npm run verify` as a command (scripts/verify.ts): exit 0 when every check holds, 1 when one fails,
 * 2 when the site cannot be read; `--json` for machines. Run over the built example site from its folder,
 * over HTTP through `--resolve` (the test's static server, and the project's own preview server), and
 * over a few representative broken copies.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runVerify as runVerifyCommand } from '../../src/cli/run.js';
import type { ErrorCode } from '../../src/core/util/errors.js';
import {
  buildExampleSite,
  cardPath,
  cleanUpSites,
  DOMAIN,
  ORIGIN,
  signTm,
  SiteCopy,
  urnOf,
  type EntryJson,
} from '../helpers/ard-site.js';
import { buildFixtureSite, FIXTURE_ORIGIN } from '../helpers/fixture-site.js';
import { fixture, REPO_ROOT } from '../helpers/site.js';
import { startStaticServer, type StaticServer } from '../helpers/static-server.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

interface JsonReport {
  origin: string;
  manifestUrl: string;
  entries: number;
  passed: number;
  failed: number;
  warnings: number;
  findings: Array<{ code: ErrorCode; severity: string; subject: string; message: string }>;
  error?: string;
}

/** Runs the command in a child process, as `npm run verify` does (exit code and streams end to end). */
function spawnVerify(...args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'verify', ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/**
 * Runs the same command in-process (scripts/verify.ts `runVerify`): a child process costs over a second
 * of CPU in tsx start-up, so only a few tests pay for one.
 */
async function runVerify(...args: string[]): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runVerifyCommand(args, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
  });
  return { code, stdout, stderr };
}

function parseReport(run: Run): Run & { report: JsonReport } {
  try {
    return { ...run, report: JSON.parse(run.stdout) as JsonReport };
  } catch {
    throw new Error(`--json printed no JSON (exit ${run.code}):\n${run.stdout}\n${run.stderr}`);
  }
}

async function runJson(...args: string[]): Promise<Run & { report: JsonReport }> {
  return parseReport(await runVerify(...args, '--json'));
}

async function spawnJson(...args: string[]): Promise<Run & { report: JsonReport }> {
  return parseReport(await spawnVerify(...args, '--json'));
}

const codesOf = (report: JsonReport) =>
  [...new Set(report.findings.filter((f) => f.severity === 'error').map((f) => f.code))].sort();

let built: string;
const servers: StaticServer[] = [];

beforeAll(async () => {
  built = await buildExampleSite();
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await cleanUpSites();
});

/** A static server of its own for one test (the tests run concurrently), serving `root`. */
async function serve(root: string = built): Promise<StaticServer> {
  const server = await startStaticServer({ root });
  servers.push(server);
  return server;
}

const resolveTo = (server: StaticServer) => `--resolve=${DOMAIN}=${server.url}`;

describe.concurrent('the example site', () => {
  it('verifies clean from the built folder: exit 0, 0 failed (a real process)', async ({ expect }) => {
    const run = await spawnVerify(built, '--origin', ORIGIN);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /checked \S+\/ as https:\/\/agents\.example\.com\/\.well-known\/ard\.json: 5 entries\n\d+ checks passed, 0 failed, 1 warning\n$/,
    );
    expect(run.stdout).not.toMatch(/^FAIL/m);
  });

  it('verifies clean over HTTP with --resolve agents.example.com=http://127.0.0.1:PORT', async ({
    expect,
  }) => {
    const server = await serve();
    const { code, report, stderr } = await runJson(`${ORIGIN}/`, '--resolve', `${DOMAIN}=${server.url}`);
    expect(code, stderr).toBe(0);
    expect(report).toMatchObject({
      origin: ORIGIN,
      manifestUrl: `${ORIGIN}/.well-known/ard.json`,
      entries: 5,
      failed: 0,
    });
    expect(report.passed).toBeGreaterThan(20);
    expect(server.requests.length).toBeGreaterThan(5);
    expect(server.requests.every((r) => r.host === DOMAIN)).toBe(true);
    const human = await runVerify(`${ORIGIN}/`, '--resolve', `${DOMAIN}=${server.url}`);
    expect(human.stdout).toMatch(
      /\nchecked https:\/\/agents\.example\.com\/\.well-known\/ard\.json: 5 entries\n\d+ checks passed, 0 failed, 1 warning\n$/,
    );
  });

  it("verifies clean when served by the project's preview server (scripts/preview.ts)", async ({
    expect,
  }) => {
    const preview: ChildProcess = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', 'preview', '--dir', built, '--port', '0'],
      {
        cwd: REPO_ROOT,
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    try {
      const origin = await new Promise<string>((resolve, reject) => {
        let err = '';
        const timer = setTimeout(
          () => reject(new Error(`the preview server did not start:\n${err}`)),
          20_000,
        );
        preview.stderr!.setEncoding('utf8').on('data', (c: string) => {
          err += c;
          const m = /at (http:\/\/[^\s/]+)\//.exec(err);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]!);
          }
        });
        preview.on('exit', (code) => reject(new Error(`the preview server exited (${code}):\n${err}`)));
      });
      const { code, report, stderr } = await runJson(`${ORIGIN}/`, '--resolve', `${DOMAIN}=${origin}`);
      expect(code, stderr + JSON.stringify(report.findings, null, 2)).toBe(0);
      expect(report).toMatchObject({ entries: 5, failed: 0 });
    } finally {
      preview.kill('SIGTERM');
    }
  });

  it('--max-entries N checks at most N entries', async ({ expect }) => {
    const { code, report } = await runJson(built, '--origin', ORIGIN, '--max-entries', '2');
    expect(code).toBe(0);
    expect(report.entries).toBe(2);
    expect(report.findings).toContainEqual(
      expect.objectContaining({ severity: 'warning', message: expect.stringMatching(/first 2 of 5/) }),
    );
  });

  it('--threads N: the same report with helper threads as from one thread', async ({ expect }) => {
    const site = await SiteCopy.of(built);
    await site.editText(cardPath('travel-reservation'), (t) => t.replace('Books flights', 'Books flighTs'));
    const [one, helped] = await Promise.all([
      runJson(site.dir, '--origin', ORIGIN, '--threads', '0'),
      runJson(site.dir, '--origin', ORIGIN, '--threads', '2'),
    ]);
    expect(one.code).toBe(1);
    expect(codesOf(one.report)).toEqual(['ARD_DIGEST_MISMATCH', 'CARD_PAYLOAD_CHANGED']);
    type Timed = JsonReport & { elapsedMs: number; helperThreads: number };
    const { elapsedMs: _a, helperThreads: none, ...withoutTime } = one.report as Timed;
    const { elapsedMs: _b, helperThreads: two, ...helpedWithoutTime } = helped.report as Timed;
    expect([none, two]).toEqual([0, 2]);
    expect(helpedWithoutTime).toEqual(withoutTime);
    expect(helped.code).toBe(1);
  });

  it('--threads 1 in a real process: exit 0 once the helper has stopped', async ({ expect }) => {
    const run = await spawnJson(built, '--origin', ORIGIN, '--threads', '1');
    expect(run.code, run.stderr).toBe(0);
    expect(run.report).toMatchObject({ failed: 0, helperThreads: 1 });
  });

  it('an origin with a port expects did:web:<host>%3A<port> (did:web §3.2)', async ({ expect }) => {
    const { code, report } = await runJson(built, '--origin', 'https://agents.example.com:8443');
    expect(code).toBe(1);
    expect(report.findings).toContainEqual(
      expect.objectContaining({
        subject: 'https://agents.example.com:8443/.well-known/did.json',
        message: expect.stringContaining('not did:web:agents.example.com%3A8443'),
      }),
    );
  });

  it('a folder read as another origin fails on its did.json and says to check --origin', async ({
    expect,
  }) => {
    const { code, report } = await runJson(built, '--origin', 'https://other.example.com');
    expect(code).toBe(1);
    expect(report.findings).toContainEqual(
      expect.objectContaining({
        code: 'DID_RESOLUTION_FAILED',
        subject: 'https://other.example.com/.well-known/did.json',
        message: expect.stringMatching(/not did:web:other\.example\.com.*--origin/),
      }),
    );
  });
});

describe('the origin of a folder given without --origin', () => {
  // The working folder is this repository, whose content/publisher.yaml is the example's
  // (agents.example.com): another project's built site must still be read as its own origin.
  let other: string;
  let project: string;
  beforeAll(async () => {
    other = await buildFixtureSite();
    project = await mkdtemp(path.join(tmpdir(), 'ardsite-verify-project-'));
    await cp(path.join(fixture('content-valid'), 'content'), path.join(project, 'content'), {
      recursive: true,
    });
  });
  // The built copy goes with the file's other sites (cleanUpSites); only the project is this block's.
  afterAll(() => rm(project, { recursive: true, force: true }));

  it("is the site's own, from its did.json, not this folder's publisher.yaml", async () => {
    const { code, report, stderr } = await runJson(other);
    expect(report.origin).toBe(FIXTURE_ORIGIN);
    expect(code, stderr + JSON.stringify(report.findings, null, 2)).toBe(0);
  });

  it('a project folder given for its built site is read as --root <project>', async () => {
    const empty = await runVerify(project);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toBe(
      `verify: ${project} is a project with no built site yet (${path.join(project, 'dist')}): run npm run build -- --root ${project} first\n`,
    );
    await cp(other, path.join(project, 'dist'), { recursive: true });
    const { code, report } = await runJson(project);
    expect(report.origin).toBe(FIXTURE_ORIGIN);
    expect(code).toBe(0);
    expect((await runVerify(project)).stdout).toMatch(
      /checked \S*\/dist\/ as https:\/\/agents\.valid\.example\//,
    );
  });
});

describe.concurrent('broken sites: exit 1 with the failure in --json', () => {
  it('a changed card byte → ARD_DIGEST_MISMATCH (a real process; the human report says FAIL)', async ({
    expect,
  }) => {
    const site = await SiteCopy.of(built);
    await site.editText(cardPath('travel-reservation'), (t) => t.replace('\n  "name"', '\n \t"name"'));
    const [{ code, report }, human] = await Promise.all([
      spawnJson(site.dir, '--origin', ORIGIN),
      runVerify(site.dir, '--origin', ORIGIN),
    ]);
    expect(code).toBe(1);
    expect(codesOf(report)).toEqual(['ARD_DIGEST_MISMATCH']);
    expect(report.failed).toBe(1);
    expect(human.code).toBe(1);
    expect(human.stdout).toMatch(
      new RegExp(`^FAIL  ${urnOf('travel-reservation')}  digest .*\\[ARD_DIGEST_MISMATCH\\]$`, 'm'),
    );
    expect(human.stdout).toMatch(/\nchecked \S+ as https:\/\/\S+: 5 entries\n\d+ checks passed, 1 failed, /);
  });

  it('a missing did.json → DID_RESOLUTION_FAILED', async ({ expect }) => {
    const site = await SiteCopy.of(built);
    await site.remove('/.well-known/did.json');
    const { code, report } = await runJson(site.dir, '--origin', ORIGIN);
    expect(code).toBe(1);
    expect(codesOf(report)).toEqual(['DID_RESOLUTION_FAILED']);
  });

  it('an expired trustManifest → TRUST_EXPIRED', async ({ expect }) => {
    const site = await SiteCopy.of(built);
    await site.editEntry('itinerary-concierge', (e) => {
      e.trustManifest!.expiresAt = '2025-11-24T17:00:00Z'; // an hour after it was issued
      signTm(e.trustManifest!);
    });
    const { code, report } = await runJson(site.dir, '--origin', ORIGIN);
    expect(code).toBe(1);
    expect(codesOf(report)).toEqual(['TRUST_EXPIRED']);
  });

  it('an entry of another domain claiming our signature → TRUST_AUTHORITY_MISMATCH', async ({ expect }) => {
    const site = await SiteCopy.of(built);
    await site.editJson<{ entries: EntryJson[] }>('/.well-known/ard.json', (m) => {
      const squat = structuredClone(m.entries.find((e) => e.identifier === urnOf('travel-policy-helper'))!);
      squat.identifier = 'urn:air:evil.example:travel:travel-policy-helper';
      squat.trustManifest!.subject.identifier = squat.identifier;
      signTm(squat.trustManifest!);
      m.entries.push(squat);
    });
    const { code, report } = await runJson(site.dir, '--origin', ORIGIN);
    expect(code).toBe(1);
    expect(codesOf(report)).toEqual(['TRUST_AUTHORITY_MISMATCH']);
  });

  it('a manifest that is not JSON, over HTTP → ARD_MANIFEST_INVALID', async ({ expect }) => {
    const server = await serve();
    server.override('/.well-known/ard.json', { body: '{"entries": [' });
    const { code, report } = await runJson(`${ORIGIN}/`, resolveTo(server));
    expect(code).toBe(1);
    expect(codesOf(report)).toEqual(['ARD_MANIFEST_INVALID']);
  });

  it('a manifest served as text/html → ARD_MANIFEST_INVALID', async ({ expect }) => {
    const server = await serve();
    server.override('/.well-known/ard.json', { headers: { 'content-type': 'text/html' } });
    const { code, report } = await runJson(`${ORIGIN}/`, resolveTo(server));
    expect(code).toBe(1);
    expect(codesOf(report)).toEqual(['ARD_MANIFEST_INVALID']);
  });

  it("a server that trims the card's trailing newline → ARD_DIGEST_MISMATCH", async ({ expect }) => {
    const server = await serve();
    server.override(cardPath('travel-policy-helper'), { body: (bytes) => bytes.subarray(0, -1) });
    const { code, report } = await runJson(`${ORIGIN}/`, resolveTo(server));
    expect(code).toBe(1);
    expect(codesOf(report)).toEqual(['ARD_DIGEST_MISMATCH']);
  });
});

describe.concurrent('sites that cannot be read: exit 2', () => {
  it('a manifest one byte over --max-bytes; the message names the cap (a real process)', async ({
    expect,
  }) => {
    const server = await serve();
    const size = (await (await SiteCopy.of(built)).read('/.well-known/ard.json')).length;
    const [{ code, report }, human] = await Promise.all([
      spawnJson(`${ORIGIN}/`, resolveTo(server), '--max-bytes', String(size - 1)),
      runVerify(built, '--origin', ORIGIN, '--max-bytes', String(size - 1)),
    ]);
    expect(code).toBe(2);
    expect(report.error).toMatch(new RegExp(`over the cap of ${size - 1} bytes \\(--max-bytes\\)`));
    expect(human.code).toBe(2);
    expect(human.stderr).toMatch(new RegExp(`could not read the site: .*over the cap of ${size - 1} bytes`));
  });

  it('a manifest that redirects to another origin', async ({ expect }) => {
    const server = await serve();
    server.override('/.well-known/ard.json', { redirect: 'https://mirror.example.net/.well-known/ard.json' });
    const { code, report } = await runJson(
      `${ORIGIN}/`,
      resolveTo(server),
      '--resolve',
      `mirror.example.net=${server.url}`,
    );
    expect(code).toBe(2);
    expect(report.error).toMatch(/redirects to another origin \(https:\/\/mirror\.example\.net\)/);
    expect(server.requests.some((r) => r.host === 'mirror.example.net')).toBe(false);
  });

  it('a private address without --allow-private', async ({ expect }) => {
    const server = await serve();
    const [run, named] = await Promise.all([
      runVerify(`https://127.0.0.1:${server.port}/.well-known/ard.json`),
      runVerify(`http://localhost:${server.port}/.well-known/ard.json`),
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/private address 127\.0\.0\.1.*--allow-private/);
    expect(named.code).toBe(2);
    expect(named.stderr).toMatch(/localhost resolves to the private address/);
    expect(server.requests).toEqual([]);
  });

  it('plain http to a host that is not local', async ({ expect }) => {
    const run = await runVerify('http://agents.example.com/');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/plain http/);
  });

  it('usage errors', async ({ expect }) => {
    const [none, zero, missing, resolve] = await Promise.all([
      runVerify(),
      runVerify(built, '--origin', ORIGIN, '--max-entries', '0'),
      runVerify('/no/such/folder', '--origin', ORIGIN),
      runVerify(`${ORIGIN}/`, '--resolve', 'nonsense'),
    ]);
    const [many, tooMany, overHttp] = await Promise.all([
      runVerify(built, '--origin', ORIGIN, '--threads', 'many'),
      runVerify(built, '--origin', ORIGIN, '--threads', '65'),
      runVerify(`${ORIGIN}/`, '--threads', '2'),
    ]);
    expect(many.code).toBe(2);
    expect(many.stderr).toMatch(/--threads expects a whole number from 0 to 64, got "many"/);
    expect(tooMany.code).toBe(2);
    expect(tooMany.stderr).toMatch(/from 0 to 64, got "65"/);
    expect(overHttp.code).toBe(2);
    expect(overHttp.stderr).toMatch(/--threads is for a folder/);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^name a built folder, an https URL, or --root .*\nUsage: ardsite verify /);
    for (const flag of ['--help', '-h']) {
      const help = await runVerify(flag);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/^Usage: ardsite verify/);
      expect(help.stderr).toBe('');
    }
    expect(zero.code).toBe(2);
    expect(zero.stderr).toMatch(/positive whole number, got "0"/);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/not a folder or an https URL/);
    expect(resolve.code).toBe(2);
    expect(resolve.stderr).toMatch(/--resolve takes/);
  });
});
