/**
 * src/core/diff/site-diff.ts over in-memory sites: entries matched by identifier, added and removed entries,
 * `readOnlyOperations` from the changes document a card pins, scopes from the permission file a card's RAM
 * extension pins (DESIGN.md §9 "Permissions from specs"), and a pinned document whose digest does not hold
 * being ignored. Another publisher's entry whose card is on another origin (test/fixtures/example-like lists
 * one of hotels.example.org) is not compared from a folder and the report says so, while a missing card of
 * the site's own origin still makes `npm run diff` exit 2 (DIFF_UNREADABLE); over HTTP such a card is read
 * and compared.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runDiff } from '../../../src/cli/run.js';
import { sha256Digest } from '../../../src/core/ard/digest.js';
import {
  diffSides,
  originFromManifest,
  readDiffSide,
  SideUnreadable,
} from '../../../src/core/diff/site-diff.js';
import type { SiteReader } from '../../../src/core/verify/reader.js';

const ORIGIN = 'https://a.example';
const ID = 'urn:air:a.example:x:helper';
/** Another publisher's agent the site lists, its card on that publisher's origin. */
const FOREIGN_ORIGIN = 'https://hotels.example.org';
const FOREIGN_ID = 'urn:air:hotels.example.org:agents:hotel-booking';
const FOREIGN_CARD = `${FOREIGN_ORIGIN}/agents/hotel-booking/agent-card.json`;
const enc = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));

function ram(operationId = 'notes-call') {
  return {
    resources: [
      {
        id: 'notes',
        interactionProtocol: 'MCP',
        owner: 'CONSUMER',
        displayName: 'Notes',
        description: 'Notes.',
      },
    ],
    operations: [{ id: operationId, resource: 'notes', description: 'Reads notes.' }],
    resourceAccesses: [
      {
        id: 'read-notes',
        operation: operationId,
        identityUsed: 'END_USER',
        confirmationRequired: true,
        accessJustification: 'To read.',
        necessity: 'REQUIRED',
      },
    ],
  };
}

interface SiteOptions {
  readOnly?: string[];
  scopes?: string[];
  badDigest?: boolean;
  /** `readOnlyOperations` the card signs in its RAM extension params (src/core/a2a/card.ts `PageFacts`). */
  cardReadOnly?: string[];
  /** No changes document (an agent without a release history: before its first `npm run release`). */
  noChanges?: boolean;
  extra?: boolean;
  /** List another publisher's entry (FOREIGN_ID), its card at FOREIGN_CARD. */
  foreign?: boolean;
  /** The foreign card's operation id, when that origin serves it (as over HTTP); else it is not there. */
  foreignOperation?: string;
  /** Read like a folder: a URL of another origin than ORIGIN gives `undefined` (not a failed read). */
  folderLike?: boolean;
}

/** The files of a site of one agent whose card pins a changes document and a permission file, by URL. */
function siteFiles(options: SiteOptions): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  const changes = enc({ readOnlyOperations: options.readOnly });
  const permissions = enc({
    accesses: [
      {
        access: 'read-notes',
        leastPrivilege: { requirements: [{ scheme: 'oauth', type: 'oauth2', scopes: options.scopes ?? [] }] },
      },
    ],
  });
  files.set(`${ORIGIN}/agents/helper/ram-changes.json`, changes);
  files.set(`${ORIGIN}/agents/helper/permissions.json`, permissions);
  const card = {
    name: 'Helper',
    version: '1',
    capabilities: {
      extensions: [
        {
          uri: 'https://ram.example/ext',
          params: {
            ...ram(),
            ...(options.cardReadOnly ? { readOnlyOperations: options.cardReadOnly } : {}),
            permissions: {
              file: `${ORIGIN}/agents/helper/permissions.json`,
              digest: options.badDigest ? 'sha256:00' : sha256Digest(permissions),
            },
          },
        },
        ...(options.noChanges
          ? []
          : [
              {
                uri: 'urn:ardsite:ext:ram-changes:v1',
                params: { url: `${ORIGIN}/agents/helper/ram-changes.json`, digest: sha256Digest(changes) },
              },
            ]),
      ],
    },
  };
  files.set(`${ORIGIN}/agents/helper/agent-card.json`, enc(card));
  const entries = [
    {
      identifier: ID,
      version: '1',
      type: 'application/a2a-agent-card+json',
      url: `${ORIGIN}/agents/helper/agent-card.json`,
    },
    ...(options.extra
      ? [
          {
            identifier: 'urn:air:a.example:x:other',
            version: '2',
            type: 'application/mcp-server-card+json',
            data: {},
          },
        ]
      : []),
    ...(options.foreign
      ? [
          {
            identifier: FOREIGN_ID,
            version: '3.1.0',
            type: 'application/a2a-agent-card+json',
            url: FOREIGN_CARD,
          },
        ]
      : []),
  ];
  if (options.foreignOperation !== undefined) {
    const foreignRam = ram(options.foreignOperation);
    files.set(FOREIGN_CARD, enc({ name: 'Hotel booking', resourceAccessManifest: foreignRam }));
  }
  files.set(`${ORIGIN}/.well-known/ard.json`, enc({ entries }));
  return files;
}

