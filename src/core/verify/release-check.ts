/**
 * Where a site publishes an agent's release history (DESIGN.md §9 "Releases"; docs/releases.md), the
 * verifier holds it against the card: the card pins the changes document by digest (the
 * `urn:ardsite:ext:ram-changes:v1` extension, src/core/a2a/card.ts), the document's last recorded release
 * must match the card (the card's version recorded with no less access than the card has; or, for a
 * version not recorded yet, the changes listed must be the changes between that release and the card),
 * and the entry's `ram:gainedAccess` / `ram:previousVersion` terms must say what the document says. The
 * comparison is src/core/releases/compare.ts, the build's own.
 */
import { isDeepStrictEqual } from 'node:util';
import { CHANGES_EXTENSION_URI } from '../a2a/card.js';
import { ArdsiteError } from '../util/errors.js';
import { compareRam, gainsAccess, type RamSnapshot } from '../releases/compare.js';
import { scopesOfPermissionsJson } from '../releases/scopes.js';
import type { Ram } from '../schema/ram.js';
import { isRecord } from './documents.js';
import type { RunContext } from './findings.js';
import { readPinnedDocument } from './pinned-document.js';

const fail = (message: string): never => {
  throw new ArdsiteError('RELEASE_CARD_MISMATCH', message);
};

function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((x): x is string => typeof x === 'string') : undefined;
}

/** A recorded release's `scopes` (access id → scopes), read defensively; `undefined` when absent. */
function recordedScopes(value: unknown): Record<string, string[]> | undefined {
  if (!isRecord(value)) return undefined;
  const out: Record<string, string[]> = {};
  for (const [access, scopes] of Object.entries(value)) {
    const list = strings(scopes);
    if (list) out[access] = list;
  }
  return out;
}

function snapshot(ram: unknown, readOnly: unknown, scopes?: Record<string, string[]>): RamSnapshot {
  const r = isRecord(ram) ? ram : {};
  const list = (v: unknown) => (Array.isArray(v) ? v.filter(isRecord) : []);
  const ids = strings(readOnly);
  return {
    ram: {
      resources: list(r.resources),
      operations: list(r.operations),
      resourceAccesses: list(r.resourceAccesses),
    } as unknown as Ram,
    ...(ids && ids.length > 0 ? { readOnlyOperations: ids } : {}),
    ...(scopes ? { scopes } : {}),
  };
}

/**
 * Checks the release history `card` publishes, if any, against the card's RAM `ram` (one that passed the
 * RAM integrity check) and its ARD `entry`. Records into `run.f` under `subject`: nothing when the card
 * pins no changes document, else a pass or one `RELEASE_CARD_MISMATCH` failure saying what differs.
 * `permissionFile`: the card's permission file, when it pins one and it passed its own check: the scopes
 * of its accesses are the card's side of the comparison, as the build's (src/core/releases/history.ts
 * `currentSnapshot`), and the last release's recorded `scopes` the other side.
 */
export async function checkReleaseHistory(
  subject: string,
  entry: Readonly<Record<string, unknown>>,
  card: Readonly<Record<string, unknown>>,
  ram: unknown,
  run: RunContext,
  permissionFile?: Readonly<Record<string, unknown>>,
): Promise<void> {
  const extensions = isRecord(card.capabilities) ? card.capabilities.extensions : undefined;
  const ext = Array.isArray(extensions)
    ? extensions.find((e) => isRecord(e) && e.uri === CHANGES_EXTENSION_URI)
    : undefined;
  if (!isRecord(ext)) return;
  await run.f.check(subject, 'RELEASE_CARD_MISMATCH', async () => {
    const params = isRecord(ext.params) ? ext.params : {};
    if (typeof params.url !== 'string' || typeof params.digest !== 'string')
      fail(`the card's ${CHANGES_EXTENSION_URI} extension needs params.url and params.digest`);
    const url = String(params.url);
    const doc = await readPinnedDocument(run, url, String(params.digest), 'the changes document', fail);
    if (doc.identifier !== entry.identifier)
      fail(`the changes document names ${JSON.stringify(doc.identifier)}, not ${String(entry.identifier)}`);
    if (doc.version !== card.version)
      fail(
        `the changes document is for version ${JSON.stringify(doc.version)}, the card is ${JSON.stringify(card.version)}`,
      );
    const last = isRecord(doc.lastRelease)
      ? doc.lastRelease
      : fail('the changes document has no lastRelease');
    const current = snapshot(ram, doc.readOnlyOperations, scopesOfPermissionsJson(permissionFile));
    const sinceLast = compareRam(
      snapshot(last.ram, last.readOnlyOperations, recordedScopes(last.scopes)),
      current,
    );
    const latest = isRecord(doc.latest) ? doc.latest : undefined;
    if (last.version === card.version) {
      const gained = sinceLast
        .filter(gainsAccess)
        .map((c) => `${c.item} ${c.id}${c.field ? ` (${c.field})` : ''}`);
      if (gained.length > 0)
        fail(
          `the last release recorded is the card's version ${String(card.version)}, but the card has access it did not record: ${gained.join(', ')}`,
        );
    } else {
      if (!latest || latest.previousVersion !== last.version)
        fail(
          `the card's version ${String(card.version)} is not recorded yet, and the changes document does not compare it with the last release ${String(last.version)}`,
        );
      if (!isDeepStrictEqual(JSON.parse(JSON.stringify(sinceLast)), latest?.changes ?? []))
        fail(
          `the changes listed for ${String(card.version)} are not the changes between the last release ${String(last.version)} and the card`,
        );
    }
    const gainedAccess = latest?.gainedAccess ?? false;
    if (doc.gainedAccess !== gainedAccess) fail('the changes document contradicts itself on gainedAccess');
    if (entry['ram:gainedAccess'] !== undefined && entry['ram:gainedAccess'] !== gainedAccess)
      fail(
        `the entry's ram:gainedAccess is ${String(entry['ram:gainedAccess'])}, its changes document says ${String(gainedAccess)}`,
      );
    if (
      entry['ram:previousVersion'] !== undefined &&
      entry['ram:previousVersion'] !== latest?.previousVersion
    )
      fail(
        `the entry's ram:previousVersion is ${JSON.stringify(entry['ram:previousVersion'])}, its changes document compares with ${JSON.stringify(latest?.previousVersion)}`,
      );
  });
}
