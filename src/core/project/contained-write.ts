/**
 * The one way ardsite writes a file (DESIGN.md §10, trust boundary): under a folder the operator chose
 * (the project root, the build's temporary output folder), at a relative path that stays inside it, and
 * never through a symbolic link. Every folder on the way is looked at with `lstat`: a link there (a
 * pull request's `content/specs -> ../.ardsite/keys`) is refused, not followed; a missing folder is
 * made. The file itself is written to a temporary name opened with `O_EXCL | O_NOFOLLOW` beside it and
 * renamed over the target, so an interrupted write never leaves half a file and a link at the target is
 * replaced, never written through (POSIX `rename`, `open` `O_NOFOLLOW`).
 *
 * The commands that write (specs, pin, import, release, keygen, new) and the build's output all call
 * {@link writeContained} or a {@link ContainedFolder}.
 */
import {
  chmodSync,
  closeSync,
  constants,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  realpathSync,
  renameSync,
  rmSync,
  writeSync,
  type Stats,
} from 'node:fs';
import path from 'node:path';
import { ArdsiteError } from '../util/errors.js';

/** How {@link ContainedFolder.write} writes one file. */
export interface ContainedWriteOptions {
  /**
   * Permission bits of a new file (default 0644); a file that is replaced keeps its own unless this is
   * given.
   */
  mode?: number;
  /** Permission bits of a folder made on the way (default 0755). */
  folderMode?: number;
  /** Leave a file that exists as it is and answer `'exists'` (as `open` with `wx`). */
  exclusive?: boolean;
}

/** What a write did: `written`, or `exists` for an {@link ContainedWriteOptions.exclusive} write that found a file. */
export type ContainedWriteResult = 'written' | 'exists';

/**
 * Why `relPath` cannot name a file under a folder, or undefined when it can: it must be relative, use
 * `/` only, and have no empty, `.` or `..` segment and no NUL (POSIX.1-2017 §3.271, pathname).
 */
export function relativePathProblem(relPath: string): string | undefined {
  if (relPath === '') return 'it is empty';
  if (relPath.includes('\0')) return 'it holds a NUL character';
  if (relPath.includes('\\')) return 'it holds a backslash';
  if (relPath.startsWith('/')) return 'it is absolute';
  for (const segment of relPath.split('/')) {
    if (segment === '' || segment === '.' || segment === '..')
      return `it has a "${segment || '//'}" segment, which could leave its folder`;
  }
  return undefined;
}

/** The refusal of a write, naming the path as the caller showed it and why. */
function refused(shown: string, why: string): ArdsiteError {
  return new ArdsiteError(
    'FILE_WRITE_REFUSED',
    `${shown} is not written: ${why}; ardsite writes only inside its folder and never through a symbolic link`,
  );
}

/**
 * A folder ardsite may write into. Folders below it are checked once each (a build writes thousands of
 * files into a few folders) and made when missing.
 */
export class ContainedFolder {
  /** The folder's real path (links in the operator's own path to it are resolved once, here). */
  readonly real: string;
  private readonly checked = new Set<string>();

  /**
   * @param folder the folder, absolute or relative to the working folder; it must exist.
   * @throws the file system's error (`ENOENT`, …) when it does not.
   */
  constructor(folder: string) {
    this.real = realpathSync(folder);
  }

