/**
 * Warm-up of a registry service before its server takes connections: a few hundred `/search` questions
 * and `GET /agents` pages answered and thrown away, so that the first real requests do not pay for
 * V8 compiling and optimising the request path (body parsing, tokenizing, ranking, answer assembly) while
 * 50 clients wait. The questions are made of the catalog's own words (each entry's texts), a different
 * one each time, so none of them is asked twice: the rankings cache keeps a ranking
 * only from its second request (search.ts), and no answer reaches the server's answer cache.
 * Nothing is logged; the texts never leave the process. Paths are those of the ARD draft's lookup API
 * (§4.2: `POST {basePath}/search`, `GET {basePath}/agents`).
 */
import type { Catalog } from './catalog.js';
import type { RegistryService } from './service.js';

/** How many questions a warm-up asks unless told: 300 (a few tenths of a second at 10,000 entries). */
export const WARM_UP_QUESTIONS = 300;

/** The words of an entry's texts that a question may use (ARD draft §3.2.2 text members). */
function entryWords(entry: Readonly<Record<string, unknown>>): string[] {
  const texts: unknown[] = [
    entry.displayName,
    entry.name,
    entry.description,
    ...(Array.isArray(entry.representativeQueries) ? entry.representativeQueries : []),
    ...(Array.isArray(entry.capabilities) ? entry.capabilities : []),
    ...(Array.isArray(entry.tags) ? entry.tags : []),
  ];
  return texts
    .filter((t): t is string => typeof t === 'string')
    .flatMap((t) => t.split(/[^\p{L}\p{N}]+/u))
    .filter((w) => w.length > 0);
}

/**
 * The warm-up's question texts: up to `count` distinct texts of up to four words (two where the entry has two), each taken from one
 * entry's texts (`displayName`, `name`, `description`, `representativeQueries`, `capabilities`, `tags`),
 * the entries spread over the catalog; fewer when the catalog has too few words. Never throws.
 */
export function warmUpTexts(catalog: Pick<Catalog, 'entries'>, count: number): string[] {
  const texts = new Set<string>();
  const n = catalog.entries.length;
  for (let i = 0; i < count * 4 && texts.size < count && n > 0; i++) {
    const words = entryWords(catalog.entries[(i * 7919) % n]!.entry);
    if (words.length === 0) continue;
    const length = 2 + (i % 3);
    const start = (i * 31) % Math.max(1, words.length - length + 1);
    texts.add(words.slice(start, start + length).join(' '));
  }
  return [...texts];
}

/**
 * Answers `count` questions ({@link warmUpTexts}) through `service.answer` as `POST {basePath}/search`,
 * every tenth with `pageSize` 5, and one `GET {basePath}/agents` page per ten questions, discarding the
 * answers. Resolves with how many requests were answered; never throws (a failed answer is only counted
 * out).
 */
export async function warmUp(
  service: Pick<RegistryService, 'answer'>,
  catalog: Pick<Catalog, 'entries'>,
  basePath: string,
  count: number = WARM_UP_QUESTIONS,
): Promise<number> {
  let answered = 0;
  const headers = { 'content-type': 'application/json' };
  const texts = warmUpTexts(catalog, count);
  for (const [i, text] of texts.entries()) {
    const query = i % 10 === 9 ? { query: { text }, pageSize: 5 } : { query: { text } };
    const body = Buffer.from(JSON.stringify(query));
    try {
      const a = await service.answer('search', {
        method: 'POST',
        target: `${basePath}/search`,
        headers,
        body,
      });
      if (a.status === 200) answered++;
      if (i % 10 === 0) {
        const page = await service.answer('agents', {
          method: 'GET',
          target: `${basePath}/agents?pageSize=${1 + (i % 20)}`,
          headers: {},
          body: Buffer.alloc(0),
        });
        if (page.status === 200) answered++;
      }
    } catch {
      // service.answer never throws; a warm-up that could not answer only warms less.
    }
  }
  return answered;
}
