/**
 * A static build's pages bundle none of the dev server's loading code: src/lib/site.ts imports
 * src/core/build/prepare.ts for the dev server only, and the build's Vite plugin hands Rollup a module
 * that throws in its place.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { devOnlyModulesPlugin, PREPARE_STAND_IN } from '../../../src/core/build/dev-only-modules.js';
import { REPO_ROOT } from '../../helpers/site.js';

type Load = (id: string) => string | undefined;

describe('the build leaves the dev server’s loading code out of the pages’ bundle', () => {
  const plugin = devOnlyModulesPlugin(REPO_ROOT);
  const load = plugin.load as Load;
  const prepare = path.join(REPO_ROOT, 'src', 'core', 'build', 'prepare.ts').split(path.sep).join('/');

  it('loads a stand-in that throws for src/core/build/prepare.ts, in vite build only', async () => {
    expect(plugin).toMatchObject({ apply: 'build', enforce: 'pre' });
    expect(load(prepare)).toBe(PREPARE_STAND_IN);
    const url = `data:text/javascript,${encodeURIComponent(PREPARE_STAND_IN)}`;
    const { prepareBuild } = (await import(url)) as { prepareBuild: () => unknown };
    expect(() => prepareBuild()).toThrow(/provides it/);
  });

  it('leaves every other module to Vite', () => {
    expect(load(path.join(REPO_ROOT, 'src', 'lib', 'site.ts').split(path.sep).join('/'))).toBeUndefined();
    expect(load(prepare.replace('/src/', '/other/'))).toBeUndefined();
  });

  it('replaces the module the pages import for the dev server, with the one export they use', () => {
    const site = readFileSync(path.join(REPO_ROOT, 'src', 'lib', 'site.ts'), 'utf8');
    expect(site).toContain("import('../core/build/prepare.js')");
    expect(site).toMatch(/\(\{ prepareBuild \}\) => prepareBuild\(/);
  });
});
