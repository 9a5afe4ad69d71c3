/**
 * Writing a project file in place for the commands that edit the publisher's files (`npm run pin`,
 * `npm run specs`): through a temporary file beside it, so an interrupted run never leaves half a file.
 */
import { chmod, mkdir, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Writes `content` over `file` (through a symbolic link, to the file it names) with the same mode; a
 * file that does not exist yet is created (mode 0644), with its folder.
 */
export async function replaceFile(file: string, content: string | Uint8Array): Promise<void> {
  let real = file;
  let mode = 0o644;
  try {
    real = await realpath(file);
    mode = (await stat(real)).mode;
  } catch {
    await mkdir(path.dirname(file), { recursive: true });
  }
  const temporary = `${real}.tmp-${process.pid}`;
  try {
    await writeFile(temporary, content, { mode });
    await chmod(temporary, mode);
    await rename(temporary, real);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
