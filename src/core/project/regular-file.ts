/**
 * Reading a file a project names (a content file, a stored spec) without ever waiting on it or reading
 * more than a bound: only a regular file is read (a FIFO would block a read until a writer came, a device
 * may never end), it is opened non-blocking and checked again on the open descriptor (a file swapped for
 * a FIFO after the first look is still refused), and at most `maxBytes + 1` bytes are read (a file that
 * grew past the bound after its size was taken is still refused). One descriptor at a time, closed on
 * every path.
 */
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';

/** What {@link readRegularFile} found: the bytes, a size over the bound, or no regular file. */
export type RegularFileRead =
  { kind: 'bytes'; bytes: Buffer } | { kind: 'too-large'; size: number } | { kind: 'not-regular' };

/**
 * Whether `error` is an error of the file system (a Node system error whose `code` is an errno name such as
 * `ENOENT`, `EACCES`, `ELOOP`, `EMFILE`), as opposed to a fault of the calling code, which callers rethrow
 * rather than report as a file that cannot be read.
 */
export function isFileSystemError(error: unknown): error is NodeJS.ErrnoException & { code: string } {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^E[A-Z0-9]+$/.test(code);
}

/** Bytes read at once past the size `fstat` gave (a file that grows while it is read). */
const GROWTH_STEP = 1 << 16;

/**
 * Reads `file` (an absolute path, links followed) when it is a regular file of at most `maxBytes` bytes.
 * @throws the file system's error (`ENOENT`, `EACCES`, `ELOOP`, …) when it cannot be looked at or read.
 */
export function readRegularFile(file: string, maxBytes: number): RegularFileRead {
  // Looked at before it is opened: opening a device can act on it (a terminal, a tape).
  if (!statSync(file).isFile()) return { kind: 'not-regular' };
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return { kind: 'not-regular' };
    if (stats.size > maxBytes) return { kind: 'too-large', size: stats.size };
    let buffer = Buffer.allocUnsafe(Math.min(stats.size + 1, maxBytes + 1));
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > maxBytes) return { kind: 'too-large', size: length };
        const grown = Buffer.allocUnsafe(Math.min(length + GROWTH_STEP, maxBytes + 1));
        buffer.copy(grown, 0, 0, length);
        buffer = grown;
      }
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    if (length > maxBytes) return { kind: 'too-large', size: length };
    return { kind: 'bytes', bytes: buffer.subarray(0, length) };
  } finally {
    closeSync(fd);
  }
}
