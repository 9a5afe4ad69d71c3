/**
 * `npm run verify` against broken sites (DESIGN.md §4; ARD draft §3.5, §4.3.1, §6): the example
 * site is built once with the fixed TEST-ONLY key, and each test breaks a copy of it in one way and
 * expects exactly the failure that names the break. Folder mode (the build's self-check) and network
 * mode (a static server on loopback, reached through `--resolve`) run the same verifier.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/core/a2a/card.js';
import { selfCheckFailures } from '../../src/core/build/self-check.js';
import { sha256Digest } from '../../src/core/ard/digest.js';
import { generatePrivateJwk, createSigningKey } from '../../src/core/trust/keys.js';
import { discoverManifest } from '../../src/core/verify/discovery.js';
import { folderReader } from '../../src/core/verify/folder-reader.js';
import { httpReader, parseResolve } from '../../src/core/verify/http-reader.js';
import { verifySite, type VerifyReport } from '../../src/core/verify/site.js';
import {
  buildExampleSite,
  cardPath,
  cleanUpSites,
  didDocumentOf,
  DOMAIN,
  ed25519Key,
  expectClean,
  expectFailures,
  failures,
  jsonBytes,
  NOW,
  ORIGIN,
  signTm,
  SITE_KEY,
  SiteCopy,
  thirdPartyManifest,
  urnOf,
  type EntryJson,
  type Json,
} from '../helpers/ard-site.js';
import { startStaticServer, type StaticServer } from '../helpers/static-server.js';

let built: string;
let server: StaticServer;

beforeAll(async () => {
  built = await buildExampleSite();
  server = await startStaticServer({ root: built });
});
afterEach(() => server.reset());
afterAll(async () => {
  await server?.close();
  await cleanUpSites();
});

const copy = () => SiteCopy.of(built);
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const protectedHeaderOf = (jws: string) =>
  JSON.parse(Buffer.from(jws.split('.')[0]!, 'base64url').toString()) as Json;

/** Verifies `site` over HTTP: every host in `hosts` (and the site's own) resolves to the test server. */
async function verifyOverHttp(
  site: SiteCopy | string,
  hosts: Record<string, string> = {},
  options: { maxBytes?: number; maxEntries?: number } = {},
): Promise<VerifyReport> {
  server.root = typeof site === 'string' ? site : site.dir;
  server.hosts = hosts;
  const resolve = parseResolve([DOMAIN, ...Object.keys(hosts)].map((h) => `${h}=${server.url}`));
  const reader = httpReader({ resolve, ...(options.maxBytes ? { maxBytes: options.maxBytes } : {}) });
  return verifySite(reader, {
    origin: ORIGIN,
    now: NOW,
    ...(options.maxEntries ? { maxEntries: options.maxEntries } : {}),
  });
}

/** A folder holding a third party's did.json (served as that host by the test server). */
async function thirdPartySite(domain: string): Promise<string> {
  const site = await SiteCopy.of(built);
  await site.writeJson('/.well-known/did.json', didDocumentOf(domain, ed25519Key(domain)));
  return site.dir;
}

const OWN = ['trip-tools', 'itinerary-concierge', 'travel-policy-helper', 'travel-reservation'];
const AGENTS = ['itinerary-concierge', 'travel-policy-helper', 'travel-reservation'];

describe('the example site', () => {
  it('verifies clean from the built folder', async () => {
    const report = await (await copy()).verify();
    expectClean(report);
    expect(report.entries).toBe(5);
    // Only the foreign entry (another publisher, no trustManifest) is a discovery hint.
    expect(report.findings).toEqual([
      expect.objectContaining({
        code: 'TRUST_MISSING',
        severity: 'warning',
        subject: urnOf('hotel-booking'),
      }),
    ]);
    expect(report.passed).toBeGreaterThan(20);
  });

  it('verifies clean over HTTP through --resolve, with discovery from the home page', async () => {
    server.root = built;
    const reader = httpReader({ resolve: parseResolve([`${DOMAIN}=${server.url}`]) });
    const discovery = await discoverManifest(reader, ORIGIN, `${ORIGIN}/`);
    expect(discovery.manifestUrl).toBe(`${ORIGIN}/.well-known/ard.json`);
    expect(discovery.findings.filter((f) => f.subject === `${ORIGIN}/`)).toEqual([]); // <link rel="ard"> found
    const report = await verifySite(reader, { origin: ORIGIN, now: NOW, manifestUrl: discovery.manifestUrl });
    expectClean(report);
    expect(server.requests.every((r) => r.host === DOMAIN)).toBe(true);
    expect(server.requests.filter((r) => r.path === '/.well-known/did.json')).toHaveLength(1); // cached per run
  });

  it('a home page or robots.txt that cannot be read is said so, not "has no link"', async () => {
    const site = await copy();
    await site.remove('/index.html');
    await site.remove('/robots.txt');
    server.root = site.dir;
    const reader = httpReader({ resolve: parseResolve([`${DOMAIN}=${server.url}`]) });
    const discovery = await discoverManifest(reader, ORIGIN, `${ORIGIN}/`);
    expect(discovery.manifestUrl).toBe(`${ORIGIN}/.well-known/ard.json`);
    expect(discovery.findings.map((f) => [f.subject, f.message])).toEqual([
      [`${ORIGIN}/`, expect.stringMatching(/^the page could not be read \(.*HTTP 404\)/)],
      [`${ORIGIN}/robots.txt`, expect.stringMatching(/^robots\.txt could not be read \(.*HTTP 404\)/)],
    ]);
  });
});