/** A reader of {@link siteFiles}: a missing file is a failed read (HTTP 404). */
function site(options: SiteOptions) {
  const files = siteFiles(options);
  const reader: SiteReader = {
    read: async (url) => {
      if (options.folderLike && new URL(url).origin !== ORIGIN) return undefined;
      const bytes = files.get(url);
      if (!bytes) throw new Error('HTTP 404');
      return { bytes };
    },
  };
  return reader;
}

const manifest = `${ORIGIN}/.well-known/ard.json`;

describe('readDiffSide and diffSides', () => {
  it('reads readOnly from the pinned changes document: an MCP call that stops being read-only widens', async () => {
    const before = await readDiffSide(site({ readOnly: ['notes-call'] }), manifest);
    const after = await readDiffSide(site({}), manifest);
    const [entry] = diffSides(before, after);
    expect(entry).toMatchObject({ identifier: ID, status: 'changed', gainedAccess: true });
    expect(entry!.changes).toEqual([expect.objectContaining({ kind: 'widened', field: 'effect' })]);
  });

  it('reads readOnly from the card itself: a build before its first release and one after compare equal', async () => {
    // The trial's mail-assistant: only the second build had a release history (a changes document); both
    // cards sign the same readOnlyOperations, and nothing about that operation changed.
    const before = await readDiffSide(site({ cardReadOnly: ['notes-call'], noChanges: true }), manifest);
    const after = await readDiffSide(
      site({ cardReadOnly: ['notes-call'], readOnly: ['notes-call'] }),
      manifest,
    );
    expect(diffSides(before, after)[0]).toMatchObject({ status: 'unchanged', changes: [] });
    expect(diffSides(after, before)[0]).toMatchObject({ status: 'unchanged', changes: [] });
    // What the card signs wins over a changes document that says otherwise.
    const stale = await readDiffSide(site({ cardReadOnly: ['notes-call'] }), manifest);
    expect(diffSides(before, stale)[0]!.changes).toEqual([]);
  });

  it('reads scopes from the pinned permission file: a broader scope widens', async () => {
    const before = await readDiffSide(site({ scopes: ['notes.read'] }), manifest);
    const after = await readDiffSide(site({ scopes: ['notes.read', 'notes.write'] }), manifest);
    const [entry] = diffSides(before, after);
    expect(entry!.changes).toEqual([
      expect.objectContaining({
        kind: 'widened',
        field: 'scope',
        from: ['notes.read'],
        to: ['notes.read', 'notes.write'],
      }),
    ]);
    // A permission file that does not match its digest is not read: no scope to compare.
    const tampered = await readDiffSide(
      site({ scopes: ['notes.read', 'notes.write'], badDigest: true }),
      manifest,
    );
    expect(diffSides(before, tampered)[0]!.changes).toEqual([]);
  });

  it('lists added and removed entries by identifier', async () => {
    const one = await readDiffSide(site({}), manifest);
    const two = await readDiffSide(site({ extra: true }), manifest);
    expect(diffSides(one, two).map((d) => [d.identifier, d.status])).toEqual([
      [ID, 'unchanged'],
      ['urn:air:a.example:x:other', 'added'],
    ]);
    expect(diffSides(two, one).map((d) => d.status)).toEqual(['unchanged', 'removed']);
  });

  it('throws SideUnreadable when the manifest cannot be read', async () => {
    const empty: SiteReader = { read: async () => undefined };
    await expect(readDiffSide(empty, manifest)).rejects.toBeInstanceOf(SideUnreadable);
  });

  it('takes a folder origin from the URN domain most entries name', () => {
    expect(
      originFromManifest({
        entries: [{ identifier: ID }, { identifier: 'urn:air:b.example:x:y' }, { identifier: ID }],
      }),
    ).toBe(ORIGIN);
  });
});

