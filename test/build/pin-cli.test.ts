/**
 * `npm run pin` as a publisher runs it (scripts/pin.ts, src/core/content/pin.ts): the real CLI (in a child
 * process for its exit codes, else in the test's process through the same error boundary) over a small
 * project whose own entries point outside the site, their artifacts served by a local server reached
 * through `--resolve`, as `npm run verify` reaches a site. Those artifacts are on another origin than the
 * publisher's, so each must declare its entry (ARD draft §6.2), as the verifier will require of the bytes
 * pinned.
 */
import { createHash } from 'node:crypto';
import { chmod, lstat, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDigest } from '../../src/core/content/pin.js';
import { runCommandInProcess, runScript } from '../helpers/cli.js';
import { makeSite, removeSites } from '../helpers/site.js';
import { startStaticServer, type StaticServer } from '../helpers/static-server.js';

/**
 * Runs a command of the CLI in this process (test/helpers/cli.ts `runCommandInProcess`: the same error
 * boundary and exit codes, without starting Node for each run); never throws on a non-zero exit. The
 * first test and the test of bad usage run the real CLI in a child process ({@link runScript}), for its
 * exit codes 0 and 2.
 */
const cli = runCommandInProcess;
/** The summary line of a run's stdout (its last line). */
const summary = (stdout: string) => stdout.split('\n').at(-2);

const FILES_HOST = 'files.example.test';
/** The publisher's DID (test/helpers/site.ts DEFAULT_PUBLISHER). */
const DID = 'did:web:agents.example.test';
const identifierOf = (name: string) => `urn:air:agents.example.test:tools:${name}`;

/** An entry file of the site's own domain whose artifact is served by `FILES_HOST`. */
function entryYaml(name: string, extra = ''): string {
  return `# ${name}: an MCP server of ours, hosted elsewhere.
identifier: urn:air:agents.example.test:tools:${name}
displayName: ${name} tools
type: application/mcp-server-card+json
url: https://${FILES_HOST}/cards/${name}.json
${extra}version: 1.0.0
description: Tools of the tests.
tags: [tests, mcp]
representativeQueries:
  - first question of the tests
  - second question of the tests
`;
}

const digestOf = (bytes: string | Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

let served: string;
let server: StaticServer;
let resolve: string;

beforeAll(async () => {
  served = await mkdtemp(path.join(os.tmpdir(), 'ardsite-pin-served-'));
  await writeFile(path.join(served, 'placeholder'), '');
  server = await startStaticServer({ root: served });
  resolve = `--resolve=${FILES_HOST}=${server.url}`;
});
afterAll(async () => {
  await server?.close();
  await rm(served, { recursive: true, force: true });
  await removeSites();
});

async function serve(name: string, text: string): Promise<void> {
  const dir = path.join(served, 'cards');
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, `${name}.json`), text);
}

