/**
 * The origin a built folder is read as when `npm run verify` is given a folder without `--origin`: the
 * site's own, named by its DID document (`/.well-known/did.json`, whose `id` is `did:web:<domain>` for
 * the site at `https://<domain>/`; did:web method §3.2). Read before the verifier's own modules are
 * loaded, so it uses the folder reader and the did:web parser only.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { domainFromDidWeb } from '../trust/did.js';
import { folderReader } from './folder-reader.js';

/** A DID document larger than this is not read here (the verifier reads it again, within its limits). */
const MAX_DID_DOCUMENT_BYTES = 1024 * 1024;

/** Any origin: the folder reader needs one to map URLs to files, and the DID document names the real one. */
const PROBE_ORIGIN = 'https://did-document.invalid';

/**
 * `https://<domain>` of the `did:web:<domain>` in `<folder>/.well-known/did.json` (did:web method §3.2:
 * the DID of the site at `https://<domain>/`), read as the verifier reads a folder (./folder-reader.ts):
 * a regular file inside the folder (a symbolic link only to a file inside it; no FIFO or device), at most
 * 1 MiB, UTF-8 with or without a byte order mark.
 *
 * @param folder a built site's folder.
 * @returns the origin, or `undefined` when there is no such file or it cannot be read so, is not JSON, or
 *   its `id` is not a did:web DID of a domain. Never throws.
 */
export async function originFromDidDocument(folder: string): Promise<string | undefined> {
  try {
    const reader = folderReader(folder, PROBE_ORIGIN, { maxBytes: MAX_DID_DOCUMENT_BYTES });
    const doc = await reader.read(`${PROBE_ORIGIN}/.well-known/did.json`);
    if (!doc) return undefined;
    const id = (JSON.parse(new TextDecoder().decode(doc.bytes)) as { id?: unknown } | null)?.id;
    return typeof id === 'string' ? `https://${domainFromDidWeb(id)}` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether `folder` is an ardsite project rather than a built site: it holds `content/publisher.yaml`
 * and no `.well-known/` folder (a newcomer's `npm run verify -- ../my-site` for `../my-site/dist`).
 *
 * @returns true for a project folder. Never throws.
 */
export function isProjectFolder(folder: string): boolean {
  const has = (p: string) => {
    try {
      statSync(path.join(folder, p));
      return true;
    } catch {
      return false;
    }
  };
  return has(path.join('content', 'publisher.yaml')) && !has('.well-known');
}
