/**
 * Releases (DESIGN.md §9 "Releases"), over test/fixtures/releases (a travel agent that reads the user's
 * calendar): `npm run release` records version 1.0.0; the agent then gains a write access as the user without
 * confirmation. Without a version bump, `npm run check` and the build fail naming the agent, the access and
 * the field; with the bump the build succeeds, the permission page says what changed since 1.0.0, the agent
 * page and the index show the "new permissions" notice, the changes document is pinned by the card and typed
 * in `_headers`, the entry carries `ram:gainedAccess`, and `npm run diff` between the two builds exits 1
 * naming the change in plain words. verify holds the published history against the card. An operation
 * released as only reading that a stored spec then says writes is, to `npm run release`, a correction under
 * the same version, never "narrower".
 */
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDiff } from '../../src/cli/run.js';
import { runVerify } from '../../src/cli/run.js';
import { sha256Digest } from '../../src/core/ard/digest.js';
import {
  buildProject,
  copyProject,
  fixedKeyEnv,
  removeProjects,
  SOURCE_DATE_EPOCH,
} from '../helpers/build.js';
import { AGENT, CALENDAR, gainCalendarWrite, RELEASES_FIXTURE as FIXTURE } from '../helpers/releases.js';
import { REPO_ROOT } from '../helpers/site.js';
import { runCommandInProcessWithEnv, runScriptWithEnv } from '../helpers/cli.js';
import { githubIssuesResource } from '../helpers/specs.js';

const ORIGIN = 'https://trips.releases.example';

/** Captures a command's streams. */
function buffers() {
  const out = { stdout: '', stderr: '' };
  return {
    out,
    streams: {
      stdout: { write: (t: string) => (out.stdout += t) },
      stderr: { write: (t: string) => (out.stderr += t) },
    },
  };
}

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

let root: string;
let before: string;
let after: string;

beforeAll(async () => {
  root = await copyProject(FIXTURE);
  const recorded = await runScriptWithEnv('release.ts', ['--root', root], { SOURCE_DATE_EPOCH });
  expect(recorded.code, recorded.stderr).toBe(0);
  expect(recorded.stdout).toContain('trip-booker 1.0.0: recorded (content/releases/trip-booker.json)');
  // The site as released: 1.0.0, kept aside for the diff.
  const first = await buildProject(root, { env: fixedKeyEnv(), out: 'dist-1.0.0' });
  expect(first.code, first.stderr).toBe(0);
  before = first.outDir;
}, 180_000);

afterAll(removeProjects);

describe('a widening under an unchanged version', () => {
  it('fails npm run check and the build, naming the agent, the access and the field', async () => {
    await gainCalendarWrite(root);
    const check = await runScriptWithEnv('check.ts', ['--root', root]);
    expect(check.code).toBe(1);
    expect(check.stdout).toMatch(
      /E {2}content\/agents\/trip-booker\.md:\d+:\d+ {2}resourceAccesses\[2\] {2}agent trip-booker gained access since its release 1\.0\.0 .*access create-trip-event was added; raise "version" in content\/agents\/trip-booker\.md.*\[RELEASE_WIDENED_WITHOUT_VERSION\]/,
    );
    // The command to run next acts on this project, not on the folder the check ran in.
    expect(check.stdout).toContain(`then run npm run release -- --root ${path.relative(REPO_ROOT, root)}`);
    const build = await buildProject(root, { env: fixedKeyEnv(), out: 'dist-refused' });
    expect(build.code).toBe(1);
    expect(build.stderr).toContain('[RELEASE_WIDENED_WITHOUT_VERSION]');
    expect(build.stderr).toContain('create-trip-event');
    // A widened field of an existing access is named with its field path.
    const agent = path.join(root, AGENT);
    const widened = (await readFile(agent, 'utf8')).replace(
      'operation: public-holidays-get\n    identityUsed: AGENT',
      'operation: public-holidays-get\n    identityUsed: END_USER',
    );
    await writeFile(agent, widened);
    const again = await runCommandInProcessWithEnv('check.ts', ['--root', root]);
    expect(again.stdout).toMatch(
      /trip-booker\.md:\d+:\d+ {2}resourceAccesses\[1\]\.identityUsed .*access fetch-holidays-for-destination: identityUsed widened from "AGENT" to "END_USER"/,
    );
    await writeFile(
      agent,
      widened.replace(
        'identityUsed: END_USER\n    accessJustification: To warn',
        'identityUsed: AGENT\n    accessJustification: To warn',
      ),
    );
  }, 120_000);
});

