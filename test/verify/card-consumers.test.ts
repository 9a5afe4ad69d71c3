/**
 * What the consumers of a card accept (DESIGN.md §9 "Consumers decide"; A2A §8.4) over the example-like
 * fixture (test/fixtures/example-like, built with the fixed TEST-ONLY key): the consumers of the built cards,
 * each with its own library and never through `src/core` (test/helpers/consumers.ts): the official A2A v0.3.0
 * JSON Schema, @a2a-js/sdk's v0.3 translator, v1 resolver and signature check, a whole-card JCS verifier;
 * then verify (folder, HTTP and the build's self-check rule) against a jwks.json key swap, a key removed from
 * assertionMethod, and a UTF-8 byte order mark before a JSON document.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AgentCard } from '@a2a-js/sdk';
import { parseLegacyAgentCard } from '@a2a-js/sdk/compat/v0_3/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runVerify } from '../../src/cli/run.js';
import { selfCheckFailures } from '../../src/core/build/self-check.js';
import type { VerifyFinding } from '../../src/core/verify/findings.js';
import { buildExampleSite, cleanUpSites, DOMAIN, ORIGIN } from '../helpers/ard-site.js';
import {
  offersV03,
  sdkSignatureError,
  siteCardVerdicts,
  v03SchemaErrors,
  wholeCardSignatures,
  type Json,
} from '../helpers/consumers.js';
import { startStaticServer } from '../helpers/static-server.js';
import { dropAssertionMethod, swapJwksKeyAndSign } from '../helpers/tamper.js';

let built: string;
const temps: string[] = [];

beforeAll(async () => {
  built = await buildExampleSite();
});
afterAll(async () => {
  await Promise.all(temps.map((t) => rm(t, { recursive: true, force: true })));
  await cleanUpSites();
});

async function copyOfBuilt(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ardsite-cards-'));
  temps.push(dir);
  await cp(built, dir, { recursive: true });
  return dir;
}

const read = async (dir: string, rel: string) =>
  JSON.parse(await readFile(path.join(dir, rel), 'utf8')) as Json;

const HYBRID = 'agents/travel-reservation/agent-card.json';

/** `npm run verify -- <target> --json` in-process: exit code and findings. */
async function verify(...args: string[]): Promise<{ code: number; findings: VerifyFinding[] }> {
  let stdout = '';
  const code = await runVerify([...args, '--json'], {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: () => {} },
  });
  return { code, findings: (JSON.parse(stdout) as { findings: VerifyFinding[] }).findings };
}

/** Verifies `dir` from the folder and over HTTP (a static server, --resolve); both reports. */
async function verifyBothWays(dir: string) {
  const server = await startStaticServer({ root: dir });
  try {
    const folder = await verify(dir, '--origin', ORIGIN, '--threads', '0');
    const http = await verify(`${ORIGIN}/`, '--resolve', `${DOMAIN}=${server.url}`);
    return { folder, http };
  } finally {
    await server.close();
  }
}

const errorsOf = (findings: VerifyFinding[]) => findings.filter((f) => f.severity === 'error');