  /**
   * Writes `content` at `relPath` (with `/`) under the folder.
   * @param shown how messages name the file (default `relPath`).
   * @returns `written`, or `exists` for an exclusive write that found a file there.
   * @throws ArdsiteError `FILE_WRITE_REFUSED` when `relPath` could leave the folder, a folder on the way
   *   or the file is a symbolic link or not a folder / regular file; the file system's error otherwise.
   */
  write(
    relPath: string,
    content: string | Uint8Array,
    options: ContainedWriteOptions = {},
    shown = relPath,
  ): ContainedWriteResult {
    const problem = relativePathProblem(relPath);
    if (problem !== undefined) throw refused(shown, problem);
    const segments = relPath.split('/');
    const name = segments.pop()!;
    let dir = this.real;
    for (const segment of segments) {
      dir = path.join(dir, segment);
      this.enter(dir, shown, options.folderMode ?? 0o755);
    }
    const file = path.join(dir, name);
    let mode = options.mode ?? 0o644;
    const existing = lstatOrMissing(file);
    if (existing !== undefined) {
      if (existing.isSymbolicLink()) throw refused(shown, 'it is a symbolic link');
      if (!existing.isFile()) throw refused(shown, 'it is not a regular file');
      if (options.exclusive) return 'exists';
      if (options.mode === undefined) mode = existing.mode & 0o7777;
    }
    const temporary = path.join(dir, `.${name}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`);
    const fd = openSync(
      temporary,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      mode,
    );
    try {
      const bytes = typeof content === 'string' ? Buffer.from(content) : content;
      for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at);
      if (options.exclusive) fsyncSync(fd);
    } catch (error) {
      closeSync(fd);
      rmSync(temporary, { force: true });
      throw error;
    }
    closeSync(fd);
    // The temporary name is removed unless the rename took it (a link leaves it beside the file).
    let renamed = false;
    try {
      chmodSync(temporary, mode);
      if (options.exclusive) {
        // link(2) fails when the name exists, so a file made meanwhile is never replaced.
        try {
          linkSync(temporary, file);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'EEXIST') return 'exists';
          throw error;
        }
      } else {
        renameSync(temporary, file);
        renamed = true;
      }
    } finally {
      if (!renamed) rmSync(temporary, { force: true });
    }
    return 'written';
  }

  /**
   * Makes the folder `relPath` (with `/`, a final `/` allowed) and those on its way, or checks they are
   * folders.
   * @throws ArdsiteError `FILE_WRITE_REFUSED` as {@link ContainedFolder.write}.
   */
  makeFolder(relPath: string, folderMode = 0o755, shown = relPath): void {
    // A folder may be written with its final slash (`public/`).
    const folder = relPath.endsWith('/') ? relPath.slice(0, -1) : relPath;
    const problem = relativePathProblem(folder);
    if (problem !== undefined) throw refused(shown, problem);
    let dir = this.real;
    for (const segment of folder.split('/')) this.enter((dir = path.join(dir, segment)), shown, folderMode);
  }

  /** Checks (or makes) one folder on the way: a real folder, not a link. */
  private enter(dir: string, shown: string, folderMode: number): void {
    if (this.checked.has(dir)) return;
    const stats = lstatOrMissing(dir);
    if (stats === undefined) {
      try {
        mkdirSync(dir, { mode: folderMode });
        chmodSync(dir, folderMode);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        return this.enter(dir, shown, folderMode);
      }
    } else if (stats.isSymbolicLink()) {
      throw refused(shown, `${path.relative(this.real, dir)} on its way is a symbolic link`);
    } else if (!stats.isDirectory()) {
      throw refused(shown, `${path.relative(this.real, dir)} on its way is not a folder`);
    }
    this.checked.add(dir);
  }
}

function lstatOrMissing(file: string): Stats | undefined {
  // No error object for a missing name: a build's output folder starts empty.
  return lstatSync(file, { throwIfNoEntry: false });
}

/**
 * Writes one file under `folder` ({@link ContainedFolder.write}).
 * @param folder the folder the write must stay in (an existing folder the operator chose).
 * @param relPath the file under it, with `/`.
 * @throws ArdsiteError `FILE_WRITE_REFUSED`; the file system's errors.
 */
export function writeContained(
  folder: string,
  relPath: string,
  content: string | Uint8Array,
  options: ContainedWriteOptions = {},
  shown = relPath,
): ContainedWriteResult {
  return new ContainedFolder(folder).write(relPath, content, options, shown);
}
