/**
 * A {@link SiteReader} over a built folder: `https://<domain>/<path>` is read from `<folder>/<path>`.
 * URLs of other origins are outside the folder (`undefined`). Paths ending in `/` read `index.html`.
 * The same size cap as over the network applies (`--max-bytes`), checked before the file is read.
 */
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FetchedDocument, SiteReader } from './reader.js';

/** Options of {@link folderReader}. */
export interface FolderReaderOptions {
  /** Largest file read, in bytes (default: no cap). */
  maxBytes?: number;
}

/** Creates a reader of `folder` served as `origin` (`https://<domain>`). */
export function folderReader(folder: string, origin: string, options: FolderReaderOptions = {}): SiteReader {
  const base = new URL(origin);
  const maxBytes = options.maxBytes ?? Infinity;
  const root = path.resolve(folder);
  return {
    async read(url: string): Promise<FetchedDocument | undefined> {
      const u = new URL(url);
      if (u.origin !== base.origin) return undefined;
      let rel = decodeURIComponent(u.pathname);
      if (rel.endsWith('/')) rel += 'index.html';
      const file = path.resolve(root, `.${rel}`);
      if (file !== root && !file.startsWith(root + path.sep))
        throw new Error(`${url} points outside the site folder`);
      // One open for the size check and the read, with synchronous system calls: a site's files are
      // small and local, and four thread-pool round trips per file (open, stat, read, close) cost more
      // than the reads themselves. The errors (and their messages) are those of the asynchronous calls.
      const fd = openSync(file, 'r');
      try {
        const { size } = fstatSync(fd);
        if (size > maxBytes)
          throw new Error(`${url} is ${size} bytes, over the cap of ${maxBytes} bytes (--max-bytes)`);
        const bytes = readFileSync(fd);
        return { bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
      } finally {
        closeSync(fd);
      }
    },
  };
}
