/**
 * Every relative link of the project's Markdown (README.md, CONTRIBUTING.md, CHANGELOG.md, BENCHMARKS.md and
 * every page under docs/) resolves: to a file or folder of the repository, and a `#heading` to a heading
 * of its own page. Checked by remark-validate-links, offline; links to other sites are not fetched.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { remark } from 'remark';
import remarkValidateLinks from 'remark-validate-links';
import { VFile } from 'vfile';
import { describe, expect, it } from 'vitest';

const engineRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Pages that other work adds beside this one (the architecture page, the generated CLI reference): a
 * link to one of them is allowed while it is absent, and nothing else is. Empty this list once they exist.
 */
const PAGES_ADDED_ELSEWHERE = ['docs/architecture.md', 'docs/reference/cli.md'];

/** True when `finding` is a link to one of {@link PAGES_ADDED_ELSEWHERE} and that page is absent. */
function addedElsewhere(finding: string): boolean {
  const file = finding.slice(0, finding.indexOf(':'));
  const target = /Cannot find file `([^`#]+)/.exec(finding)?.[1];
  if (target === undefined) return false;
  const page = relative(engineRoot, resolve(engineRoot, dirname(file), target));
  return PAGES_ADDED_ELSEWHERE.includes(page) && !existsSync(join(engineRoot, page));
}

/** The Markdown files whose links are checked, relative to the repository. */
function markdownFiles(): string[] {
  const docs = readdirSync(join(engineRoot, 'docs'), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.md'))
    .map((e) => relative(engineRoot, join(e.parentPath, e.name)));
  return ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', 'BENCHMARKS.md', ...docs.sort()];
}

/** `file:line: reason` for each link of the Markdown `text` (at `path`, under `root`) that does not resolve. */
async function brokenLinks(root: string, path: string, text: string): Promise<string[]> {
  const file = new VFile({ path: join(root, path), value: text, cwd: root });
  await remark().use(remarkValidateLinks, { repository: false, root }).process(file);
  return file.messages.map((m) => `${path}:${m.line ?? '?'}: ${m.reason}`);
}

describe('links in the documentation', () => {
  it('every relative link of README, CONTRIBUTING, CHANGELOG, BENCHMARKS and docs/ resolves', async () => {
    const files = markdownFiles();
    expect(files).toContain('docs/getting-started.md');
    const broken: string[] = [];
    for (const path of files)
      broken.push(...(await brokenLinks(engineRoot, path, readFileSync(join(engineRoot, path), 'utf8'))));
    expect(broken.filter((b) => !addedElsewhere(b))).toEqual([]);
  });

  it('reports a link to a missing file and to a missing heading, with its line', async () => {
    const text =
      '# Title\n\n[ok](README.md) [page](docs/no-such-page.md)\n\n[here](#title) [there](#no-such-heading)\n';
    expect(await brokenLinks(engineRoot, 'planted.md', text)).toEqual([
      'planted.md:3: Cannot find file `docs/no-such-page.md`',
      'planted.md:5: Cannot find heading for `#no-such-heading`',
    ]);
  });
});
