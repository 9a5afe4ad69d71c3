/**
 * The nesting bound of Markdown bodies (src/core/content/markdown-nesting.ts): the shapes that crash or
 * stall the page renderer are refused at their line, prose is not, and a body within the limit renders.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { markdownNesting } from '../../../src/core/content/markdown-nesting.js';
import { renderMarkdown } from '../../../src/core/pages/markdown.js';
import { REPO_ROOT } from '../../helpers/site.js';

const n = 2000;
/** Bodies of a few KB that ended the build in a RangeError or took seconds per KB before the bound. */
const HOSTILE: Record<string, string> = {
  'block quotes': `${'>'.repeat(n)} x\n`,
  'nested lists': Array.from({ length: 300 }, (_, i) => `${'  '.repeat(i)}- x`).join('\n'),
  'lists of quotes': Array.from({ length: 300 }, (_, i) => `${'- > '.repeat(i)}x`).join('\n'),
  emphasis: `${'*a '.repeat(n)}x${'*'.repeat(n)}`,
  'mixed emphasis': `${'_*'.repeat(n)}x${'*_'.repeat(n)}`,
  'link brackets': `${'['.repeat(n)}x${'](y)'.repeat(n)}`,
  strikethrough: `${'~~a '.repeat(n)}x${'~~'.repeat(n)}`,
};

describe('markdownNesting', () => {
  it.each(Object.entries(HOSTILE))('refuses %s nested past the limit', (_, body) => {
    const at = markdownNesting(`Intro.\n\n${body}`, 64);
    expect(at?.depth).toBeGreaterThan(64);
    expect(at?.line).toBeGreaterThanOrEqual(3);
  });

  it('lets prose through: this repository’s own Markdown, escaped delimiters, snake_case, **bold** and [links](x)', () => {
    for (const file of ['README.md', 'docs/security.md', 'docs/trust-profile.md', 'BENCHMARKS.md']) {
      expect(markdownNesting(readFileSync(path.join(REPO_ROOT, file), 'utf8'), 64)).toBeUndefined();
    }
    const prose = Array.from({ length: 200 }, () => 'a **b** _c_ ~~d~~ [e](f) g_h_i \\* \\[ 2 * 3').join(' ');
    expect(markdownNesting(prose, 64)).toBeUndefined();
    // An upper bound: three quotes, a list item and an ordered one, counted as 7 levels.
    expect(markdownNesting('ok\n> > > - 1. x', 4)).toEqual({ line: 2, depth: 7, kind: 'block' });
  });

  it('a body just within the limit renders, and the renderer fails on it at 2,000 levels', async () => {
    const within = `${'>'.repeat(60)} x\n\n${'*a '.repeat(60)}x${'*'.repeat(60)}\n`;
    expect(markdownNesting(within, 64)).toBeUndefined();
    expect(await renderMarkdown(within)).toContain('<blockquote>');
    await expect(renderMarkdown(HOSTILE['block quotes']!)).rejects.toThrow(/call stack/);
  });
});
