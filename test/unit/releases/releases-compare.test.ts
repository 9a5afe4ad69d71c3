/**
 * src/core/releases/compare.ts, the one RAM comparison of the build, the pages, `npm run diff` and verify
 * (DESIGN.md §9 "Releases"): every widening compare.ts names, their opposites as narrowings, rewordings,
 * scopes, and the plain-words sentences of src/core/pages/words.ts.
 */
import { describe, expect, it } from 'vitest';
import { ENGLISH_WORDS } from '../../../src/core/pages/words.js';

const changeSentence = ENGLISH_WORDS.changes.sentence;
import { compareRam, gainsAccess, type RamSnapshot } from '../../../src/core/releases/compare.js';
import type { Ram, RamResourceAccess } from '../../../src/core/schema/ram.js';

function ram(accesses: Array<Partial<RamResourceAccess>> = [{}], extra: Partial<Ram> = {}): Ram {
  return {
    resources: [
      {
        id: 'calendar',
        interactionProtocol: 'REST',
        owner: 'CONSUMER',
        displayName: 'Calendar',
        description: 'Your calendar.',
      },
      {
        id: 'notes-mcp',
        interactionProtocol: 'MCP',
        owner: 'CONSUMER',
        displayName: 'Notes tool',
        description: 'A notes tool.',
      },
      ...(extra.resources ?? []),
    ],
    operations: [
      {
        id: 'calendar-list',
        resource: 'calendar',
        description: 'Lists events.',
        apiOperationSpec: { httpMethod: 'GET' },
      },
      {
        id: 'calendar-insert',
        resource: 'calendar',
        description: 'Creates an event.',
        apiOperationSpec: { httpMethod: 'POST' },
      },
      { id: 'notes-call', resource: 'notes-mcp', description: 'Reads a note.' },
      ...(extra.operations ?? []),
    ],
    resourceAccesses: accesses.map((a, i) => ({
      id: `access-${i}`,
      operation: 'calendar-list',
      identityUsed: 'AGENT',
      confirmationRequired: true,
      accessJustification: 'To plan.',
      necessity: 'OPTIONAL',
      ...a,
    })),
  };
}

const snap = (r: Ram, more: Partial<RamSnapshot> = {}): RamSnapshot => ({ ram: r, ...more });
const only = (before: RamSnapshot, after: RamSnapshot) =>
  compareRam(before, after).map(({ kind, item, id, field, from, to }) => ({
    kind,
    item,
    id,
    field,
    from,
    to,
  }));

