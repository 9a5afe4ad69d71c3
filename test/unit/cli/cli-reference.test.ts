/**
 * docs/reference/cli.md is generated from the commander declaration of `ardsite` (src/cli/program.ts): the
 * file on disk is exactly what `npm run reference` writes now, so a changed option, description or
 * command makes this test fail until the page is written again.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  cliReferencePath,
  formattedCliReference,
  renderCliReference,
} from '../../../scripts/lib/cli-reference.js';
import { CLI_COMMANDS } from '../../helpers/cli.js';
import { REPO_ROOT } from '../../helpers/site.js';

describe('the CLI reference page', () => {
  it('has a section per command, with the help commander generates for it', () => {
    const page = renderCliReference();
    const sections = [...page.matchAll(/^## ardsite ([a-z]+)$/gm)].map((m) => m[1]);
    expect(sections.sort()).toEqual([...CLI_COMMANDS].sort());
    expect(page).toContain('Usage: ardsite build [options]');
    expect(page).toMatch(/--out <folder> +the output folder, relative to the project folder/);
  });

  it('docs/reference/cli.md is what npm run reference writes', async () => {
    const onDisk = await readFile(cliReferencePath(REPO_ROOT), 'utf8').catch(() => '');
    expect(
      onDisk === (await formattedCliReference(REPO_ROOT)),
      'docs/reference/cli.md is stale: run npm run reference',
    ).toBe(true);
  });
});
