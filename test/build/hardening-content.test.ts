/**
 * docs/security.md, "Build-side promises and their tests" (DESIGN.md §9 "The project is a jail"): the project
 * is a jail, content is bounded, and `check` reports with file and line whatever `build` would refuse for
 * content reasons. Each case is the fixture test/fixtures/hardening/ with one thing broken; `check` runs in
 * this process (loadAndCheck, what `npm run check` runs), and one build and one `npm run check` run show the
 * commands agree.
 */
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadAndCheck } from '../../src/core/content/index.js';
import type { Diagnostic } from '../../src/core/util/errors.js';
import { publicJwkThumbprint } from '../../src/core/trust/jwk.js';
import {
  buildProject,
  copyProject,
  rememberForRemoval,
  removeProjects,
  TEST_KEY_ES256,
} from '../helpers/build.js';
import { runCommandInProcess } from '../helpers/cli.js';
import { fixture, lineOf } from '../helpers/site.js';

afterAll(removeProjects);

const FIXTURE = fixture('hardening');
const AGENT = 'content/agents/assistant.md';
const RAM = 'content/ram/assistant.json';
const PUBLISHER = 'content/publisher.yaml';
const ENTRY = 'content/entries/guide.yaml';

/** A folder outside every project holding a "secret" a build must never read (removed with the projects). */
const outside = mkdtempSync(path.join(tmpdir(), 'ardsite-outside-'));
rememberForRemoval(outside);
const SECRET = 'root:x:0:0:root:/root:/bin/bash\n';

/** A copy of the fixture with `change` applied; returns its root. */
async function variant(change: (root: string) => Promise<void>): Promise<string> {
  const root = await copyProject(FIXTURE);
  await change(root);
  return root;
}

async function edit(root: string, file: string, fn: (text: string) => string): Promise<void> {
  const abs = path.join(root, file);
  await writeFile(abs, fn(await readFile(abs, 'utf8')));
}

async function check(root: string, env: NodeJS.ProcessEnv = {}): Promise<Diagnostic[]> {
  return (await loadAndCheck({ root, env })).diagnostics.filter((d) => d.severity === 'error');
}

const codes = (ds: Diagnostic[]) => ds.map((d) => d.code);

describe('finding 3: every file the build reads resolves inside the project', () => {
  const secretFile = path.join(outside, 'passwd');

  it('refuses a ramFile that climbs out of the project, at the ramFile line, quoting nothing of the file', async () => {
    await writeFile(secretFile, SECRET);
    // Relative to the copy's own content/agents/ (where the build resolves it), so that it really climbs
    // to the outside file wherever the checkout and the copy live; and the absolute path.
    const relative = (r: string) => path.relative(path.join(r, 'content', 'agents'), secretFile);
    for (const ramFile of [relative, () => secretFile]) {
      const root = await variant((r) =>
        edit(r, AGENT, (t) => t.replace('../ram/assistant.json', ramFile(r))),
      );
      const errors = await check(root);
      const text = await readFile(path.join(root, AGENT), 'utf8');
      expect(errors).toEqual([
        expect.objectContaining({
          code: 'FILE_OUTSIDE_PROJECT',
          file: AGENT,
          path: 'ramFile',
          line: lineOf(text, 'ramFile:'),
        }),
      ]);
      expect(JSON.stringify(errors)).not.toContain('root:x');
    }
  });

  it('refuses a ramFile, an agent file and a public/ file that are symbolic links leaving the project', async () => {
    await writeFile(secretFile, SECRET);
    const root = await variant(async (r) => {
      await writeFile(path.join(r, RAM), '');
      await symlink(secretFile, path.join(r, 'content/ram/linked.json'));
      await edit(r, AGENT, (t) => t.replace('../ram/assistant.json', '../ram/linked.json'));
      await symlink(secretFile, path.join(r, 'content/agents/evil.md'));
      await symlink(secretFile, path.join(r, 'public/passwd.txt'));
      await symlink(outside, path.join(r, 'public/outside'));
    });
    const errors = await check(root);
    const outsideErrors = errors.filter((d) => d.code === 'FILE_OUTSIDE_PROJECT');
    expect(outsideErrors.map((d) => [d.file, d.path])).toEqual([
      [AGENT, 'ramFile'],
      ['content/agents/evil.md', undefined],
      ['public/outside', undefined],
      ['public/passwd.txt', undefined],
    ]);
    expect(JSON.stringify(errors)).not.toContain('root:x');
  });

  it('lets a folder outside the project in when the operator lists it in ARDSITE_ALLOW_OUTSIDE', async () => {
    await writeFile(path.join(outside, 'shared.json'), '{}\n');
    const root = await variant((r) => symlink(outside, path.join(r, 'public/shared')));
    expect(codes(await check(root))).toEqual(['FILE_OUTSIDE_PROJECT']);
    expect(await check(root, { ARDSITE_ALLOW_OUTSIDE: outside })).toEqual([]);
  });

  it('never quotes the bytes of a ramFile that is not JSON', async () => {
    const root = await variant((r) => writeFile(path.join(r, RAM), SECRET));
    const errors = await check(root);
    expect(errors).toEqual([expect.objectContaining({ code: 'JSON_INVALID', file: RAM })]);
    expect(errors[0]!.message).not.toContain('root');
  });
});

