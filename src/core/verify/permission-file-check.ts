/**
 * The permission file a card pins (DESIGN.md §9 "Permissions from specs"; src/core/model/permissions.ts):
 * the card's RAM extension params carry `permissions: {permissionSet, skillPermissionSets, file, digest}`,
 * which the card's signatures and the entry's digest cover; the file itself (`/agents/<slug>/
 * permissions.json`) is covered only through that digest. The verifier reads it, checks its bytes against
 * the digest, that it names the card's entry, and that the permission sets it publishes are the card's.
 */
import { ArdsiteError } from '../util/errors.js';
import { deepStrictEqual, isRecord } from './documents.js';
import type { RunContext } from './findings.js';
import { readPinnedDocument } from './pinned-document.js';

const fail = (message: string): never => {
  throw new ArdsiteError('PERMISSION_FILE_MISMATCH', message);
};

/**
 * Checks the permission file that `permissions` (the `permissions` member of a card's RAM extension
 * params, or undefined) pins, for the ARD `entry` under `subject`. Records into `run.f`: nothing when the
 * card pins no permission file, else a pass or one `PERMISSION_FILE_MISMATCH` failure saying what differs
 * (unreadable file, digest, `agent`, `permissionSet` or `skillPermissionSets`).
 * @returns the permission file's JSON object when it passed (its accesses' scopes are what a release
 *   history compares, ./release-check.ts), else `undefined`.
 */
export async function checkPermissionFile(
  subject: string,
  entry: Readonly<Record<string, unknown>>,
  permissions: unknown,
  run: RunContext,
): Promise<Record<string, unknown> | undefined> {
  if (!isRecord(permissions)) return undefined;
  let checked: Record<string, unknown> | undefined;
  await run.f.check(subject, 'PERMISSION_FILE_MISMATCH', async () => {
    const { file, digest } = permissions;
    if (typeof file !== 'string' || typeof digest !== 'string')
      return fail("the card's permission sets need params.permissions.file and params.permissions.digest");
    const doc = await readPinnedDocument(run, file, digest, 'the permission file', fail);
    if (doc.agent !== entry.identifier)
      fail(`the permission file names ${JSON.stringify(doc.agent)}, not ${String(entry.identifier)}`);
    for (const key of ['permissionSet', 'skillPermissionSets'] as const) {
      if (!deepStrictEqual(doc[key], permissions[key]))
        fail(`the permission file's ${key} is not the one its card publishes`);
    }
    checked = doc;
  });
  return checked;
}
