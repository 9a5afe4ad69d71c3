/**
 * The line of a YAML syntax error (YAML 1.2) is the line at fault, in a plain `.yaml` file and in an
 * agent's front matter alike: a flow sequence or mapping left open (§7.4) or a quoted scalar without its
 * closing quote (§7.3) is named where it opens, not where the parser gave up a line (or more) later; the
 * front matter's lines count from the file's first `---`.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { loadAndCheck } from '../../../src/core/content/index.js';
import { agentMd, lineOf, makeSite, removeSites } from '../../helpers/site.js';

afterAll(removeSites);

/** The `YAML_INVALID` diagnostics of a site made of `files`, as `file:line:column`. */
async function yamlErrors(files: Record<string, string>): Promise<string[]> {
  const { diagnostics } = await loadAndCheck({ root: await makeSite(files) });
  return diagnostics.filter((d) => d.code === 'YAML_INVALID').map((d) => `${d.file}:${d.line}:${d.column}`);
}

/** An agent file whose front matter has `broken` written just before its closing `---`, then `after`. */
function agentWith(broken: string, after = 'tags: [x]\n'): string {
  return agentMd().replace(/\n---\n/, `\n${broken}\n${after}---\n`);
}

describe('the line of a YAML syntax error', () => {
  it.each([
    ['an unclosed flow sequence', 'keywords: [notes, summaries'],
    ['an unclosed flow mapping', 'extra: {a: 1'],
    ['an unclosed double quote', 'summary: "notes for you'],
    ['an unclosed single quote', "summary: 'notes for you"],
  ])('is where %s opens, in front matter', async (_, broken) => {
    const text = agentWith(broken);
    const line = lineOf(text, broken);
    const column = broken.indexOf(': ') + 3;
    expect(await yamlErrors({ 'content/agents/helper.md': text })).toEqual([
      `content/agents/helper.md:${line}:${column}`,
    ]);
  });

  it('is where an unclosed flow sequence opens at the end of the front matter', async () => {
    const text = agentWith('keywords: [notes, summaries', '');
    expect(await yamlErrors({ 'content/agents/helper.md': text })).toEqual([
      `content/agents/helper.md:${lineOf(text, 'keywords:')}:11`,
    ]);
  });

  it('is the line of the bad indentation itself, counted from the file’s first line', async () => {
    const text = agentWith('  oops: 1', '');
    expect(await yamlErrors({ 'content/agents/helper.md': text })).toEqual([
      `content/agents/helper.md:${lineOf(text, 'oops: 1')}:1`,
    ]);
  });

  it('is where an unclosed flow sequence or quote opens, in a plain .yaml file', async () => {
    const resource = 'id: notes\ndisplayName: "Notes\ninteractionProtocol: REST\nowner: CONSUMER\n';
    const flow = 'id: notes\ntags: [a, b\ninteractionProtocol: REST\nowner: CONSUMER\n';
    expect(await yamlErrors({ 'content/resources/notes.yaml': resource })).toEqual([
      'content/resources/notes.yaml:2:14',
    ]);
    expect(await yamlErrors({ 'content/resources/notes.yaml': flow })).toEqual([
      'content/resources/notes.yaml:2:7',
    ]);
  });
});
