/**
 * The agent body's Markdown (src/core/pages/markdown.ts): raw HTML is shown as text, unsafe links lose
 * their target, headings sit below the page's own.
 */
import { describe, expect, it } from 'vitest';
import { isSafeUrl, renderMarkdown } from '../../../src/core/pages/markdown.js';

describe('renderMarkdown', () => {
  it('renders Markdown', async () => {
    expect(await renderMarkdown('Some **bold** and a [link](https://example.com/).')).toBe(
      '<p>Some <strong>bold</strong> and a <a href="https://example.com/">link</a>.</p>',
    );
  });

  it('shows raw HTML, block or inline, as text and never as elements', async () => {
    const html = await renderMarkdown(
      '<script>alert(1)</script>\n\nText <b>bold</b> <img src=x onerror=alert(2)>\n\n</script><script>alert(3)</script>',
    );
    expect(html).not.toMatch(/<script|<b>|<img/i);
    expect(html).toContain('&#x3C;script>alert(1)&#x3C;/script>');
    expect(html).toMatch(/^<p>&#x3C;script>/);
  });

  it('turns a javascript: link into its text and keeps safe ones', async () => {
    const html = await renderMarkdown(
      '[bad](javascript:alert(1)) [bad2]( JaVaScRiPt:alert(1)) [ok](/agents/) [mail](mailto:a@example.com)',
    );
    expect(html).not.toMatch(/javascript/i);
    expect(html).toContain('bad');
    expect(html).toContain('<a href="/agents/">ok</a>');
    expect(html).toContain('<a href="mailto:a@example.com">mail</a>');
  });

  it('shifts headings so the body starts at h3 and keeps their order', async () => {
    expect(await renderMarkdown('# A\n\n## B\n\n### C')).toMatch(
      /<h3[^>]*>A<\/h3>\s*<h4[^>]*>B<\/h4>\s*<h5[^>]*>C<\/h5>/,
    );
    expect(await renderMarkdown('## B\n\n#### D')).toMatch(/<h3[^>]*>B<\/h3>\s*<h5[^>]*>D<\/h5>/);
  });

  it('classifies URLs', () => {
    expect(isSafeUrl('https://a.example/')).toBe(true);
    expect(isSafeUrl('/relative')).toBe(true);
    expect(isSafeUrl('#frag')).toBe(true);
    expect(isSafeUrl('data:text/html,<script>')).toBe(false);
    expect(isSafeUrl('java\nscript:alert(1)')).toBe(false);
    expect(isSafeUrl('vbscript:x')).toBe(false);
  });
});