describe('digests', () => {
  it('a changed card byte outside the signed content (indentation) → ARD_DIGEST_MISMATCH only', async () => {
    const site = await copy();
    await site.editText(cardPath('travel-reservation'), (t) => t.replace('\n  "name"', '\n \t"name"'));
    expectFailures(await site.verify(), ['ARD_DIGEST_MISMATCH', urnOf('travel-reservation')]);
  });

  it('a changed card byte in a signed field → ARD_DIGEST_MISMATCH and CARD_PAYLOAD_CHANGED', async () => {
    const site = await copy();
    await site.editText(cardPath('travel-reservation'), (t) => t.replace('Books flights', 'Books flighTs'));
    expectFailures(
      await site.verify(),
      ['ARD_DIGEST_MISMATCH', urnOf('travel-reservation')],
      ['CARD_PAYLOAD_CHANGED', urnOf('travel-reservation')],
    );
  });

  it('a changed byte of a non-card artifact (the MCP server card) → ARD_DIGEST_MISMATCH', async () => {
    const site = await copy();
    await site.editText('/mcp/trip-tools.json', (t) => t.replace(/\n$/, ' \n'));
    expectFailures(await site.verify(), ['ARD_DIGEST_MISMATCH', urnOf('trip-tools')]);
  });

  it('an MCP server card that is not a server.json (name not reverse-DNS, a remote without url), re-pinned → MCP_SERVER_CARD_INVALID naming both', async () => {
    const site = await copy();
    await site.editText('/mcp/trip-tools.json', (t) =>
      t
        .replace('"com.example.agents/trip-tools"', '"trip-tools"')
        .replace(/"url": "https:\/\/mcp[^"]*"/, '"uri": "x"'),
    );
    await site.repin('trip-tools');
    const report = await site.verify();
    expectFailures(report, ['MCP_SERVER_CARD_INVALID', urnOf('trip-tools')]);
    const message = failures(report).find((f) => f.code === 'MCP_SERVER_CARD_INVALID')!.message;
    expect(message).toContain('name: must match pattern');
    expect(message).toContain("remotes.0: must have required property 'url'");
  });

  it('two cards swapped → ARD_DIGEST_MISMATCH and CARD_IDENTITY_MISMATCH on both entries', async () => {
    const site = await copy();
    const a = await site.read(cardPath('itinerary-concierge'));
    const b = await site.read(cardPath('travel-reservation'));
    await site.write(cardPath('itinerary-concierge'), b);
    await site.write(cardPath('travel-reservation'), a);
    expectFailures(
      await site.verify(),
      ['ARD_DIGEST_MISMATCH', urnOf('itinerary-concierge')],
      ['ARD_DIGEST_MISMATCH', urnOf('travel-reservation')],
      ['CARD_IDENTITY_MISMATCH', urnOf('itinerary-concierge')],
      ['CARD_IDENTITY_MISMATCH', urnOf('travel-reservation')],
    );
  });

  it('two cards swapped and re-pinned and re-signed by the publisher → CARD_IDENTITY_MISMATCH only', async () => {
    const site = await copy();
    const a = await site.read(cardPath('itinerary-concierge'));
    const b = await site.read(cardPath('travel-reservation'));
    await site.write(cardPath('itinerary-concierge'), b);
    await site.write(cardPath('travel-reservation'), a);
    await site.repin('itinerary-concierge');
    await site.repin('travel-reservation');
    expectFailures(
      await site.verify(),
      ['CARD_IDENTITY_MISMATCH', urnOf('itinerary-concierge')],
      ['CARD_IDENTITY_MISMATCH', urnOf('travel-reservation')],
    );
  });

  it('a card whose entry extension names another publisher → CARD_IDENTITY_MISMATCH', async () => {
    const site = await copy();
    await site.editCard(
      'travel-policy-helper',
      (card) => {
        const ext = (card.capabilities as { extensions: Json[] }).extensions.find(
          (e) => e.uri === 'urn:ardsite:ext:ard-entry:v1',
        )!;
        (ext.params as Json).publisher = 'did:web:evil.example';
      },
      { resign: true },
    );
    expectFailures(await site.verify(), ['CARD_IDENTITY_MISMATCH', urnOf('travel-policy-helper')]);
  });
});

describe('the well-known card copies (A2A §8.2)', () => {
  it('a changed copy of the primary card → WELL_KNOWN_CARD_MISMATCH, naming the card to serve', async () => {
    const site = await copy();
    await site.editJson('/.well-known/agent-card.json', (card) => {
      card.name = 'Someone Else';
    });
    const report = await site.verify();
    expectFailures(report, ['WELL_KNOWN_CARD_MISMATCH', '/.well-known/agent-card.json']);
    expect(failures(report)[0]!.message).toMatch(/serve the same bytes as https:\/\/.*agent-card\.json/);
  });

  it("a copy that is no entry's card → a WELL_KNOWN_CARD_UNLISTED warning, which fails ardsite's own build; none served → nothing", async () => {
    const site = await copy();
    await site.write('/.well-known/agent.json', '{"bogus":1}\n');
    const report = await site.verify();
    expectClean(report);
    const unlisted = expect.objectContaining({
      code: 'WELL_KNOWN_CARD_UNLISTED',
      severity: 'warning',
      subject: `${ORIGIN}/.well-known/agent.json`,
    });
    expect(report.findings).toContainEqual(unlisted);
    expect(selfCheckFailures(report.findings)).toEqual([unlisted]);

    await site.remove('/.well-known/agent.json');
    await site.remove('/.well-known/agent-card.json');
    const without = await site.verify();
    expectClean(without);
    expect(without.findings.filter((f) => f.subject.includes('/.well-known/agent'))).toEqual([]);
  });
});

describe('the well-known card copies, hostile', () => {
  it('a copy nested 100,000 levels deep is searched like any other (a warning, no crash)', async () => {
    const site = await copy();
    await site.write('/.well-known/agent.json', `{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
    const report = await site.verify();
    expectClean(report);
    expect(report.findings).toContainEqual(
      expect.objectContaining({
        code: 'WELL_KNOWN_CARD_UNLISTED',
        subject: `${ORIGIN}/.well-known/agent.json`,
      }),
    );
  });
});

describe('the RAM footprint terms of an entry', () => {
  it('a RAM whose operations is null is read as an empty list (no crash)', async () => {
    const site = await copy();
    await site.editCard(
      'itinerary-concierge',
      (card) => {
        const ext = (card.capabilities as { extensions: Json[] }).extensions.find((e) =>
          Array.isArray((e.params as Json | undefined)?.resourceAccesses),
        )!;
        for (const ram of [card.resourceAccessManifest as Json, ext.params as Json]) {
          ram.resourceAccesses = [];
          ram.operations = null;
          ram.resources = [];
        }
      },
      { resign: true },
    );
    const report = await site.verify();
    expect(report.entries).toBe(5);
    expectFailures(report, ['ARD_FOOTPRINT_MISMATCH', urnOf('itinerary-concierge')]);
  });

  it('a ram: term that the card does not bear out → ARD_FOOTPRINT_MISMATCH, naming the term', async () => {
    const site = await copy();
    const before = (await site.entry('travel-reservation'))['ram:asksFirstCount'];
    await site.editEntry('travel-reservation', (e) => {
      e['ram:asksFirstCount'] = 4;
    });
    const report = await site.verify();
    expectFailures(report, ['ARD_FOOTPRINT_MISMATCH', urnOf('travel-reservation')]);
    expect(failures(report)[0]!.message).toContain(
      `ram:asksFirstCount is 4, the card's RAM gives ${String(before)}`,
    );
  });

  it('a ram:scopes term broader than the permission sets of the card → ARD_FOOTPRINT_MISMATCH', async () => {
    const site = await copy();
    const before = (await site.entry('travel-reservation'))['ram:scopes'];
    expect(before).toEqual(['https://www.googleapis.com/auth/calendar.events']);
    await site.editEntry('travel-reservation', (e) => {
      e['ram:scopes'] = ['https://www.googleapis.com/auth/calendar'];
    });
    const report = await site.verify();
    expectFailures(report, ['ARD_FOOTPRINT_MISMATCH', urnOf('travel-reservation')]);
    expect(failures(report)[0]!.message).toContain(
      'ram:scopes is ["https://www.googleapis.com/auth/calendar"]',
    );
  });

  it("terms under a prefix the entry maps elsewhere are not ardsite's, and are not checked", async () => {
    const site = await copy();
    await site.editEntry('travel-reservation', (e) => {
      e['@context'] = { ram: 'https://example.org/other-vocabulary#' };
      e['ram:asksFirstCount'] = 4;
    });
    expectClean(await site.verify());
  });
});

