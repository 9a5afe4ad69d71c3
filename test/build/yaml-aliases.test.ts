/**
 * `npm run check` over a project whose YAML holds alias bombs (src/core/util/bounded-yaml.ts): an ordinary one
 * in a resource file, one written as a flow mapping of JSON-style keys in an agent's front matter, and one
 * in a stored spec that a resource pins. The real CLI in a child process: every bomb is one finding at
 * its file and line, in one run, a non-zero exit and no stack trace, in seconds.
 */
import { createHash } from 'node:crypto';
import { afterAll, expect, it } from 'vitest';
import { runScript } from '../helpers/cli.js';
import { agentMd, lineOf, makeSite, removeSites } from '../helpers/site.js';

afterAll(removeSites);

/** `levels` anchors after the first, each naming nine aliases of the one before, in block style. */
function blockBomb(levels: number, indent = ''): string {
  let text = `${indent}a0: &a0 [x, x, x, x, x, x, x, x, x]\n`;
  for (let i = 1; i <= levels; i++)
    text += `${indent}a${i}: &a${i} [${Array(9)
      .fill(`*a${i - 1}`)
      .join(', ')}]\n`;
  return text;
}

/** The same as a flow mapping of JSON-style keys, every anchor and alias right after a colon. */
function flowBomb(levels: number): string {
  const pairs = ['"a0":&a0 ["x","x","x","x","x","x","x","x","x"]'];
  for (let i = 1; i <= levels; i++) {
    const aliases = Array.from({ length: 9 }, (_, k) => `"k${k}":*a${i - 1}`).join(',');
    pairs.push(`"a${i}":&a${i} {${aliases}}`);
  }
  return `{${pairs.join(', ')}}`;
}

const NOTES_ACCESS = {
  resourceAccesses: [
    {
      id: 'read',
      operation: 'notes-list',
      identityUsed: 'END_USER',
      accessJustification: 'To find your notes.',
      necessity: 'REQUIRED',
    },
  ],
};

/**
 * Runs `npm run check -- --json` on `root`: exit code, findings, and no stack trace. A check that expanded
 * a bomb would not end before the test's timeout, which fails it; no clock is read here.
 */
async function checkJson(root: string): Promise<Array<Record<string, unknown>>> {
  const run = await runScript('check.ts', '--root', root, '--json');
  expect(run.code).not.toBe(0);
  expect(run.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
  return (JSON.parse(run.stdout) as { diagnostics: Array<Record<string, unknown>> }).diagnostics;
}

it('check reports alias bombs in front matter and a resource file at their lines, in one run, without a stack trace', async () => {
  const agent = agentMd({ name: 'Bomb' }).replace('---\n', `---\nx-extra: ${flowBomb(9)}\n`);
  const root = await makeSite({
    'content/agents/bomb.md': agent,
    'content/resources/plain.yaml': `id: plain\ninteractionProtocol: REST\nowner: THIRD_PARTY\ndisplayName: Plain\ndescription: d.\nbomb:\n${blockBomb(9, '  ')}`,
  });
  const bombs = (await checkJson(root)).filter((d) => d.code === 'YAML_ALIASES_TOO_LARGE');
  expect(bombs).toEqual([
    expect.objectContaining({ file: 'content/agents/bomb.md', line: lineOf(agent, 'x-extra:') }),
    expect.objectContaining({ file: 'content/resources/plain.yaml', line: 8 }),
  ]);
}, 90_000);

it('check reports a stored spec of aliases at the spec line of the resource, naming the spec file and line', async () => {
  const spec = `openapi: 3.0.3\ninfo: {title: Notes, version: '1'}\npaths: {}\nx-bomb:\n${blockBomb(9, '  ')}`;
  const digest = `sha256:${createHash('sha256').update(spec).digest('hex')}`;
  const root = await makeSite({
    'content/agents/notes.md': agentMd(NOTES_ACCESS),
    'content/resources/notes.yaml': `id: notes\ninteractionProtocol: REST\nowner: CONSUMER\ndisplayName: Notes\ndescription: The user's notes.\nspecFile: content/specs/notes.yaml\nspecDigest: ${digest}\noperations:\n  - id: notes-list\n    description: Lists notes.\n    apiOperationSpec: { operationId: notes.list, httpMethod: GET }\n`,
    'content/specs/notes.yaml': spec,
  });
  const findings = await checkJson(root);
  expect(findings).toEqual([
    expect.objectContaining({
      code: 'YAML_ALIASES_TOO_LARGE',
      file: 'content/resources/notes.yaml',
      message: expect.stringContaining(`content/specs/notes.yaml:${lineOf(spec, '  a1:')}:`),
    }),
  ]);
}, 90_000);
