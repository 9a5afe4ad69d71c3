/**
 * The crawler files of DESIGN.md §9 ("Crawler files amended"), computed for the `crawler-site` fixture
 * (shaped like the example: agents with a RAM, a v0.3 interface, an own MCP entry, another publisher's
 * entry): the page CSP, robots.txt and its `hosting.agentmap` switch, llms.txt, and the ai-catalog.json
 * compatibility copy. Where Lighthouse 13.5 judges a file, its own audit code (node_modules/lighthouse)
 * judges it here too, and the copy is validated with the ARD v0.9 schema Lighthouse ships
 * (third-party/ard/spec/schemas/ai-catalog.schema.json, the ard-spec schema) through ajv.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import LlmsTxtAudit from 'lighthouse/core/audits/agentic/llms-txt.js';
import RobotsTxtAudit from 'lighthouse/core/audits/seo/robots-txt.js';
import { ConformanceTester } from 'lighthouse/third-party/ard/ard.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiCatalogEntry, SIGNED_MANIFEST_KEY } from '../../../src/core/ard/ai-catalog.js';
import { prepareBuild } from '../../../src/core/build/prepare.js';
import { loadAndCheck } from '../../../src/core/content/index.js';
import { headersForPath, parseHeadersFile } from '../../../src/core/hosting/headers-file.js';
import type { SiteBuild } from '../../../src/core/site/site-build.js';
import { PAGE_CSP } from '../../../src/core/build/site-files.js';
import { runConformanceTool } from '../../helpers/ard-conformance.js';
import { agentMd, fixture, makeSite, REPO_ROOT, removeSites } from '../../helpers/site.js';

const ENV = { ARDSITE_DEV_KEY: '1', CI: '1' };
const ORIGIN = 'https://agents.harbour.example';
const MANIFEST_URL = `${ORIGIN}/.well-known/ard.json`;

let site: SiteBuild;
const text = (s: SiteBuild, p: string) => new TextDecoder().decode(s.artifacts.get(p)!.bytes);
const json = (s: SiteBuild, p: string) => JSON.parse(text(s, p)) as Record<string, unknown>;

beforeAll(async () => {
  site = (await prepareBuild({ root: fixture('crawler-site'), env: ENV })).site;
});
afterAll(removeSites);

/** Runs one of Lighthouse's audits on an artifact (its `audit` is synchronous for these). */
function lighthouse(audit: { audit: (a: never) => unknown }, artifacts: unknown): { score: number } {
  return audit.audit(artifacts as never) as { score: number };
}

/** A one-agent site with `publisherExtra` added to the default publisher. */
async function smallSite(publisherExtra: string, agent = agentMd()): Promise<string> {
  return makeSite({
    'content/publisher.yaml': `domain: agents.example.test\nsiteUrl: https://agents.example.test/\norganization: Example Test Ltd.\norganizationUrl: https://www.example.test/\n${publisherExtra}`,
    'content/agents/helper.md': agent,
  });
}

describe('the page CSP', () => {
  it("widens default-src 'none' by connect-src 'self' only, so Lighthouse can fetch robots.txt and llms.txt", () => {
    const directives = new Map(
      PAGE_CSP.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name!, values.join(' ')];
      }),
    );
    expect(directives.get('default-src')).toBe("'none'");
    expect(directives.get('connect-src')).toBe("'self'");
    expect([...directives.keys()].filter((d) => d.startsWith('script'))).toEqual([]);
    const rules = parseHeadersFile(text(site, '/_headers'));
    for (const p of ['/', '/agents/crossing-planner/', '/agents/crossing-planner/permissions/'])
      expect(Object.fromEntries(headersForPath(rules, p))['Content-Security-Policy'], p).toBe(PAGE_CSP);
  });
});

describe('robots.txt and hosting.agentmap', () => {
  it('has no Agentmap: line by default, and passes Lighthouse’s robots-txt audit', () => {
    const robots = text(site, '/robots.txt');
    expect(robots).toBe(`User-agent: *\nAllow: /\n\nSitemap: ${ORIGIN}/sitemap.xml\n`);
    expect(lighthouse(RobotsTxtAudit, { RobotsTxt: { status: 200, content: robots } }).score).toBe(1);
  });

  it.each([
    ['ard', 'https://agents.example.test/.well-known/ard.json'],
    ['ai-catalog', 'https://agents.example.test/.well-known/ai-catalog.json'],
  ])(
    'hosting.agentmap: %s writes Agentmap: %s (which Lighthouse calls an unknown directive)',
    async (choice, url) => {
      const root = await smallSite(`hosting:\n  agentmap: ${choice}\n`);
      const built = (await prepareBuild({ root, env: ENV })).site;
      const robots = text(built, '/robots.txt');
      expect(robots).toContain(`\nAgentmap: ${url}\nSitemap: https://agents.example.test/sitemap.xml\n`);
      expect(lighthouse(RobotsTxtAudit, { RobotsTxt: { status: 200, content: robots } }).score).toBe(0);
    },
  );

  it('refuses another value of hosting.agentmap, naming the field', async () => {
    const root = await smallSite('hosting:\n  agentmap: yes\n');
    const { diagnostics } = await loadAndCheck({ root });
    expect(diagnostics).toContainEqual(
      expect.objectContaining({ code: 'SCHEMA_INVALID_ENUM', path: 'hosting.agentmap', severity: 'error' }),
    );
  });
});

