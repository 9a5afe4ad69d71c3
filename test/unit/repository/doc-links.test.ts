/**
 * Every relative link of the project's Markdown (README.md, CONTRIBUTING.md, CHANGELOG.md, BENCHMARKS.md and
 * every page under docs/) resolves: to a file or folder of the repository, and a `#heading` to a heading of
 * the page it names, this one or another. Checked offline by remark-validate-links, run over all the pages
 * at once by unified-engine (which is what lets it check headings in other pages); links to other sites are
 * not fetched.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { remark } from 'remark';
import remarkValidateLinks from 'remark-validate-links';
import { engine } from 'unified-engine';
import { describe, expect, it } from 'vitest';

const engineRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** The Markdown files whose links are checked, relative to `root`: the top-level ones and all of docs/. */
function markdownFiles(root: string): string[] {
  const docs = readdirSync(join(root, 'docs'), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.md'))
    .map((e) => relative(root, join(e.parentPath, e.name)));
  const top = ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', 'BENCHMARKS.md'].filter((f) =>
    existsSync(join(root, f)),
  );
  return [...top, ...docs.sort()];
}

/**
 * `file:line: reason` for each link of `files` (relative to `root`) that does not resolve.
 * @throws Error when unified-engine itself fails (a file it cannot read).
 */
async function brokenLinks(root: string, files: string[]): Promise<string[]> {
  const context = await new Promise<{
    files: { path: string; messages: { line?: number; reason: string }[] }[];
  }>((done, fail) =>
    engine(
      {
        processor: remark(),
        // unified-engine hands the plugin its FileSet as a second argument (how headings of other pages
        // get checked), which unified's `Plugin` type does not declare.
        plugins: [[remarkValidateLinks as never, { repository: false, root }]],
        files,
        cwd: root,
        extensions: ['md'],
        out: false,
        quiet: true,
        color: false,
        detectConfig: false,
        detectIgnore: false,
        streamError: new PassThrough(),
      },
      (error, _code, result) => (error ? fail(error) : done(result as never)),
    ),
  );
  return context.files.flatMap((f) =>
    f.messages.map((m) => `${relative(root, resolve(root, f.path))}:${m.line ?? '?'}: ${m.reason}`),
  );
}

describe('links in the documentation', () => {
  it('every relative link of README, CONTRIBUTING, CHANGELOG, BENCHMARKS and docs/ resolves', async () => {
    const files = markdownFiles(engineRoot);
    expect(files).toContain('docs/getting-started.md');
    expect(await brokenLinks(engineRoot, files)).toEqual([]);
  });

  it('reports a missing file, a missing heading here and a missing heading in another page, with the line', async () => {
    const root = mkdtempSync(join(tmpdir(), 'doc-links-'));
    try {
      mkdirSync(join(root, 'docs'));
      writeFileSync(join(root, 'docs/page.md'), '# Page\n\n## Kept heading\n');
      writeFileSync(
        join(root, 'README.md'),
        '# Title\n\n[ok](docs/page.md#kept-heading) [gone](docs/no-such-page.md)\n\n' +
          '[here](#title) [not here](#no-such-heading) [moved](docs/page.md#moved-heading)\n',
      );
      expect((await brokenLinks(root, markdownFiles(root))).sort()).toEqual([
        'README.md:3: Cannot find file `docs/no-such-page.md`',
        'README.md:5: Cannot find heading for `#moved-heading` in `docs/page.md`',
        'README.md:5: Cannot find heading for `#no-such-heading`',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
