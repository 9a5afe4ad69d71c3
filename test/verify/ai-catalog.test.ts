/**
 * The verifier and the crawler files of DESIGN.md §9 ("Crawler files amended"): ai-catalog.json is checked
 * against the manifest it copies (./src/core/verify/ai-catalog-check.ts), and discovery no longer asks
 * robots.txt for an `Agentmap:` line, while still following one where a site has it. The `crawler-site`
 * fixture's artifacts and public files are written to a folder and read as a crawler reads a folder.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfCheckFailures } from '../../src/core/build/self-check.js';
import { artifactFile, writeArtifacts } from '../../src/core/build/output.js';
import { prepareBuild } from '../../src/core/build/prepare.js';
import { discoverManifest } from '../../src/core/verify/discovery.js';
import { folderReader } from '../../src/core/verify/folder-reader.js';
import { verifySite, type VerifyReport } from '../../src/core/verify/site.js';
import { fixture } from '../helpers/site.js';

const ORIGIN = 'https://agents.harbour.example';
const CATALOG = '/.well-known/ai-catalog.json';
const MCP_URN = 'urn:air:agents.harbour.example:tools:port-tools';

let built: string;
const made: string[] = [];

type Json = Record<string, unknown>;

beforeAll(async () => {
  const { site } = await prepareBuild({
    root: fixture('crawler-site'),
    env: { ARDSITE_DEV_KEY: '1', CI: '1' },
  });
  built = await mkdtemp(path.join(tmpdir(), 'ardsite-catalog-'));
  made.push(built);
  await writeArtifacts(built, site.artifacts.values());
  await cp(path.join(fixture('crawler-site'), 'public'), built, { recursive: true });
});
afterAll(() => Promise.all(made.map((d) => rm(d, { recursive: true, force: true }))));

/** A copy of the built folder with `edit` applied to its ai-catalog.json (or the file removed). */
async function withCatalog(edit: ((catalog: Json) => Json | void) | 'remove'): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ardsite-catalog-'));
  made.push(dir);
  await cp(built, dir, { recursive: true });
  const file = artifactFile(dir, CATALOG);
  if (edit === 'remove') await rm(file);
  else {
    const catalog = JSON.parse(await readFile(file, 'utf8')) as Json;
    await writeFile(file, JSON.stringify(edit(catalog) ?? catalog));
  }
  return dir;
}

const verify = (dir: string): Promise<VerifyReport> =>
  verifySite(folderReader(dir, ORIGIN), { origin: ORIGIN, now: new Date('2027-01-01T00:00:00Z') });
const catalogFindings = (report: VerifyReport) =>
  report.findings.filter((f) => f.code.startsWith('AI_CATALOG'));
const entriesOf = (catalog: Json) => catalog.entries as Json[];

