/**
 * The checks on what content names outside its own text (DESIGN.md §9, "the project is a jail"), so
 * that `npm run check` reports, with file, field and line, everything the build would refuse: attestation
 * files that are missing or lead outside the project, site-path entry urls that are not plain paths of
 * this site, a `signing.keyFile` outside the project or inside `public/`, and retired keys that hold
 * private members or are malformed.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { ArdsiteError, formatPath, type Diagnostic, type ErrorCode } from '../util/errors.js';
import { loadPublicKeysForRotation } from '../trust/retired-keys.js';
import {
  jailFolders,
  outsideMessage,
  placeInJail,
  publishedHolder,
  scanPublicFolder,
  type Jail,
} from '../project/project-jail.js';
import type { AttestationInputType } from '../schema/attestation.js';
import type { ContentModel } from '../model/content.js';
import type { SourceDoc } from '../model/source.js';

/**
 * Why `url`, an entry url starting with `/`, is not a plain path of this site, or undefined when it
 * is one. A plain path has no `//` at its start (another host), no backslash, no `.` or `..` segment
 * (also percent-encoded), no percent-encoded `/` or `\`, no control character or space, and is left as
 * it is by the WHATWG URL parser (so the page it names is the one served).
 */
export function sitePathProblem(url: string): string | undefined {
  const [pathPart] = url.split(/[?#]/) as [string];
  if (url.startsWith('//')) return 'it starts with "//", which names another host';
  if (url.includes('\\')) return 'it contains a backslash, which browsers read as "/"';
  if ([...url].some((c) => c.charCodeAt(0) <= 0x20 || c.charCodeAt(0) === 0x7f))
    return 'it contains a space or a control character';
  if (/%(2f|5c)/i.test(pathPart)) return 'it contains an encoded "/" or "\\"';
  const segments = pathPart.split('/').map((s) => s.replace(/%2e/gi, '.'));
  if (segments.some((s) => s === '.' || s === '..')) return 'it has a "." or ".." segment';
  const parsed = new URL(url, 'https://site.invalid/');
  if (
    parsed.origin !== 'https://site.invalid' ||
    `${parsed.pathname}${parsed.search}${parsed.hash}` !== url
  ) {
    return 'a URL parser reads it as another path';
  }
  return undefined;
}

type Add = (source: SourceDoc, at: readonly PropertyKey[], code: ErrorCode, message: string) => void;

function checkAttestations(
  list: readonly AttestationInputType[] | undefined,
  source: SourceDoc,
  jail: Jail,
  folders: string[],
  add: Add,
): void {
  list?.forEach((a, i) => {
    if (a.file === undefined) return;
    const at = ['attestations', i, 'file'];
    const place = placeInJail(a.file, jail, folders);
    if (place.state === 'missing') {
      add(
        source,
        at,
        'FILE_MISSING',
        `attestation file ${a.file} does not exist (paths are relative to the project folder)`,
      );
    } else if (place.state === 'outside') {
      add(source, at, 'FILE_OUTSIDE_PROJECT', outsideMessage(a.file, place.real));
    } else if (!statSync(place.real).isFile()) {
      add(source, at, 'FILE_UNREADABLE', `attestation file ${a.file} is not a file`);
    }
  });
}

/**
 * Runs the checks of this module over a loaded model.
 * @returns the diagnostics: `FILE_MISSING`, `FILE_UNREADABLE`, `FILE_OUTSIDE_PROJECT`, `URL_PATH_INVALID`,
 *   `KEY_IN_PUBLIC_FOLDER`, and the key codes of `loadPublicKeysForRotation` (`KEY_PRIVATE_PUBLISHED`,
 *   `KEY_INVALID`, `KEY_WRONG_TYPE`, `SCHEMA_INVALID_VALUE`), each with file, field and line.
 */
export function checkNamedFiles(model: ContentModel): Diagnostic[] {
  const out: Diagnostic[] = [];
  const add: Add = (source, at, code, message) =>
    out.push(source.diagnostic({ code, severity: 'error', message, path: formatPath(at) }, at));
  const { publisher, publisherSource } = model;
  const jail: Jail = model.jail;
  const folders = jailFolders(jail);

  for (const agent of model.agents)
    checkAttestations(agent.front.attestations, agent.source, jail, folders, add);
  for (const e of model.entries) {
    if (e.own) checkAttestations(e.entry.attestations, e.source, jail, folders, add);
    const url = e.entry.url;
    if (url?.startsWith('/')) {
      const problem = sitePathProblem(url);
      if (problem)
        add(
          e.source,
          ['url'],
          'URL_PATH_INVALID',
          `url "${url}" is not a plain path of this site: ${problem}`,
        );
    }
  }

  const keyFile = publisher.signing.keyFile;
  if (keyFile !== undefined) {
    const at = ['signing', 'keyFile'];
    // allowOutside does not apply: a key kept outside the project is ARDSITE_SIGNING_KEY_FILE's job.
    const place = placeInJail(keyFile, { root: model.root });
    if (place.state === 'outside') {
      add(
        publisherSource,
        at,
        'FILE_OUTSIDE_PROJECT',
        `${outsideMessage(keyFile, place.real)}. A key kept outside the project (a CI secret file) is given with ARDSITE_SIGNING_KEY_FILE instead`,
      );
    } else if (place.state === 'inside') {
      const holder = publishedHolder(place.real, scanPublicFolder(jail, folders));
      if (holder !== undefined)
        add(publisherSource, at, 'KEY_IN_PUBLIC_FOLDER', keyInPublicMessage(keyFile, model.root, holder));
    }
  }

  (publisher.signing.retiredKeys ?? []).forEach((retired, i) => {
    try {
      // The epoch as "now": every listed key is read, whatever its retireAt.
      loadPublicKeysForRotation([{ ...retired, revoked: false }], new Date(0), publisher.domain);
    } catch (error) {
      if (!(error instanceof ArdsiteError)) throw error;
      const member = error.code === 'SCHEMA_INVALID_VALUE' ? 'retireAt' : 'jwk';
      add(
        publisherSource,
        ['signing', 'retiredKeys', i, member],
        error.code,
        error.message.replace('The retired key 1 in publisher.yaml', `Retired key ${i + 1}`),
      );
    }
  });
  return out;
}

/**
 * The message of `KEY_IN_PUBLIC_FOLDER`: the key file `shown` lies in the published folder `holder`
 * (a real path: `public/` or the target of a link inside it).
 */
export function keyInPublicMessage(shown: string, root: string, holder: string): string {
  const where = path.relative(root, holder).split(path.sep).join('/') || holder;
  return `the signing key file ${shown} lies in ${where}, whose files are copied into the site (public/ or a folder a symbolic link in public/ leads to), so the private key would be published; keep it out of public/ (the default is .ardsite/keys/, which git ignores)`;
}
