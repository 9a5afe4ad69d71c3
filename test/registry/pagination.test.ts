/**
 * Pagination over HTTP on a synthetic 250-agent publisher (bench/synthetic.ts) built in registry mode:
 * walking every page of GET /agents and of POST /search never repeats nor skips an entry, with any page
 * size (changed mid-walk too), and a token issued by one server process is honoured by another one that
 * has the same secret (ARD draft §4.2.2, §4.2.4).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSyntheticPublisher } from '../../bench/synthetic.js';
import {
  buildRegistrySite,
  call,
  postJson,
  startTestRegistry,
  type TestRegistry,
} from '../helpers/registry.js';

const AGENTS = 250;
let root: string;
let entries: Array<Record<string, unknown>>;
let first: TestRegistry;
let second: TestRegistry;

type Page = {
  results?: Array<{ identifier: string; score: number }>;
  entries?: Array<{ identifier: string }>;
  nextPageToken?: string;
};

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'ardsite-pages-'));
  await writeSyntheticPublisher(root, { agents: AGENTS });
  await buildRegistrySite(root);
  const dist = path.join(root, 'dist');
  entries = (
    JSON.parse(await readFile(path.join(dist, '.well-known/ard.json'), 'utf8')) as { entries: typeof entries }
  ).entries;
  [first, second] = await Promise.all([startTestRegistry(dist), startTestRegistry(dist)]);
});

afterAll(async () => {
  await first?.close();
  await second?.close();
  await rm(root, { recursive: true, force: true });
});

/** Walks every page: `ask(token, pageIndex)` fetches one page; returns the pages. */
async function walk(ask: (token: string | undefined, index: number) => Promise<Page>): Promise<Page[]> {
  const pages: Page[] = [];
  let token: string | undefined;
  do {
    const page = await ask(token, pages.length);
    pages.push(page);
    token = page.nextPageToken;
    expect(pages.length).toBeLessThan(1000);
  } while (token);
  return pages;
}

function expectNoRepeat(ids: string[]): void {
  expect(new Set(ids).size).toBe(ids.length);
}

describe('pagination never repeats or skips an entry', () => {
  it('GET /agents: every entry once, in (identifier, version) order', async () => {
    const pages = await walk(async (token) => {
      const answer = await call<Page>(
        `${first.apiUrl}/agents?pageSize=7${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`,
      );
      expect(answer.status).toBe(200);
      return answer.body;
    });
    const ids = pages.flatMap((p) => p.entries!.map((e) => e.identifier));
    expectNoRepeat(ids);
    expect(ids).toEqual(entries.map((e) => String(e.identifier)).sort());
    expect(ids).toHaveLength(AGENTS + 1); // the agents and the registry entry
    expect(pages).toHaveLength(Math.ceil((AGENTS + 1) / 7));
  });

  it('GET /agents with a filter: exactly the entries the filter selects', async () => {
    const expected = entries
      .filter((e) => e['ram:actsAsEndUser'] === true && (e['ram:owners'] as string[]).includes('THIRD_PARTY'))
      .map((e) => String(e.identifier))
      .sort();
    expect(expected.length).toBeGreaterThan(20);
    const pages = await walk(
      async (token) =>
        (
          await call<Page>(
            `${first.apiUrl}/agents?pageSize=9&filter.ram:actsAsEndUser=true&filter.ram:owners=THIRD_PARTY${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`,
          )
        ).body,
    );
    const ids = pages.flatMap((p) => p.entries!.map((e) => e.identifier));
    expectNoRepeat(ids);
    expect(ids).toEqual(expected);
  });

  it('POST /search: every match once, scores never rising, ties by identifier, across page boundaries and page sizes', async () => {
    const query = { text: 'please plan my week' };
    const sizes = [13, 1, 100, 7, 50];
    const pages = await walk(async (pageToken, index) => {
      const answer = await postJson<Page>(`${first.apiUrl}/search`, {
        query,
        pageSize: sizes[index % sizes.length],
        ...(pageToken ? { pageToken } : {}),
      });
      expect(answer.status, answer.text).toBe(200);
      return answer.body;
    });
    const results = pages.flatMap((p) => p.results!);
    const ids = results.map((r) => r.identifier);
    expectNoRepeat(ids);
    // Every synthetic agent's examples say "Please plan my week number N".
    expect(new Set(ids)).toEqual(
      new Set(
        entries.filter((e) => e.type === 'application/a2a-agent-card+json').map((e) => String(e.identifier)),
      ),
    );
    for (let i = 1; i < results.length; i++) {
      const [a, b] = [results[i - 1]!, results[i]!];
      expect(
        a.score > b.score || (a.score === b.score && a.identifier < b.identifier),
        `${a.identifier} before ${b.identifier}`,
      ).toBe(true);
    }
  });

  it('POST /search with a filter: the matches of the filter, and a token works on another process with the same secret', async () => {
    const query = {
      text: 'summarise topic',
      filter: { 'ram:owners': ['CONSUMER'], 'ram:thirdPartyResourceCount': ['0', '1', '2'] },
    };
    const pages = await walk(async (pageToken, index) => {
      // Alternate between the two processes, page by page.
      const server = index % 2 === 0 ? first : second;
      return (
        await postJson<Page>(`${server.apiUrl}/search`, {
          query,
          pageSize: 6,
          ...(pageToken ? { pageToken } : {}),
        })
      ).body;
    });
    const ids = pages.flatMap((p) => p.results!.map((r) => r.identifier));
    expectNoRepeat(ids);
    const selected = new Set(
      entries
        .filter(
          (e) =>
            (e['ram:owners'] as string[] | undefined)?.includes('CONSUMER') &&
            [0, 1, 2].includes(e['ram:thirdPartyResourceCount'] as number),
        )
        .map((e) => String(e.identifier)),
    );
    expect(selected.size).toBeGreaterThan(20);
    expect(new Set(ids)).toEqual(selected);
    // The same walk on one process gives the same pages.
    const single = await walk(
      async (pageToken) =>
        (
          await postJson<Page>(`${first.apiUrl}/search`, {
            query,
            pageSize: 6,
            ...(pageToken ? { pageToken } : {}),
          })
        ).body,
    );
    expect(single.flatMap((p) => p.results)).toEqual(pages.flatMap((p) => p.results));
  });
});