describe('hybrid cards valid for both A2A versions (v0.3 and v1.0)', () => {
  it('every card is accepted by every consumer; the v0.3-offering card carries security in the v0.3 forms', async () => {
    const verdicts = await siteCardVerdicts(built);
    expect(verdicts.length).toBe(3);
    for (const v of verdicts) {
      expect(v, v.file).toMatchObject({
        v1Resolver: '',
        v1ResolverCompat: '',
        sdkSignature: '',
        wholeCard: '',
      });
      if (v.offersV03) expect(v, v.file).toMatchObject({ v03Schema: '', v03Translator: '' });
    }
    const card = await read(built, HYBRID);
    expect(offersV03(card)).toBe(true);
    expect(card.security).toEqual([{ example_oauth: ['trips.read', 'trips.write'] }]);
    const scheme = (card.securitySchemes as Record<string, Json>).example_oauth!;
    expect(scheme.type).toBe('oauth2');
    expect(scheme.flows).toEqual((scheme.oauth2SecurityScheme as Json).flows);
    expect(scheme.oauth2SecurityScheme).toBeDefined();
    const withSecurity = (card.skills as Json[]).filter((s) => s.securityRequirements);
    expect(withSecurity.length).toBeGreaterThan(0);
    for (const s of withSecurity) {
      const reqs = s.securityRequirements as Array<{ schemes: Record<string, { list: string[] }> }>;
      expect(s.security).toEqual(
        reqs.map((r) => Object.fromEntries(Object.entries(r.schemes).map(([k, v]) => [k, v.list]))),
      );
    }
  });

  it("the v0.3 view and the v1.0 view say the same: the SDK's translator and its v1 types agree on security", async () => {
    const card = await read(built, HYBRID);
    const fromV03 = parseLegacyAgentCard(card as never);
    const fromV1 = AgentCard.fromJSON(card);
    expect(fromV03.securityRequirements).toEqual(fromV1.securityRequirements);
    expect(fromV03.skills.map((s) => s.securityRequirements)).toEqual(
      fromV1.skills.map((s) => s.securityRequirements),
    );
    expect(Object.keys(fromV03.securitySchemes)).toEqual(Object.keys(fromV1.securitySchemes));
    expect(fromV03.securitySchemes.example_oauth?.scheme?.$case).toBe('oauth2SecurityScheme');
  });

  it('the v0.3 schema and the translator reject the card as main wrote it (security in the v1 form only)', async () => {
    const card = await read(built, HYBRID);
    card.security = card.securityRequirements;
    for (const scheme of Object.values(card.securitySchemes as Record<string, Json>)) delete scheme.type;
    expect((await v03SchemaErrors(card)).length).toBeGreaterThan(0);
    expect(() => parseLegacyAgentCard(card as never)).toThrow(/Unsupported v0.3 security scheme type/);
  });
});

describe('two card signatures, one over the whole served card', () => {
  it('signatures[0] is over the SDK form, signatures[1] over the whole card; no member is at its default', async () => {
    const did = await read(built, '.well-known/did.json');
    for (const v of await siteCardVerdicts(built)) {
      const card = await read(built, v.file.slice(1));
      expect(await wholeCardSignatures(card, did), v.file).toContain(1);
      expect(
        await sdkSignatureError({ ...card, signatures: [(card.signatures as Json[])[0]] }, did),
      ).toBeUndefined();
      const extensions = (card.capabilities as { extensions: Json[] }).extensions;
      for (const e of extensions) expect(e, v.file).not.toHaveProperty('required');
      for (const flag of ['streaming', 'pushNotifications', 'extendedAgentCard'])
        expect((card.capabilities as Json)[flag], `${v.file} ${flag}`).not.toBe(false);
    }
  });

  it('a change of meaning the SDK reading does not cover breaks the whole-card signature', async () => {
    const did = await read(built, '.well-known/did.json');
    const card = await read(built, HYBRID);
    const changes: Array<[string, (c: Json) => void]> = [
      ['v0.3 url', (c) => (c.url = 'https://evil.example/a2a')],
      [
        'additionalInterfaces',
        (c) => ((c.additionalInterfaces as Json[])[0]!.url = 'https://evil.example/a2a'),
      ],
      ['security emptied', (c) => delete c.security],
      [
        'top-level RAM asks first no more',
        (c) => {
          for (const a of (c.resourceAccessManifest as { resourceAccesses: Json[] }).resourceAccesses)
            a.confirmationRequired = false;
        },
      ],
      [
        'top-level RAM gains a resource',
        (c) => {
          const ram = c.resourceAccessManifest as { resources: Json[] };
          ram.resources.push({ ...ram.resources[0]!, id: 'extra-resource' });
        },
      ],
    ];
    for (const [what, change] of changes) {
      const changed = structuredClone(card);
      change(changed);
      expect(await wholeCardSignatures(changed, did), what).toEqual([]);
      expect(
        await sdkSignatureError(changed, did),
        `${what}: the SDK reading alone does not see it`,
      ).toBeUndefined();
    }
  });
});

