/**
 * docs/guides/astro-integration.md tells a host site what to add to its package.json for a quiet
 * `npm install` on Node 20 and npm 11: the same `overrides` and `allowScripts` that `ardsite new` writes
 * (src/core/project/new-project.ts), so the guide cannot drift from them.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ALLOW_SCRIPTS, PROJECT_OVERRIDES } from '../../../src/core/project/new-project.js';
import { REPO_ROOT } from '../../helpers/site.js';

describe('the Astro guide’s package.json fields', () => {
  it('are the overrides and allowScripts of a new project', async () => {
    const guide = await readFile(path.join(REPO_ROOT, 'docs', 'guides', 'astro-integration.md'), 'utf8');
    const block = /```json\n([\s\S]*?)```/.exec(guide)?.[1];
    expect(block).toBeDefined();
    expect(JSON.parse(block!)).toEqual({ overrides: PROJECT_OVERRIDES, allowScripts: PROJECT_ALLOW_SCRIPTS });
  });
});
