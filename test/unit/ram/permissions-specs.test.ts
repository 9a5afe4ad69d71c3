/**
 * Operations resolved against real specs (test/fixtures/specs/, copied from ../shared/testdata/specs) and
 * their least-privilege authorisation. The expected answers were computed by hand from the documents
 * (counting, per scope, the methods that list it), not by src/core.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSpec } from '../../../src/core/ram/parse-spec.js';
import { resolveOperation } from '../../../src/core/ram/resolve.js';
import { leastPrivilege, type SpecIndex } from '../../../src/core/model/spec-index.js';
import type { RamOperation, RamResource } from '../../../src/core/schema/ram.js';

const SPECS = path.resolve(import.meta.dirname, '../../fixtures/specs');
const load = (file: string): Promise<SpecIndex> =>
  parseSpec(new Uint8Array(readFileSync(path.join(SPECS, file))), file);

const G = 'https://www.googleapis.com/auth/';

function rest(resourcePath: string | undefined, api: RamOperation['apiOperationSpec']) {
  const resource: RamResource = {
    id: 'r',
    interactionProtocol: 'REST',
    owner: 'CONSUMER',
    displayName: 'R',
    description: 'R.',
    ...(resourcePath ? { spec: { resourcePath } } : {}),
  };
  const operation: RamOperation = { id: 'op', resource: 'r', description: 'Op.', apiOperationSpec: api };
  return { resource, operation };
}

/** The least-privilege scopes of the operation `operationId` of `index`. */
function least(index: SpecIndex, operationId: string) {
  const op = index.operations.find((o) => o.id === operationId)!;
  return leastPrivilege(index, op)!;
}

describe('Google Calendar v3 Discovery document', () => {
  it('reads its 37 methods and 5 scopes with their descriptions', async () => {
    const index = await load('calendar-api.json');
    expect(index.format).toBe('google-discovery');
    expect(index.operations).toHaveLength(37);
    expect(index.schemes.get('oauth2')!.scopes.get(`${G}calendar.events`)).toBe(
      'View and edit events on all your calendars',
    );
  });

  it('calendar.events.insert: calendar.events, which grants 12 methods', async () => {
    const lp = least(await load('calendar-api.json'), 'calendar.events.insert');
    expect(lp.requirements).toEqual([{ scheme: 'oauth2', type: 'oauth2', scopes: [`${G}calendar.events`] }]);
    expect(lp.grantsCount).toBe(12);
    expect(lp.alsoGrants).toHaveLength(11);
    expect(lp.alsoGrants).toContain('calendar.events.delete');
    expect(lp.alsoGrants).not.toContain('calendar.calendars.delete');
  });

  it('calendar.events.list: calendar.events.readonly, which grants 5 methods', async () => {
    const lp = least(await load('calendar-api.json'), 'calendar.events.list');
    expect(lp.requirements[0]!.scopes).toEqual([`${G}calendar.events.readonly`]);
    expect(lp.alsoGrants).toEqual([
      'calendar.channels.stop',
      'calendar.events.get',
      'calendar.events.instances',
      'calendar.events.watch',
    ]);
  });

  it('resolves by operationId, and by resourcePath + httpMethod (the seed fallback)', async () => {
    const index = await load('calendar-api.json');
    const byId = rest(undefined, { operationId: 'calendar.events.insert', httpMethod: 'POST' });
    expect(resolveOperation(byId.resource, byId.operation, undefined, index)).toMatchObject({
      found: { id: 'calendar.events.insert' },
      problems: [],
    });
    const byPath = rest('/calendar/v3/calendars/{calendarId}/events', { httpMethod: 'GET' });
    expect(resolveOperation(byPath.resource, byPath.operation, undefined, index).found?.id).toBe(
      'calendar.events.list',
    );
  });

  it('refuses an unknown operationId with a did-you-mean, and a method the spec disagrees with', async () => {
    const index = await load('calendar-api.json');
    const typo = rest(undefined, { operationId: 'calendar.event.insert', httpMethod: 'POST' });
    expect(resolveOperation(typo.resource, typo.operation, undefined, index).problems).toMatchObject([
      {
        code: 'SPEC_OPERATION_UNRESOLVED',
        severity: 'error',
        message: expect.stringContaining('did you mean "calendar.events.insert"'),
      },
    ]);
    const wrong = rest(undefined, { operationId: 'calendar.events.insert', httpMethod: 'PUT' });
    expect(resolveOperation(wrong.resource, wrong.operation, undefined, index).problems).toMatchObject([
      { code: 'SPEC_HTTP_METHOD_MISMATCH', severity: 'error' },
    ]);
    // No operationId: a path of the spec with a method it does not have there is the method's error.
    const byPath = rest('/calendar/v3/calendars/{calendarId}/events', { httpMethod: 'PATCH' });
    expect(resolveOperation(byPath.resource, byPath.operation, undefined, index).problems).toEqual([
      {
        code: 'SPEC_HTTP_METHOD_MISMATCH',
        severity: 'error',
        field: 'apiOperationSpec.httpMethod',
        message: expect.stringMatching(
          /^operation "\S+" says PATCH \/calendar\/v3\/calendars\/\{calendarId\}\/events, but the stored .+ has only GET, POST there$/,
        ),
      },
    ]);
    // readOnly: true on an operation the spec says writes, found by its operationId alone: a warning.
    const write = rest(undefined, { operationId: 'calendar.events.insert' });
    expect(resolveOperation(write.resource, write.operation, true, index).problems).toMatchObject([
      { code: 'SPEC_READ_WRITE_MISMATCH', severity: 'warning', field: 'readOnly' },
    ]);
    // Beside the author's own POST, the content check reports it (RAM_READ_ONLY_WRITE_METHOD): not twice.
    const post = rest(undefined, { operationId: 'calendar.events.insert', httpMethod: 'POST' });
    expect(resolveOperation(post.resource, post.operation, true, index).problems).toEqual([]);
  });
});

