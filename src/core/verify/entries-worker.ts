/**
 * A helper thread of a folder verification (./helper-threads.ts), run from the bundle
 * ./compiled-worker.ts makes. For each job it takes the manifest's entries from the bytes the main
 * thread read, then checks the next unchecked entry (one shared counter) until none is left, and posts
 * what each one found, by index, in batches.
 */
import { parentPort } from 'node:worker_threads';
import { folderReader } from './folder-reader.js';
import type { EntryOutcome, HelperReply, HelperRequest } from './helper-threads.js';
import { duplicateEntries, readManifest, verifyClaimedEntries } from './entry-checks.js';

/** Outcomes posted together (fewer messages; the main thread reads them when it waits). */
const BATCH = 8;

const port = parentPort!;
const post = (reply: HelperReply) => port.postMessage(reply);

port.on('message', (job: HelperRequest) => {
  // After a check throws, the other lanes claim nothing more (the main thread checks what is left).
  let stopped = false;
  void (async () => {
    try {
      const entries = readManifest(job.manifest, job.maxEntries).entries ?? [];
      const counter = new Int32Array(job.counter);
      const count = entries.length;
      const reader = folderReader(
        job.folder,
        job.origin,
        job.maxBytes === undefined ? {} : { maxBytes: job.maxBytes },
      );
      let batch: Array<[number, EntryOutcome]> = [];
      await verifyClaimedEntries(
        reader,
        { origin: job.origin, siteDomain: job.siteDomain, now: new Date(job.now) },
        entries,
        duplicateEntries(entries),
        () => {
          if (stopped) return undefined;
          const index = Atomics.add(counter, 0, 1);
          return index < count ? index : undefined;
        },
        (index, outcome) => {
          batch.push([index, outcome]);
          if (batch.length < BATCH) return;
          post({ kind: 'outcomes', id: job.id, items: batch });
          batch = [];
        },
      );
      if (batch.length > 0) post({ kind: 'outcomes', id: job.id, items: batch });
      post({ kind: 'done', id: job.id });
    } catch (error) {
      stopped = true;
      post({ kind: 'failed', id: job.id, message: (error as Error).message });
    }
  })();
});
