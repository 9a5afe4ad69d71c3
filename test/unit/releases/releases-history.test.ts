/**
 * Release histories (src/core/releases/history.ts, agent-changes.ts) over a copy of test/fixtures/releases:
 * a history of three versions gives "What changed" for the newest and the earlier changes for the others;
 * the notice lasts `releases.noticeDays`; a malformed history is a coded error with its line; `npm run
 * release`'s core appends once and refuses a version recorded before the last, and says how a RAM under a
 * version already recorded differs: a read-only operation corrected by its stored spec or method is a
 * correction, not a narrowing (record.ts, scripts/lib/release-words.ts).
 */
import { readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAndCheck } from '../../../src/core/content/index.js';
import type { ContentModel } from '../../../src/core/model/content.js';
import { changesView, newPermissionsNoticeView } from '../../../src/core/pages/changes-view.js';
import { ENGLISH_WORDS } from '../../../src/core/pages/words.js';
import { agentChanges } from '../../../src/core/releases/agent-changes.js';
import { parseHistory, serializeHistory } from '../../../src/core/releases/history.js';
import type { ReleaseRecord } from '../../../src/core/model/release-record.js';
import { recordReleases, type ReleaseOutcome } from '../../../src/core/releases/record.js';
import type { Ram } from '../../../src/core/schema/ram.js';
import { releaseWords } from '../../../src/cli/lib/release-words.js';
import { agentMd, fixture, makeSite, removeSites, REPO_ROOT } from '../../helpers/site.js';
import { FILE_GITHUB_ISSUE, githubIssuesResource, storedSpec } from '../../helpers/specs.js';

let root: string;
let model: ContentModel;

/** The fixture agent's RAM with only its calendar read (no holidays), and as it is. */
function records(current: ContentModel): ReleaseRecord[] {
  const ram = current.agents[0]!.ram;
  const calendarOnly = {
    resources: ram.resources.filter((r) => r.id === 'calendar-events'),
    operations: ram.operations.filter((o) => o.resource === 'calendar-events'),
    resourceAccesses: ram.resourceAccesses.filter((a) => a.operation === 'calendar-events-list'),
  };
  const asksFirst = {
    ...calendarOnly,
    resourceAccesses: calendarOnly.resourceAccesses.map((a) => ({ ...a, confirmationRequired: true })),
  };
  return [
    { version: '0.9.0', releasedAt: '2025-01-10T00:00:00Z', ram: asksFirst },
    { version: '0.9.5', releasedAt: '2025-06-01T00:00:00Z', ram: calendarOnly },
  ];
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'ardsite-releases-'));
  await cp(path.join(REPO_ROOT, 'test/fixtures/releases/content'), path.join(root, 'content'), {
    recursive: true,
  });
  const first = await loadAndCheck({ root });
  await mkdir(path.join(root, 'content/releases'));
  await writeFile(
    path.join(root, 'content/releases/trip-booker.json'),
    serializeHistory(first.model!.agents[0]!.identifier, records(first.model!)),
  );
  const loaded = await loadAndCheck({ root });
  expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  model = loaded.model!;
});

afterAll(() => rm(root, { recursive: true, force: true }));