describe('Gmail v1 and Tasks v1 Discovery documents', () => {
  it('gmail.users.messages.send: gmail.send, which grants only itself', async () => {
    const lp = least(await load('gmail-api.json'), 'gmail.users.messages.send');
    expect(lp.requirements[0]!.scopes).toEqual([`${G}gmail.send`]);
    expect(lp).toMatchObject({ grantsCount: 1, alsoGrants: [] });
  });

  it('gmail.users.messages.list: gmail.metadata (10 methods), not gmail.readonly (28)', async () => {
    const lp = least(await load('gmail-api.json'), 'gmail.users.messages.list');
    expect(lp.requirements[0]!.scopes).toEqual([`${G}gmail.metadata`]);
    expect(lp.grantsCount).toBe(10);
  });

  it('gmail resolves a resourcePath written without servicePath', async () => {
    const index = await load('gmail-api.json');
    const { resource, operation } = rest('/gmail/v1/users/{userId}/messages/send', { httpMethod: 'POST' });
    expect(resolveOperation(resource, operation, undefined, index).found?.id).toBe(
      'gmail.users.messages.send',
    );
  });

  it('tasks: a read gets tasks.readonly, which grants reads only; a write gets tasks', async () => {
    const index = await load('tasks-api.json');
    expect(least(index, 'tasks.tasks.list')).toMatchObject({
      requirements: [{ scopes: [`${G}tasks.readonly`] }],
      grantsCount: 4,
    });
    expect(least(index, 'tasks.tasks.insert')).toMatchObject({
      requirements: [{ scopes: [`${G}tasks`] }],
      grantsCount: 14,
    });
  });
});

