/**
 * Permission sets in the built artifacts (DESIGN.md §9): the per-agent permissions.json beside the card,
 * pinned by its sha256 in the card's RAM extension params (beside the RAM, never inside it), the scope
 * footprint terms of the entry, and the `_headers` rule. Over test/fixtures/example-like (the example's
 * copy: the Calendar v3 Discovery document, an OpenHolidays OpenAPI description, tools/list results) and
 * test/fixtures/content-valid (an OpenAPI notes service). Digests are recomputed with node:crypto.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { prepareBuild } from '../../../src/core/build/prepare.js';
import { writeSyntheticPublisher } from '../../../bench/synthetic.js';
import { permissionSet } from '../../../src/core/ram/sets.js';
import { PhaseTimer } from '../../../src/core/util/timings.js';
import type { AccessPermission } from '../../../src/core/model/permissions.js';
import type { SiteBuild } from '../../../src/core/site/site-build.js';
import { EXAMPLE_LIKE, fixture } from '../../helpers/site.js';

const env = { ARDSITE_DEV_KEY: '1', CI: '1' };
const G = 'https://www.googleapis.com/auth/';
let example: SiteBuild;
let valid: SiteBuild;

beforeAll(async () => {
  [example, valid] = await Promise.all([
    prepareBuild({ root: EXAMPLE_LIKE, env }).then((p) => p.site),
    prepareBuild({ root: fixture('content-valid'), env }).then((p) => p.site),
  ]);
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON read back from the artifacts
type Json = any;
const json = (site: SiteBuild, path: string): Json =>
  JSON.parse(new TextDecoder().decode(site.artifacts.get(path)!.bytes));
const ramParams = (card: Json): Json =>
  card.capabilities.extensions.find((e: { params: object }) => 'resourceAccesses' in e.params).params;

describe('permission sets of the example (travel-reservation, itinerary-concierge)', () => {
  it('travel-reservation asks only calendar.events, optional, for calendar.events.insert', () => {
    const file = json(example, '/agents/travel-reservation/permissions.json');
    expect(file.permissionSet).toEqual({
      optional: [
        {
          resource: 'google-calendar-events-v3',
          scheme: 'oauth2',
          type: 'oauth2',
          scopes: [`${G}calendar.events`],
        },
      ],
    });
    const insert = file.accesses.find(
      (a: { access: string }) => a.access === 'create-personal-calendar-event-for-flight-reservation',
    );
    expect(insert).toMatchObject({
      specOperation: 'calendar.events.insert',
      leastPrivilege: { grantsCount: 12 },
    });
    // The holidays API and the weather tool resolve, and need no scope.
    expect(file.accesses.map((a: { specOperation: string }) => a.specOperation)).toEqual([
      'calendar.events.insert',
      'calendar.events.insert',
      'GET /PublicHolidays',
      'lookup_weather',
    ]);
    expect(file.specs.map((s: { format: string }) => s.format)).toEqual([
      'google-discovery',
      'openapi',
      'mcp-tools',
    ]);
  });

  it('itinerary-concierge: a read at RECOMMENDED, a write at OPTIONAL, and its skill set', () => {
    const file = json(example, '/agents/itinerary-concierge/permissions.json');
    expect(file.permissionSet.recommended[0].scopes).toEqual([`${G}calendar.events.readonly`]);
    expect(file.permissionSet.optional[0].scopes).toEqual([`${G}calendar.events`]);
    expect(Object.keys(file.skillPermissionSets)).toEqual(['plan-itinerary']);
  });

  it('the card pins the file by digest, beside the RAM in its extension params, and the entry carries the scopes', () => {
    for (const slug of ['travel-reservation', 'itinerary-concierge']) {
      const bytes = example.artifacts.get(`/agents/${slug}/permissions.json`)!.bytes;
      const card = json(example, `/agents/${slug}/agent-card.json`);
      const params = ramParams(card);
      expect(params.permissions.digest).toBe(`sha256:${createHash('sha256').update(bytes).digest('hex')}`);
      expect(params.permissions.file).toBe(`https://agents.example.com/agents/${slug}/permissions.json`);
      expect(params.permissions.permissionSet).toEqual(
        json(example, `/agents/${slug}/permissions.json`).permissionSet,
      );
      // Never inside the RAM object.
      expect(JSON.stringify(card.resourceAccessManifest)).not.toContain('permission');
    }
    const entry = example.agents.find((a) => a.agent.slug === 'itinerary-concierge')!.entry;
    expect(entry['ram:scopes']).toEqual([`${G}calendar.events`, `${G}calendar.events.readonly`]);
    expect(entry['ram:requiredScopes']).toBeUndefined();
  });

  it('an agent without any access has no permission file', () => {
    expect(example.artifacts.has('/agents/travel-policy-helper/permissions.json')).toBe(false);
  });

  it('_headers types every permission file with one rule', () => {
    const headers = new TextDecoder().decode(example.artifacts.get('/_headers')!.bytes);
    expect(headers).toMatch(/\/agents\/:slug\/permissions\.json\n {2}Content-Type: application\/json\n/);
    expect(headers).not.toContain('/agents/travel-reservation/permissions.json');
  });
});

describe('content-valid: an OpenAPI notes service', () => {
  it('REQUIRED read and write: notes (the write needs it; the read is covered by it)', () => {
    const file = json(valid, '/agents/note-taker/permissions.json');
    // notes.list alone would take notes.readonly; notes.create needs notes, at the same necessity, and
    // notes.list accepts notes too: notes.readonly would be redundant.
    expect(file.permissionSet).toEqual({
      required: [{ resource: 'notes-api', scheme: 'oauth', type: 'oauth2', scopes: ['notes'] }],
    });
    const entry = valid.agents.find((a) => a.agent.slug === 'note-taker')!.entry;
    expect(entry['ram:requiredScopes']).toEqual(['notes']);
    expect(entry['ram:scopes']).toEqual(['notes']);
    // The skill that maps both accesses gets the same set.
    expect(file.skillPermissionSets).toEqual({ 'take-notes': file.permissionSet });
  });
});

describe('permissionSet', () => {
  const access = (
    necessity: 'REQUIRED' | 'RECOMMENDED' | 'OPTIONAL',
    resource: string,
    scopes: string[],
    identityUsed: 'END_USER' | 'AGENT' = 'END_USER',
  ): AccessPermission => ({
    access: `${resource}-${necessity}`,
    operation: 'op',
    resource,
    necessity,
    identityUsed,
    specOperation: 'op',
    readOnly: false,
    leastPrivilege: {
      requirements: [{ scheme: 's', type: 'oauth2' as const, scopes }],
      grantsCount: 1,
      alsoGrants: [],
    },
  });

  it('keeps each scope at the strongest necessity that needs it, and keeps resources apart', () => {
    expect(
      permissionSet([
        access('OPTIONAL', 'a', ['x', 'y']),
        access('REQUIRED', 'a', ['x']),
        access('RECOMMENDED', 'b', ['x']),
      ]),
    ).toEqual({
      required: [{ resource: 'a', scheme: 's', type: 'oauth2', scopes: ['x'] }],
      recommended: [{ resource: 'b', scheme: 's', type: 'oauth2', scopes: ['x'] }],
      optional: [{ resource: 'a', scheme: 's', type: 'oauth2', scopes: ['y'] }],
    });
  });

  it('leaves out what the agent does with its own account (identityUsed AGENT)', () => {
    expect(permissionSet([access('REQUIRED', 'a', ['x'], 'AGENT'), access('OPTIONAL', 'a', ['y'])])).toEqual({
      optional: [{ resource: 'a', scheme: 's', type: 'oauth2', scopes: ['y'] }],
    });
  });

  it('lists a scheme without scopes (an API key) once, at its strongest necessity', () => {
    expect(permissionSet([access('OPTIONAL', 'a', []), access('RECOMMENDED', 'a', [])])).toEqual({
      recommended: [{ resource: 'a', scheme: 's', type: 'oauth2' }],
    });
  });

  // Google Calendar v3 (test/fixtures/specs/calendar-api.json): a Discovery method's scopes are
  // alternatives of one scope each.
  const calendar = (
    id: string,
    necessity: AccessPermission['necessity'],
    least: string,
    accepted: string[],
  ): AccessPermission => ({
    access: id,
    operation: id,
    resource: 'calendar',
    necessity,
    identityUsed: 'END_USER',
    specOperation: id,
    readOnly: id.endsWith('.list'),
    accepted: accepted.map((s) => ({ requirements: [{ scheme: 'oauth2', type: 'oauth2', scopes: [s] }] })),
    leastPrivilege: {
      requirements: [{ scheme: 'oauth2', type: 'oauth2', scopes: [least] }],
      grantsCount: 1,
      alsoGrants: [],
    },
  });
  const list = (necessity: AccessPermission['necessity']) =>
    calendar('calendar.events.list', necessity, `${G}calendar.events.readonly`, [
      `${G}calendar.events.readonly`,
      `${G}calendar.events`,
    ]);
  const insert = (necessity: AccessPermission['necessity']) =>
    calendar('calendar.events.insert', necessity, `${G}calendar.events`, [`${G}calendar.events`]);
  const grant = (...scopes: string[]) => [{ resource: 'calendar', scheme: 'oauth2', type: 'oauth2', scopes }];

  it('drops a scope the others of its necessity make redundant: list and insert REQUIRED ask calendar.events only', () => {
    expect(permissionSet([list('REQUIRED'), insert('REQUIRED')])).toEqual({
      required: grant(`${G}calendar.events`),
    });
    // The order of the accesses does not matter.
    expect(permissionSet([insert('REQUIRED'), list('REQUIRED')])).toEqual({
      required: grant(`${G}calendar.events`),
    });
  });

  it('keeps the read-only scope at a stronger necessity than the write: list REQUIRED, insert OPTIONAL', () => {
    expect(permissionSet([list('REQUIRED'), insert('OPTIONAL')])).toEqual({
      required: grant(`${G}calendar.events.readonly`),
      optional: grant(`${G}calendar.events`),
    });
  });

  it('a weaker access that a stronger grant already satisfies adds nothing: insert REQUIRED, list OPTIONAL', () => {
    expect(permissionSet([list('OPTIONAL'), insert('REQUIRED')])).toEqual({
      required: grant(`${G}calendar.events`),
    });
  });

  it('an access without accepted alternatives keeps its least privilege; the others may still go', () => {
    const { accepted: _, ...bare } = list('REQUIRED');
    // Without `accepted`, the list counts by its least privilege: both scopes stay, as before.
    expect(permissionSet([bare, insert('REQUIRED')])).toEqual({
      required: grant(`${G}calendar.events`, `${G}calendar.events.readonly`),
    });
    // A redundant scope of an access with alternatives goes beside one without them.
    expect(permissionSet([bare, list('REQUIRED'), insert('REQUIRED')])).toEqual({
      required: grant(`${G}calendar.events`, `${G}calendar.events.readonly`),
    });
    expect(permissionSet([access('REQUIRED', 'a', ['x']), access('REQUIRED', 'a', ['y'])])).toEqual({
      required: [{ resource: 'a', scheme: 's', type: 'oauth2', scopes: ['x', 'y'] }],
    });
  });

  it('drops a scheme whose scopes all go, and keeps one an access needs without scopes', () => {
    // The reader takes OAuth `r` (its least privilege) or the API key; the writer needs the API key.
    const key = { scheme: 'key', type: 'apiKey' as const, scopes: [] };
    const oauth = { scheme: 'oauth', type: 'oauth2' as const, scopes: ['r'] };
    const reader: AccessPermission = {
      ...access('REQUIRED', 'a', []),
      access: 'reader',
      accepted: [{ requirements: [oauth] }, { requirements: [key] }],
      leastPrivilege: { requirements: [oauth], grantsCount: 1, alsoGrants: [] },
    };
    const writer: AccessPermission = {
      ...access('REQUIRED', 'a', []),
      access: 'writer',
      accepted: [{ requirements: [key] }],
      leastPrivilege: { requirements: [key], grantsCount: 2, alsoGrants: [] },
    };
    expect(permissionSet([reader, writer])).toEqual({
      required: [{ resource: 'a', scheme: 'key', type: 'apiKey' }],
    });
    // Alone, the reader keeps its least privilege.
    expect(permissionSet([reader])).toEqual({
      required: [{ resource: 'a', scheme: 'oauth', type: 'oauth2', scopes: ['r'] }],
    });
  });
});

describe('the benchmark publisher (bench/synthetic.ts) carries stored specs', () => {
  it('checks clean, and its build resolves every REST and MCP operation and derives permission sets', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'ardsite-synthetic-'));
    try {
      await writeSyntheticPublisher(dir, { agents: 12 });
      const timer = new PhaseTimer();
      const { site, warnings } = await prepareBuild({ root: dir, env, timer });
      expect(warnings).toEqual([]);
      expect(site.model.permissions!.specs.size).toBe(9); // 12 resources, 3 of them A2A
      expect(site.agents.filter((a) => a.permissions?.permissionSet).length).toBeGreaterThan(0);
      expect(Object.keys(timer.toJSON())).toEqual(
        expect.arrayContaining(['specs/resolution', 'permissions']),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