describe('trustManifest signatures', () => {
  it("a kid that is a fragment of the identity's DID document (#<thumbprint>) is that key", async () => {
    const site = await copy();
    await site.editEntry('trip-tools', (e) => {
      signTm(e.trustManifest!, SITE_KEY, { kid: `#${SITE_KEY.kid.split('#')[1]!}` });
    });
    expectClean(await site.verify());
  });

  it('a subject that names a url the entry does not have → TRUST_SUBJECT_MISMATCH (ARD draft §5 trust-subject)', async () => {
    const site = await copy();
    await site.editEntry('trip-tools', (e) => {
      (e.trustManifest!.subject as Json).url = 'https://tools.example.net/mcp/trip-tools.json';
      signTm(e.trustManifest!);
    });
    expectFailures(await site.verify(), ['TRUST_SUBJECT_MISMATCH', urnOf('trip-tools')]);
    const same = await copy();
    await same.editEntry('trip-tools', (e) => {
      (e.trustManifest!.subject as Json).url = e.url;
      signTm(e.trustManifest!);
    });
    expectClean(await same.verify());
  });

  it('a changed trustManifest field → TRUST_SIGNATURE_INVALID', async () => {
    const site = await copy();
    await site.editEntry('itinerary-concierge', (e) => {
      e.trustManifest!.issuedAt = '2025-11-24T16:00:01Z';
    });
    expectFailures(await site.verify(), ['TRUST_SIGNATURE_INVALID', urnOf('itinerary-concierge')]);
  });

  it('a changed entry field that the trustManifest subject pins → TRUST_SUBJECT_MISMATCH', async () => {
    const site = await copy();
    await site.editEntry('travel-policy-helper', (e) => {
      e.version = '2.0.1';
    });
    expectFailures(await site.verify(), ['TRUST_SUBJECT_MISMATCH', urnOf('travel-policy-helper')]);
  });

  it('signed by a key not in did.json (Ed25519 test key, the kid kept) → TRUST_SIGNATURE_INVALID', async () => {
    const site = await copy();
    await site.editEntry('travel-reservation', (e) => {
      signTm(e.trustManifest!, ed25519Key(DOMAIN), { kid: SITE_KEY.kid });
    });
    const report = await site.verify();
    expect(protectedHeaderOf((await site.entry('travel-reservation')).trustManifest!.signature)).toEqual({
      alg: 'EdDSA',
      kid: SITE_KEY.kid,
    });
    expectFailures(report, ['TRUST_SIGNATURE_INVALID', urnOf('travel-reservation')]);
  });

  it('signed by another P-256 key under the listed kid → TRUST_SIGNATURE_INVALID', async () => {
    const site = await copy();
    const stranger = createSigningKey(await generatePrivateJwk('ES256'), DOMAIN);
    await site.editEntry('travel-reservation', (e) => {
      signTm(e.trustManifest!, stranger, { kid: SITE_KEY.kid });
    });
    expectFailures(await site.verify(), ['TRUST_SIGNATURE_INVALID', urnOf('travel-reservation')]);
  });

  it('signed by a key of our DID that did.json does not list → DID_RESOLUTION_FAILED', async () => {
    const site = await copy();
    await site.editEntry('travel-reservation', (e) => {
      signTm(e.trustManifest!, ed25519Key(DOMAIN));
    });
    expectFailures(await site.verify(), ['DID_RESOLUTION_FAILED', urnOf('travel-reservation')]);
  });

  it('a key in did.json but not under assertionMethod → DID_RESOLUTION_FAILED for every own entry, CARD_KEY_NOT_AUTHORISED for every card, JWKS_DID_MISMATCH', async () => {
    const site = await copy();
    await site.editJson('/.well-known/did.json', (doc) => {
      doc.assertionMethod = ['did:web:agents.example.com#some-other-key'];
    });
    expectFailures(
      await site.verify(),
      ...OWN.map((n): ['DID_RESOLUTION_FAILED', string] => ['DID_RESOLUTION_FAILED', urnOf(n)]),
      ...AGENTS.map((n): ['CARD_KEY_NOT_AUTHORISED', string] => ['CARD_KEY_NOT_AUTHORISED', urnOf(n)]),
      ['JWKS_DID_MISMATCH', `${ORIGIN}/.well-known/jwks.json`],
    );
  });

  it('a missing did.json → DID_RESOLUTION_FAILED for every own entry', async () => {
    const site = await copy();
    await site.remove('/.well-known/did.json');
    const report = await site.verify();
    expectFailures(
      report,
      ...OWN.map((n): ['DID_RESOLUTION_FAILED', string] => ['DID_RESOLUTION_FAILED', urnOf(n)]),
    );
  });

  it('a did.json served by another DID → DID_RESOLUTION_FAILED', async () => {
    const site = await copy();
    await site.editJson('/.well-known/did.json', (doc) => {
      doc.id = 'did:web:evil.example';
    });
    const report = await site.verify();
    expectFailures(
      report,
      ...OWN.map((n): ['DID_RESOLUTION_FAILED', string] => ['DID_RESOLUTION_FAILED', urnOf(n)]),
      ['DID_RESOLUTION_FAILED', `${ORIGIN}/.well-known/did.json`],
      ['JWKS_DID_MISMATCH', `${ORIGIN}/.well-known/jwks.json`],
    );
    expect(report.findings).toContainEqual(
      expect.objectContaining({
        subject: `${ORIGIN}/.well-known/did.json`,
        message: expect.stringMatching(/is did:web:evil\.example, not did:web:agents\.example\.com/),
      }),
    );
  });

  it('an attached (non-detached) JWS whose payload differs → JWS_INVALID', async () => {
    const site = await copy();
    await site.editEntry('trip-tools', (e) => {
      const [h, , s] = e.trustManifest!.signature.split('.');
      e.trustManifest!.signature = `${h}.${b64({ identity: 'did:web:agents.example.com', subject: { identifier: 'urn:air:agents.example.com:tools:evil' } })}.${s}`;
    });
    expectFailures(await site.verify(), ['JWS_INVALID', urnOf('trip-tools')]);
  });

  it('alg "none" (with or without a signature part) → JWS_INVALID', async () => {
    const site = await copy();
    await site.editEntry('trip-tools', (e) => {
      e.trustManifest!.signature = `${b64({ alg: 'none', kid: SITE_KEY.kid })}..`;
    });
    await site.editEntry('itinerary-concierge', (e) => {
      const [, , s] = e.trustManifest!.signature.split('.');
      e.trustManifest!.signature = `${b64({ alg: 'none', kid: SITE_KEY.kid })}..${s}`;
    });
    expectFailures(
      await site.verify(),
      ['JWS_INVALID', urnOf('trip-tools')],
      ['JWS_INVALID', urnOf('itinerary-concierge')],
    );
  });

  it('an HMAC alg (HS256) → JWS_INVALID', async () => {
    const site = await copy();
    await site.editEntry('trip-tools', (e) => {
      const [, , s] = e.trustManifest!.signature.split('.');
      e.trustManifest!.signature = `${b64({ alg: 'HS256', kid: SITE_KEY.kid })}..${s}`;
    });
    expectFailures(await site.verify(), ['JWS_INVALID', urnOf('trip-tools')]);
  });

  it('no signature at all → TRUST_MISSING', async () => {
    const site = await copy();
    await site.editEntry('trip-tools', (e) => {
      delete (e.trustManifest as Json).signature;
    });
    expectFailures(await site.verify(), ['TRUST_MISSING', urnOf('trip-tools')]);
  });

  it('an own entry without a trustManifest → TRUST_MISSING', async () => {
    const site = await copy();
    await site.editEntry('trip-tools', (e) => {
      delete e.trustManifest;
    });
    expectFailures(await site.verify(), ['TRUST_MISSING', urnOf('trip-tools')]);
  });
});

