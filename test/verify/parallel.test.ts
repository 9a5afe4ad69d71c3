/**
 * Verification with helper threads (src/core/verify/helper-threads.ts, the bundled worker of
 * compiled-worker.ts): the helpers themselves must report every entry as the main thread would, and
 * the report must be exactly the in-process one, in the same order, whichever thread checked an entry:
 * on a clean and on a broken site, with an entry cap, and when a helper dies holding an entry.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folderReader } from '../../src/core/verify/folder-reader.js';
import { startVerifyHelpers, type VerifyHelpers } from '../../src/core/verify/helper-threads.js';
import { verifySite, type VerifyReport } from '../../src/core/verify/site.js';
import { buildExampleSite, cardPath, cleanUpSites, NOW, ORIGIN, SiteCopy } from '../helpers/ard-site.js';
import { fixture } from '../helpers/site.js';

let built: string;
let broken: string;
let helpers: VerifyHelpers;
const crashingHelper = fixture('verify/crashing-helper.mjs');

async function start(count: number, workerFile?: string): Promise<VerifyHelpers> {
  const started = await startVerifyHelpers(count, workerFile ? { workerFile } : {});
  if (!started.helpers) throw new Error(`the helper threads did not start: ${started.reason}`);
  return started.helpers;
}

beforeAll(async () => {
  built = await buildExampleSite();
  const site = await SiteCopy.of(built);
  await site.editText(cardPath('travel-reservation'), (t) => t.replace('Books flights', 'Books flighTs'));
  await site.editText(cardPath('itinerary-concierge'), (t) => t.replace(/\n$/, ''));
  broken = site.dir;
  helpers = await start(2);
});
afterAll(async () => {
  await helpers?.close();
  await cleanUpSites();
});

const inProcess = (dir: string, maxEntries?: number) =>
  verifySite(folderReader(dir, ORIGIN), {
    origin: ORIGIN,
    now: NOW,
    ...(maxEntries === undefined ? {} : { maxEntries }),
  });

function withHelpers(
  dir: string,
  with_: VerifyHelpers,
  checkHere: boolean,
  maxEntries?: number,
): Promise<VerifyReport> {
  return verifySite(folderReader(dir, ORIGIN), {
    origin: ORIGIN,
    now: NOW,
    ...(maxEntries === undefined ? {} : { maxEntries }),
    parallel: { folder: dir, helpers: with_, checkHere },
  });
}

/** Gives the helpers `dir`'s entries with no help from this thread; what they reported, by index. */
async function helpersAlone(dir: string, with_: VerifyHelpers, count: number) {
  const manifest = new Uint8Array(await readFile(path.join(dir, '.well-known/ard.json')));
  const run = with_.share({
    folder: dir,
    origin: ORIGIN,
    siteDomain: new URL(ORIGIN).hostname,
    now: NOW,
    manifest,
    maxEntries: 100,
  });
  await run.settled(count, () => false);
  return { run, indices: [...run.outcomes.keys()].sort((a, b) => a - b) };
}

