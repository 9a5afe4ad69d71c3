/**
 * A hostile site given to `npm run verify` (docs/security.md, "Verify: a hostile site"): the folder
 * reader stays inside the folder and under `--max-bytes`, reads only regular files, every JSON document
 * is parsed to a bounded depth, malformed discovery URLs are findings, and `--deadline` ends the run
 * with a partial report. Exit 2 only when the manifest itself cannot be read.
 *
 * Over a copy of the small fixture site (test/helpers/fixture-site.ts), in-process (scripts/verify.ts
 * `runVerify`) except where the process itself is what is tested.
 */
import { execFileSync } from 'node:child_process';
import { readdir, readFile, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runVerify } from '../../src/cli/run.js';
import { discoverManifest } from '../../src/core/verify/discovery.js';
import { folderReader } from '../../src/core/verify/folder-reader.js';
import type { SiteReader } from '../../src/core/verify/reader.js';
import { verifySite } from '../../src/core/verify/site.js';
import {
  buildFixtureSite,
  copyBuiltSite,
  FIXTURE_ORIGIN,
  removeFixtureSites,
} from '../helpers/fixture-site.js';
import { runScript } from '../helpers/cli.js';
import { startStaticServer } from '../helpers/static-server.js';

const ORIGIN = FIXTURE_ORIGIN;
const DOMAIN = new URL(ORIGIN).hostname;
const NOW = new Date('2026-06-01T00:00:00Z');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

interface JsonReport {
  entries: number;
  failed: number;
  findings: Array<{ code: string; severity: string; subject: string; message: string }>;
  notChecked?: string[];
  error?: string;
}

async function verify(...args: string[]): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runVerify(args, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
  });
  return { code, stdout, stderr };
}

/** `npm run verify -- <dir> --origin … --json <args>`, in-process, with its report parsed. */
async function verifyJson(dir: string, ...args: string[]): Promise<Run & { report: JsonReport }> {
  const run = await verify(dir, '--origin', ORIGIN, '--json', '--threads', '0', ...args);
  return { ...run, report: JSON.parse(run.stdout) as JsonReport };
}

let built: string;
beforeAll(async () => {
  built = await buildFixtureSite();
});
afterAll(removeFixtureSites);