describe('expiry', () => {
  const expire = (site: SiteCopy, at: string) =>
    site.editEntry('itinerary-concierge', (e) => {
      e.trustManifest!.expiresAt = at;
      signTm(e.trustManifest!);
    });

  it('a trustManifest signed with expiresAt in the past → TRUST_EXPIRED', async () => {
    const site = await copy();
    await expire(site, '2026-01-01T00:00:00Z');
    expectFailures(await site.verify(), ['TRUST_EXPIRED', urnOf('itinerary-concierge')]);
  });

  it('the same manifest verifies before it expires', async () => {
    const site = await copy();
    await expire(site, '2026-01-01T00:00:00Z');
    expectClean(await site.verify({ now: new Date('2025-12-31T23:59:59Z') }));
  });

  it('an expiresAt that is not a date → SCHEMA_INVALID_VALUE (never treated as "no expiry")', async () => {
    const site = await copy();
    await expire(site, 'next Tuesday');
    expectFailures(await site.verify(), ['SCHEMA_INVALID_VALUE', urnOf('itinerary-concierge')]);
  });
});

describe('the card', () => {
  const ramExtension = (card: JsonObject) =>
    (card.capabilities as { extensions: Json[] }).extensions.find((e) =>
      Array.isArray((e.params as Json | undefined)?.resourceAccesses),
    )!;

  it('a top-level RAM that differs from its extension copy (card re-pinned, trustManifest re-signed) → CARD_RAM_COPIES_DIFFER, and the whole-card signature CARD_PAYLOAD_CHANGED', async () => {
    const site = await copy();
    await site.editCard('travel-reservation', (card) => {
      const ram = card.resourceAccessManifest as { resourceAccesses: Json[] };
      ram.resourceAccesses[0]!.confirmationRequired = !ram.resourceAccesses[0]!.confirmationRequired;
    });
    const report = await site.verify();
    expectFailures(
      report,
      ['CARD_RAM_COPIES_DIFFER', urnOf('travel-reservation')],
      ['CARD_PAYLOAD_CHANGED', urnOf('travel-reservation')],
    );
    // Only the whole-card signature (signatures[1]) covers the top-level RAM; the SDK's reading holds.
    expect(
      failures(report)
        .filter((f) => f.code === 'CARD_PAYLOAD_CHANGED')
        .map((f) => f.message),
    ).toEqual([expect.stringMatching(/^card signatures\[1\] does not hold over the whole card as served/)]);
  });

  it('an extension RAM that differs from the top-level copy (card re-signed) → CARD_RAM_COPIES_DIFFER only', async () => {
    const site = await copy();
    await site.editCard(
      'itinerary-concierge',
      (card) => {
        const params = ramExtension(card).params as { resourceAccesses: Json[] };
        params.resourceAccesses.pop();
      },
      { resign: true },
    );
    expectFailures(await site.verify(), ['CARD_RAM_COPIES_DIFFER', urnOf('itinerary-concierge')]);
  });

  it('a top-level RAM without the signed extension copy → CARD_RAM_COPIES_DIFFER', async () => {
    const site = await copy();
    await site.editCard(
      'travel-reservation',
      (card) => {
        const caps = card.capabilities as { extensions: Json[] };
        caps.extensions = caps.extensions.filter((e) => e !== ramExtension(card));
      },
      { resign: true },
    );
    expectFailures(await site.verify(), ['CARD_RAM_COPIES_DIFFER', urnOf('travel-reservation')]);
  });

  it('a RAM access naming an operation the RAM does not hold → RAM_DANGLING_OPERATION', async () => {
    const site = await copy();
    await site.editCard(
      'travel-reservation',
      (card) => {
        for (const ram of [card.resourceAccessManifest as Json, ramExtension(card).params as Json]) {
          (ram.resourceAccesses as Json[])[0]!.operation = 'no-such-operation';
        }
      },
      { resign: true },
    );
    expectFailures(await site.verify(), ['RAM_DANGLING_OPERATION', urnOf('travel-reservation')]);
  });

  it('a RAM enum value that is not one of the RAM proposal\'s names (identityUsed "USER") → SCHEMA_INVALID_ENUM', async () => {
    const site = await copy();
    await site.editCard(
      'travel-reservation',
      (card) => {
        for (const ram of [card.resourceAccessManifest as Json, ramExtension(card).params as Json]) {
          (ram.resourceAccesses as Json[])[0]!.identityUsed = 'USER';
        }
      },
      { resign: true },
    );
    const report = await site.verify();
    expectFailures(report, ['SCHEMA_INVALID_ENUM', urnOf('travel-reservation')]);
    expect(failures(report)[0]!.message).toMatch(/identityUsed "USER", not one of END_USER, AGENT/);
  });

  it('a card nested 100,000 levels deep → a JSON_INVALID finding on its entry, and the run goes on', async () => {
    const site = await copy();
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    await site.editText(cardPath('itinerary-concierge'), (t) =>
      t.replace('"resourceAccesses": [', `"deep": ${deep},\n"resourceAccesses": [`),
    );
    await site.repin('itinerary-concierge');
    const report = await site.verify();
    expect(failures(report)).toContainEqual(
      expect.objectContaining({
        code: 'JSON_INVALID',
        subject: urnOf('itinerary-concierge'),
        message: expect.stringContaining('more than 512 levels deep'),
      }),
    );
    // Every other entry is still checked.
    expect(failures(report).filter((f) => !f.subject.startsWith(urnOf('itinerary-concierge')))).toEqual([]);
    expect(report.entries).toBe(5);
  });

  it('a card signature whose jku points at another origin → CARD_FOREIGN_JKU', async () => {
    const site = await copy();
    await site.resignCardWithHeader('travel-policy-helper', {
      jku: 'https://evil.example/.well-known/jwks.json',
    });
    expectFailures(await site.verify(), ['CARD_FOREIGN_JKU', urnOf('travel-policy-helper')]);
  });

  it('a card signed under a kid that did.json does not have → CARD_KEY_UNKNOWN', async () => {
    const site = await copy();
    const stranger = ed25519Key(DOMAIN);
    await site.resignCardWithHeader('travel-policy-helper', { kid: stranger.kid });
    expectFailures(await site.verify(), ['CARD_KEY_UNKNOWN', urnOf('travel-policy-helper')]);
  });

  it("a card without signatures → a CARD_UNSIGNED warning (A2A §8.4 makes them optional), which fails ardsite's own build", async () => {
    const site = await copy();
    await site.editCard('travel-policy-helper', (card) => {
      delete card.signatures;
    });
    const report = await site.verify();
    expectClean(report);
    const unsigned = expect.objectContaining({
      code: 'CARD_UNSIGNED',
      severity: 'warning',
      subject: urnOf('travel-policy-helper'),
    });
    expect(report.findings).toContainEqual(unsigned);
    expect(selfCheckFailures(report.findings)).toEqual([unsigned]);
  });

  it('a card whose signatures is not a list → CARD_SIGNATURE_INVALID', async () => {
    const site = await copy();
    await site.editCard('travel-policy-helper', (card) => {
      card.signatures = { protected: 'e30', signature: 'AA' };
    });
    expectFailures(await site.verify(), ['CARD_SIGNATURE_INVALID', urnOf('travel-policy-helper')]);
  });

  const withoutEntryExtension = (card: JsonObject) => {
    const caps = card.capabilities as { extensions: Json[] };
    caps.extensions = caps.extensions.filter((e) => e.uri !== 'urn:ardsite:ext:ard-entry:v1');
  };

  it("a card that does not name its entry, on its publisher's origin → a CARD_ENTRY_UNDECLARED warning (ARD asks for nothing there), which fails ardsite's own build", async () => {
    const site = await copy();
    await site.editCard('travel-policy-helper', withoutEntryExtension, { resign: true });
    const report = await site.verify();
    expectClean(report);
    const undeclared = expect.objectContaining({
      code: 'CARD_ENTRY_UNDECLARED',
      severity: 'warning',
      subject: urnOf('travel-policy-helper'),
    });
    expect(report.findings).toContainEqual(undeclared);
    expect(selfCheckFailures(report.findings)).toEqual([undeclared]);
  });

  it('a card served from another origin must declare its identifier or publisher (ARD draft §6.2)', async () => {
    const CARDS = 'cards.example.net';
    const moveCard = async (site: SiteCopy, edit: (card: JsonObject) => void) => {
      await site.editCard('travel-policy-helper', edit, { resign: true });
      const elsewhere = await copy();
      await elsewhere.write(
        cardPath('travel-policy-helper'),
        await site.read(cardPath('travel-policy-helper')),
      );
      await site.editEntry('travel-policy-helper', (e) => {
        e.url = `https://${CARDS}${cardPath('travel-policy-helper')}`;
      });
      return elsewhere.dir;
    };
    const undeclared = await copy();
    const undeclaredCards = await moveCard(undeclared, withoutEntryExtension);
    const report = await verifyOverHttp(undeclared, { [CARDS]: undeclaredCards });
    expectFailures(report, ['CARD_IDENTITY_MISMATCH', urnOf('travel-policy-helper')]);
    expect(failures(report)[0]!.message).toContain('§6.2');

    // The identifier named anywhere in the card is a declaration.
    const declared = await copy();
    const declaredCards = await moveCard(declared, (card) => {
      withoutEntryExtension(card);
      (card.skills as Json[])[0]!.tags = [urnOf('travel-policy-helper')];
    });
    const clean = await verifyOverHttp(declared, { [CARDS]: declaredCards });
    expectClean(clean);
    expect(clean.findings.filter((f) => f.subject === urnOf('travel-policy-helper'))).toEqual([]);
  });
});