describe('llms.txt', () => {
  let llms: string;
  beforeAll(() => {
    llms = text(site, '/llms.txt');
  });

  it('is served as UTF-8 text and passes Lighthouse’s llms-txt audit', () => {
    const rules = parseHeadersFile(text(site, '/_headers'));
    expect(Object.fromEntries(headersForPath(rules, '/llms.txt'))['Content-Type']).toBe(
      'text/plain; charset=utf-8',
    );
    expect(lighthouse(LlmsTxtAudit, { LlmsTxt: { status: 200, content: llms } }).score).toBe(1);
  });

  it('has the llmstxt.org shape: H1, blockquote summary, then H2 sections of links with notes', () => {
    const lines = llms.split('\n');
    expect(lines[0]).toBe('# Harbour Ferries agents');
    expect(lines[2]).toBe(
      '> The AI agents of Harbour Ferries: what each one does, and what it may touch on your behalf.',
    );
    const firstSection = lines.findIndex((l) => l.startsWith('## '));
    expect(lines.slice(1, firstSection).some((l) => /^#/.test(l))).toBe(false);
    const headings = lines.filter((l) => l.startsWith('## '));
    expect(headings).toEqual([
      '## Crossing Planner',
      '## Fare Rules Helper',
      '## Other entries',
      '## Machine-readable files',
      '## Optional',
    ]);
    // Inside the sections, every non-empty line is a link item with an absolute URL.
    for (const line of lines.slice(firstSection).filter((l) => l && !l.startsWith('## ')))
      expect(line).toMatch(/^- \[[^\]]+\]\((https:\/\/|mailto:)[^)\s]+\)(: .+)?$/);
  });

  it('says for each agent what it may touch, from its RAM, in the permission page’s words', () => {
    const item = (title: string) => llms.split('\n').find((l) => l.startsWith(`- [${title}](`));
    expect(item('What Crossing Planner may touch')).toBe(
      `- [What Crossing Planner may touch](${ORIGIN}/agents/crossing-planner/permissions/): ` +
        'Your accounts and data: Calendar events (as you, may change data, asks you first for some actions). ' +
        'Outside services: Sea forecast MCP tool (with its own account, only reads, does not ask first). ' +
        'It asks you first before 1 of its 3 actions. No action is marked higher risk.',
    );
    expect(item('What Fare Rules Helper may touch')).toContain(
      ': This agent does not access any of your accounts or outside services.',
    );
    expect(item('Crossing Planner')).toBe(
      `- [Crossing Planner](${ORIGIN}/agents/crossing-planner/): Finds ferry crossings for you — Porto, Vigo, Santander — books them and puts them in your calendar. Version 2.1.0.`,
    );
    expect(item('Agent card of Crossing Planner')).toBe(
      `- [Agent card of Crossing Planner](${ORIGIN}/agents/crossing-planner/agent-card.json): A2A AgentCard (JSON) with its Resource Access Manifest, signed by the publisher.`,
    );
    expect(item('Agent card of Fare Rules Helper')).toContain(
      ': A2A AgentCard (JSON), signed by the publisher.',
    );
  });

  it('links the other entries, the manifest, its copy, the DID document and the publisher', () => {
    for (const link of [
      `(${ORIGIN}/mcp/port-tools.json): Model Context Protocol server. MCP tools`,
      '(https://rail.example.org/agents/rail-booking/agent-card.json): AI agent. Books the train to and from the port. Published by rail.example.org, listed here but not signed by Harbour Ferries Ltd.\n',
      `[ARD manifest](${MANIFEST_URL})`,
      `[AI catalog](${ORIGIN}/.well-known/ai-catalog.json)`,
      `[DID document](${ORIGIN}/.well-known/did.json): The public keys of did:web:agents.harbour.example`,
      '[Harbour Ferries Ltd.](https://www.harbour.example/): The publisher.',
      '[Email agents@harbour.example](mailto:agents@harbour.example)',
    ])
      expect(llms).toContain(link);
  });

  it('in registry mode, links the lookup API, and the copy lists the registry entry too', async () => {
    const root = await smallSite('registry:\n  enabled: true\n');
    const built = (await prepareBuild({ root, env: ENV })).site;
    expect(text(built, '/llms.txt')).toContain(
      '- [Example Test Ltd. agent registry](https://agents.example.test/ard/v1): The lookup API of this site (ARD): POST /search, POST /explore and GET /agents under this base URI.\n',
    );
    const copy = json(built, '/.well-known/ai-catalog.json');
    expect((copy.entries as Array<Record<string, unknown>>).map((e) => e.type)).toContain(
      'application/ai-registry+json',
    );
    const tester = new ConformanceTester();
    tester.validate_manifest(text(built, '/.well-known/ai-catalog.json'), 'ai-catalog.json');
    expect(tester.errors).toEqual([]);
  });

  it('escapes link text and encodes link targets, so an author’s name cannot break a link', async () => {
    const root = await smallSite('', agentMd({ name: 'Fares [beta] (test)' }));
    const built = (await prepareBuild({ root, env: ENV })).site;
    expect(text(built, '/llms.txt')).toContain(
      '- [Fares \\[beta\\] (test)](https://agents.example.test/agents/helper/): ',
    );
  });
});