/** `{"a":{"a":…}}` nested `depth` levels, with `inner` at the bottom. */
const deepJson = (depth: number, inner = '1') => `${'{"a":'.repeat(depth)}${inner}${'}'.repeat(depth)}`;

describe('findings 4 and 5: content is bounded, and the limits are reported with file, field and line', () => {
  it('reports a 2,000-deep RAM JSON and a 2,000-deep YAML file as CONTENT_TOO_DEEP, with the other files’ faults', async () => {
    const root = await variant(async (r) => {
      await writeFile(path.join(r, RAM), `{\n"resources":\n${deepJson(2000)}\n}\n`);
      await mkdir(path.join(r, 'content/resources'));
      await writeFile(
        path.join(r, 'content/resources/deep.yaml'),
        `id: deep\nx: ${'['.repeat(2000)}${']'.repeat(2000)}\n`,
      );
      await edit(r, ENTRY, (t) => t.replace('version: 1.0.0', 'version: 1.0.0\ncolour: blue'));
    });
    const errors = await check(root);
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'CONTENT_TOO_DEEP', file: RAM, line: 3 }),
        expect.objectContaining({ code: 'CONTENT_TOO_DEEP', file: 'content/resources/deep.yaml' }),
        expect.objectContaining({ code: 'SCHEMA_UNKNOWN_KEY', file: ENTRY }),
      ]),
    );
  });

  it('does not read a content file past limits.fileBytes (a 9 MiB ramFile)', async () => {
    const root = await variant((r) =>
      writeFile(path.join(r, RAM), `{"resources":[],"x":"${'a'.repeat(9 * 1024 * 1024)}"}`),
    );
    const errors = await check(root);
    expect(errors).toEqual([
      expect.objectContaining({ code: 'FILE_TOO_LARGE', file: AGENT, path: 'ramFile' }),
    ]);
    expect(errors[0]!.message).toMatch(/9 MiB|9,437,\d{3} bytes/);
  });

  it('does not wait on a ramFile that is a FIFO (a read would block until a writer came): FILE_UNREADABLE at the field', async () => {
    const root = await variant(async (r) => {
      await rm(path.join(r, RAM));
      execFileSync('mkfifo', [path.join(r, RAM)]);
    });
    const errors = await check(root);
    expect(errors).toEqual([
      expect.objectContaining({ code: 'FILE_UNREADABLE', file: AGENT, path: 'ramFile' }),
    ]);
    expect(errors[0]!.message).toContain('not a regular file');
  });

  it('reports a text past limits.textBytes at its field and line, in YAML front matter and in JSON alike', async () => {
    const long = 'x'.repeat(1024 * 1024 + 1);
    const root = await variant(async (r) => {
      await edit(r, AGENT, (t) =>
        t.replace('description: Reads your calendar to plan your day.', `description: ${long}`),
      );
      await edit(r, RAM, (t) => t.replace('To see what is on your calendar.', long));
    });
    const errors = await check(root);
    const ramText = await readFile(path.join(root, RAM), 'utf8');
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'TEXT_TOO_LONG', file: AGENT, path: 'description', line: 3 }),
        expect.objectContaining({
          code: 'TEXT_TOO_LONG',
          file: RAM,
          path: 'resourceAccesses[0].accessJustification',
          line: lineOf(ramText, '"accessJustification"'),
        }),
      ]),
    );
    expect(errors.filter((d) => d.code === 'TEXT_TOO_LONG')).toHaveLength(2);
  });

  it('reports a Markdown body nested 2,000 levels (2 KB of ">") as CONTENT_TOO_DEEP at its line, with the other faults', async () => {
    // The page renderer ended the build in "RangeError: Maximum call stack size exceeded", naming no
    // file, and check passed; 8 KB of emphasis openers ("*a *a …") did the same.
    const root = await variant(async (r) => {
      await edit(r, AGENT, (t) => `${t}\nFine.\n\n${'>'.repeat(2000)} deep\n`);
      await edit(r, ENTRY, (t) => t.replace('version: 1.0.0', 'version: 1.0.0\ncolour: blue'));
    });
    const agentText = await readFile(path.join(root, AGENT), 'utf8');
    const errors = await check(root);
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'CONTENT_TOO_DEEP', file: AGENT, line: lineOf(agentText, '>>>>') }),
        expect.objectContaining({ code: 'SCHEMA_UNKNOWN_KEY', file: ENTRY }),
      ]),
    );
    const inline = await variant((r) => edit(r, AGENT, (t) => `${t}\n${'*a '.repeat(2000)}x\n`));
    expect(await check(inline)).toEqual([
      expect.objectContaining({
        code: 'CONTENT_TOO_DEEP',
        file: AGENT,
        message: expect.stringMatching(/emphasis/) as string,
      }),
    ]);
  });

  it('takes its limits from publisher.yaml: a higher textBytes admits the text, a lower depth refuses a file', async () => {
    const long = 'x'.repeat(1024 * 1024 + 1);
    const higher = await variant(async (r) => {
      await edit(r, AGENT, (t) =>
        t.replace('description: Reads your calendar to plan your day.', `description: ${long}`),
      );
      await edit(r, PUBLISHER, (t) => `${t}limits:\n  textBytes: 4194304\n`);
    });
    expect(await check(higher)).toEqual([]);
    const lower = await variant((r) => edit(r, PUBLISHER, (t) => `${t}limits:\n  depth: 8\n`));
    await edit(lower, RAM, (t) =>
      t.replace('"necessity": "REQUIRED"', `"necessity": "REQUIRED", "x": ${deepJson(8)}`),
    );
    expect(await check(lower)).toEqual([expect.objectContaining({ code: 'CONTENT_TOO_DEEP', file: RAM })]);
  });
});