describe('publisher authority and third parties', () => {
  it('an entry whose URN names another domain but claims our signature → TRUST_AUTHORITY_MISMATCH', async () => {
    const site = await copy();
    await site.editJson<{ entries: EntryJson[] }>('/.well-known/ard.json', (m) => {
      const ours = m.entries.find((e) => e.identifier === urnOf('travel-reservation'))!;
      const squat: EntryJson = structuredClone(ours);
      squat.identifier = 'urn:air:evil.example:travel:travel-reservation';
      squat.trustManifest!.subject.identifier = squat.identifier;
      signTm(squat.trustManifest!); // a valid signature of ours, over the other domain's URN
      m.entries.push(squat);
    });
    expectFailures(await site.verify(), [
      'TRUST_AUTHORITY_MISMATCH',
      'urn:air:evil.example:travel:travel-reservation',
    ]);
  });

  it("an own entry whose only valid signature is a third party's (in trustManifests[]) → TRUST_MISSING", async () => {
    const site = await copy();
    await site.editEntry('trip-tools', (e) => {
      e.trustManifests = [thirdPartyManifest(e, 'auditor.example')];
      delete e.trustManifest;
    });
    const auditor = await thirdPartySite('auditor.example');
    const report = await verifyOverHttp(site, { 'auditor.example': auditor });
    expectFailures(report, ['TRUST_MISSING', urnOf('trip-tools')]);
    // The auditor's manifest itself was verified, against the auditor's own did.json.
    expect(server.requests).toContainEqual({
      method: 'GET',
      host: 'auditor.example',
      path: '/.well-known/did.json',
    });
  });

  it("an own entry whose trustManifest is a third party's → TRUST_AUTHORITY_MISMATCH", async () => {
    const site = await copy();
    await site.editEntry('trip-tools', (e) => {
      e.trustManifest = thirdPartyManifest(e, 'auditor.example');
    });
    const auditor = await thirdPartySite('auditor.example');
    expectFailures(await verifyOverHttp(site, { 'auditor.example': auditor }), [
      'TRUST_AUTHORITY_MISMATCH',
      urnOf('trip-tools'),
    ]);
  });

  it("a valid third-party manifest beside the publisher's verifies against its own identity", async () => {
    const site = await copy();
    await site.editEntry('trip-tools', (e) => {
      e.trustManifests = [thirdPartyManifest(e, 'auditor.example')];
    });
    const auditor = await thirdPartySite('auditor.example');
    const clean = await verifyOverHttp(site, { 'auditor.example': auditor });
    expectClean(clean);
    // From the folder, the auditor's did.json cannot be read: a warning (not checked), not a failure.
    const fromFolder = await site.verify();
    expectClean(fromFolder);
    expect(fromFolder.findings).toContainEqual(
      expect.objectContaining({
        code: 'DID_RESOLUTION_FAILED',
        severity: 'warning',
        subject: `${urnOf('trip-tools')} trustManifests[0]`,
      }),
    );
  });

  it('a third-party manifest under an identity method other than did:web is a warning (not checked), not a failure', async () => {
    const site = await copy();
    await site.editEntry('trip-tools', (e) => {
      e.trustManifests = [
        {
          ...thirdPartyManifest(e, 'auditor.example'),
          identity: 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK',
        },
      ];
    });
    const report = await site.verify();
    expectClean(report);
    expect(report.findings).toContainEqual(
      expect.objectContaining({
        code: 'DID_RESOLUTION_FAILED',
        severity: 'warning',
        subject: `${urnOf('trip-tools')} trustManifests[0]`,
        message: expect.stringContaining('the signature was not checked'),
      }),
    );
  });

  it('a tampered third-party manifest → TRUST_SIGNATURE_INVALID on that manifest', async () => {
    const site = await copy();
    await site.editEntry('trip-tools', (e) => {
      const tm = thirdPartyManifest(e, 'auditor.example');
      tm.issuedAt = '2026-01-16T00:00:00Z';
      e.trustManifests = [tm];
    });
    const auditor = await thirdPartySite('auditor.example');
    expectFailures(await verifyOverHttp(site, { 'auditor.example': auditor }), [
      'TRUST_SIGNATURE_INVALID',
      `${urnOf('trip-tools')} trustManifests[0]`,
    ]);
  });

  it('a third-party manifest transplanted from another entry → TRUST_SUBJECT_MISMATCH', async () => {
    const site = await copy();
    const other = await site.entry('travel-reservation');
    await site.editEntry('trip-tools', (e) => {
      e.trustManifests = [thirdPartyManifest(other, 'auditor.example')];
    });
    const auditor = await thirdPartySite('auditor.example');
    expectFailures(await verifyOverHttp(site, { 'auditor.example': auditor }), [
      'TRUST_SUBJECT_MISMATCH',
      `${urnOf('trip-tools')} trustManifests[0]`,
    ]);
  });

  it('an expired third-party manifest → TRUST_EXPIRED on that manifest', async () => {
    const site = await copy();
    await site.editEntry('trip-tools', (e) => {
      e.trustManifests = [thirdPartyManifest(e, 'auditor.example', { expiresAt: '2026-02-01T00:00:00Z' })];
    });
    const auditor = await thirdPartySite('auditor.example');
    expectFailures(await verifyOverHttp(site, { 'auditor.example': auditor }), [
      'TRUST_EXPIRED',
      `${urnOf('trip-tools')} trustManifests[0]`,
    ]);
  });

  it('a kid whose DID is not the identity → refused before any DID document is fetched', async () => {
    const site = await copy();
    await site.editEntry('trip-tools', (e) => {
      // A third party's manifest whose kid names yet another DID.
      e.trustManifests = [signTm(thirdPartyManifest(e, 'auditor.example'), ed25519Key('evil.example'))];
    });
    await site.editEntry('hotel-booking', (e) => {
      // A foreign entry's publisher manifest whose kid names another DID.
      e.trustManifest = signTm(thirdPartyManifest(e, 'hotels.example.org'), ed25519Key('evil.example'));
    });
    const auditor = await thirdPartySite('auditor.example');
    const report = await verifyOverHttp(site, {
      'auditor.example': auditor,
      'hotels.example.org': auditor,
      'evil.example': auditor,
    });
    expectFailures(
      report,
      ['TRUST_AUTHORITY_MISMATCH', `${urnOf('trip-tools')} trustManifests[0]`],
      ['TRUST_AUTHORITY_MISMATCH', urnOf('hotel-booking')],
    );
    expect(server.requests.filter((r) => r.host !== DOMAIN)).toEqual([]);
  });

  it("a foreign entry with its publisher's own valid trustManifest verifies over HTTP, and is a warning from a folder", async () => {
    const site = await copy();
    await site.editEntry('hotel-booking', (e) => {
      e.trustManifest = thirdPartyManifest(e, 'hotels.example.org');
    });
    const hotels = await thirdPartySite('hotels.example.org');
    const report = await verifyOverHttp(site, { 'hotels.example.org': hotels });
    expectClean(report);
    // Signed, but with no digest its card is not bound to it (ARD draft §6.2).
    expect(report.findings.filter((f) => f.subject === urnOf('hotel-booking'))).toEqual([
      expect.objectContaining({ code: 'ARD_UNPINNED', severity: 'warning' }),
    ]);
    const fromFolder = await site.verify();
    expectClean(fromFolder);
    expect(fromFolder.findings).toContainEqual(
      expect.objectContaining({
        code: 'DID_RESOLUTION_FAILED',
        severity: 'warning',
        subject: urnOf('hotel-booking'),
      }),
    );
  });

  it('a foreign entry whose publisher signature does not verify → TRUST_SIGNATURE_INVALID', async () => {
    const site = await copy();
    await site.editEntry('hotel-booking', (e) => {
      e.trustManifest = thirdPartyManifest(e, 'hotels.example.org');
      e.description = 'Now books flights too.';
      e.trustManifest.issuedAt = '2020-01-01T00:00:00Z';
    });
    const hotels = await thirdPartySite('hotels.example.org');
    expectFailures(await verifyOverHttp(site, { 'hotels.example.org': hotels }), [
      'TRUST_SIGNATURE_INVALID',
      urnOf('hotel-booking'),
    ]);
  });
});