describe('ai-catalog.json, the ARD v0.9 compatibility copy', () => {
  let catalog: Record<string, unknown>;
  let manifest: { entries: Array<Record<string, unknown>> };
  beforeAll(() => {
    catalog = json(site, '/.well-known/ai-catalog.json');
    manifest = json(site, '/.well-known/ard.json') as typeof manifest;
  });

  it('passes the v0.9 JSON Schema and Lighthouse’s ARD conformance checks without a warning', async () => {
    const schemaFile = path.join(
      REPO_ROOT,
      'node_modules/lighthouse/third-party/ard/spec/schemas/ai-catalog.schema.json',
    );
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    (addFormatsModule as unknown as (a: Ajv2020) => void)(ajv);
    const validate = ajv.compile(JSON.parse(await readFile(schemaFile, 'utf8')) as object);
    expect(validate(catalog), JSON.stringify(validate.errors)).toBe(true);
    const tester = new ConformanceTester();
    tester.validate_manifest(text(site, '/.well-known/ai-catalog.json'), 'ai-catalog.json');
    expect({ errors: tester.errors, warnings: tester.warnings }).toEqual({ errors: [], warnings: [] });
    // …which the seed-002 manifest itself does not.
    const primary = new ConformanceTester();
    primary.validate_manifest(text(site, '/.well-known/ard.json'), 'ard.json');
    expect(primary.errors).not.toEqual([]);
  });

  it('passes the ARD conformance tool itself (ard-spec conformance-test, with its strict schema check)', async () => {
    const file = path.join(await makeSite({}), 'ai-catalog.json');
    await writeFile(file, text(site, '/.well-known/ai-catalog.json'));
    const verdict = await runConformanceTool(['manifest', file]);
    expect({ errors: verdict.errors, warnings: verdict.warnings }, verdict.output).toEqual({
      errors: [],
      warnings: [],
    });
    expect(verdict.output).toContain('Strict JSON Schema validation passed.');
    expect(verdict.output).toContain('CONFORMANCE STATUS: PASS');
    expect(verdict.code).toBe(0);
    // The tool judges the v0.9 shape, so ard.json (draft-bu-dawn-ard-discovery-00's form: no specVersion;
    // trustManifest.subject and issuedAt, which v0.9 does not allow) fails it for those reasons only, the
    // reason for this copy.
    const primary = path.join(path.dirname(file), 'ard.json');
    await writeFile(primary, text(site, '/.well-known/ard.json'));
    const seed = await runConformanceTool(['manifest', primary]);
    expect(seed.code).toBe(1);
    expect(seed.errors.length).toBeGreaterThan(0);
    for (const error of seed.errors)
      expect(error).toMatch(
        /^(Missing required 'specVersion' root property\.|JSON Schema Validation Failed: ('specVersion' is a required property|Additional properties are not allowed \('issuedAt', 'subject' were unexpected\) at path 'entries\.\d+\.trustManifest'))/,
      );
  });

  it('lists the same entries as ard.json, with the host and a media type of its own', () => {
    expect(catalog.specVersion).toBe('1.0');
    expect(catalog.host).toEqual({
      displayName: 'Harbour Ferries Ltd.',
      identifier: 'did:web:agents.harbour.example',
      documentationUrl: `${ORIGIN}/`,
    });
    const entries = catalog.entries as Array<Record<string, unknown>>;
    expect(entries.map((e) => [e.identifier, e.version, e.url, e.digest])).toEqual(
      manifest.entries.map((e) => [e.identifier, e.version, e.url, e.digest]),
    );
    expect(site.artifacts.get('/.well-known/ai-catalog.json')!.mediaType).toBe('application/ai-catalog+json');
  });

  it('carries no signature (ADR-0009): a signed entry names the signed manifest instead', () => {
    const raw = text(site, '/.well-known/ai-catalog.json');
    expect(raw).not.toMatch(/"signature"|"subject"|"trustManifests"/);
    for (const entry of catalog.entries as Array<Record<string, unknown>>) {
      const original = manifest.entries.find((e) => e.identifier === entry.identifier)!;
      const signed =
        typeof (original.trustManifest as { signature?: unknown } | undefined)?.signature === 'string';
      expect(
        (entry.metadata as Record<string, unknown> | undefined)?.[SIGNED_MANIFEST_KEY],
        String(entry.identifier),
      ).toBe(signed ? MANIFEST_URL : undefined);
      if (signed)
        expect(entry.trustManifest).toEqual({
          identity: 'did:web:agents.harbour.example',
          identityType: 'did',
          trustSchema: {
            identifier: 'urn:ardsite:trust-profile:did-web-jcs-jws',
            version: '1',
            verificationMethods: ['did:web'],
          },
        });
    }
  });
});