describe('card-signature keys come from did:web', () => {
  it('a key swapped in jwks.json under the same kid, one card signed with it: caught and said why, folder and HTTP, and the self-check fails', async () => {
    const dir = await copyOfBuilt();
    await swapJwksKeyAndSign(dir, HYBRID);
    const { folder, http } = await verifyBothWays(dir);
    for (const report of [folder, http]) {
      expect(report.code).toBe(1);
      const errors = errorsOf(report.findings);
      const onCards = errors.filter((f) => f.code.startsWith('CARD_'));
      // The attacker's card: both signatures made by the jwks.json key did.json does not authorise.
      expect(onCards.map((f) => [f.subject, f.code])).toEqual([
        ['urn:air:agents.example.com:travel:travel-reservation', 'CARD_KEY_NOT_AUTHORISED'],
        ['urn:air:agents.example.com:travel:travel-reservation', 'CARD_KEY_NOT_AUTHORISED'],
      ]);
      expect(onCards[0]!.message).toMatch(
        /jwks\.json lists under .*not the key .*DID document authorises.*jwks\.json was changed/,
      );
      expect(
        errors.some((f) => f.code === 'JWKS_DID_MISMATCH' && f.subject === `${ORIGIN}/.well-known/jwks.json`),
      ).toBe(true);
      // The genuine cards still verify: their key comes from did.json, not from the changed jwks.json.
      expect(errors.filter((f) => /itinerary-concierge|travel-policy-helper/.test(f.subject))).toEqual([]);
      expect(selfCheckFailures(report.findings).length).toBeGreaterThan(0);
    }
  });

  it("the key removed from did.json's assertionMethod fails every card signature, with that cause", async () => {
    const dir = await copyOfBuilt();
    const kid = await dropAssertionMethod(dir);
    const { folder, http } = await verifyBothWays(dir);
    for (const report of [folder, http]) {
      expect(report.code).toBe(1);
      const notAuthorised = errorsOf(report.findings).filter((f) => f.code === 'CARD_KEY_NOT_AUTHORISED');
      expect(new Set(notAuthorised.map((f) => f.subject)).size).toBe(3);
      expect(
        notAuthorised.every((f) => f.message.includes(kid) && /not under assertionMethod/.test(f.message)),
      ).toBe(true);
    }
  });
});

describe('a UTF-8 byte order mark before a JSON document', () => {
  it('is a JSON_BOM warning for ard.json, did.json and jwks.json (RFC 8259 §8.1), which fails the self-check rule only', async () => {
    const dir = await copyOfBuilt();
    for (const rel of ['.well-known/ard.json', '.well-known/did.json', '.well-known/jwks.json']) {
      const file = path.join(dir, rel);
      await writeFile(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), await readFile(file)]));
    }
    const { folder, http } = await verifyBothWays(dir);
    for (const report of [folder, http]) {
      expect(errorsOf(report.findings)).toEqual([]);
      const boms = report.findings.filter((f) => f.code === 'JSON_BOM');
      expect(boms.every((f) => f.severity === 'warning')).toBe(true);
      expect(boms.map((f) => f.subject).sort()).toEqual(
        ['ard.json', 'did.json', 'jwks.json'].map((n) => `${ORIGIN}/.well-known/${n}`),
      );
      expect(selfCheckFailures(report.findings).map((f) => f.code)).toEqual([
        'JSON_BOM',
        'JSON_BOM',
        'JSON_BOM',
      ]);
    }
  });

  it('is a JSON_BOM warning on the entry of a card that starts with one', async () => {
    const dir = await copyOfBuilt();
    const file = path.join(dir, 'agents', 'travel-policy-helper', 'agent-card.json');
    await writeFile(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), await readFile(file)]));
    const { folder } = await verifyBothWays(dir);
    expect(folder.findings).toContainEqual(
      expect.objectContaining({
        code: 'JSON_BOM',
        severity: 'warning',
        subject: 'urn:air:agents.example.com:travel:travel-policy-helper',
      }),
    );
  });
});