describe('attestations', () => {
  const ATTESTATION = '/attestations/slsa.json';
  const attest = async (site: SiteCopy, document: string) => {
    await site.write(ATTESTATION, document);
    await site.editEntry('travel-reservation', (e) => {
      e.trustManifest!.attestations = [
        {
          type: 'https://slsa.dev/provenance/v1',
          uri: `${ORIGIN}${ATTESTATION}`,
          mediaType: 'application/vnd.in-toto+json',
          digest: sha256Digest(document),
        },
      ];
      signTm(e.trustManifest!);
    });
  };

  it('a fetched attestation document matching its sealed digest passes', async () => {
    const site = await copy();
    await attest(site, '{"_type":"https://in-toto.io/Statement/v1"}\n');
    const report = await site.verify();
    expectClean(report);
  });

  it('a fetched attestation document replaced after signing → ARD_DIGEST_MISMATCH', async () => {
    const site = await copy();
    await attest(site, '{"_type":"https://in-toto.io/Statement/v1"}\n');
    await site.write(ATTESTATION, '{"_type":"https://in-toto.io/Statement/v1","forged":true}\n');
    const report = await site.verify();
    expectFailures(report, ['ARD_DIGEST_MISMATCH', urnOf('travel-reservation')]);
    expect(failures(report)[0]!.message).toMatch(/attestations\[0\]/);
  });

  it('an attestation document of this site that is missing → FILE_UNREADABLE', async () => {
    const site = await copy();
    await attest(site, '{}\n');
    await site.remove(ATTESTATION);
    expectFailures(await site.verify(), ['FILE_UNREADABLE', urnOf('travel-reservation')]);
  });
});

