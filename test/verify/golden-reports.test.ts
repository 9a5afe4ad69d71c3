/**
 * Golden reports: the verifier's whole report, as JSON, on the example-like site and on broken
 * copies of it, byte for byte against the files in test/verify/golden/, checked in one thread and with a
 * helper thread. A change that makes verification faster must not change a finding, its order or its
 * words; one that means to change them updates the files (`npx vitest run -u
 * test/verify/golden-reports.test.ts`) and the diff shows what changed. The site is built with the fixed
 * TEST-ONLY key and SOURCE_DATE_EPOCH and re-signed with that key where a case re-signs, so the reports
 * are the same on every run; the copy's temporary folder is written as `<site>`.
 *
 * The big comparison (the synthetic 1,000- and 10,000-entry sites and 25 broken copies) is
 * `npm run bench -- --verify --golden <dir>` then `--compare <dir>` (scripts/lib/verify-golden.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folderReader } from '../../src/core/verify/folder-reader.js';
import { startVerifyHelpers, type VerifyHelpers } from '../../src/core/verify/helper-threads.js';
import { verifySite, type VerifyReport } from '../../src/core/verify/site.js';
import {
  buildExampleSite,
  cardPath,
  cleanUpSites,
  ed25519Key,
  NOW,
  ORIGIN,
  SiteCopy,
  type Json,
} from '../helpers/ard-site.js';
import { dropAssertionMethod } from '../helpers/tamper.js';

let built: string;
let helpers: VerifyHelpers;

beforeAll(async () => {
  built = await buildExampleSite();
  const started = await startVerifyHelpers(1);
  if (!started.helpers) throw new Error(`no helper thread: ${started.reason}`);
  helpers = started.helpers;
});
afterAll(async () => {
  await helpers?.close();
  await cleanUpSites();
});

/** One broken copy: how it is broken. */
type Breakage = (site: SiteCopy) => Promise<void>;

/** `text` with the character at `at` replaced by another base64url character. */
const flip = (text: string, at: number) =>
  `${text.slice(0, at)}${text[at] === 'A' ? 'B' : 'A'}${text.slice(at + 1)}`;

const CASES: Record<string, Breakage> = {
  clean: async () => {},
  'card-byte': (site) =>
    site.editText(cardPath('travel-reservation'), (t) => t.replace('"description": "', '"description": "X')),
  'card-removed': (site) => site.remove(cardPath('itinerary-concierge')),
  'card-not-json': (site) => site.editText(cardPath('travel-policy-helper'), (t) => t.slice(0, t.length / 2)),
  'wrong-digest': (site) =>
    site.editEntry('itinerary-concierge', (e) => {
      e.digest = `sha256:${'0'.repeat(64)}`;
    }),
  'trust-signature': (site) =>
    site.editEntry('travel-reservation', (e) => {
      e.trustManifest!.signature = flip(e.trustManifest!.signature, e.trustManifest!.signature.length - 30);
    }),
  'card-signature': (site) =>
    site.editJson(cardPath('travel-policy-helper'), (card) => {
      const sig = (card.signatures as Json[])[0]!;
      sig.signature = flip(String(sig.signature), 10);
    }),
  'jwks-wrong-key': (site) =>
    site.editJson<{ keys: Json[] }>('/.well-known/jwks.json', (jwks) => {
      const { kty, crv, x } = ed25519Key('agents.example.com').publicJwk;
      jwks.keys[0] = { ...jwks.keys[0], kty, crv, x, y: undefined };
    }),
  'did-no-assertion': async (site) => void (await dropAssertionMethod(site.dir)),
  'ram-copies-differ': (site) =>
    site.editCard(
      'travel-reservation',
      (card) => void ((card.resourceAccessManifest as Json).resourceAccesses as unknown[]).pop(),
      { resign: true },
    ),
  'footprint-mismatch': (site) =>
    site.editEntry('itinerary-concierge', (e) => {
      e['ram:accessCount'] = 99;
    }),
  'duplicate-entry': (site) =>
    site.editJson<{ entries: Json[] }>('/.well-known/ard.json', (m) => void m.entries.push(m.entries[0]!)),
  'bad-urn': (site) =>
    site.editEntry('trip-tools', (e) => {
      e.identifier = 'urn:air:agents.example.com';
    }),
  'ai-catalog-drift': (site) =>
    site.editJson<{ entries: Json[] }>('/.well-known/ai-catalog.json', (c) => void c.entries.pop()),
  'did-bom': async (site) =>
    site.write(
      '/.well-known/did.json',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), await site.read('/.well-known/did.json')]),
    ),
};

/** The report as JSON, the copy's folder written as `<site>`. */
function reportText(report: VerifyReport, dir: string): string {
  return `${JSON.stringify(report, null, 2).split(dir).join('<site>')}\n`;
}

describe('the verifier’s reports are the golden ones', () => {
  it.each(Object.keys(CASES))('%s', async (name) => {
    const site = await SiteCopy.of(built);
    await CASES[name]!(site);
    const options = { origin: ORIGIN, now: NOW };
    const alone = await verifySite(folderReader(site.dir, ORIGIN), options);
    await expect(reportText(alone, site.dir)).toMatchFileSnapshot(`golden/${name}.json`);
    // Every entry left to the helper thread, then shared with it: the same bytes.
    for (const checkHere of [false, true]) {
      const shared = await verifySite(folderReader(site.dir, ORIGIN), {
        ...options,
        parallel: { folder: site.dir, helpers, checkHere },
      });
      expect(reportText(shared, site.dir)).toBe(reportText(alone, site.dir));
    }
  });
});
