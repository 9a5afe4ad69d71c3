/**
 * The one bounded YAML reader (src/core/util/bounded-yaml.ts): aliases that expand a small text into a huge
 * document are refused before anything walks it, at the file and the line of the first alias, for content
 * (SourceDoc.parseYaml) and stored specs (readSpecDocument) alike, whatever the YAML style (block, flow,
 * JSON-style keys), and an alias inside the value it names is refused too. Anchors used for sharing still
 * read.
 */
import { describe, expect, it } from 'vitest';
import {
  ALIAS_ALLOWANCE,
  assertAliasesBounded,
  expandedWeight,
  readYaml,
  readYamlLeniently,
  YamlReadError,
} from '../../../src/core/util/bounded-yaml.js';
import { SourceDoc } from '../../../src/core/model/source.js';
import type { Diagnostic } from '../../../src/core/util/errors.js';
import { readSpecDocument } from '../../../src/core/ram/parse-spec.js';

/** `levels` anchors, each a list of nine aliases of the one before: 9^levels leaves in a few hundred bytes. */
function blockBomb(levels: number): string {
  let text = 'a0: &a0 [x, x, x, x, x, x, x, x, x]\n';
  for (let i = 1; i <= levels; i++)
    text += `a${i}: &a${i} [${Array(9)
      .fill(`*a${i - 1}`)
      .join(', ')}]\n`;
  return text;
}

/**
 * The same as one flow mapping of JSON-style keys, every anchor and alias right after a colon
 * (`"a1":&a1 {"k0":*a0,…}`), where no space or bracket precedes them.
 */
function flowBomb(levels: number): string {
  const pairs = ['"a0":&a0 ["x","x","x","x","x","x","x","x","x"]'];
  for (let i = 1; i <= levels; i++) {
    const aliases = Array.from({ length: 9 }, (_, k) => `"k${k}":*a${i - 1}`).join(',');
    pairs.push(`"a${i}":&a${i} {${aliases}}`);
  }
  return `{${pairs.join(', ')}}\n`;
}

/** The findings of a parse, or a word when it was read: a test failure never prints an expanded bomb. */
function findingsOf(parsed: SourceDoc | Diagnostic[]): Diagnostic[] | string {
  return Array.isArray(parsed) ? parsed : 'read as a document';
}

describe('expandedWeight', () => {
  it('weighs a graph as the tree it expands to, each shared value once', () => {
    const shared = { k: ['ab', 1, null] };
    const graph = { one: shared, two: [shared, shared] };
    const tree: unknown = JSON.parse(JSON.stringify(graph));
    expect(expandedWeight(graph)).toEqual(expandedWeight(tree));
    // 1 (root) + 3+3 (keys) + [shared: 1 + 1 (key) + (1 + 3 + 1 + 1)] + [list: 1 + 2 × shared]
    const sharedWeight = 1 + 1 + (1 + 3 + 1 + 1);
    expect(expandedWeight(tree).weight).toBe(1 + 6 + sharedWeight + (1 + 2 * sharedWeight));
  });

  it('finds a value that contains itself', () => {
    const loop: unknown[] = [];
    loop.push({ again: loop });
    expect(expandedWeight(loop).cyclic).toBe(true);
  });
});