describe('the manifest and the transport', () => {
  it('a manifest that is not JSON → ARD_MANIFEST_INVALID', async () => {
    const site = await copy();
    await site.write('/.well-known/ard.json', '<html>not json</html>\n');
    const report = await site.verify();
    expectFailures(report, ['ARD_MANIFEST_INVALID', `${ORIGIN}/.well-known/ard.json`]);
    expect(report.entries).toBe(0);
  });

  it('a manifest without "entries" → ARD_MANIFEST_INVALID', async () => {
    const site = await copy();
    await site.write('/.well-known/ard.json', jsonBytes({ agents: [] }));
    expectFailures(await site.verify(), ['ARD_MANIFEST_INVALID', `${ORIGIN}/.well-known/ard.json`]);
  });

  it('the manifest served as application/json is accepted; as text/html it is refused', async () => {
    server.override('/.well-known/ard.json', { headers: { 'content-type': 'application/json' } });
    expectClean(await verifyOverHttp(built));
    server.override('/.well-known/ard.json', {
      headers: { 'content-type': 'application/ard+json; charset=utf-8' },
    });
    expectClean(await verifyOverHttp(built));
    server.override('/.well-known/ard.json', { headers: { 'content-type': 'text/html; charset=utf-8' } });
    expectFailures(await verifyOverHttp(built), ['ARD_MANIFEST_INVALID', `${ORIGIN}/.well-known/ard.json`]);
  });

  it("a server that trims the card's trailing newline → ARD_DIGEST_MISMATCH", async () => {
    server.override(cardPath('itinerary-concierge'), {
      body: (bytes) => bytes.subarray(0, bytes.length - 1),
    });
    expectFailures(await verifyOverHttp(built), ['ARD_DIGEST_MISMATCH', urnOf('itinerary-concierge')]);
  });

  it('a card that redirects to another origin → FILE_UNREADABLE naming the redirect', async () => {
    server.override(cardPath('travel-reservation'), { redirect: 'https://cdn.example.net/card.json' });
    const report = await verifyOverHttp(built, { 'cdn.example.net': built });
    expectFailures(report, ['FILE_UNREADABLE', urnOf('travel-reservation')]);
    expect(failures(report)[0]!.message).toMatch(
      /redirects to another origin \(https:\/\/cdn\.example\.net\)/,
    );
    expect(server.requests.some((r) => r.host === 'cdn.example.net')).toBe(false);
  });

  it('a card that redirects within the origin is followed', async () => {
    const site = await copy();
    await site.write('/cards/travel-reservation.json', await site.read(cardPath('travel-reservation')));
    server.override(cardPath('travel-reservation'), { redirect: '/cards/travel-reservation.json' });
    expectClean(await verifyOverHttp(site));
  });

  it('a manifest that redirects to another origin cannot be read (exit 2)', async () => {
    server.override('/.well-known/ard.json', { redirect: 'https://evil.example/.well-known/ard.json' });
    await expect(verifyOverHttp(built, { 'evil.example': built })).rejects.toThrow(
      /redirects to another origin/,
    );
  });

  it('a manifest one byte over the size cap cannot be read, and the message names the cap', async () => {
    const size = (await (await copy()).read('/.well-known/ard.json')).length;
    await expect(verifyOverHttp(built, {}, { maxBytes: size - 1 })).rejects.toThrow(
      new RegExp(`over the cap of ${size - 1} bytes`),
    );
    // At exactly the cap the manifest is read (the larger cards then fail on their own).
    expect((await verifyOverHttp(built, {}, { maxBytes: size })).entries).toBe(5);
  });

  it('a card over the size cap is a failure of that entry', async () => {
    const cap = 1 << 20;
    server.override(cardPath('travel-policy-helper'), {
      body: (bytes) => Buffer.concat([bytes, Buffer.alloc(cap, 32)]),
    });
    const report = await verifyOverHttp(built, {}, { maxBytes: cap });
    expectFailures(report, ['FILE_UNREADABLE', urnOf('travel-policy-helper')]);
    expect(failures(report)[0]!.message).toMatch(new RegExp(`over the cap of ${cap} bytes`));
  });

  it('a missing card → FILE_UNREADABLE', async () => {
    const site = await copy();
    await site.remove(cardPath('travel-policy-helper'));
    expectFailures(await site.verify(), ['FILE_UNREADABLE', urnOf('travel-policy-helper')]);
    server.override(cardPath('travel-policy-helper'), { status: 404 });
    expectFailures(await verifyOverHttp(built), ['FILE_UNREADABLE', urnOf('travel-policy-helper')]);
  });

  it('at most maxEntries entries are checked, with a warning', async () => {
    const site = await copy();
    await site.write(cardPath('travel-reservation'), 'broken\n'); // entry 4 of 5 (sorted by identifier)
    const report = await site.verify({ maxEntries: 2 });
    expectClean(report);
    expect(report.entries).toBe(2);
    expect(report.findings).toContainEqual(
      expect.objectContaining({
        code: 'ARD_MANIFEST_INVALID',
        severity: 'warning',
        message: expect.stringMatching(/first 2 of 5/),
      }),
    );
    expect(failures(await site.verify({ maxEntries: 5 })).length).toBeGreaterThan(0);
  });

  it('an own entry whose url is plain http → URL_NOT_HTTPS', async () => {
    const site = await copy();
    await site.editEntry('trip-tools', (e) => {
      e.url = `http://${DOMAIN}/mcp/trip-tools.json`;
    });
    expectFailures(await site.verify(), ['URL_NOT_HTTPS', urnOf('trip-tools')]);
  });

  it('an own entry whose artifact lives on another origin is not checked from a folder (a warning)', async () => {
    const site = await copy();
    await site.editEntry('trip-tools', (e) => {
      e.url = 'https://tools.example.net/mcp/trip-tools.json';
    });
    const report = await site.verify();
    expectClean(report);
    expect(report.findings).toContainEqual(
      expect.objectContaining({ code: 'FILE_UNREADABLE', severity: 'warning', subject: urnOf('trip-tools') }),
    );
    // Over the network it is fetched, and its digest checked.
    const tools = await copy();
    await tools.write('/mcp/trip-tools.json', 'changed\n');
    expectFailures(
      await verifyOverHttp(site, { 'tools.example.net': tools.dir }),
      ['ARD_DIGEST_MISMATCH', urnOf('trip-tools')],
      ['ARD_ORIGIN_UNBOUND', urnOf('trip-tools')],
    );
  });

  it('an own artifact on another origin must declare its identifier or publisher (ARD draft §6.2)', async () => {
    const served = async (text: string) => {
      const site = await copy();
      const tools = await copy();
      await tools.write('/mcp/trip-tools.json', text);
      await site.write('/mcp/trip-tools.json', text);
      await site.repin('trip-tools');
      await site.editEntry('trip-tools', (e) => {
        e.url = 'https://tools.example.net/mcp/trip-tools.json';
      });
      return verifyOverHttp(site, { 'tools.example.net': tools.dir });
    };
    const card = JSON.parse(await readFile(path.join(built, 'mcp/trip-tools.json'), 'utf8')) as Json;
    const undeclared = await served(JSON.stringify(card));
    expectFailures(undeclared, ['ARD_ORIGIN_UNBOUND', urnOf('trip-tools')]);
    expect(failures(undeclared)[0]!.message).toContain('declares neither');
    expectClean(await served(JSON.stringify({ ...card, _meta: { publisher: `did:web:${DOMAIN}` } })));
    expectClean(await served(JSON.stringify({ ...card, identifier: urnOf('trip-tools') })));
    // A longer DID or URN that merely starts with them declares nothing.
    expectFailures(
      await served(JSON.stringify({ ...card, _meta: { publisher: `did:web:${DOMAIN}.evil.example` } })),
      ['ARD_ORIGIN_UNBOUND', urnOf('trip-tools')],
    );
    // The DID named in a sentence counts; any other text too: a whole word, not part of a longer name.
    expectClean(
      await served(
        JSON.stringify({ ...card, description: `MCP tools published by did:web:${DOMAIN} for all.` }),
      ),
    );
    // A text that is no server.json binds its origin all the same (no ARD_ORIGIN_UNBOUND); the entry's type
    // says MCP server card, so its shape is refused on its own.
    expectFailures(await served(`openapi: 3.1.0\nx-publisher: did:web:${DOMAIN}\n`), [
      'MCP_SERVER_CARD_INVALID',
      urnOf('trip-tools'),
    ]);
    expectFailures(
      await served(`openapi: 3.1.0\nx-publisher: did:web:${DOMAIN}x\n`),
      ['ARD_ORIGIN_UNBOUND', urnOf('trip-tools')],
      ['MCP_SERVER_CARD_INVALID', urnOf('trip-tools')],
    );
  });

  it("another publisher's signed entry whose artifact on a third origin does not declare it → ARD_ORIGIN_UNBOUND (§6.2: refused, not a hint)", async () => {
    const site = await copy();
    const cdn = await copy();
    const artifact = '{"name":"hotel tools"}\n';
    await cdn.write('/hotel/card.json', artifact);
    await site.editEntry('hotel-booking', (e) => {
      e.url = 'https://cdn.example.net/hotel/card.json';
      e.digest = sha256Digest(Buffer.from(artifact));
      e.trustManifest = thirdPartyManifest(e, 'hotels.example.org');
    });
    const hotels = await thirdPartySite('hotels.example.org');
    const report = await verifyOverHttp(site, { 'hotels.example.org': hotels, 'cdn.example.net': cdn.dir });
    expectFailures(report, ['ARD_ORIGIN_UNBOUND', urnOf('hotel-booking')]);
  });

  it("a registry's entry (its url is a service, not an artifact) is not flagged ARD_UNPINNED", async () => {
    const site = await copy();
    await site.editEntry('trip-tools', (e) => {
      e.type = 'application/ai-registry+json';
      delete e.digest;
      e.trustManifest!.subject.type = e.type;
      delete e.trustManifest!.subject.digest;
      signTm(e.trustManifest!);
    });
    const report = await site.verify();
    expectClean(report);
    expect(report.findings.filter((f) => f.subject === urnOf('trip-tools'))).toEqual([]);
  });

  it('one identifier in two spellings (the domain in capitals), same version → ARD_DUPLICATE_ENTRY', async () => {
    const site = await copy();
    await site.editJson<{ entries: EntryJson[] }>('/.well-known/ard.json', (m) => {
      const hotel = m.entries.find((e) => e.identifier === urnOf('hotel-booking'))!;
      m.entries.push({
        ...structuredClone(hotel),
        identifier: hotel.identifier.replace('hotels.example.org', 'Hotels.Example.ORG'),
      });
    });
    const report = await site.verify();
    expect(failures(report).map((f) => f.code)).toEqual(['ARD_DUPLICATE_ENTRY']);
  });

  it('two entries with the same identifier and version → ARD_DUPLICATE_ENTRY', async () => {
    const site = await copy();
    await site.editJson<{ entries: EntryJson[] }>('/.well-known/ard.json', (m) => {
      m.entries.push(structuredClone(m.entries[0]!));
    });
    expectFailures(await site.verify(), ['ARD_DUPLICATE_ENTRY', urnOf('trip-tools')]);
  });

  it('an identifier that is not a urn:air URN → ARD_URN_INVALID', async () => {
    const site = await copy();
    await site.editEntry('hotel-booking', (e) => {
      e.identifier = 'urn:air:192.168.1.1:agents:hotel-booking';
    });
    expectFailures(await site.verify(), ['ARD_URN_INVALID', 'urn:air:192.168.1.1:agents:hotel-booking']);
  });

  it("another publisher's identifier needs only be an RFC 8141 urn:air URN (capitals, other characters)", async () => {
    const site = await copy();
    await site.editEntry('hotel-booking', (e) => {
      e.identifier = 'URN:air:Hotels.Example.org:Agents:Hotel_Booking~v2';
    });
    const report = await site.verify();
    expectClean(report);
    expect(report.findings.filter((f) => f.code === 'ARD_URN_INVALID')).toEqual([]);
  });
});