describe('npm run pin', () => {
  it('writes the digest of the bytes served right after url, and check stops warning ARD_UNPINNED', async () => {
    const card = `{"name":"alpha","version":"1.0.0","identifier":"${identifierOf('alpha')}"}\n`;
    await serve('alpha', card);
    const root = await makeSite({ 'content/entries/alpha.yaml': entryYaml('alpha') });
    const before = await runCommandInProcess('check.ts', '--root', root);
    expect(before.stdout).toContain('[ARD_UNPINNED]');

    const pinned = await runScript('pin.ts', '--root', root, resolve);
    expect(pinned.code, pinned.stderr).toBe(0);
    expect(pinned.stdout).toContain(`pinned  content/entries/alpha.yaml  ${digestOf(card)}`);
    expect(summary(pinned.stdout)).toBe(`1 entry of ${root}/ to pin: 1 written, 0 failed`);
    const text = await readFile(path.join(root, 'content/entries/alpha.yaml'), 'utf8');
    // Only the digest line is new; comments, order and flow lists are as written.
    expect(text).toBe(entryYaml('alpha', `digest: ${digestOf(card)}\n`));
    const after = await runCommandInProcess('check.ts', '--root', root);
    expect(after.code).toBe(0);
    expect(after.stdout).not.toContain('ARD_UNPINNED');

    const again = await runScript('pin.ts', '--root', root, resolve);
    expect(again.code).toBe(0);
    expect(summary(again.stdout)).toBe(
      `Every entry of ${root}/ that points outside the site has a digest: nothing to pin (--all fetches them again).`,
    );
  });

  it('--all fetches again and updates a digest whose artifact changed; --dry-run writes nothing', async () => {
    const v1 = `{"v":1,"publisher":"${DID}"}\n`;
    const v2 = `{"v":2,"publisher":"${DID}"}\n`;
    await serve('beta', v1);
    const root = await makeSite({
      'content/entries/beta.yaml': entryYaml('beta', `digest: ${digestOf(v1)} # pinned by hand\n`),
    });
    const same = await cli('pin.ts', '--root', root, '--all', resolve);
    expect(same.code).toBe(0);
    expect(same.stdout).toContain(`same  content/entries/beta.yaml  ${digestOf(v1)}`);

    await serve('beta', v2);
    const file = path.join(root, 'content/entries/beta.yaml');
    const dry = await cli('pin.ts', '--root', root, '--all', '--dry-run', resolve);
    expect(dry.stdout).toContain(
      `would pin  content/entries/beta.yaml  ${digestOf(v2)} (was ${digestOf(v1)})`,
    );
    expect(summary(dry.stdout)).toBe(`1 entry of ${root}/ to pin: 1 would be written, 0 failed`);
    expect(await readFile(file, 'utf8')).toContain(digestOf(v1));

    const updated = await cli('pin.ts', '--root', root, '--all', resolve);
    expect(updated.code).toBe(0);
    const text = await readFile(file, 'utf8');
    expect(text).toContain(`digest: ${digestOf(v2)} # pinned by hand\n`); // its comment kept
    expect(text).not.toContain(digestOf(v1));
  });

  it("leaves other publishers' entries and site paths alone, and fails (exit 1) for an artifact it cannot fetch", async () => {
    const root = await makeSite({
      'content/entries/gone.yaml': entryYaml('gone'),
      'content/entries/theirs.yaml': entryYaml('theirs').replace(
        'urn:air:agents.example.test:',
        'urn:air:other.example.test:',
      ),
      'content/entries/local.yaml': entryYaml('local').replace(
        `https://${FILES_HOST}/cards/local.json`,
        '/cards/local.json',
      ),
      'public/cards/local.json': '{}\n',
    });
    const result = await cli('pin.ts', '--root', root, resolve);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(
        `^FAIL  content/entries/gone\\.yaml  cannot fetch https://${FILES_HOST}/cards/gone\\.json: `,
        'm',
      ),
    );
    expect(result.stdout + result.stderr).not.toMatch(/theirs|local/);
    expect(summary(result.stdout)).toBe(`1 entry of ${root}/ to pin: 0 written, 1 failed`);
    expect(await readFile(path.join(root, 'content/entries/gone.yaml'), 'utf8')).toBe(entryYaml('gone'));
  });

  it('refuses (exit 1) an artifact on another origin that does not declare its entry, writing no digest for it (ARD draft §6.2)', async () => {
    // Near misses the verifier does not take: the identifier inside a URL's path, a longer DID.
    const undeclared = `{"name":"delta","home":"https://${FILES_HOST}/${identifierOf('delta')}","publisher":"${DID}.evil.example"}\n`;
    await serve('delta', undeclared);
    const epsilon = `{"name":"epsilon","description":"Published by ${DID}."}\n`;
    await serve('epsilon', epsilon);
    const root = await makeSite({
      'content/entries/delta.yaml': entryYaml('delta'),
      'content/entries/epsilon.yaml': entryYaml('epsilon'),
    });
    const delta = path.join(root, 'content/entries/delta.yaml');
    const refusal = new RegExp(
      `^FAIL  content/entries/delta\\.yaml  url: https://${FILES_HOST}/cards/delta\\.json is not on https://agents\\.example\\.test ` +
        `and the artifact there declares neither ${identifierOf('delta')} nor ${DID}, as a whole word of its text \\(ARD draft §6\\.2\\); ` +
        `not pinned, .*\\(ARD_ORIGIN_UNBOUND\\): make the artifact contain ${identifierOf('delta')} or ${DID} as a whole word`,
      'm',
    );

    const dry = await cli('pin.ts', '--root', root, '--dry-run', resolve);
    expect(dry.code).toBe(1);
    expect(dry.stderr).toMatch(refusal);
    expect(dry.stdout).not.toContain('delta');

    const result = await cli('pin.ts', '--root', root, resolve);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(refusal);
    expect(result.stdout).not.toContain(digestOf(undeclared));
    // The other entry, whose artifact declares the publisher's DID, is pinned all the same.
    expect(result.stdout).toContain(`pinned  content/entries/epsilon.yaml  ${digestOf(epsilon)}`);
    expect(summary(result.stdout)).toBe(`2 entries of ${root}/ to pin: 1 written, 1 failed`);
    expect(await readFile(delta, 'utf8')).toBe(entryYaml('delta'));

    // --all does not replace a digest already written by hand with the digest of such bytes either.
    const byHand = `sha256:${'0'.repeat(64)}`;
    await writeFile(delta, entryYaml('delta', `digest: ${byHand}\n`));
    const all = await cli('pin.ts', '--root', root, '--all', resolve);
    expect(all.code).toBe(1);
    expect(all.stderr).toMatch(refusal);
    expect(await readFile(delta, 'utf8')).toBe(entryYaml('delta', `digest: ${byHand}\n`));
  });

  it("pins an artifact on another origin that declares its identifier or the publisher's DID as a whole word", async () => {
    // A text artifact naming the DID in a sentence, a JSON one the identifier in a key after decoding.
    const text = `Zeta tools, published by ${DID}.\n`;
    const eta = `{"${identifierOf('eta').replaceAll(':', '\\u003a')}":true}\n`;
    await serve('zeta', text);
    await serve('eta', eta);
    const root = await makeSite({
      'content/entries/zeta.yaml': entryYaml('zeta'),
      'content/entries/eta.yaml': entryYaml('eta'),
    });
    const result = await cli('pin.ts', '--root', root, resolve);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain(`pinned  content/entries/zeta.yaml  ${digestOf(text)}`);
    expect(result.stdout).toContain(`pinned  content/entries/eta.yaml  ${digestOf(eta)}`);
    expect(summary(result.stdout)).toBe(`2 entries of ${root}/ to pin: 2 written, 0 failed`);
    expect(await readFile(path.join(root, 'content/entries/zeta.yaml'), 'utf8')).toBe(
      entryYaml('zeta', `digest: ${digestOf(text)}\n`),
    );
  });

  it('skips a url on the site itself, and refuses content with errors (exit 2), writing nothing', async () => {
    const root = await makeSite({
      'content/entries/self.yaml': entryYaml('self').replace(
        `https://${FILES_HOST}/cards/self.json`,
        'https://agents.example.test/cards/self.json',
      ),
    });
    const skipped = await cli('pin.ts', '--root', root, resolve);
    expect(skipped.code).toBe(0);
    expect(skipped.stdout).toContain(
      'skip  content/entries/self.yaml  the url names this site: write it as the site path "/cards/self.json"',
    );

    const broken = await makeSite({
      'content/entries/alpha.yaml': entryYaml('alpha'),
      'content/entries/bad.yaml': entryYaml('bad', 'digest:\n'),
    });
    const refused = await cli('pin.ts', '--root', broken, resolve);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/content\/entries\/bad\.yaml.*digest/);
    expect(refused.stderr).toMatch(/fix them first \(npm run check\)/);
    expect(await readFile(path.join(broken, 'content/entries/alpha.yaml'), 'utf8')).toBe(entryYaml('alpha'));
  });

  it('keeps the file mode, and never writes through a symbolic link (the file it names is left as it is)', async () => {
    const gamma = `{"g":1,"entry":"${identifierOf('gamma')}"}\n`;
    await serve('gamma', gamma);
    const root = await makeSite({ 'content/entries/gamma.yaml': entryYaml('gamma') });
    await chmod(path.join(root, 'content/entries/gamma.yaml'), 0o640);
    const kept = await cli('pin.ts', '--root', root, resolve);
    expect(kept.code, kept.stderr).toBe(0);
    expect((await stat(path.join(root, 'content/entries/gamma.yaml'))).mode & 0o777).toBe(0o640);

    const linked = await makeSite({ 'content/real/gamma.yaml': entryYaml('gamma') });
    const real = path.join(linked, 'content/real/gamma.yaml');
    await mkdir(path.join(linked, 'content/entries'), { recursive: true });
    await symlink(real, path.join(linked, 'content/entries/gamma.yaml'));
    const result = await cli('pin.ts', '--root', linked, resolve);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('is a symbolic link');
    expect((await lstat(path.join(linked, 'content/entries/gamma.yaml'))).isSymbolicLink()).toBe(true);
    expect(await readFile(real, 'utf8')).toBe(entryYaml('gamma'));
  });

  it('refuses bad usage with exit 2', async () => {
    const root = await makeSite({});
    const [timeout, resolveBad] = await Promise.all([
      runScript('pin.ts', '--root', root, '--timeout', 'soon'),
      runScript('pin.ts', '--root', root, '--resolve', 'nonsense'),
    ]);
    expect(timeout.code).toBe(2);
    expect(timeout.stderr).toMatch(/--timeout expects a positive whole number, got "soon"/);
    expect(resolveBad.code).toBe(2);
    expect(resolveBad.stderr).toMatch(/--resolve/);
  });
});

