/**
 * The checks of one of the site's own A2A cards (A2A spec §8.4; ARD draft §4.3.1; the RAM proposal):
 * its signatures with keys resolved through did:web (./card-signature-checks.ts), the entry extension naming its entry and publisher, the two RAM copies
 * being equal, the RAM's integrity, and the entry's RAM footprint terms (./footprint-check.ts).
 */
import { ENTRY_EXTENSION_URI, ramOfExtensionParams } from '../a2a/card.js';
import { ArdsiteError } from '../util/errors.js';
import { checkCardSignatures } from './card-signature-checks.js';
import {
  bomMessage,
  declaresEntry,
  deepStrictEqual,
  isRecord,
  parseJson,
  startsWithBom,
} from './documents.js';
import type { RunContext } from './findings.js';
import { checkFootprint } from './footprint-check.js';
import { checkRamIntegrity } from './ram-integrity.js';
import { checkPermissionFile } from './permission-file-check.js';
import { checkReleaseHistory } from './release-check.js';

/**
 * Checks one of the site's own A2A cards (`bytes`, served for `entry`; `subject` names the entry in the
 * findings) and records into `run.f`: JSON; the signatures, when the card carries some (A2A spec §8.4;
 * `CARD_UNSIGNED` warning otherwise; ./card-signature-checks.ts: keys through did:web, both readings,
 * every failure with its cause); the entry extension, when present, naming the entry's identifier and `did:web:<urnDomain>`
 * (ARD draft §4.3.1; without it, a warning on the publisher's origin and a failure on another one unless
 * the card holds the identifier or the DID, §6.2); the top-level RAM equal to the extension's copy; the
 * RAM's integrity (./ram-integrity.ts); and the entry's footprint terms (./footprint-check.ts). Problems
 * are findings; a document no check foresaw may still throw (the caller, entry-checks.ts, records it).
 */
export async function verifyCard(
  subject: string,
  entry: Record<string, unknown>,
  urnDomain: string,
  bytes: Uint8Array,
  run: RunContext,
): Promise<void> {
  const { f } = run;
  let card: Record<string, unknown>;
  if (startsWithBom(bytes)) f.warn(subject, 'JSON_BOM', bomMessage(String(entry.url)));
  try {
    const parsed = parseJson(bytes, 'the agent card');
    if (!isRecord(parsed)) throw new ArdsiteError('JSON_INVALID', 'the agent card is not a JSON object');
    card = parsed;
  } catch (error) {
    f.fail(subject, 'JSON_INVALID', (error as Error).message);
    return;
  }
  const signatures = card.signatures;
  // A2A makes signatures optional (§8.4); the entry's digest, under its signed trustManifest, still
  // binds the card to its publisher. `signatures` that is not a list is a malformed signature.
  if (signatures === undefined || (Array.isArray(signatures) && signatures.length === 0)) {
    f.warn(
      subject,
      'CARD_UNSIGNED',
      "the agent card carries no A2A signature (optional in A2A §8.4): only the entry's digest ties it to its publisher",
    );
  } else {
    await checkCardSignatures(subject, card, urnDomain, run);
  }
  const extensions = (card.capabilities as { extensions?: unknown } | undefined)?.extensions;
  const list = Array.isArray(extensions) ? extensions.filter(isRecord) : [];
  // The card declares its entry (ARD draft §4.3.1, §6.2): ardsite's extension must name the entry and
  // its publisher. On its publisher's origin ARD asks for nothing, and a card without the extension is
  // only a warning (an error in ardsite's own build); served from another origin, a card without it must
  // hold its identifier or its publisher's DID some other way.
  const ext = list.find((e) => e.uri === ENTRY_EXTENSION_URI);
  const publisher = `did:web:${urnDomain}`;
  // Whether the card is this entry's: the RAM footprint is compared only then (another entry's card
  // has another RAM, and its identity finding says so already).
  let ownCard = true;
  if (!ext) {
    if (new URL(String(entry.url)).origin === `https://${urnDomain}`) {
      f.warn(
        subject,
        'CARD_ENTRY_UNDECLARED',
        `the card does not name its ARD entry in the ${ENTRY_EXTENSION_URI} extension, as ardsite's cards do; ARD asks this only of a card served from another origin (§6.2), which a copy of this one could then not be tied to`,
      );
    } else if (declaresEntry(bytes, String(entry.identifier), publisher)) {
      f.pass();
    } else {
      ownCard = false;
      f.fail(
        subject,
        'CARD_IDENTITY_MISMATCH',
        `the card is served from another origin than https://${urnDomain} and declares neither ${String(entry.identifier)} nor ${publisher} (ARD draft §6.2)`,
      );
    }
  } else {
    ownCard = await f.check(subject, 'CARD_IDENTITY_MISMATCH', () => {
      const params = isRecord(ext.params) ? ext.params : {};
      if (params.identifier !== entry.identifier) {
        throw new ArdsiteError(
          'CARD_IDENTITY_MISMATCH',
          `the card's entry extension names ${JSON.stringify(params.identifier)}, not ${String(entry.identifier)}`,
        );
      }
      if (params.publisher !== undefined && params.publisher !== publisher) {
        throw new ArdsiteError(
          'CARD_IDENTITY_MISMATCH',
          `the card's entry extension names the publisher ${JSON.stringify(params.publisher)}, not ${publisher}`,
        );
      }
    });
  }
  // The RAM: the top-level copy (not covered by the A2A signature) must equal the extension copy.
  const top = card.resourceAccessManifest;
  const ramExtension = list.find((e) => isRecord(e.params) && Array.isArray(e.params.resourceAccesses));
  const extensionRam = ramExtension?.params as Record<string, unknown> | undefined;
  if (top === undefined && extensionRam === undefined) return;
  // Beside the RAM in the params: the skill map, the permission sets (src/core/model/permissions.ts) and
  // the permission page's facts (src/core/a2a/card.ts `PageFacts`).
  const extensionCopy = ramOfExtensionParams(extensionRam ?? {});
  let copiesAgree = true;
  if (top !== undefined) {
    copiesAgree = await f.check(subject, 'CARD_RAM_COPIES_DIFFER', () => {
      if (extensionRam === undefined) {
        throw new ArdsiteError(
          'CARD_RAM_COPIES_DIFFER',
          'resourceAccessManifest has no copy in capabilities.extensions, the copy the A2A signature covers',
        );
      }
      if (!deepStrictEqual(top, extensionCopy)) {
        throw new ArdsiteError(
          'CARD_RAM_COPIES_DIFFER',
          'resourceAccessManifest differs from the RAM extension params',
        );
      }
    });
  }
  const ram = extensionRam !== undefined ? extensionCopy : top;
  const problems = checkRamIntegrity(ram);
  for (const problem of problems) f.fail(subject, problem.code, problem.message);
  if (problems.length > 0) return;
  f.pass();
  const extensionUri = typeof ramExtension?.uri === 'string' ? ramExtension.uri : undefined;
  if (ownCard && copiesAgree) {
    checkFootprint(subject, entry, extensionUri, ram, f, extensionRam?.permissions);
    const permissionFile = await checkPermissionFile(subject, entry, extensionRam?.permissions, run);
    await checkReleaseHistory(subject, entry, card, ram, run, permissionFile);
  }
}