describe('agentChanges and the page views', () => {
  it('compares this version with the last record, and each older record with the one before it', () => {
    const agent = model.agents[0]!;
    const changes = agentChanges(agent, model, model.releases!.get('trip-booker')!, {
      updatedAt: '2025-11-13T00:00:00Z',
      now: new Date('2025-11-24T00:00:00Z'),
      noticeDays: 30,
    });
    expect(changes.latest).toMatchObject({ version: '1.0.0', previousVersion: '0.9.5', gainedAccess: true });
    expect(changes.history.map((h) => [h.version, h.previousVersion, h.gainedAccess])).toEqual([
      ['0.9.5', '0.9.0', true],
    ]);
    const view = changesView({ changes }, ENGLISH_WORDS)!;
    expect(view.latest?.heading).toBe('What changed in 1.0.0');
    expect(view.latest?.intro).toBe('Compared with version 0.9.5 of 1 June 2025, this version:');
    expect(view.latest?.items.map((i) => i.text)).toContain(
      'New outside service: Public holidays now gets data from the agent.',
    );
    expect(view.historyHeading).toBe('Earlier changes');
    expect(view.history[0]).toEqual({
      text: 'Version 0.9.5 (1 June 2025), compared with 0.9.0:',
      items: [
        {
          text: 'The action “Lists the events of a calendar” in Calendar Events is now done without asking you first (before: it asked you every time).',
          gained: true,
        },
      ],
    });
    expect(newPermissionsNoticeView({ changes, agent }, ENGLISH_WORDS)?.text).toBe(
      'New permissions in version 1.0.0 (13 November 2025).',
    );
  });

  it('shows the notice only within noticeDays of the version', () => {
    const agent = model.agents[0]!;
    const at = (now: string, noticeDays = 30) =>
      agentChanges(agent, model, model.releases!.get('trip-booker')!, {
        updatedAt: '2025-11-13T00:00:00Z',
        now: new Date(now),
        noticeDays,
      }).notice;
    expect(at('2025-12-12T23:00:00Z')).toBe(true);
    expect(at('2025-12-13T00:00:00Z')).toBe(false);
    expect(at('2025-11-20T00:00:00Z', 0)).toBe(false);
  });
});