describe('withDigest', () => {
  const D = `sha256:${'ab'.repeat(32)}`;

  it('adds digest after url, or last without url, and replaces one in place with its comment', () => {
    expect(withDigest('a: 1\nurl: x\nb: 2\n', D, 'f.yaml')).toBe(`a: 1\nurl: x\ndigest: ${D}\nb: 2\n`);
    expect(withDigest('a: 1', D, 'f.yaml')).toBe(`a: 1\ndigest: ${D}\n`);
    expect(withDigest('# c\ndigest: "sha256:old" # kept\nurl: x\n', D, 'f.yaml')).toBe(
      `# c\ndigest: ${D} # kept\nurl: x\n`,
    );
  });

  it('changes nothing but the digest line: CRLF, folded text, indentation, flow lists, comments, numbers', () => {
    const text =
      '\ufeff# c\r\nidentifier: x\r\nurl: https://a.example/x.json # note\r\ndescription: >-\r\n  folded\r\n  text\r\n' +
      'tags:\r\n    - a\r\n    - b\r\nq: [ a, b ]\r\nn: 0x1F\r\n\r\n\r\n# end\r\n';
    expect(withDigest(text, D, 'f.yaml')).toBe(text.replace('# note\r\n', `# note\r\ndigest: ${D}\r\n`));
  });

  it('refuses a file that is not one YAML mapping, naming it and saying what to add by hand', () => {
    expect(() => withDigest('- a\n- b\n', D, 'content/entries/list.yaml')).toThrow(
      `content/entries/list.yaml: it is not one YAML mapping; add "digest: ${D}" to it by hand`,
    );
  });
});