describe('an entry whose card is on another origin', () => {
  it('is not compared from a folder, and the diff says which side and why', async () => {
    const side = await readDiffSide(site({ foreign: true, folderLike: true }), manifest);
    expect(side.entries.get(FOREIGN_ID)!.notRead).toBe(
      `its card at ${FOREIGN_CARD} is on another origin than ${ORIGIN}, not read from here`,
    );
    expect(side.entries.get(ID)!.notRead).toBeUndefined();
    const diffs = diffSides(side, side);
    expect(diffs.find((d) => d.identifier === ID)).not.toHaveProperty('notCompared');
    expect(diffs.find((d) => d.identifier === FOREIGN_ID)).toEqual({
      identifier: FOREIGN_ID,
      status: 'unchanged',
      versionBefore: '3.1.0',
      versionAfter: '3.1.0',
      changes: [],
      gainedAccess: false,
      notCompared: `both sides: its card at ${FOREIGN_CARD} is on another origin than ${ORIGIN}, not read from here`,
    });
  });

  it("the site's own agent whose card a folder does not hold (on a CDN) still makes the side unreadable", async () => {
    const cdn = 'https://cdn.example/agents/helper.json';
    const manifestBytes = enc({
      entries: [{ identifier: ID, version: '1.0.0', type: 'application/a2a-agent-card+json', url: cdn }],
    });
    // A folder's reader: the manifest is there, the card (another origin) is not read.
    const folder: SiteReader = {
      read: (url) => Promise.resolve(url === manifest ? { bytes: manifestBytes } : undefined),
    };
    const read = readDiffSide(folder, manifest);
    await expect(read).rejects.toBeInstanceOf(SideUnreadable);
    await expect(read).rejects.toThrow(
      `cannot read the card of ${ID} at ${cdn}: it is this site's own agent, and the card is on another origin than ${ORIGIN}`,
    );
  });

  it('read on one side only (a URL against a folder): not compared, rather than its whole RAM removed', async () => {
    const overHttp = await readDiffSide(site({ foreign: true, foreignOperation: 'book' }), manifest);
    const folder = await readDiffSide(site({ foreign: true, folderLike: true }), manifest);
    const [, entry] = diffSides(overHttp, folder);
    expect(entry).toMatchObject({ identifier: FOREIGN_ID, changes: [], gainedAccess: false });
    expect(entry!.notCompared).toMatch(/^new side: its card at https:\/\/hotels\.example\.org\//);
    expect(diffSides(folder, overHttp)[1]!.notCompared).toMatch(/^old side: /);
  });

  it('is compared as before when both sides can read it (over HTTP)', async () => {
    const before = await readDiffSide(site({ foreign: true, foreignOperation: 'book' }), manifest);
    const after = await readDiffSide(site({ foreign: true, foreignOperation: 'book-and-pay' }), manifest);
    const entry = diffSides(before, after).find((d) => d.identifier === FOREIGN_ID)!;
    expect(entry).not.toHaveProperty('notCompared');
    expect(entry.changes).toContainEqual(expect.objectContaining({ kind: 'added', id: 'book-and-pay' }));
    // Over HTTP a card that cannot be fetched is still a side that cannot be read.
    await expect(readDiffSide(site({ foreign: true }), manifest)).rejects.toThrow(
      `cannot read the card of ${FOREIGN_ID} at ${FOREIGN_CARD}: HTTP 404`,
    );
  });
});

describe("npm run diff over built folders listing another publisher's agent", () => {
  const folders: string[] = [];
  afterAll(() => Promise.all(folders.map((f) => rm(f, { recursive: true, force: true }))));

  /** Writes the site's files of ORIGIN into a fresh folder (the foreign card is not there, as in a build). */
  async function writeFolder(): Promise<string> {
    const folder = await mkdtemp(path.join(tmpdir(), 'ardsite-diff-'));
    folders.push(folder);
    for (const [url, bytes] of siteFiles({ foreign: true })) {
      const file = path.join(folder, new URL(url).pathname);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, bytes);
    }
    return folder;
  }

  function buffers() {
    const out = { stdout: '', stderr: '' };
    const streams = {
      stdout: { write: (t: string) => (out.stdout += t) },
      stderr: { write: (t: string) => (out.stderr += t) },
    };
    return { out, streams };
  }

  it('against an identical copy: exit 0, the foreign entry named as not compared', async () => {
    const site1 = await writeFolder();
    const copy = `${site1}-copy`;
    folders.push(copy);
    await cp(site1, copy, { recursive: true });
    const text = buffers();
    expect(await runDiff([site1, copy], text.streams), text.out.stderr).toBe(0);
    expect(text.out.stderr).toBe('');
    expect(text.out.stdout).toBe(
      `${FOREIGN_ID}: version 3.1.0 — not compared\n` +
        `  ! both sides: its card at ${FOREIGN_CARD} is on another origin than ${ORIGIN}, not read from here\n` +
        `${site1}/ → ${copy}/: 1 entry compared, 1 not compared, 0 changed, 0 gained access.\n`,
    );
    const json = buffers();
    expect(await runDiff([site1, copy, '--json'], json.streams)).toBe(0);
    const report = JSON.parse(json.out.stdout);
    expect(report.gainedAccess).toBe(false);
    expect(report.entries.map((e: { identifier: string; notCompared?: string }) => e.notCompared)).toEqual([
      undefined,
      expect.stringContaining(`both sides: its card at ${FOREIGN_CARD} is on another origin`),
    ]);
  });

  it("a missing card of the site's own origin is still DIFF_UNREADABLE, exit 2", async () => {
    const site1 = await writeFolder();
    const broken = await writeFolder();
    await rm(path.join(broken, 'agents/helper/agent-card.json'));
    const { out, streams } = buffers();
    expect(await runDiff([site1, broken], streams)).toBe(2);
    expect(out.stderr).toContain(
      `diff: cannot read the card of ${ID} at ${ORIGIN}/agents/helper/agent-card.json: `,
    );
    expect(out.stderr).toContain('[DIFF_UNREADABLE]');
  });
});