describe('OpenAPI documents', () => {
  it('Petstore 3.0.4: getPetById takes the API key (2 operations), not OAuth (8)', async () => {
    const index = await load('openapi.yaml');
    expect(index.schemes.get('petstore_auth')!.scopes.get('read:pets')).toBe('read your pets');
    expect(least(index, 'getPetById')).toEqual({
      requirements: [{ scheme: 'api_key', type: 'apiKey', scopes: [] }],
      grantsCount: 2,
      alsoGrants: ['getInventory'],
    });
  });

  it('Petstore: addPet needs both scopes of its one requirement (OpenAPI: all of them)', async () => {
    const lp = least(await load('openapi.yaml'), 'addPet');
    expect(lp.requirements).toEqual([
      { scheme: 'petstore_auth', type: 'oauth2', scopes: ['read:pets', 'write:pets'] },
    ]);
    expect(lp.grantsCount).toBe(8);
  });

  it('Petstore: an operation without security needs no authorisation', async () => {
    const index = await load('openapi.yaml');
    expect(least(index, 'placeOrder')).toBeUndefined();
  });

  it('Spotify 3.0.3: resolves despite a broken $ref elsewhere; user-library-read grants 41 operations', async () => {
    const index = await load('official-spotify-open-api.yml');
    expect(index.operations).toHaveLength(96);
    expect(least(index, 'get-users-saved-tracks')).toMatchObject({
      requirements: [{ scheme: 'oauth_2_0', scopes: ['user-library-read'] }],
      grantsCount: 41,
    });
    const { resource, operation } = rest('/me/tracks', { httpMethod: 'PUT' });
    expect(resolveOperation(resource, operation, undefined, index).found?.id).toBe('save-tracks-user');
  });

  it('OpenAPI 3.1: a $ref path item (components.pathItems), global security and per-operation override', async () => {
    const doc = {
      openapi: '3.1.0',
      info: { title: 'Notes', version: '1' },
      security: [{ oidc: ['notes.read'] }],
      paths: {
        '/notes': { $ref: '#/components/pathItems/Notes' },
        '/public': { get: { operationId: 'public', security: [] } },
      },
      components: {
        pathItems: {
          Notes: {
            get: { operationId: 'listNotes' },
            post: { operationId: 'addNote', security: [{ oidc: ['notes.write'] }, { basic: [] }] },
          },
        },
        securitySchemes: {
          oidc: {
            type: 'openIdConnect',
            openIdConnectUrl: 'https://id.example.test/.well-known/openid-configuration',
          },
          basic: { $ref: '#/components/securitySchemes/basicAuth' },
          basicAuth: { type: 'http', scheme: 'basic' },
        },
      },
    };
    const index = await parseSpec(new TextEncoder().encode(JSON.stringify(doc)), 'notes.json');
    expect(least(index, 'listNotes').requirements).toEqual([
      { scheme: 'oidc', type: 'openIdConnect', scopes: ['notes.read'] },
    ]);
    expect(least(index, 'public')).toBeUndefined();
    expect(index.operations.find((o) => o.id === 'addNote')!.security).toHaveLength(2);
    expect(index.schemes.get('basic')!.type).toBe('http');
  });

  it('refuses a $ref to another file, and a requirement naming an undeclared scheme', async () => {
    const external = {
      openapi: '3.0.3',
      info: { title: 'x', version: '1' },
      paths: { '/a': { $ref: 'other.yaml#/A' } },
    };
    await expect(
      parseSpec(new TextEncoder().encode(JSON.stringify(external)), 'x.json'),
    ).rejects.toMatchObject({
      code: 'SPEC_INVALID',
      message: expect.stringContaining('another file'),
    });
    const undeclared = {
      openapi: '3.0.3',
      info: { title: 'x', version: '1' },
      paths: { '/a': { get: { security: [{ nope: [] }] } } },
    };
    await expect(
      parseSpec(new TextEncoder().encode(JSON.stringify(undeclared)), 'x.json'),
    ).rejects.toMatchObject({
      code: 'SPEC_INVALID',
      message: expect.stringContaining('"nope"'),
    });
  });
});

describe('MCP tools/list', () => {
  it('reads tools with their annotations; resolves a tool by its name in resourcePath', async () => {
    const index = await load('github-tools-list.json');
    expect(index.operations).toMatchObject([
      { id: 'create_issue', readOnly: false, destructive: false, security: [] },
      { id: 'get_file_contents', readOnly: true, security: [] },
    ]);
    expect(index.operations[1]!.destructive).toBeUndefined();
    expect(index.operations[0]!.description).toBe(
      'Create a new issue in a GitHub repository with a title and optional body.',
    );
    const resource: RamResource = {
      id: 'gh',
      interactionProtocol: 'MCP',
      owner: 'CONSUMER',
      displayName: 'GitHub',
      description: 'Tools.',
      spec: { resourcePath: 'get_file_content' },
    };
    const operation: RamOperation = { id: 'gh-call', resource: 'gh', description: 'Reads a file.' };
    expect(resolveOperation(resource, operation, true, index).problems).toMatchObject([
      {
        code: 'SPEC_OPERATION_UNRESOLVED',
        message: expect.stringContaining('did you mean "get_file_contents"'),
      },
    ]);
    resource.spec = { resourcePath: 'get_file_contents' };
    expect(resolveOperation(resource, operation, true, index)).toMatchObject({ problems: [] });
    // Not marked readOnly, but the tool says it only reads: a warning.
    expect(resolveOperation(resource, operation, undefined, index).problems).toMatchObject([
      { code: 'SPEC_READ_WRITE_MISMATCH', severity: 'warning' },
    ]);
  });

  it('refuses a document of none of the three kinds', async () => {
    await expect(parseSpec(new TextEncoder().encode('{"swagger": "2.0"}'), 's.json')).rejects.toMatchObject({
      code: 'SPEC_INVALID',
    });
  });
});
