/**
 * Verification with helper threads (src/core/verify/helper-threads.ts, the bundled worker of
 * compiled-worker.ts): the report must be exactly the in-process one, in the same order, whichever thread
 * checked an entry, on a clean and on a broken site, and when the helpers die in the middle.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folderReader } from '../../src/core/verify/folder-reader.js';
import { startVerifyHelpers, type VerifyHelpers } from '../../src/core/verify/helper-threads.js';
import { verifySite, type VerifyReport } from '../../src/core/verify/site.js';
import { buildExampleSite, cardPath, cleanUpSites, NOW, ORIGIN, SiteCopy } from '../helpers/ard-site.js';

let built: string;
let broken: string;
let helpers: VerifyHelpers;

beforeAll(async () => {
  built = await buildExampleSite();
  const site = await SiteCopy.of(built);
  await site.editText(cardPath('travel-reservation'), (t) => t.replace('Books flights', 'Books flighTs'));
  await site.editText(cardPath('itinerary-concierge'), (t) => t.replace(/\n$/, ''));
  broken = site.dir;
  const started = await startVerifyHelpers(2);
  if (!started) throw new Error('the helper threads did not start (is esbuild installed?)');
  helpers = started;
});
afterAll(async () => {
  await helpers?.close();
  await cleanUpSites();
});

const inProcess = (dir: string) => verifySite(folderReader(dir, ORIGIN), { origin: ORIGIN, now: NOW });

function withHelpers(dir: string, with_: VerifyHelpers, checkHere: boolean): Promise<VerifyReport> {
  return verifySite(folderReader(dir, ORIGIN), {
    origin: ORIGIN,
    now: NOW,
    parallel: { folder: dir, helpers: with_, checkHere },
  });
}

describe('verifySite with helper threads', () => {
  it('passes the same checks as in-process on the clean example site, the helpers checking every entry', async () => {
    const single = await inProcess(built);
    expect(single.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(single.entries).toBeGreaterThan(1);
    expect(await withHelpers(built, helpers, false)).toEqual(single);
  });

  it('reports the same findings, in the same order, on a broken site (helpers alone, and sharing)', async () => {
    const single = await inProcess(broken);
    expect(single.findings.map((f) => f.code)).toEqual(
      expect.arrayContaining(['CARD_SIGNATURE_INVALID', 'ARD_DIGEST_MISMATCH']),
    );
    expect(await withHelpers(broken, helpers, false)).toEqual(single);
    expect(await withHelpers(broken, helpers, true)).toEqual(single);
  });

  it('helpers report every entry themselves when this thread claims none', async () => {
    const single = await inProcess(broken);
    const manifest = new Uint8Array(await readFile(path.join(broken, '.well-known/ard.json')));
    const run = helpers.share({
      folder: broken,
      origin: ORIGIN,
      siteDomain: new URL(ORIGIN).hostname,
      now: NOW,
      manifest,
      maxEntries: 100,
    });
    await run.settled(single.entries, () => false);
    expect([...run.outcomes.keys()].sort((a, b) => a - b)).toEqual(
      Array.from({ length: single.entries }, (_, i) => i),
    );
    const entryFindings = [...run.outcomes.entries()]
      .sort(([a], [b]) => a - b)
      .flatMap(([, outcome]) => outcome.findings);
    // verifySite adds the site-wide key checks after the entries; they find nothing on this copy.
    expect(entryFindings).toEqual(single.findings);
    expect(Atomics.load(run.counter, 0)).toBeGreaterThanOrEqual(single.entries);
  });

  it('checks in this thread what helpers that died did not report', async () => {
    const single = await inProcess(broken);
    const doomed = (await startVerifyHelpers(1))!;
    const report = withHelpers(broken, doomed, false);
    await doomed.close(); // the helper is gone before it could report anything
    expect(await report).toEqual(single);
  });

  it('takes the entries from the manifest bytes the main thread read (a manifest that is not JSON)', async () => {
    const site = await SiteCopy.of(built);
    await site.editText('.well-known/ard.json', (t) => t.slice(0, 100));
    const single = await inProcess(site.dir);
    expect(single.findings.map((f) => f.code)).toEqual(['ARD_MANIFEST_INVALID']);
    expect(await withHelpers(site.dir, helpers, false)).toEqual(single);
  });
});