describe('npm run diff is bounded as verify is: a whole-run deadline and an entry cap', () => {
  it('refuses a side listing more entries than the cap (default: verify’s 100,000)', async () => {
    await expect(readDiffSide(site({ extra: true }), manifest, 1)).rejects.toThrow(
      /lists 2 entries, more than 1 \(--max-entries\)/,
    );
    await expect(readDiffSide(site({ extra: true }), manifest, 2)).resolves.toBeDefined();
  });

  it('--max-entries: a side listing more is DIFF_UNREADABLE, exit 2', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'ardsite-diff-cap-'));
    try {
      for (const [url, bytes] of siteFiles({ extra: true })) {
        const file = path.join(folder, new URL(url).pathname);
        await mkdir(path.dirname(file), { recursive: true });
        await writeFile(file, bytes);
      }
      const out = { stdout: '', stderr: '' };
      const streams = {
        stdout: { write: (t: string) => (out.stdout += t) },
        stderr: { write: (t: string) => (out.stderr += t) },
      };
      expect(await runDiff([folder, folder, '--max-entries', '1'], streams)).toBe(2);
      expect(out.stderr).toMatch(/lists 2 entries, more than 1 \(--max-entries\) \[DIFF_UNREADABLE\]/);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('--deadline: a site answering each card slowly ends the run at the deadline, exit 2', async () => {
    // 40 entries, each card answered after 400 ms: 16 s one by one, each read within the per-request timeout.
    const cards = 40;
    const entries = Array.from({ length: cards }, (_, i) => ({
      identifier: `urn:air:slow.example:x:a${i}`,
      version: '1',
      type: 'application/a2a-agent-card+json',
      url: `https://slow.example/agents/a${i}/agent-card.json`,
    }));
    const timers = new Set<NodeJS.Timeout>();
    const server = http.createServer((req, res) => {
      res.setHeader('Content-Type', 'application/json');
      if (req.url === '/.well-known/ard.json') return res.end(JSON.stringify({ entries }));
      const timer = setTimeout(() => res.end(JSON.stringify({ name: 'slow' })), 400);
      timers.add(timer);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const out = { stdout: '', stderr: '' };
      const streams = {
        stdout: { write: (t: string) => (out.stdout += t) },
        stderr: { write: (t: string) => (out.stderr += t) },
      };
      const code = await runDiff(
        [
          'https://slow.example/',
          'https://slow.example/',
          `--resolve=slow.example=http://127.0.0.1:${port}`,
          '--allow-private',
          '--deadline',
          '1.5',
        ],
        streams,
      );
      // Ended by the deadline, which the message names, not by reading every slow card.
      expect(code).toBe(2);
      expect(out.stderr).toMatch(/the deadline passed|deadline of 1\.5 s/);
      expect(out.stderr).toContain('[DIFF_UNREADABLE]');
    } finally {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }, 30_000);
});
