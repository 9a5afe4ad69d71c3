/**
 * A helper thread of a folder verification (./helper-threads.ts), run from the bundle
 * ./compiled-worker.ts makes. For each job it takes the manifest's entries from the bytes the main
 * thread read, then checks the next unchecked entry (one shared counter) until none is left, and posts
 * what each one found, by index, in batches.
 *
 * Started with a {@link ManifestPrefetch} (its `workerData`), it reads and parses that manifest at once,
 * while the main thread still loads its modules; a job that brings the very same bytes (and the same
 * folder, origin and caps) takes its entries from that parse instead of parsing them again.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { folderReader } from './folder-reader.js';
import type {
  EntryOutcome,
  HelperReply,
  HelperRequest,
  HelperStart,
  ManifestPrefetch,
} from './helper-threads.js';
import { duplicateEntries, readManifest, verifyClaimedEntries } from './entry-checks.js';

/** Outcomes posted together (fewer messages; the main thread reads them when it waits). */
const BATCH = 8;

const port = parentPort!;
const post = (reply: HelperReply) => port.postMessage(reply);

/** The entries of a manifest, and which of them repeat an earlier (identifier, version). */
interface ParsedEntries {
  entries: unknown[];
  duplicates: Set<number>;
}

/** The prefetched manifest, until a job takes it (each parse serves one job). */
let prefetched: (ManifestPrefetch & ParsedEntries & { bytes: Uint8Array }) | undefined;

/**
 * Reads and parses the manifest `p` names. The folder reader reads synchronously, so the parse is done
 * before this thread takes its first message. A manifest that cannot be read or is no manifest is left
 * to the job (which reports nothing about it: the main thread does).
 */
function prefetch(p: ManifestPrefetch): void {
  const reader = folderReader(p.folder, p.origin, p.maxBytes === undefined ? {} : { maxBytes: p.maxBytes });
  reader.read(`${p.origin}/.well-known/ard.json`).then(
    (doc) => {
      const entries = doc && readManifest(doc.bytes, p.maxEntries).entries;
      if (doc && entries)
        prefetched = { ...p, bytes: doc.bytes, entries, duplicates: duplicateEntries(entries) };
    },
    () => {},
  );
}

/** The prefetched parse when `job` is for the same folder, origin, caps and bytes (then used up), else none. */
function takePrefetched(job: HelperRequest): ParsedEntries | undefined {
  const p = prefetched;
  if (
    !p ||
    p.folder !== job.folder ||
    p.origin !== job.origin ||
    p.maxBytes !== job.maxBytes ||
    p.maxEntries !== job.maxEntries ||
    !Buffer.from(p.bytes.buffer, p.bytes.byteOffset, p.bytes.byteLength).equals(job.manifest)
  )
    return undefined;
  prefetched = undefined;
  return p;
}

const start = (workerData ?? {}) as HelperStart;
if (start.prefetch) prefetch(start.prefetch);

port.on('message', (job: HelperRequest) => {
  // After a check throws, the other lanes claim nothing more (the main thread checks what is left).
  let stopped = false;
  void (async () => {
    try {
      let parsed = takePrefetched(job);
      if (!parsed) {
        const entries = readManifest(job.manifest, job.maxEntries).entries ?? [];
        parsed = { entries, duplicates: duplicateEntries(entries) };
      }
      const { entries, duplicates } = parsed;
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
        duplicates,
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