describe('ai-catalog.json against the manifest', () => {
  it('the built copy agrees with ard.json: two checks pass, no finding', async () => {
    const report = await verify(built);
    expect(report.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(catalogFindings(report)).toEqual([]);
    const without = await verify(await withCatalog('remove'));
    expect(report.passed - without.passed).toBe(2);
    expect(catalogFindings(without)).toEqual([]); // the copy is optional
  });

  it('an entry left out, or one added, is AI_CATALOG_MISMATCH naming it, and fails the build', async () => {
    const report = await verify(
      await withCatalog((c) => {
        c.entries = entriesOf(c).filter((e) => e.identifier !== MCP_URN);
        entriesOf(c).push({
          identifier: 'urn:air:evil.example:x:y',
          displayName: 'Y',
          type: 't',
          url: 'https://evil.example/',
        });
      }),
    );
    expect(catalogFindings(report)).toEqual([
      expect.objectContaining({
        code: 'AI_CATALOG_MISMATCH',
        severity: 'warning',
        subject: `${ORIGIN}${CATALOG}`,
        message: expect.stringMatching(
          new RegExp(
            `lacks 1 of its entries: ${MCP_URN} 1\\.0\\.0; it lists 1 entries it does not: urn:air:evil\\.example:x:y`,
          ),
        ),
      }),
    ]);
    expect(selfCheckFailures(report.findings).map((f) => f.code)).toEqual(['AI_CATALOG_MISMATCH']);
  });

  it('an entry changed (url pointed elsewhere, name changed) is AI_CATALOG_MISMATCH naming the members', async () => {
    const report = await verify(
      await withCatalog((c) => {
        const mcp = entriesOf(c).find((e) => e.identifier === MCP_URN)!;
        mcp.url = 'https://evil.example/mcp.json';
        mcp.displayName = 'Port Tools';
      }),
    );
    expect(catalogFindings(report).map((f) => [f.code, f.message])).toEqual([
      [
        'AI_CATALOG_MISMATCH',
        expect.stringContaining(
          `differs from it in 1 entries, in the members named: ${MCP_URN} 1.0.0 (displayName, url)`,
        ),
      ],
    ]);
  });

  it('a signature in the copy is AI_CATALOG_SIGNATURE_UNBOUND (ADR-0009), whatever else it says', async () => {
    const manifest = JSON.parse(await readFile(artifactFile(built, '/.well-known/ard.json'), 'utf8')) as Json;
    const signed = (manifest.entries as Json[]).find((e) => e.identifier === MCP_URN)!;
    const report = await verify(
      await withCatalog((c) => {
        const mcp = entriesOf(c).find((e) => e.identifier === MCP_URN)!;
        const { subject: _s, issuedAt: _i, ...v09 } = signed.trustManifest as Json;
        mcp.trustManifest = v09; // the seed-002 signature, its subject gone
      }),
    );
    expect(catalogFindings(report).map((f) => f.code)).toEqual([
      'AI_CATALOG_SIGNATURE_UNBOUND',
      'AI_CATALOG_MISMATCH',
    ]);
    expect(catalogFindings(report)[0]!.message).toMatch(
      /carries a trustManifest signature \(urn:air:agents\.harbour\.example:tools:port-tools 1\.0\.0\).*ADR-0009.*ard\.json$/,
    );
  });

  it('a copy that is no catalog is said so', async () => {
    const report = await verify(await withCatalog(() => ({ items: [] })));
    expect(catalogFindings(report).map((f) => f.message)).toEqual([
      expect.stringMatching(/has no "entries" array/),
    ]);
  });
});

describe('discovery and robots.txt Agentmap:', () => {
  /** A copy of the built folder with `robots` as its robots.txt. */
  async function withRobots(robots: string): Promise<string> {
    const dir = await withCatalog(() => undefined);
    await writeFile(path.join(dir, 'robots.txt'), robots);
    return dir;
  }
  const robotsFindings = async (dir: string) => {
    const discovery = await discoverManifest(folderReader(dir, ORIGIN), ORIGIN, `${ORIGIN}/`);
    return {
      discovery,
      // The folder has no pages: the page's finding is left aside.
      robots: discovery.findings.filter((f) => f.subject !== `${ORIGIN}/`),
    };
  };

  it('a robots.txt without Agentmap: (the default) is no finding', async () => {
    const { robots } = await robotsFindings(built);
    expect(robots).toEqual([]);
  });

  it('an Agentmap: naming ard.json or ai-catalog.json is a signal that holds', async () => {
    const none = await robotsFindings(built);
    for (const target of ['/.well-known/ard.json', CATALOG]) {
      const { discovery, robots } = await robotsFindings(
        await withRobots(`User-agent: *\nAgentmap: ${ORIGIN}${target}\n`),
      );
      expect(robots, target).toEqual([]);
      expect(discovery.passed, target).toBe(none.discovery.passed + 1);
    }
  });

  it('an Agentmap: naming another document is a warning that says where it points', async () => {
    const { robots } = await robotsFindings(await withRobots(`Agentmap: ${ORIGIN}/catalog.json\n`));
    expect(robots).toEqual([
      expect.objectContaining({
        code: 'DISCOVERY_MISSING',
        message: `a discovery signal points at ${ORIGIN}/catalog.json, not at ${ORIGIN}/.well-known/ard.json`,
      }),
    ]);
  });
});
