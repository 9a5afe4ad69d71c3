/**
 * The dev server's rule (src/core/build/dev-requests.ts), without a server: Vite's own prefixes (`/@fs/`,
 * `/@id/`) naming files outside the app or inside a secret, and an app that is the project itself (the
 * checkout's own example, whose `.ardsite/` sits in Vite's root).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devRequestProblem, devServing, type DevServing } from '../../../src/core/build/dev-requests.js';

let base: string;
let serving: DevServing;
beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'ardsite-dev-rule-'));
  await mkdir(path.join(base, '.ardsite/keys'), { recursive: true });
  await mkdir(path.join(base, 'keys'));
  await mkdir(path.join(base, 'src/pages'), { recursive: true });
  await writeFile(path.join(base, '.ardsite/keys/signing.jwk.json'), '{}');
  await writeFile(path.join(base, 'keys/site.jwk.json'), '{}');
  await writeFile(path.join(base, 'src/pages/index.astro'), '');
  // The app is the project, and publisher.yaml names a key file at a path with no secret name.
  serving = devServing(base, base, {}, 'keys/site.jwk.json');
});
afterAll(() => rm(base, { recursive: true, force: true }));

describe('devRequestProblem', () => {
  it('lets the app’s own modules and pages through', () => {
    expect(devRequestProblem('/src/pages/index.astro?astro&type=style', serving)).toBeUndefined();
    expect(devRequestProblem(`/@fs${base}/src/pages/index.astro`, serving)).toBeUndefined();
    expect(devRequestProblem('/@id/astro:scripts/page.js', serving)).toBeUndefined();
    expect(devRequestProblem('/agents/a/', serving)).toBeUndefined();
  });

  it('refuses the key files, /@fs/ and /@id/ outside the app, .. and bad encodings', () => {
    for (const url of [
      '/keys/site.jwk.json?raw',
      '/keys/site.jwk.json?url',
      `/@fs${base}/keys/site.jwk.json?import&raw`,
      `/@id/${base}/keys/site.jwk.json?raw`,
      `/@id/${base}/.ardsite/keys/signing.jwk.json`,
      '/@id//etc/passwd?raw',
      '/@fs/etc/passwd',
      '/@fs//etc//passwd',
      '/src/../keys/site.jwk.json',
      '/src%2f..%2fkeys%2fsite.jwk.json',
      '/.ardsite%2Fkeys%2Fsigning.jwk.json?raw',
      '/%E0%A4%A',
    ])
      expect(devRequestProblem(url, serving), url).toBeDefined();
  });
});
