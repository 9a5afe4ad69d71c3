/**
 * `npm run specs` as a publisher runs it (scripts/specs.ts, src/core/ram/store.ts): the real CLI (in a
 * child process in the first test, for its exit code; after it in the test's process through the same
 * error boundary, test/helpers/cli.ts `runCommandInProcess`) over a small project whose user-owned REST
 * resource names its spec by URL, served by a local server reached through `--resolve` (as `npm run
 * verify` reaches a site); a spec kept as a local file; `--update` reporting what changed; and builds refusing a stored copy that no longer matches.
 */
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { loadAndCheck } from '../../src/core/content/index.js';
import { runCommandInProcess, runScript } from '../helpers/cli.js';
import { agentMd, makeSite, removeSites, REPO_ROOT } from '../helpers/site.js';
import { parsePrivateKey } from '../../src/core/trust/key-checks.js';
import { NOTES_OPENAPI } from '../helpers/specs.js';
import { startStaticServer, type StaticServer } from '../helpers/static-server.js';

const API_HOST = 'api.notes.example';
const digestOf = (bytes: string | Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/** The notes resource, its spec named by URL. */
const RESOURCE = `# The user's notes service.
id: notes
interactionProtocol: REST
owner: CONSUMER
displayName: Notes
description: The user's notes.
spec:
  specUrl: https://${API_HOST}/openapi.json # the service's own description
operations:
  - id: notes-list
    description: Lists notes.
    apiOperationSpec: { operationId: notes.list, httpMethod: GET }
`;

const AGENT = agentMd({
  resourceAccesses: [
    {
      id: 'read',
      operation: 'notes-list',
      identityUsed: 'END_USER',
      accessJustification: 'To find your notes.',
      necessity: 'REQUIRED',
    },
  ],
});

let served: string;
let server: StaticServer;
let resolve: string;

beforeAll(async () => {
  served = await mkdtemp(path.join(os.tmpdir(), 'ardsite-specs-served-'));
  server = await startStaticServer({ root: served });
  resolve = `--resolve=${API_HOST}=${server.url}`;
});
afterAll(async () => {
  await server?.close();
  await rm(served, { recursive: true, force: true });
  await removeSites();
});

const serveSpec = async (doc: unknown) => {
  const text = `${JSON.stringify(doc, null, 2)}\n`;
  await writeFile(path.join(served, 'openapi.json'), text);
  return text;
};

describe('npm run specs', () => {
  it('fetches the spec once, stores it, pins it in the resource file (comments kept), and check is clean', async () => {
    const text = await serveSpec(NOTES_OPENAPI);
    const root = await makeSite({ 'content/resources/notes.yaml': RESOURCE, 'content/agents/a.md': AGENT });
    const before = await loadAndCheck({ root });
    expect(before.diagnostics.map((d) => d.code)).toEqual(['SPEC_NOT_STORED']);

    const dry = await runScript('specs.ts', '--root', root, resolve, '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(
      'would store  content/resources/notes.yaml  notes  content/specs/notes.json',
    );
    expect(await readFile(path.join(root, 'content/resources/notes.yaml'), 'utf8')).toBe(RESOURCE);

    const run = await runScript('specs.ts', '--root', root, resolve);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.split('\n').at(-2)).toBe(`1 spec of ${root}/ to store: 1 written, 0 failed`);
    expect(await readFile(path.join(root, 'content/specs/notes.json'), 'utf8')).toBe(text);
    expect(await readFile(path.join(root, 'content/resources/notes.yaml'), 'utf8')).toBe(
      RESOURCE.replace(
        'operations:\n',
        `specFile: content/specs/notes.json\nspecDigest: ${digestOf(text)}\noperations:\n`,
      ),
    );
    expect((await loadAndCheck({ root })).diagnostics).toEqual([]);

    // Once: a second run fetches nothing (the server's copy is gone, and it is not asked).
    await rm(path.join(served, 'openapi.json'));
    const again = await runScript('specs.ts', '--root', root, resolve);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(
      `Every spec of ${root}/ is stored and pinned: nothing to do (--update fetches them again).\n`,
    );
  });

  it('a spec it cannot fetch fails, and says how to store a copy kept by hand; that copy is then pinned', async () => {
    await rm(path.join(served, 'openapi.json'), { force: true });
    const root = await makeSite({ 'content/resources/notes.yaml': RESOURCE, 'content/agents/a.md': AGENT });
    const run = await runCommandInProcess('specs.ts', '--root', root, resolve);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'to store a copy you have, save it under content/specs/, write its path as specFile at the top level of the resource’s file (beside spec:, not under it), and run npm run specs again to pin it',
    );
    // Done as it says: the copy is pinned, and check is clean.
    const text = `${JSON.stringify(NOTES_OPENAPI, null, 2)}\n`;
    await mkdir(path.join(root, 'content/specs'), { recursive: true });
    await writeFile(path.join(root, 'content/specs/notes-copy.json'), text);
    const file = path.join(root, 'content/resources/notes.yaml');
    await writeFile(
      file,
      RESOURCE.replace('operations:\n', 'specFile: content/specs/notes-copy.json\noperations:\n'),
    );
    const pinned = await runCommandInProcess('specs.ts', '--root', root, resolve);
    expect(pinned.code, pinned.stderr).toBe(0);
    expect(await readFile(file, 'utf8')).toContain(`specDigest: ${digestOf(text)}`);
    expect((await loadAndCheck({ root })).diagnostics).toEqual([]);
  });

  it('--update fetches again and reports what changed: a scope gone, a least privilege broadened', async () => {
    await serveSpec(NOTES_OPENAPI);
    const root = await makeSite({ 'content/resources/notes.yaml': RESOURCE, 'content/agents/a.md': AGENT });
    expect((await runCommandInProcess('specs.ts', '--root', root, resolve)).code).toBe(0);
    const changed = structuredClone(NOTES_OPENAPI);
    changed.paths['/notes'].get.security = [{ oauth: ['notes'] }];
    delete (
      changed.components.securitySchemes.oauth.flows.authorizationCode.scopes as Record<string, string>
    )['notes.readonly'];
    const text = await serveSpec(changed);
    const update = await runCommandInProcess('specs.ts', '--root', root, resolve, '--update');
    expect(update.code, update.stderr).toBe(0);
    expect(update.stdout).toContain(
      `stored  content/resources/notes.yaml  notes  content/specs/notes.json  ${digestOf(text)}`,
    );
    expect(update.stdout).toContain('  scope removed: notes.readonly\n');
    expect(update.stdout).toContain('  least privilege of notes.list: oauth notes.readonly → oauth notes\n');
    expect((await loadAndCheck({ root })).diagnostics).toEqual([]);
  });

  it('pins a spec kept as a local file (an MCP tools/list result)', async () => {
    const tools = '{ "tools": [ { "name": "lookup", "annotations": { "readOnlyHint": true } } ] }\n';
    const resource = `id: lookup
interactionProtocol: MCP
owner: CONSUMER
displayName: Lookup
description: A lookup tool.
spec: { resourcePath: lookup }
specFile: content/specs/lookup.json
operations:
  - id: lookup-call
    description: Looks something up.
    readOnly: true
`;
    const root = await makeSite({
      'content/resources/lookup.yaml': resource,
      'content/specs/lookup.json': tools,
      'content/agents/a.md': agentMd({
        resourceAccesses: [
          {
            id: 'look',
            operation: 'lookup-call',
            identityUsed: 'END_USER',
            accessJustification: 'To look it up.',
            necessity: 'OPTIONAL',
          },
        ],
      }),
    });
    expect((await loadAndCheck({ root })).diagnostics.map((d) => d.code)).toEqual(['SPEC_DIGEST_MISMATCH']);
    const run = await runCommandInProcess('specs.ts', '--root', root);
    expect(run.code, run.stderr).toBe(0);
    expect(await readFile(path.join(root, 'content/resources/lookup.yaml'), 'utf8')).toContain(
      `specFile: content/specs/lookup.json\nspecDigest: ${digestOf(tools)}\n`,
    );
    expect((await loadAndCheck({ root })).diagnostics).toEqual([]);

    // A stored copy changed by hand is refused until it is pinned again.
    await writeFile(path.join(root, 'content/specs/lookup.json'), tools.replace('true', 'false'));
    expect((await loadAndCheck({ root })).diagnostics).toMatchObject([
      {
        code: 'SPEC_DIGEST_MISMATCH',
        severity: 'error',
        file: 'content/resources/lookup.yaml',
        path: 'specDigest',
      },
    ]);
  });

  it('refuses what is not a spec (nothing written), and a specFile outside the project', async () => {
    await writeFile(path.join(served, 'openapi.json'), '{"swagger": "2.0"}\n');
    const root = await makeSite({ 'content/resources/notes.yaml': RESOURCE, 'content/agents/a.md': AGENT });
    const run = await runCommandInProcess('specs.ts', '--root', root, resolve);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('not an OpenAPI 3.x document');
    expect(await readFile(path.join(root, 'content/resources/notes.yaml'), 'utf8')).toBe(RESOURCE);

    const outside = await mkdtemp(path.join(os.tmpdir(), 'ardsite-outside-'));
    onTestFinished(() => rm(outside, { recursive: true, force: true }));
    await writeFile(path.join(outside, 'spec.json'), JSON.stringify(NOTES_OPENAPI));
    const jailed = await makeSite({
      // Climbs out of the project to the absolute folder (more ../ than the project is deep is harmless).
      'content/resources/notes.yaml': RESOURCE.replace(
        'operations:',
        `specFile: ${'../'.repeat(12)}${outside.slice(1)}/spec.json\nspecDigest: sha256:${'0'.repeat(64)}\noperations:`,
      ),
      'content/agents/a.md': AGENT,
    });
    expect((await loadAndCheck({ root: jailed })).diagnostics).toMatchObject([
      {
        code: 'FILE_NOT_IN_SPECS_FOLDER',
        file: 'content/resources/notes.yaml',
        message: expect.stringContaining('must name a file under content/specs/'),
      },
    ]);
  });

  // A served document that is both an OpenAPI description and a private JWK, and a resource id (as an
  // imported card may give) or a specFile (as a pull request may write) that points at the key file.
  it('never writes the stored spec outside content/specs/: a hostile id, specFile or linked folder cannot replace the key', async () => {
    const jwk = JSON.parse(
      await readFile(path.join(REPO_ROOT, 'test/vectors/test-key-es256.jwk.json'), 'utf8'),
    );
    delete jwk.kid;
    await serveSpec({ ...NOTES_OPENAPI, ...jwk });
    const KEY = '.ardsite/keys/signing.jwk.json';
    const hostileId = RESOURCE.replace('id: notes', 'id: ../../.ardsite/keys/signing.jwk');
    const byId = await makeSite({
      'content/resources/notes.yaml': hostileId,
      'content/agents/a.md': AGENT,
      [KEY]: 'THE KEY\n',
    });
    const run = await runCommandInProcess('specs.ts', '--root', byId, resolve);
    expect(run.code, run.stdout).toBe(1);
    expect(run.stderr).toContain('cannot name a file');
    expect(await readFile(path.join(byId, KEY), 'utf8')).toBe('THE KEY\n');

    const bySpecFile = await makeSite({
      'content/resources/notes.yaml': RESOURCE.replace('operations:', `specFile: ${KEY}\noperations:`),
      'content/agents/a.md': AGENT,
      [KEY]: 'THE KEY\n',
    });
    const update = await runCommandInProcess('specs.ts', '--root', bySpecFile, resolve, '--update');
    expect(update.code).toBe(2);
    expect(update.stderr).toContain('FILE_NOT_IN_SPECS_FOLDER');
    expect(await readFile(path.join(bySpecFile, KEY), 'utf8')).toBe('THE KEY\n');

    const byLink = await makeSite({
      'content/resources/notes.yaml': RESOURCE.replace('id: notes', 'id: signing.jwk'),
      'content/agents/a.md': AGENT,
      [KEY]: 'THE KEY\n',
    });
    await symlink('../.ardsite/keys', path.join(byLink, 'content/specs'));
    const linked = await runCommandInProcess('specs.ts', '--root', byLink, resolve);
    expect(linked.code, linked.stdout).toBe(1);
    expect(linked.stderr).toContain('FAIL');
    expect(await readFile(path.join(byLink, KEY), 'utf8')).toBe('THE KEY\n');
  });

  it('the key reader refuses a JWK that is also another document (members that are not JWK members)', async () => {
    const jwk = JSON.parse(
      await readFile(path.join(REPO_ROOT, 'test/vectors/test-key-es256.jwk.json'), 'utf8'),
    );
    const both = JSON.stringify({ ...NOTES_OPENAPI, ...jwk });
    expect(() => parsePrivateKey(both, 'content/specs/notes.json')).toThrow(/not a JSON Web Key member/);
    expect(parsePrivateKey(JSON.stringify(jwk), 'key').alg).toBe('ES256');
  });
});