describe('compareRam', () => {
  it('finds nothing between equal RAMs', () => {
    expect(compareRam(snap(ram()), snap(ram()))).toEqual([]);
  });

  it.each([
    ['identityUsed', { identityUsed: 'END_USER' }, 'AGENT', 'END_USER'],
    ['confirmationRequired', { confirmationRequired: false }, true, false],
    ['necessity', { necessity: 'REQUIRED' }, 'OPTIONAL', 'REQUIRED'],
    ['effect', { operation: 'calendar-insert' }, 'read', 'write'],
  ] as const)('widens %s, and narrows it back', (field, change, from, to) => {
    const wide = only(snap(ram()), snap(ram([change as Partial<RamResourceAccess>])));
    expect(wide).toContainEqual({ kind: 'widened', item: 'access', id: 'access-0', field, from, to });
    const narrow = only(snap(ram([change as Partial<RamResourceAccess>])), snap(ram()));
    expect(narrow).toContainEqual({
      kind: 'narrowed',
      item: 'access',
      id: 'access-0',
      field,
      from: to,
      to: from,
    });
    expect(compareRam(snap(ram([change as Partial<RamResourceAccess>])), snap(ram())).some(gainsAccess)).toBe(
      false,
    );
  });

  it('counts an MCP call as a write unless the author marked it readOnly', () => {
    const before = snap(ram([{ operation: 'notes-call' }]), { readOnlyOperations: ['notes-call'] });
    const after = snap(ram([{ operation: 'notes-call' }]));
    expect(only(before, after)).toEqual([
      { kind: 'widened', item: 'access', id: 'access-0', field: 'effect', from: 'read', to: 'write' },
    ]);
  });

  it('lists added and removed accesses, operations and resources; a new outside service gains access', () => {
    const holidays = {
      resources: [
        {
          id: 'holidays',
          interactionProtocol: 'REST' as const,
          owner: 'THIRD_PARTY' as const,
          displayName: 'Holidays',
          description: 'Public holidays.',
        },
      ],
      operations: [
        {
          id: 'holidays-get',
          resource: 'holidays',
          description: 'Gets holidays.',
          apiOperationSpec: { httpMethod: 'GET' },
        },
      ],
    };
    const changes = compareRam(snap(ram()), snap(ram([{}, { operation: 'holidays-get' }], holidays)));
    expect(changes.map((c) => [c.kind, c.item, c.id])).toEqual([
      ['added', 'resource', 'holidays'],
      ['added', 'operation', 'holidays-get'],
      ['added', 'access', 'access-1'],
    ]);
    expect(changes.every(gainsAccess)).toBe(true);
    expect(changeSentence(changes[0]!)).toBe('New outside service: Holidays now gets data from the agent.');
    const back = compareRam(snap(ram([{}, { operation: 'holidays-get' }], holidays)), snap(ram()));
    expect(back.map((c) => c.kind)).toEqual(['removed', 'removed', 'removed']);
  });

  it('widens an access whose resource became an outside service', () => {
    const moved = ram();
    moved.resources[0] = { ...moved.resources[0]!, owner: 'THIRD_PARTY' };
    expect(only(snap(ram()), snap(moved))).toContainEqual({
      kind: 'widened',
      item: 'resource',
      id: 'calendar',
      field: 'owner',
      from: 'CONSUMER',
      to: 'THIRD_PARTY',
    });
  });

  it('compares scopes when both sides have a permission set: a broader scope widens', () => {
    const before = snap(ram(), { scopes: { 'access-0': ['calendar.readonly'] } });
    const after = snap(ram(), { scopes: { 'access-0': ['calendar', 'calendar.readonly'] } });
    expect(only(before, after)).toEqual([
      {
        kind: 'widened',
        item: 'access',
        id: 'access-0',
        field: 'scope',
        from: ['calendar.readonly'],
        to: ['calendar', 'calendar.readonly'],
      },
    ]);
    expect(only(after, before)[0]?.kind).toBe('narrowed');
    expect(compareRam(snap(ram()), after)).toEqual([]);
  });

  it('a change of wording is a rewording, never a gain', () => {
    const reworded = ram([{ accessJustification: 'To plan your trip.' }]);
    reworded.resources[0] = { ...reworded.resources[0]!, description: 'The calendar you keep.' };
    const changes = compareRam(snap(ram()), snap(reworded));
    expect(changes.map((c) => [c.kind, c.field])).toEqual([
      ['reworded', 'description'],
      ['reworded', 'accessJustification'],
    ]);
    expect(changes.some(gainsAccess)).toBe(false);
  });
});

describe('changeSentence', () => {
  it('says a gained write as the user without asking in plain words, with no enum name', () => {
    const [change] = compareRam(
      snap(ram([])),
      snap(ram([{ operation: 'calendar-insert', identityUsed: 'END_USER', confirmationRequired: false }])),
    ).filter((c) => c.item === 'access');
    const sentence = changeSentence(change!);
    expect(sentence).toBe(
      'New permission: “Creates an event” in Calendar. It may change your data; it acts as you, without asking you first.',
    );
  });

  it('says each widening without enum names', () => {
    const changes = compareRam(
      snap(ram()),
      snap(
        ram([
          {
            identityUsed: 'END_USER',
            confirmationRequired: false,
            necessity: 'REQUIRED',
            operation: 'calendar-insert',
          },
        ]),
      ),
    );
    const text = changes.map(changeSentence).join('\n');
    expect(text).toContain('now acts as you, with your account (before: as itself)');
    expect(text).toContain('is now done without asking you first (before: it asked you every time)');
    expect(text).toContain('is now required (before: optional)');
    expect(text).toContain('may now change your data (before: it only read data)');
    expect(text).not.toMatch(/END_USER|AGENT\b|REQUIRED|OPTIONAL|confirmationRequired/);
  });
});