describe('verifySite with helper threads', () => {
  it('the helpers check every entry of the clean site as this thread does', async () => {
    const single = await inProcess(built);
    expect(single.findings.filter((f) => f.severity === 'error')).toEqual([]);
    const { run, indices } = await helpersAlone(built, helpers, single.entries);
    expect(indices).toEqual(Array.from({ length: single.entries }, (_, i) => i));
    // verifySite adds one check of the manifest, two of the published keys, one of did.json's id, one
    // of jwks.json against did.json, one of each A2A well-known card copy and two of ai-catalog.json (no
    // signature; the same entries).
    const passed = [...run.outcomes.values()].reduce((n, o) => n + o.passed, 0);
    expect(passed).toBe(single.passed - 9);
    expect(await withHelpers(built, helpers, false)).toEqual(single);
  });

  it('the helpers report the findings of a broken site, entry by entry, in manifest order', async () => {
    const single = await inProcess(broken);
    expect(single.findings.map((f) => f.code)).toEqual(
      expect.arrayContaining(['CARD_PAYLOAD_CHANGED', 'ARD_DIGEST_MISMATCH']),
    );
    const { run, indices } = await helpersAlone(broken, helpers, single.entries);
    expect(indices).toHaveLength(single.entries);
    const findings = indices.flatMap((i) => run.outcomes.get(i)!.findings);
    expect(findings).toEqual(single.findings); // the site-wide key checks find nothing on this copy
    expect(Atomics.load(run.counter, 0)).toBeGreaterThanOrEqual(single.entries);
  });

  it('gives the same report as in-process on a broken site, helpers alone and sharing', async () => {
    const single = await inProcess(broken);
    expect(await withHelpers(broken, helpers, false)).toEqual(single);
    expect(await withHelpers(broken, helpers, true)).toEqual(single);
  });

  it('applies the same entry cap (--max-entries) in every thread', async () => {
    const single = await inProcess(broken, 2);
    expect(single.entries).toBe(2);
    expect(await withHelpers(broken, helpers, false, 2)).toEqual(single);
  });

  it('checks in this thread the entry a helper took and did not report (it died)', async () => {
    const single = await inProcess(broken);
    const probe = await start(1, crashingHelper);
    const { run, indices } = await helpersAlone(broken, probe, single.entries);
    expect(Atomics.load(run.counter, 0)).toBe(1); // it took entry 0…
    expect(indices).toEqual([]); // …and reported nothing
    await probe.close();

    const crashing = await start(1, crashingHelper);
    try {
      expect(await withHelpers(broken, crashing, false)).toEqual(single);
    } finally {
      await crashing.close();
    }
  });

  it('checks everything in this thread when the helpers are gone before the job', async () => {
    const single = await inProcess(broken);
    const doomed = await start(1);
    await doomed.close();
    expect(await withHelpers(broken, doomed, false)).toEqual(single);
  });

  it('takes the entries from the manifest bytes the main thread read (a manifest that is not JSON)', async () => {
    const site = await SiteCopy.of(built);
    await site.editText('.well-known/ard.json', (t) => t.slice(0, 100));
    const single = await inProcess(site.dir);
    expect(single.findings.map((f) => f.code)).toEqual(['ARD_MANIFEST_INVALID']);
    expect(await withHelpers(site.dir, helpers, false)).toEqual(single);
  });

  it('a helper that read the manifest as it started checks the same entries (its parse is used)', async () => {
    const single = await inProcess(broken);
    const started = await startVerifyHelpers(1, {
      prefetch: { folder: broken, origin: ORIGIN, maxEntries: 100_000 },
    });
    try {
      expect(await withHelpers(broken, started.helpers!, false)).toEqual(single);
    } finally {
      await started.helpers?.close();
    }
  });

  it('a helper whose early read no longer matches the manifest parses the bytes of the job', async () => {
    const site = await SiteCopy.of(broken);
    const started = await startVerifyHelpers(1, {
      prefetch: { folder: site.dir, origin: ORIGIN, maxEntries: 100_000 },
    });
    try {
      // A first job (another folder) shows the helper has started, so its early read is done.
      await withHelpers(built, started.helpers!, false);
      await site.editJson<{ entries: unknown[] }>('/.well-known/ard.json', (m) => void m.entries.reverse());
      const single = await inProcess(site.dir);
      expect(await withHelpers(site.dir, started.helpers!, false)).toEqual(single);
      // The same folder with another entry cap is another job too.
      expect(await withHelpers(site.dir, started.helpers!, false, 3)).toEqual(await inProcess(site.dir, 3));
    } finally {
      await started.helpers?.close();
    }
  });

  it('says why when no helper can start', async () => {
    expect(await startVerifyHelpers(0)).toEqual({ reason: 'no helper threads were asked for' });
  });
});