describe('published keys', () => {
  it('a private member in jwks.json → KEY_PRIVATE_PUBLISHED', async () => {
    const site = await copy();
    await site.editJson('/.well-known/jwks.json', (set) => {
      (set.keys as Json[])[0]!.d = 'AAAA';
    });
    const report = await site.verify();
    expectFailures(report, ['KEY_PRIVATE_PUBLISHED', `${ORIGIN}/.well-known/jwks.json`]);
    expect(JSON.stringify(report)).not.toContain('AAAA');
  });

  it('a private member in did.json → KEY_PRIVATE_PUBLISHED', async () => {
    const site = await copy();
    await site.editJson('/.well-known/did.json', (doc) => {
      ((doc.verificationMethod as Json[])[0]!.publicKeyJwk as Json).d = 'AAAA';
    });
    const report = await site.verify();
    expectFailures(report, ['KEY_PRIVATE_PUBLISHED', `${ORIGIN}/.well-known/did.json`]);
    expect(JSON.stringify(report)).not.toContain('AAAA');
  });

  it('a member named "d" outside any JWK is not a private key', async () => {
    const site = await copy();
    await site.editJson('/.well-known/did.json', (doc) => {
      doc.service = [
        { id: '#links', type: 'LinkedDomains', serviceEndpoint: { origins: [ORIGIN], d: 'not a key' } },
      ];
    });
    expectClean(await site.verify());
  });

  it('a folder read applies the size cap too', async () => {
    const site = await copy();
    const size = (await site.read('/.well-known/ard.json')).length;
    await expect(
      verifySite(folderReader(site.dir, ORIGIN, { maxBytes: size - 1 }), { origin: ORIGIN, now: NOW }),
    ).rejects.toThrow(new RegExp(`over the cap of ${size - 1} bytes`));
  });
});