describe('finding 8: check reports, with file and line, what build would refuse', () => {
  const RETIRED = JSON.parse(TEST_KEY_ES256) as Record<string, string>;

  async function everyFault(r: string): Promise<void> {
    await edit(r, AGENT, (t) => t.replace('content/attestations/audit.txt', 'content/attestations/gone.txt'));
    await edit(r, PUBLISHER, (t) => `${t}signing:\n  retiredKeys:\n    - jwk: ${JSON.stringify(RETIRED)}\n`);
    await edit(r, ENTRY, (t) => t.replace('url: /docs/guide.json', 'url: /../../etc/hostname'));
    await writeFile(
      path.join(r, 'content/entries/evil.yaml'),
      (await readFile(path.join(r, ENTRY), 'utf8'))
        .replace('docs:guide', 'docs:evil')
        .replace('url: /../../etc/hostname', 'url: /\\evil.example/x.json'),
    );
  }

  it('check: a missing attestation file, a retired key holding d, entry urls /../../etc/hostname and /\\evil', async () => {
    const root = await variant(everyFault);
    const errors = await check(root, { ARDSITE_TRUSTED_KEYS: publicJwkThumbprint(RETIRED as never) });
    expect(errors.map((d) => [d.code, d.file, d.path, d.line])).toEqual([
      [
        'FILE_MISSING',
        AGENT,
        'attestations[0].file',
        await lineIn(root, AGENT, 'file: content/attestations'),
      ],
      ['URL_PATH_INVALID', 'content/entries/evil.yaml', 'url', 4],
      ['URL_PATH_INVALID', ENTRY, 'url', 4],
      [
        'KEY_PRIVATE_PUBLISHED',
        PUBLISHER,
        'signing.retiredKeys[0].jwk',
        await lineIn(root, PUBLISHER, '- jwk:'),
      ],
    ]);
    // The retired key's private member is named, its value never.
    expect(JSON.stringify(errors)).not.toContain(RETIRED.d);
  });

  it('npm run check and npm run build refuse the same project with the same codes', async () => {
    const root = await variant(everyFault);
    const [cli, build] = await Promise.all([
      runCommandInProcess('check.ts', '--root', root, '--json'),
      buildProject(root, { env: { ARDSITE_SIGNING_KEY: TEST_KEY_ES256 } }),
    ]);
    expect(cli.code).toBe(1);
    const reported = (JSON.parse(cli.stdout) as { diagnostics: Diagnostic[] }).diagnostics.map((d) => d.code);
    expect(build.code).toBe(1);
    expect(build.stderr).toContain('[BUILD_CONTENT_INVALID]');
    for (const code of ['FILE_MISSING', 'URL_PATH_INVALID', 'KEY_PRIVATE_PUBLISHED']) {
      expect(reported).toContain(code);
      expect(build.stderr).toContain(`[${code}]`);
    }
    expect(build.stderr).not.toContain(RETIRED.d);
  });
});

async function lineIn(root: string, file: string, needle: string): Promise<number> {
  return lineOf(await readFile(path.join(root, file), 'utf8'), needle);
}