describe('with a version bump', () => {
  beforeAll(async () => {
    const agent = path.join(root, AGENT);
    await writeFile(agent, (await readFile(agent, 'utf8')).replace('version: 1.0.0', 'version: 1.1.0'));
    const build = await buildProject(root, { env: fixedKeyEnv(), out: 'dist-1.1.0' });
    expect(build.code, build.stderr).toBe(0);
    after = build.outDir;
  }, 180_000);

  it('builds, and the permission page says what changed since the previous version', async () => {
    const page = text(await readFile(path.join(after, 'agents/trip-booker/permissions/index.html'), 'utf8'));
    expect(page).toContain('What changed in 1.1.0');
    expect(page).toContain('Compared with version 1.0.0 of 24 November 2025, this version:');
    expect(page).toContain(
      'New permission: “Creates a new event on a calendar” in Calendar Events. It may change your data; it acts as you, without asking you first.',
    );
    const html = await readFile(path.join(after, 'agents/trip-booker/permissions/index.html'), 'utf8');
    const section = /<section[^>]*data-what-changed[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';
    expect(section).toContain('id="what-changed"');
    expect(section).not.toMatch(/END_USER|THIRD_PARTY|CONSUMER|confirmationRequired|create-trip-event/);
    // The 1.0.0 build has no "What changed" (nothing recorded before it).
    const first = text(
      await readFile(path.join(before, 'agents/trip-booker/permissions/index.html'), 'utf8'),
    );
    expect(first).not.toContain('What changed in');
  });

  it('shows the "new permissions" notice on the agent page and the index', async () => {
    for (const file of ['agents/trip-booker/index.html', 'index.html']) {
      const html = await readFile(path.join(after, file), 'utf8');
      expect(html).toContain('data-new-permissions');
      expect(text(html)).toContain('New permissions in version 1.1.0');
      expect(html).toContain('href="/agents/trip-booker/permissions/#what-changed"');
      expect(await readFile(path.join(before, file), 'utf8')).not.toContain('data-new-permissions');
    }
  });

  it('publishes the changes beside the card, pinned by the card and typed in _headers', async () => {
    const bytes = await readFile(path.join(after, 'agents/trip-booker/ram-changes.json'));
    const card = JSON.parse(await readFile(path.join(after, 'agents/trip-booker/agent-card.json'), 'utf8'));
    const ext = card.capabilities.extensions.find(
      (e: { uri: string }) => e.uri === 'urn:ardsite:ext:ram-changes:v1',
    );
    expect(ext.params).toEqual({
      url: `${ORIGIN}/agents/trip-booker/ram-changes.json`,
      digest: sha256Digest(bytes),
      mediaType: 'application/json',
    });
    const doc = JSON.parse(bytes.toString('utf8'));
    expect(doc).toMatchObject({ version: '1.1.0', gainedAccess: true, lastRelease: { version: '1.0.0' } });
    expect(doc.latest.changes).toContainEqual(
      expect.objectContaining({ kind: 'added', item: 'access', id: 'create-trip-event' }),
    );
    const headers = await readFile(path.join(after, '_headers'), 'utf8');
    expect(headers).toMatch(/\/agents\/trip-booker\/ram-changes\.json\n {2}Content-Type: application\/json/);
    const manifest = JSON.parse(await readFile(path.join(after, '.well-known/ard.json'), 'utf8'));
    expect(manifest.entries[0]).toMatchObject({ 'ram:gainedAccess': true, 'ram:previousVersion': '1.0.0' });
    const old = JSON.parse(await readFile(path.join(before, '.well-known/ard.json'), 'utf8'));
    expect(old.entries[0]['ram:gainedAccess']).toBe(false);
  });

  it('npm run diff: exit 1, the change named in plain words; --json; 0 for the same site; 2 unreadable', async () => {
    const { out, streams } = buffers();
    expect(await runDiff([before, after], streams)).toBe(1);
    expect(out.stdout).toContain(
      'urn:air:trips.releases.example:travel:trip-booker: version 1.0.0 → 1.1.0 — gained access',
    );
    expect(out.stdout).toContain(
      '+ New permission: “Creates a new event on a calendar” in Calendar Events. It may change your data; it acts as you, without asking you first.',
    );
    const json = buffers();
    expect(await runDiff([before, after, '--json'], json.streams)).toBe(1);
    const report = JSON.parse(json.out.stdout);
    expect(report.gainedAccess).toBe(true);
    expect(report.entries[0].changes).toContainEqual(
      expect.objectContaining({ kind: 'added', id: 'create-trip-event' }),
    );
    // The other way round, the write is removed: nothing gained.
    const back = buffers();
    expect(await runDiff([after, before], back.streams)).toBe(0);
    expect(back.out.stdout).toContain(
      '- Removed: it no longer does “Creates a new event on a calendar” in Calendar Events.',
    );
    expect(await runDiff([before, before], buffers().streams)).toBe(0);
    const missing = buffers();
    expect(await runDiff([before, path.join(root, 'no-such-folder')], missing.streams)).toBe(2);
    expect(missing.out.stderr).toContain('[DIFF_UNREADABLE]');
  });

  it('npm run verify accepts the published history and refuses one that does not match the card', async () => {
    const ok = buffers();
    expect(await runVerify([after, '--origin', ORIGIN, '--threads', '0'], ok.streams)).toBe(0);
    // A copy whose changes document says 1.1.0 was released with the 1.0.0 RAM, re-pinned in the card.
    const copy = `${after}-tampered`;
    await cp(after, copy, { recursive: true });
    const docFile = path.join(copy, 'agents/trip-booker/ram-changes.json');
    const doc = JSON.parse(await readFile(docFile, 'utf8'));
    doc.lastRelease.version = '1.1.0';
    const docBytes = Buffer.from(`${JSON.stringify(doc, null, 2)}\n`);
    await writeFile(docFile, docBytes);
    const cardFile = path.join(copy, 'agents/trip-booker/agent-card.json');
    const cardText = await readFile(cardFile, 'utf8');
    const oldDigest = JSON.parse(cardText).capabilities.extensions.find(
      (e: { uri: string }) => e.uri === 'urn:ardsite:ext:ram-changes:v1',
    ).params.digest;
    const newCard = cardText.replace(oldDigest, sha256Digest(docBytes));
    await writeFile(cardFile, newCard);
    const manifestFile = path.join(copy, '.well-known/ard.json');
    const manifest = await readFile(manifestFile, 'utf8');
    await writeFile(
      manifestFile,
      manifest.replaceAll(sha256Digest(Buffer.from(cardText)), sha256Digest(Buffer.from(newCard))),
    );
    const bad = buffers();
    expect(await runVerify([copy, '--origin', ORIGIN, '--threads', '0', '--json'], bad.streams)).toBe(1);
    const findings = JSON.parse(bad.out.stdout).findings as Array<{ code: string; message: string }>;
    expect(findings).toContainEqual(
      expect.objectContaining({
        code: 'RELEASE_CARD_MISMATCH',
        message: expect.stringContaining("the last release recorded is the card's version 1.1.0"),
      }),
    );
  });
});

describe('a scope widening with a version bump (a stored spec gives each access its scopes)', () => {
  it('builds, lists the widened scope in the changes document, and verify accepts it', async () => {
    const project = await copyProject(FIXTURE);
    // The calendar resource gets the real Google Calendar Discovery document as its stored spec.
    const spec = await readFile(
      path.join(REPO_ROOT, 'test/fixtures/example-like/content/specs/google-calendar-events-v3.json'),
    );
    await mkdir(path.join(project, 'content/specs'), { recursive: true });
    await writeFile(path.join(project, 'content/specs/calendar.json'), spec);
    const resource = path.join(project, CALENDAR);
    await writeFile(
      resource,
      (await readFile(resource, 'utf8')).replace(
        'operations:\n',
        `spec:\n  specUrl: https://www.googleapis.com/discovery/v1/apis/calendar/v3/rest\nspecFile: content/specs/calendar.json\nspecDigest: ${sha256Digest(spec)}\noperations:\n`,
      ),
    );
    const recorded = await runCommandInProcessWithEnv('release.ts', ['--root', project], {
      SOURCE_DATE_EPOCH,
    });
    expect(recorded.code, recorded.stderr).toBe(0);
    const history = JSON.parse(
      await readFile(path.join(project, 'content/releases/trip-booker.json'), 'utf8'),
    );
    // Dated by the SOURCE_DATE_EPOCH handed to the command, not by this process's environment.
    expect(history.releases[0].releasedAt).toBe('2025-11-24T16:00:00Z');
    expect(Object.values(history.releases[0].scopes)).toContainEqual([
      'https://www.googleapis.com/auth/calendar.events.readonly',
    ]);
    // Listing events becomes listing a calendar's access rules: still a read, but only the whole
    // calendar scope allows it. Under a new version, that is a release like any other.
    await writeFile(
      resource,
      (await readFile(resource, 'utf8')).replace(
        'operationId: calendar.events.list',
        'operationId: calendar.acl.list',
      ),
    );
    const agent = path.join(project, AGENT);
    await writeFile(agent, (await readFile(agent, 'utf8')).replace('version: 1.0.0', 'version: 1.1.0'));
    const build = await buildProject(project, { env: fixedKeyEnv() });
    expect(build.code, build.stderr).toBe(0);
    const changes = JSON.parse(
      await readFile(path.join(build.outDir, 'agents/trip-booker/ram-changes.json'), 'utf8'),
    );
    expect(changes.latest.changes).toContainEqual(
      expect.objectContaining({
        kind: 'widened',
        field: 'scope',
        to: ['https://www.googleapis.com/auth/calendar'],
      }),
    );
    const ok = buffers();
    expect(
      await runVerify([build.outDir, '--origin', ORIGIN, '--threads', '0'], ok.streams),
      ok.out.stdout,
    ).toBe(0);
  }, 180_000);
});

describe('a read-only operation that a stored spec, stored after the release, says writes', () => {
  it('npm run release and --dry-run call it a correction, not a narrowing; the next version records it', async () => {
    const project = await copyProject(FIXTURE);
    const resource = path.join(project, 'content/resources/github.yaml');
    const mcp = (pin: string) => githubIssuesResource(pin, { readOnly: true });
    await writeFile(resource, mcp(''));
    const agent = path.join(project, AGENT);
    await writeFile(
      agent,
      (await readFile(agent, 'utf8')).replace(
        '    necessity: OPTIONAL\n---',
        `    necessity: OPTIONAL
  - id: file-issue
    operation: create-issue
    identityUsed: END_USER
    accessJustification: To file the bugs you report.
    necessity: OPTIONAL
---`,
      ),
    );
    const release = (...args: string[]) =>
      runCommandInProcessWithEnv('release.ts', ['--root', project, ...args], { SOURCE_DATE_EPOCH });
    const first = await release();
    expect(first.stdout, first.stderr).toBe(
      'trip-booker 1.0.0: recorded (content/releases/trip-booker.json)\n',
    );
    const historyFile = path.join(project, 'content/releases/trip-booker.json');
    const recorded = await readFile(historyFile, 'utf8');
    expect(JSON.parse(recorded).releases[0].readOnlyOperations).toEqual(['create-issue']);
    // `npm run specs` stores GitHub's tools/list: create_issue has readOnlyHint: false.
    const spec = await readFile(path.join(REPO_ROOT, 'test/fixtures/specs/github-tools-list.json'));
    await mkdir(path.join(project, 'content/specs'), { recursive: true });
    await writeFile(path.join(project, 'content/specs/github.json'), spec);
    await writeFile(
      resource,
      mcp(`specFile: content/specs/github.json\nspecDigest: ${sha256Digest(spec)}\n`),
    );
    const correction =
      'trip-booker 1.0.0: already recorded (a correction, not a narrowing: the release recorded create-issue as only reading, but its stored spec says it may change data, as the card now says too; the agent could always change data there, so it gains no access; the next version records it) (content/releases/trip-booker.json)\n';
    for (const run of [await release(), await release('--dry-run')]) {
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe(correction);
    }
    expect(await readFile(historyFile, 'utf8')).toBe(recorded);
    // The check agrees: the spec's warning, and no widening under 1.0.0.
    const check = await runCommandInProcessWithEnv('check.ts', ['--root', project]);
    expect(check.code, check.stdout).toBe(0);
    expect(check.stdout).toContain('[SPEC_READ_WRITE_MISMATCH]');
    await writeFile(agent, (await readFile(agent, 'utf8')).replace('version: 1.0.0', 'version: 1.0.1'));
    const next = await release();
    expect(next.stdout).toBe('trip-booker 1.0.1: recorded (content/releases/trip-booker.json)\n');
    const history = JSON.parse(await readFile(historyFile, 'utf8'));
    expect(history.releases.map((r: { version: string }) => r.version)).toEqual(['1.0.0', '1.0.1']);
    expect(history.releases[1].readOnlyOperations).toBeUndefined();
  }, 120_000);
});