describe('verify over a folder stays in the folder and under --max-bytes', () => {
  it('refuses a manifest that is a symbolic link to /dev/zero, at once and with exit 2', async () => {
    const dir = await copyBuiltSite(built);
    await rm(path.join(dir, '.well-known', 'ard.json'));
    await symlink('/dev/zero', path.join(dir, '.well-known', 'ard.json'));
    // Read, /dev/zero would never end: the refusal is what lets this run end at all.
    const run = await verify(dir, '--origin', ORIGIN, '--threads', '0');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/symbolic link to a file outside the site folder/);
  });

  it('refuses a did.json linked to a file outside the folder: a finding on the entries, never its bytes', async () => {
    const dir = await copyBuiltSite(built);
    const outside = path.join(path.dirname(dir), `${path.basename(dir)}-secret.json`);
    await writeFile(outside, '{"secret":"root:x:0:0"}');
    try {
      await rm(path.join(dir, '.well-known', 'did.json'));
      await symlink(outside, path.join(dir, '.well-known', 'did.json'));
      const { code, report, stdout } = await verifyJson(dir);
      expect(code).toBe(1);
      expect(report.findings.some((f) => f.code === 'DID_RESOLUTION_FAILED')).toBe(true);
      expect(report.findings.map((f) => f.message).join('\n')).toMatch(/outside the site folder/);
      expect(stdout).not.toMatch(/root:x/);
    } finally {
      await rm(outside, { force: true });
    }
  });

  it('reads a symbolic link that stays inside the folder', async () => {
    const dir = await copyBuiltSite(built);
    const did = path.join(dir, '.well-known', 'did.json');
    await rename(did, path.join(dir, 'did-moved.json'));
    await symlink('../did-moved.json', did);
    const { code, report } = await verifyJson(dir);
    expect(report.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(code).toBe(0);
  });

  it('refuses a FIFO without waiting for a writer', async () => {
    const dir = await copyBuiltSite(built);
    await rm(path.join(dir, 'robots.txt'));
    execFileSync('mkfifo', [path.join(dir, 'robots.txt')]);
    const { code, report } = await verifyJson(dir);
    expect(code).toBe(0);
    const robots = report.findings.find((f) => f.subject.endsWith('/robots.txt'));
    expect(robots?.message).toMatch(/is a FIFO, not a file/);
  });

  it.skipIf(process.getuid?.() !== 0)(
    'refuses a device node inside the folder (as root: mknod)',
    async () => {
      const dir = await copyBuiltSite(built);
      const card = path.join(dir, 'agents', 'note-taker', 'agent-card.json');
      await rm(card);
      execFileSync('mknod', [card, 'c', '1', '5']); // the device of /dev/zero
      const { code, report } = await verifyJson(dir);
      expect(code).toBe(1);
      expect(report.findings.map((f) => f.message).join('\n')).toMatch(
        /agent-card\.json is a device, not a file/,
      );
    },
  );

  it('honours --max-bytes for every file: a card over the cap is a finding, the rest is checked', async () => {
    const dir = await copyBuiltSite(built);
    const card = path.join(dir, 'agents', 'note-taker', 'agent-card.json');
    // The cap: one byte more than the largest other file, so that only this card is over it.
    const files = await readdir(dir, { recursive: true, withFileTypes: true });
    const sizes = await Promise.all(
      files.filter((f) => f.isFile()).map(async (f) => (await stat(path.join(f.parentPath, f.name))).size),
    );
    const cap = Math.max(...sizes) + 1;
    await writeFile(card, `${' '.repeat(cap)}{}`);
    const { code, report } = await verifyJson(dir, '--max-bytes', String(cap));
    expect(code).toBe(1);
    expect(report.findings).toContainEqual(
      expect.objectContaining({
        severity: 'error',
        subject: 'urn:air:agents.valid.example:demo:note-taker',
        message: expect.stringMatching(
          /agent-card\.json is \d+ bytes, over the cap of \d+ bytes \(--max-bytes\)/,
        ),
      }),
    );
    expect(report.entries).toBe(3);
  });

  it('honours --max-bytes for the manifest: exit 2, nothing read', async () => {
    const dir = await copyBuiltSite(built);
    const run = await verify(dir, '--origin', ORIGIN, '--max-bytes', '100', '--threads', '0');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/over the cap of 100 bytes \(--max-bytes\)/);
  });

  it('reads no more than the cap even when the file is larger than its size said', async () => {
    // A read bounded by maxBytes, whatever fstat said: here the file is simply over the cap.
    const dir = await copyBuiltSite(built);
    const reader = folderReader(dir, ORIGIN, { maxBytes: 10 });
    await expect(reader.read(`${ORIGIN}/robots.txt`)).rejects.toThrow(/over the cap of 10 bytes/);
    const small = folderReader(dir, ORIGIN, { maxBytes: 10_000_000 });
    const doc = await small.read(`${ORIGIN}/robots.txt`);
    expect(Buffer.from(doc!.bytes).toString('utf8')).toMatch(/^User-agent: \*\n[^]*Sitemap:/);
  });
});