describe('content: SourceDoc.parseYaml', () => {
  it('refuses an ordinary alias bomb with a finding at its first alias, never a thrown error', () => {
    const text = blockBomb(9);
    // 9^10 values expanded: a reader that expanded the bomb before weighing it would not end before the
    // test's timeout, which fails it; no clock is read here.
    const parsed = findingsOf(SourceDoc.parseYaml('content/resources/bomb.yaml', text));
    expect(parsed).toEqual([
      expect.objectContaining({
        code: 'YAML_ALIASES_TOO_LARGE',
        severity: 'error',
        file: 'content/resources/bomb.yaml',
        line: 2,
      }),
    ]);
  });

  it('refuses a bomb whose anchors follow JSON-style keys in a flow mapping, at the front matter line', () => {
    // Front matter starts on line 2 of the Markdown file (lineOffset 1).
    const parsed = findingsOf(SourceDoc.parseYaml('content/agents/bomb.md', flowBomb(5), 1));
    expect(parsed).toEqual([
      expect.objectContaining({ code: 'YAML_ALIASES_TOO_LARGE', file: 'content/agents/bomb.md', line: 2 }),
    ]);
  });

  it('refuses an alias inside the value it names', () => {
    const parsed = findingsOf(
      SourceDoc.parseYaml('content/entries/loop.yaml', 'name: x\nloop: &l\n  again: *l\n'),
    );
    expect(parsed).toEqual([
      expect.objectContaining({ code: 'YAML_ALIASES_TOO_LARGE', file: 'content/entries/loop.yaml', line: 3 }),
    ]);
  });

  it('still reads anchors used for sharing', () => {
    const parsed = SourceDoc.parseYaml('c.yaml', 'base: &b {x: 1, y: [1, 2]}\nother: *b\n');
    expect(Array.isArray(parsed)).toBe(false);
    expect((parsed as SourceDoc).value).toEqual({ base: { x: 1, y: [1, 2] }, other: { x: 1, y: [1, 2] } });
  });

  it('allows aliases up to twice the text plus the allowance, and no further', () => {
    // One anchored string repeated: each alias adds the string's weight.
    const word = 'w'.repeat(998);
    const allowed = (n: number) => `s: &s ${word}\nl: [${Array(n).fill('*s').join(', ')}]\n`;
    const fits = Math.floor(ALIAS_ALLOWANCE / 1000);
    expect(Array.isArray(SourceDoc.parseYaml('c.yaml', allowed(fits)))).toBe(false);
    expect(findingsOf(SourceDoc.parseYaml('c.yaml', allowed(fits * 3)))).toEqual([
      expect.objectContaining({ code: 'YAML_ALIASES_TOO_LARGE' }),
    ]);
  });
});

describe('stored specs: readSpecDocument', () => {
  it('refuses a YAML spec whose aliases expand it, naming the file and the line', () => {
    const text = `openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\nx-bomb:\n${blockBomb(9).replace(/^/gm, '  ')}`;
    // As above: expanding the bomb would outlast the test's timeout.
    let thrown: unknown;
    try {
      readSpecDocument(new TextEncoder().encode(text), 'content/specs/bomb.yaml');
    } catch (error) {
      thrown = error;
    }
    expect(thrown === undefined ? 'read as a document' : thrown).toBeInstanceOf(YamlReadError);
    expect(thrown).toMatchObject({ code: 'YAML_ALIASES_TOO_LARGE', line: 6 });
    expect((thrown as Error).message).toMatch(/^content\/specs\/bomb\.yaml:6: /);
  });

  it('places a YAML syntax error at its line', () => {
    expect(() =>
      readSpecDocument(new TextEncoder().encode('openapi: 3.0.3\n  bad: [\n'), 'content/specs/x.yaml'),
    ).toThrow(/content\/specs\/x\.yaml: neither JSON nor YAML at line 2, column \d+: /);
  });
});

describe('readYaml and readYamlLeniently', () => {
  it('gives the same refusal to every caller', () => {
    expect(() => readYaml(flowBomb(6), 'content/publisher.yaml')).toThrow(
      expect.objectContaining({ code: 'YAML_ALIASES_TOO_LARGE', line: 1 }),
    );
    expect(readYamlLeniently(`${blockBomb(9)}dup: 1\ndup: 2\n`)).toBeUndefined();
  });
});

describe('assertAliasesBounded', () => {
  it('does not walk the value of a text without an alias indicator (no `*`), which holds no alias', () => {
    // A value no text without `*` can parse to (it contains itself): refused when walked, so passing it
    // shows the walk was skipped; the same value beside a text with an alias is walked and refused.
    const cyclic: Record<string, unknown> = { name: 'a' };
    cyclic.self = cyclic;
    expect(() => assertAliasesBounded(cyclic, 'name: a\nself: {}\n', 'content/agents/a.md')).not.toThrow();
    expect(() => assertAliasesBounded(cyclic, 'name: &n a\nself: *n\n', 'content/agents/a.md')).toThrow(
      expect.objectContaining({ code: 'YAML_ALIASES_TOO_LARGE' }),
    );
  });
});
