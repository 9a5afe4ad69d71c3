/**
 * The parallel verification (worker threads over slices of the entries) must report exactly what the
 * in-process run reports, in the same order, on a clean and on a broken site.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folderReader } from '../../src/core/verify/folder-reader.js';
import { verifySite } from '../../src/core/verify/site.js';
import { buildExampleSite, cardPath, cleanUpSites, NOW, ORIGIN, SiteCopy } from '../helpers/ard-site.js';

let built: string;
beforeAll(async () => {
  built = await buildExampleSite();
});
afterAll(cleanUpSites);

async function both(dir: string) {
  const single = await verifySite(folderReader(dir, ORIGIN), { origin: ORIGIN, now: NOW });
  const threaded = await verifySite(folderReader(dir, ORIGIN), {
    origin: ORIGIN,
    now: NOW,
    parallel: { folder: dir, workers: 2, minEntriesPerWorker: 1 },
  });
  return { single, threaded };
}

describe('verifySite in worker threads', () => {
  it('passes the same checks as in-process on the clean example site', async () => {
    const { single, threaded } = await both(built);
    expect(single.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(threaded).toEqual(single);
  });

  it('reports the same findings, in the same order, on a broken site', async () => {
    const site = await SiteCopy.of(built);
    await site.editText(cardPath('travel-reservation'), (t) => t.replace('Books flights', 'Books flighTs'));
    await site.editText(cardPath('itinerary-concierge'), (t) => t.replace(/\n$/, ''));
    const { single, threaded } = await both(site.dir);
    expect(single.findings.some((f) => f.code === 'CARD_SIGNATURE_INVALID')).toBe(true);
    expect(threaded).toEqual(single);
  });
});
