/**
 * The RAM footprint terms of an ARD entry (`ram:accessCount`, `ram:asksFirstCount`, …; DESIGN.md §2,
 * src/core/ram/footprint.ts) against the RAM of the card the entry pins. The terms let a registry filter
 * agents by least privilege without fetching their cards; they sit outside the trustManifest's subject,
 * so only the card, pinned by the signed digest, vouches for them.
 */
import {
  permissionFootprint,
  ramFootprint,
  ramNamespace,
  RAM_PREFIX,
  type PermissionFootprint,
  type RamFootprint,
} from '../ram/footprint.js';
import type { Ram } from '../schema/ram.js';
import { deepStrictEqual, isRecord } from './documents.js';
import type { Findings } from './findings.js';

/** Every term {@link ramFootprint} and {@link permissionFootprint} compute, in a fixed order for the report. */
const TERMS: ReadonlyArray<keyof RamFootprint | keyof PermissionFootprint> = [
  'ram:owners',
  'ram:interactionProtocols',
  'ram:identitiesUsed',
  'ram:resourceIds',
  'ram:operationIds',
  'ram:accessCount',
  'ram:asksFirstCount',
  'ram:requiredCount',
  'ram:consumerResourceCount',
  'ram:thirdPartyResourceCount',
  'ram:actsAsEndUser',
  'ram:scopes',
  'ram:requiredScopes',
];

/** The IRI the entry's `@context` gives the `ram` prefix (an object, or an object in a list), if any. */
function ramPrefixOf(context: unknown): string | undefined {
  for (const item of Array.isArray(context) ? context : [context]) {
    if (isRecord(item) && typeof item[RAM_PREFIX] === 'string') return item[RAM_PREFIX];
  }
  return undefined;
}

/**
 * Checks the footprint terms of `entry` against `ram`, the RAM of its card (one that passed the RAM
 * integrity check), carried in the card's extension `extensionUri`, and against `permissions`, the
 * permission sets beside the RAM in that extension's params (DESIGN.md §9; scope terms). Records into `f` under `subject`: a
 * pass, or `ARD_FOOTPRINT_MISMATCH` naming each term that differs. Nothing is checked when the entry
 * carries no `ram:` term, or when its `@context` does not map the prefix to that extension's namespace
 * (the terms then mean something else).
 */
export function checkFootprint(
  subject: string,
  entry: Readonly<Record<string, unknown>>,
  extensionUri: string | undefined,
  ram: unknown,
  f: Findings,
  permissions?: unknown,
): void {
  if (!TERMS.some((term) => entry[term] !== undefined)) return;
  const prefix = ramPrefixOf(entry['@context']);
  if (prefix === undefined || extensionUri === undefined || prefix !== ramNamespace(extensionUri)) return;
  const record = isRecord(ram) ? ram : {};
  const list = (value: unknown) => (Array.isArray(value) ? value : []);
  const expected: Record<string, unknown> = {
    ...ramFootprint({
      resources: list(record.resources),
      operations: list(record.operations),
      resourceAccesses: list(record.resourceAccesses),
    } as Ram),
    ...permissionFootprint(permissions),
  };
  const differ = TERMS.filter((term) => !deepStrictEqual(entry[term], expected[term])).map(
    (term) =>
      `${term} is ${JSON.stringify(entry[term]) ?? 'missing'}, the card's RAM gives ${JSON.stringify(expected[term]) ?? 'none'}`,
  );
  if (differ.length === 0) f.pass();
  else
    f.fail(
      subject,
      'ARD_FOOTPRINT_MISMATCH',
      `the entry's RAM footprint does not match its card: ${differ.join('; ')}`,
    );
}
