/**
 * Worker thread of a parallel verification (src/core/verify/site.ts `verifyInWorkers`): checks one
 * slice of a folder site's entries and posts back its `EntriesResult`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { folderReader } from './folder-reader.js';
import { verifyEntries, type EntryContext } from './site.js';

const data = workerData as {
  folder: string;
  maxBytes?: number;
  context: Omit<EntryContext, 'now'> & { now: string };
  entries: unknown[];
  startIndex: number;
  duplicates: number[];
};
const context: EntryContext = { ...data.context, now: new Date(data.context.now) };
const result = await verifyEntries(
  folderReader(data.folder, context.origin, data.maxBytes === undefined ? {} : { maxBytes: data.maxBytes }),
  context,
  data.entries,
  data.startIndex,
  new Set(data.duplicates),
);
parentPort!.postMessage(result);
