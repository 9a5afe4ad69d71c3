/**
 * src/core/releases/site-diff.ts over in-memory sites: entries matched by identifier, added and removed
 * entries, `readOnlyOperations` from the changes document a card pins, scopes from the permission file a
 * card's RAM extension pins (issue 15), and a pinned document whose digest does not hold being ignored.
 */
import { describe, expect, it } from 'vitest';
import { sha256Digest } from '../../src/core/trust/digest.js';
import {
  diffSides,
  originFromManifest,
  readDiffSide,
  SideUnreadable,
} from '../../src/core/releases/site-diff.js';
import type { SiteReader } from '../../src/core/verify/reader.js';

const ORIGIN = 'https://a.example';
const ID = 'urn:air:a.example:x:helper';
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

/** A site of one agent whose card pins a changes document and a permission file. */
function site(options: { readOnly?: string[]; scopes?: string[]; badDigest?: boolean; extra?: boolean }) {
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
            permissions: {
              file: `${ORIGIN}/agents/helper/permissions.json`,
              digest: options.badDigest ? 'sha256:00' : sha256Digest(permissions),
            },
          },
        },
        {
          uri: 'urn:ardsite:ext:ram-changes:v1',
          params: { url: `${ORIGIN}/agents/helper/ram-changes.json`, digest: sha256Digest(changes) },
        },
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
  ];
  files.set(`${ORIGIN}/.well-known/ard.json`, enc({ entries }));
  const reader: SiteReader = {
    read: async (url) => {
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
