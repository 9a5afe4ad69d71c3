/**
 * The origin a built folder is read as when `npm run verify` is given a folder without `--origin`: the
 * site's own, named by its DID document (`/.well-known/did.json`, whose `id` is `did:web:<domain>` for
 * the site at `https://<domain>/`; did:web method §3.2). Read before the verifier's own modules are
 * loaded, so it uses Node and the did:web parser only.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { domainFromDidWeb } from '../trust/did.js';

/** A DID document larger than this is not read here (the verifier reads it again, within its limits). */
const MAX_DID_DOCUMENT_BYTES = 1024 * 1024;

/**
 * `https://<domain>` of the `did:web:<domain>` in `<folder>/.well-known/did.json` (did:web method §3.2:
 * the DID of the site at `https://<domain>/`).
 *
 * @param folder a built site's folder.
 * @returns the origin, or `undefined` when there is no such file, it is larger than 1 MiB, is not JSON,
 *   or its `id` is not a did:web DID of a domain. Never throws.
 */
export function originFromDidDocument(folder: string): string | undefined {
  const file = path.join(folder, '.well-known', 'did.json');
  try {
    if (statSync(file).size > MAX_DID_DOCUMENT_BYTES) return undefined;
    const id = (JSON.parse(readFileSync(file, 'utf8')) as { id?: unknown } | null)?.id;
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