describe('aiCatalogEntry', () => {
  const signedManifest = {
    identity: 'did:web:other.example',
    identityType: 'did',
    issuedAt: '2026-01-01T00:00:00Z',
    subject: { identifier: 'urn:air:other.example:a:b', type: 'application/a2a-agent-card+json' },
    trustSchema: { identifier: 'urn:x:profile', version: '1', verificationMethods: ['did:web'], extra: 1 },
    attestations: [
      {
        type: 'SOC2',
        uri: 'https://other.example/soc2.pdf',
        mediaType: 'application/pdf',
        digest: 'sha256:00',
      },
      { type: 'no-media-type', uri: 'https://other.example/x' },
    ],
    signature: 'eyJhbGciOiJFUzI1NiJ9..c2ln',
  };

  it('keeps a member named __proto__ of a hostile entry a member, never the copy’s prototype', () => {
    const entry = JSON.parse(
      '{"identifier":"urn:air:other.example:a:b","displayName":"B","type":"application/a2a-agent-card+json","url":"https://other.example/b.json","__proto__":{"polluted":true}}',
    ) as Record<string, unknown>;
    const copy = aiCatalogEntry(entry, 'https://site.example/.well-known/ard.json') as Record<
      string,
      unknown
    >;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(copy.polluted).toBeUndefined();
    expect(Object.keys(copy)).toContain('__proto__');
    expect(JSON.parse(JSON.stringify(copy)).__proto__).toEqual({ polluted: true });
  });

  it('reshapes what v0.9 cannot carry: trustManifest members, queries, metadata values, HTTP dates', () => {
    const entry = {
      identifier: 'urn:air:other.example:a:b',
      displayName: 'B',
      type: 'application/a2a-agent-card+json',
      url: 'https://other.example/b.json',
      representativeQueries: ['1', '2', '3', '4', '5', '6'],
      updatedAt: 'Sun, 06 Nov 1994 08:49:37 GMT',
      metadata: { region: 'eu', limits: { rpm: 10 }, beta: true },
      trustManifest: signedManifest,
      trustManifests: [signedManifest],
    };
    expect(aiCatalogEntry(entry, 'https://site.example/.well-known/ard.json')).toEqual({
      identifier: 'urn:air:other.example:a:b',
      displayName: 'B',
      type: 'application/a2a-agent-card+json',
      url: 'https://other.example/b.json',
      representativeQueries: ['1', '2', '3', '4', '5'],
      updatedAt: '1994-11-06T08:49:37Z',
      metadata: { region: 'eu', beta: true, signedManifest: 'https://site.example/.well-known/ard.json' },
      trustManifest: {
        identity: 'did:web:other.example',
        identityType: 'did',
        trustSchema: { identifier: 'urn:x:profile', version: '1', verificationMethods: ['did:web'] },
        attestations: [
          {
            type: 'SOC2',
            uri: 'https://other.example/soc2.pdf',
            mediaType: 'application/pdf',
            digest: 'sha256:00',
          },
        ],
      },
    });
  });

  it('leaves out one query (v0.9 asks for 2 to 5) and points nowhere for an unsigned entry', () => {
    const out = aiCatalogEntry(
      {
        identifier: 'urn:air:a.example:n:x',
        displayName: 'X',
        type: 't',
        url: 'https://a.example/x',
        representativeQueries: ['only'],
      },
      'https://a.example/.well-known/ard.json',
    );
    expect(out).not.toHaveProperty('representativeQueries');
    expect(out).not.toHaveProperty('metadata');
  });
});