describe('a version going back', () => {
  it('is RELEASE_VERSION_BEHIND at version when an earlier release, not the last, recorded it', async () => {
    const copy = await mkdtemp(path.join(tmpdir(), 'ardsite-releases-back-'));
    try {
      await cp(path.join(root, 'content'), path.join(copy, 'content'), { recursive: true });
      const agent = path.join(copy, 'content/agents/trip-booker.md');
      await writeFile(agent, (await readFile(agent, 'utf8')).replace('version: 1.0.0', 'version: 0.9.0'));
      const { diagnostics } = await loadAndCheck({ root: copy });
      const behind = diagnostics.filter((d) => d.code === 'RELEASE_VERSION_BEHIND');
      expect(behind).toHaveLength(1);
      expect(behind[0]).toMatchObject({
        severity: 'error',
        file: 'content/agents/trip-booker.md',
        path: 'version',
        line: 4,
      });
      expect(behind[0]!.message).toContain(
        "agent trip-booker's version 0.9.0 is an earlier release: content/releases/trip-booker.json records it on 2025-01-10T00:00:00Z, then 0.9.5 on 2025-06-01T00:00:00Z.",
      );
      // The last release's version, or a new one, is fine.
      for (const version of ['0.9.5', '1.0.1']) {
        await writeFile(
          agent,
          (await readFile(agent, 'utf8')).replace(/^version: .*$/m, `version: ${version}`),
        );
        const again = await loadAndCheck({ root: copy });
        expect(again.diagnostics.filter((d) => d.code === 'RELEASE_VERSION_BEHIND')).toEqual([]);
      }
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  });
});

describe('a widening made in a resource file', () => {
  it('is reported at the access it widens, naming the resource file where it was made', async () => {
    const copy = await mkdtemp(path.join(tmpdir(), 'ardsite-releases-effect-'));
    try {
      await cp(path.join(root, 'content'), path.join(copy, 'content'), { recursive: true });
      // 1.0.0 released as it is now, then the calendar's list operation becomes a POST.
      const agent = model.agents[0]!;
      await writeFile(
        path.join(copy, 'content/releases/trip-booker.json'),
        serializeHistory(agent.identifier, [
          ...records(model),
          { version: '1.0.0', releasedAt: '2025-11-01T00:00:00Z', ram: agent.ram },
        ]),
      );
      const calendar = path.join(copy, 'content/resources/calendar-events.yaml');
      await writeFile(
        calendar,
        (await readFile(calendar, 'utf8')).replace('httpMethod: GET', 'httpMethod: POST'),
      );
      const { diagnostics } = await loadAndCheck({ root: copy });
      const widened = diagnostics.filter((d) => d.code === 'RELEASE_WIDENED_WITHOUT_VERSION');
      expect(widened).toHaveLength(1);
      expect(widened[0]).toMatchObject({ file: 'content/agents/trip-booker.md' });
      expect(widened[0]!.message).toContain(
        'effect widened from "read" to "write" (changed in content/resources/calendar-events.yaml)',
      );
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  });
});

describe('release history files', () => {
  it('refuses a version recorded twice, naming its line', () => {
    const text = serializeHistory('urn:air:a.example:x:y', [
      {
        version: '1.0.0',
        releasedAt: '2025-01-01T00:00:00Z',
        ram: { resources: [], operations: [], resourceAccesses: [] },
      },
      {
        version: '1.0.0',
        releasedAt: '2025-02-01T00:00:00Z',
        ram: { resources: [], operations: [], resourceAccesses: [] },
      },
    ]);
    const result = parseHistory('content/releases/y.json', text);
    expect(result).toEqual([
      expect.objectContaining({ code: 'RELEASE_HISTORY_INVALID', path: 'releases[1].version', line: 15 }),
    ]);
    const bad = parseHistory('content/releases/y.json', '{"format": 2, "identifier": "x", "releases": []}');
    expect(Array.isArray(bad) && bad.every((d) => d.code === 'RELEASE_HISTORY_INVALID')).toBe(true);
  });

  it('npm run release appends this version once, then has nothing to do', async () => {
    const outcomes = await recordReleases(model, new Date('2025-11-24T16:00:00Z'));
    expect(outcomes).toEqual([
      expect.objectContaining({ slug: 'trip-booker', version: '1.0.0', status: 'recorded' }),
    ]);
    const again = await loadAndCheck({ root });
    expect((await recordReleases(again.model!, new Date()))[0]!.status).toBe('unchanged');
    const file = JSON.parse(await readFile(path.join(root, 'content/releases/trip-booker.json'), 'utf8'));
    expect(file.releases.map((r: { version: string }) => r.version)).toEqual(['0.9.0', '0.9.5', '1.0.0']);
    expect(file.releases[2].releasedAt).toBe('2025-11-24T16:00:00Z');
    // Going back to a version recorded before the last is refused.
    const back = again.model!;
    back.agents[0]!.front.version = '0.9.5';
    expect((await recordReleases(back, new Date(), { write: false }))[0]).toMatchObject({
      status: 'refused',
      diagnostic: { code: 'RELEASE_VERSION_RECORDED' },
    });
  });
});

/** GitHub's MCP server (test/fixtures/specs/github-tools-list.json): create_issue has readOnlyHint: false. */
const GITHUB = storedSpec(
  'github.json',
  JSON.parse(readFileSync(path.join(fixture('specs'), 'github-tools-list.json'), 'utf8')),
);

/** An MCP resource whose create-issue the author marks `readOnly: true`; a stored spec or a method may disagree. */
function github(evidence: 'spec' | 'method' | 'none'): string {
  return githubIssuesResource(evidence === 'spec' ? GITHUB.pin : '', {
    readOnly: true,
    ...(evidence === 'method' ? { method: 'POST' } : {}),
  });
}

const FILE_ISSUE = FILE_GITHUB_ISSUE;

/**
 * What `npm run release` (dry run) says of version 1.0.0 of an agent that files GitHub issues, recorded
 * as `record` makes it from the RAM built now, the operations it lists as only reading beside it.
 */
async function releaseAgain(
  evidence: 'spec' | 'method' | 'none',
  record: (ram: Ram) => { ram: Ram; readOnlyOperations?: string[] },
): Promise<ReleaseOutcome> {
  const root = await makeSite({
    'content/resources/github.yaml': github(evidence),
    ...(evidence === 'spec' ? { [GITHUB.file]: GITHUB.text } : {}),
    'content/agents/a.md': agentMd({ resourceAccesses: [FILE_ISSUE] }),
  });
  const first = await loadAndCheck({ root });
  const agent = first.model!.agents[0]!;
  await mkdir(path.join(root, 'content/releases'));
  await writeFile(
    path.join(root, 'content/releases/a.json'),
    serializeHistory(agent.identifier, [
      { version: '1.0.0', releasedAt: '2026-01-01T00:00:00Z', ...record(structuredClone(agent.ram)) },
    ]),
  );
  const loaded = await loadAndCheck({ root });
  expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const [outcome] = await recordReleases(loaded.model!, new Date('2026-02-01T00:00:00Z'), { write: false });
  return outcome!;
}

describe('npm run release on a version already recorded, with a RAM that gains no access', () => {
  afterAll(removeSites);

  it('a read-only operation its stored spec now says writes is a correction, not a narrowing', async () => {
    const outcome = await releaseAgain('spec', (ram) => ({ ram, readOnlyOperations: ['create-issue'] }));
    expect(outcome).toMatchObject({ status: 'corrected', corrected: [{ id: 'create-issue' }] });
    const words = releaseWords(outcome, false);
    expect(words).toBe(
      'already recorded (a correction, not a narrowing: the release recorded create-issue as only reading, but its stored spec says it may change data, as the card now says too; the agent could always change data there, so it gains no access; the next version records it)',
    );
    expect(words).not.toMatch(/narrower/);
  });

  it('…and one its own method says writes (a record of an older ardsite) names the method', async () => {
    const outcome = await releaseAgain('method', (ram) => ({ ram, readOnlyOperations: ['create-issue'] }));
    expect(outcome).toMatchObject({
      status: 'corrected',
      corrected: [{ id: 'create-issue', method: 'POST' }],
    });
    expect(releaseWords(outcome, true)).toContain('create-issue as only reading, but its method POST says');
  });

  it('a correction beside a real narrowing says both; a rewording beside a correction is the correction', async () => {
    const narrowed = await releaseAgain('spec', (ram) => ({
      ram: { ...ram, resourceAccesses: ram.resourceAccesses.map((a) => ({ ...a, necessity: 'REQUIRED' })) },
      readOnlyOperations: ['create-issue'],
    }));
    expect(narrowed).toMatchObject({ status: 'narrowed', corrected: [{ id: 'create-issue' }] });
    expect(releaseWords(narrowed, false)).toMatch(
      /^already recorded \(its RAM is narrower now; besides, a correction: the release recorded create-issue/,
    );
    const reworded = await releaseAgain('spec', (ram) => ({
      ram: {
        ...ram,
        resourceAccesses: ram.resourceAccesses.map((a) => ({ ...a, accessJustification: 'Bugs.' })),
      },
      readOnlyOperations: ['create-issue'],
    }));
    expect(reworded).toMatchObject({ status: 'corrected' });
  });

  it('the reverse, the evidence that it writes gone (no stored spec): the card now says it only reads, narrower', async () => {
    const outcome = await releaseAgain('none', (ram) => ({ ram }));
    expect(outcome.status).toBe('narrowed');
    expect(outcome.corrected).toBeUndefined();
    expect(releaseWords(outcome, false)).toBe(
      'already recorded (its RAM is narrower now; the next version records it)',
    );
  });

  it('only reworded, differing where no access changes, or the same: each said as it is', async () => {
    const listed = (ram: Ram) => ({ ram, readOnlyOperations: ['create-issue'] });
    expect((await releaseAgain('none', listed)).status).toBe('unchanged');
    const reworded = await releaseAgain('none', (ram) =>
      listed({
        ...ram,
        resourceAccesses: ram.resourceAccesses.map((a) => ({ ...a, accessJustification: 'Bugs.' })),
      }),
    );
    expect(reworded.status).toBe('reworded');
    expect(releaseWords(reworded, false)).toBe(
      'already recorded (its RAM is only reworded now, with the same access; the next version records it)',
    );
    const differs = await releaseAgain('none', (ram) =>
      listed({
        ...ram,
        operations: ram.operations.map((o) => ({ ...o, apiOperationSpec: { operationId: 'issues.create' } })),
      }),
    );
    expect(differs.status).toBe('differs');
    expect(releaseWords(differs, false)).not.toMatch(/narrow/);
  });
});