describe('a hostile site never ends verify without a report', () => {
  it('a 100,000-deep did.json is a finding on that document, with a report and exit 1', async () => {
    const dir = await copyBuiltSite(built);
    await writeFile(
      path.join(dir, '.well-known', 'did.json'),
      `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
    );
    const { code, report, stderr } = await verifyJson(dir);
    expect(stderr).toBe('');
    expect(code).toBe(1);
    const deep = report.findings.filter((f) => /more than 512 levels deep/.test(f.message));
    // One per entry whose trustManifest needs the DID document (3), one per card signature (2 × 2),
    // whose key is taken from the DID document too.
    expect(deep.length).toBe(7);
    expect(deep.every((f) => f.code === 'DID_RESOLUTION_FAILED')).toBe(true);
  });

  it('a 100,000-deep agent card and manifest member are findings, not a crash', async () => {
    const dir = await copyBuiltSite(built);
    const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    await writeFile(path.join(dir, 'agents', 'note-taker', 'agent-card.json'), deep);
    const { code, report } = await verifyJson(dir);
    expect(code).toBe(1);
    expect(report.findings.some((f) => f.code === 'JSON_INVALID' && /levels deep/.test(f.message))).toBe(
      true,
    );

    await writeFile(path.join(dir, '.well-known', 'ard.json'), `{"entries":[${deep}]}`);
    const manifest = await verifyJson(dir);
    expect(manifest.code).toBe(1);
    expect(
      manifest.report.findings[0]?.code ??
        manifest.report.findings.find((f) => f.code === 'ARD_MANIFEST_INVALID'),
    ).toBeDefined();
    expect(
      manifest.report.findings.some(
        (f) => f.code === 'ARD_MANIFEST_INVALID' && /levels deep/.test(f.message),
      ),
    ).toBe(true);
  });

  it('prints the terminal escape sequences a site puts in its strings as visible text, never raw', async () => {
    const dir = await copyBuiltSite(built);
    const file = path.join(dir, '.well-known', 'ard.json');
    const manifest = JSON.parse(await readFile(file, 'utf8')) as { entries: Array<{ identifier: string }> };
    // Set the window title, erase the screen, a fake line, a right-to-left override.
    const hostile = '\u001b]0;pwned\u0007\u001b[2J\r\nPASS  all good\u009b1A\u202e';
    manifest.entries[0]!.identifier += hostile;
    await writeFile(file, JSON.stringify(manifest));
    const run = await verify(dir, '--origin', ORIGIN, '--threads', '0');
    expect(run.code).toBe(1);
    // eslint-disable-next-line no-control-regex -- control characters are what is matched
    expect(run.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(run.stdout).toContain('\\x1b]0;pwned\\x07\\x1b[2J\\r\\nPASS  all good\\x9b1A\\u202e');
    expect(run.stdout.split('\n').filter((l) => l.startsWith('PASS'))).toEqual([]);
    // --json keeps the exact string (JSON escapes the controls itself).
    const { report } = await verifyJson(dir);
    expect(report.findings.some((f) => f.subject.endsWith(hostile))).toBe(true);
  });

  it('a malformed <link rel="ard" href> is a DISCOVERY_INVALID warning, not "Invalid URL"', async () => {
    const dir = await copyBuiltSite(built);
    const index = path.join(dir, 'index.html');
    const html = (await import('node:fs')).readFileSync(index, 'utf8');
    const hostile = html.replace(/<link rel="ard"[^>]*>/, '<link rel="ard" href="http://[::1">');
    expect(hostile).not.toBe(html);
    await writeFile(index, hostile);
    const { code, report } = await verifyJson(dir);
    expect(code).toBe(0);
    const bad = report.findings.find((f) => f.code === 'DISCOVERY_INVALID');
    expect(bad).toMatchObject({ severity: 'warning', subject: `${ORIGIN}/` });
    expect(bad!.message).toMatch(/"http:\/\/\[::1" is not a valid URL/);
  });

  it('a malformed Agentmap: URL in robots.txt is a DISCOVERY_INVALID warning', async () => {
    const dir = await copyBuiltSite(built);
    await writeFile(path.join(dir, 'robots.txt'), 'User-agent: *\nAllow: /\nAgentmap: https://[x/\n');
    const { code, report } = await verifyJson(dir);
    expect(code).toBe(0);
    expect(report.findings.find((f) => f.code === 'DISCOVERY_INVALID')).toMatchObject({
      severity: 'warning',
      subject: `${ORIGIN}/robots.txt`,
    });
  });

  it('a malformed Link: rel="ard" target is a DISCOVERY_INVALID warning', async () => {
    const reader: SiteReader = {
      read: async (url) =>
        url === `${ORIGIN}/`
          ? { bytes: new TextEncoder().encode('<html></html>'), link: '<https://[bad>; rel="ard"' }
          : undefined,
    };
    const result = await discoverManifest(reader, ORIGIN);
    expect(result.findings.map((f) => f.code)).toContain('DISCOVERY_INVALID');
    expect(result.manifestUrl).toBe(`${ORIGIN}/.well-known/ard.json`);
  });

  it('--deadline ends with a partial report that names what was not checked', async () => {
    const dir = await copyBuiltSite(built);
    const folder = folderReader(dir, ORIGIN);
    // The weather-reporter's card never arrives; everything else does.
    const reader: SiteReader = {
      read: (url) => (url.includes('/weather-reporter/') ? new Promise(() => undefined) : folder.read(url)),
    };
    // The card's read never settles: only the deadline can end this run (the test's timeout fails one
    // that does not end).
    const report = await verifySite(reader, { origin: ORIGIN, now: NOW, deadline: Date.now() + 400 });
    expect(report.notChecked).toEqual([
      'urn:air:agents.valid.example:demo:weather-reporter',
      'the site-wide checks (published keys, the DID document, the A2A well-known cards, ai-catalog.json)',
    ]);
    const incomplete = report.findings.filter((f) => f.code === 'VERIFY_INCOMPLETE');
    expect(incomplete).toHaveLength(1);
    expect(incomplete[0]!.message).toMatch(
      /not checked: 1 of 3 entries \(urn:air:agents\.valid\.example:demo:weather-reporter\)/,
    );
    // The entries that were checked are in the report, and held.
    expect(report.findings.filter((f) => f.severity === 'error')).toEqual(incomplete);
    expect(report.passed).toBeGreaterThan(5);
  });

  it('without a deadline reached, the report is whole (no notChecked)', async () => {
    const dir = await copyBuiltSite(built);
    const report = await verifySite(folderReader(dir, ORIGIN), {
      origin: ORIGIN,
      now: NOW,
      deadline: Date.now() + 60_000,
    });
    expect(report.notChecked).toBeUndefined();
    expect(report.findings.filter((f) => f.severity === 'error')).toEqual([]);
  });

  it('the command over HTTP: a card that never answers ends at --deadline with a partial report, exit 1', async () => {
    const server = await startStaticServer({ root: await copyBuiltSite(built) });
    try {
      server.override('/agents/weather-reporter/agent-card.json', { hang: true });
      // The card never answers: only --deadline ends the command.
      const run = await verify(
        `${ORIGIN}/`,
        '--resolve',
        `${DOMAIN}=${server.url}`,
        '--json',
        '--deadline',
        '1',
      );
      const report = JSON.parse(run.stdout) as JsonReport;
      expect(run.code).toBe(1);
      expect(report.notChecked).toContain('urn:air:agents.valid.example:demo:weather-reporter');
      expect(report.findings.filter((f) => f.severity === 'error').map((f) => f.code)).toEqual([
        'VERIFY_INCOMPLETE',
      ]);

      // A manifest that never answers: nothing could be read, exit 2 at the deadline.
      server.override('/.well-known/ard.json', { hang: true });
      const none = await verify(`${ORIGIN}/`, '--resolve', `${DOMAIN}=${server.url}`, '--deadline', '0.5');
      expect(none.code).toBe(2);
      expect(none.stderr).toMatch(/the deadline passed \(--deadline\)/);
    } finally {
      await server.close();
    }
  });

  it('the command: a --deadline that is not a positive number is a usage error', async () => {
    for (const value of ['soon', '0', '-1', '']) {
      const bad = await verify(built, '--origin', ORIGIN, `--deadline=${value}`);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/--deadline expects a positive number of seconds/);
    }
  });

  it('the command in its own process: a 100,000-deep did.json gives a report, exit 1, no stack trace', async () => {
    const dir = await copyBuiltSite(built);
    await writeFile(
      path.join(dir, '.well-known', 'did.json'),
      `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
    );
    const run = await runScript('verify.ts', dir, '--origin', ORIGIN, '--threads', '0');
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/checked .* 3 entries/);
    expect(run.stderr).not.toMatch(/\bat .*\.ts:\d+|RangeError|Maximum call stack/);
  }, 60_000);
});
