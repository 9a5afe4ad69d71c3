/**
 * A {@link SiteReader} over a built folder: `https://<domain>/<path>` is read from `<folder>/<path>`.
 * URLs of other origins are outside the folder (`undefined`). Paths ending in `/` read `index.html`.
 *
 * A hostile folder is read safely (docs/security.md, "hostile site"): a path that resolves, after
 * symbolic links, outside the folder is refused (a link may point elsewhere inside it); only regular
 * files are read (a FIFO, a device, a socket or a folder is refused, and a FIFO is opened without
 * blocking); and no file is read past the size cap (`--max-bytes`), checked with `fstat` before the
 * read and again while reading, so a file that grows, or one whose size the system does not report,
 * still ends at the cap.
 */
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, type Stats } from 'node:fs';
import path from 'node:path';
import type { FetchedDocument, SiteReader } from './reader.js';
import { isWithin } from '../util/within.js';

/** Options of {@link folderReader}. */
export interface FolderReaderOptions {
  /** Largest file read, in bytes (default: no cap). */
  maxBytes?: number;
}

/** Open flags: read only, never block on a FIFO, never follow a link in the last step (already resolved). */
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;

/** What a non-regular file is called in a refusal. */
function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * Reads at most `maxBytes` bytes of the open file `fd`, whose size is said to be `size`.
 * @throws Error naming `url` when the file holds more than `maxBytes` bytes.
 */
function readBounded(fd: number, size: number, maxBytes: number, url: string): Uint8Array {
  // One byte more than expected, to see growth (and EOF) in the same call for an ordinary file.
  let buffer = Buffer.allocUnsafe(Math.min(size, maxBytes) + 1);
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (length > maxBytes)
        throw new Error(`${url} is over the cap of ${maxBytes} bytes (--max-bytes) while being read`);
      const bigger = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1));
      buffer.copy(bigger, 0, 0, length);
      buffer = bigger;
    }
    const n = readSync(fd, buffer, length, buffer.length - length, null);
    if (n === 0) break;
    length += n;
  }
  if (length > maxBytes) throw new Error(`${url} is over the cap of ${maxBytes} bytes (--max-bytes)`);
  return new Uint8Array(buffer.buffer, buffer.byteOffset, length);
}

/**
 * Creates a reader of `folder` served as `origin` (`https://<domain>`). `read` throws an Error with a
 * message for a path outside the folder (after symbolic links), a file that is not a regular file, a
 * file over `maxBytes`, and any failed system call.
 */
export function folderReader(folder: string, origin: string, options: FolderReaderOptions = {}): SiteReader {
  const base = new URL(origin);
  const maxBytes = options.maxBytes ?? Infinity;
  const root = path.resolve(folder);
  let realRoot: string | undefined;
  return {
    async read(url: string): Promise<FetchedDocument | undefined> {
      const u = new URL(url);
      if (u.origin !== base.origin) return undefined;
      let rel = decodeURIComponent(u.pathname);
      if (rel.endsWith('/')) rel += 'index.html';
      const file = path.resolve(root, `.${rel}`);
      if (!isWithin(root, file)) throw new Error(`${url} points outside the site folder`);
      // Symbolic links are followed only while they stay inside the folder. Synchronous system calls: a
      // site's files are small and local, and thread-pool round trips per file cost more than the reads.
      realRoot ??= realpathSync.native(root);
      const real = realpathSync.native(file);
      if (!isWithin(realRoot, real))
        throw new Error(`${url} is a symbolic link to a file outside the site folder, which is not read`);
      const fd = openSync(real, OPEN_FLAGS);
      try {
        const stats = fstatSync(fd);
        if (!stats.isFile()) throw new Error(`${url} is ${kindOf(stats)}, not a file; it is not read`);
        if (stats.size > maxBytes)
          throw new Error(`${url} is ${stats.size} bytes, over the cap of ${maxBytes} bytes (--max-bytes)`);
        return { bytes: readBounded(fd, stats.size, maxBytes, url) };
      } finally {
        closeSync(fd);
      }
    },
  };
}
