/**
 * A {@link SiteReader} over a built folder: `https://<domain>/<path>` is read from `<folder>/<path>`.
 * URLs of other origins are outside the folder (`undefined`). Paths ending in `/` read `index.html`.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FetchedDocument, SiteReader } from './site.js';

/** Creates a reader of `folder` served as `origin` (`https://<domain>`). */
export function folderReader(folder: string, origin: string): SiteReader {
  const base = new URL(origin);
  const root = path.resolve(folder);
  return {
    async read(url: string): Promise<FetchedDocument | undefined> {
      const u = new URL(url);
      if (u.origin !== base.origin) return undefined;
      let rel = decodeURIComponent(u.pathname);
      if (rel.endsWith('/')) rel += 'index.html';
      const file = path.resolve(root, `.${rel}`);
      if (file !== root && !file.startsWith(root + path.sep)) throw new Error(`${url} points outside the site folder`);
      return { bytes: new Uint8Array(await readFile(file)) };
    },
  };
}
