/**
 * The answer cache of the one server in registry mode (server.ts): finished answers of the lookup API,
 * kept as the bytes that went out, so that a request the server has answered before is answered again
 * without a ranking or a serialisation: the micro-cache a reverse proxy keeps in
 * front of an application server, inside the one process.
 *
 * It is correct because the index is read-only (catalog.ts): an answer that depends only on the request
 * (its method, path and query string, the headers the service reads, its body bytes) is the same answer
 * each time until the process ends. The service decides what may be kept (service.ts: local answers with
 * status 200; never an answer merged from live peers, whose results change); the server decides the key
 * ({@link answerKey}).
 *
 * An answer is kept from the second time its request is made ({@link AnswerCache.offer}: a doorkeeper of
 * hashed keys, util/doorkeeper.ts): most questions a registry
 * sees are never asked twice, and keeping each of their answers until the bound pushes it out made every
 * one of them live long enough to reach the old generation of V8's heap, and the churn (answer bytes
 * allocated and dropped at the rate of the questions) made the major collections, which stop the event
 * loop, come every few seconds.
 *
 * An answer of 1 KiB or more is also kept gzip-compressed, for clients that accept it (the service's
 * answers say `Vary: Accept-Encoding`), compressed when it is first given from the cache, to a client that
 * accepts gzip ({@link AnswerCache.gzipForm}): most questions a registry sees are never asked twice, and
 * their answers never pay for a compression nobody reads. Bounded by bytes, least recently used first out. The keys hold request bodies, and so query texts
 * (ARD draft §7): they stay in this process's memory, like the rankings cache of search.ts, are never
 * logged, and go with the process.
 */
import { gzipSync } from 'node:zlib';
import { HOP_COUNT_HEADER, TRAIL_HEADER } from './federation.js';
import { Doorkeeper } from '../util/doorkeeper.js';
import { LruCache } from '../util/lru-cache.js';

/** A finished answer: status, headers and body bytes, exactly as the service made them. */
export interface StoredAnswer {
  status: number;
  /** Header name/value pairs, names as the service set them (lower case, as web Headers give them). */
  headers: ReadonlyArray<readonly [string, string]>;
  body: Buffer;
}

/**
 * Where the service puts an answer it allows to be kept: one slot per request, passed from the server
 * directly, or through Astro's `locals` (runtime.ts) in the server bundle. Left empty when the answer must not be kept.
 */
export interface AnswerSlot {
  answer?: StoredAnswer;
}

/** One form of a kept answer, ready to write: header lines flattened once (`[name, value, …]`, Content-Length included, the form Node's `writeHead` takes as it is) and the body. */
export interface AnswerForm {
  rawHeaders: string[];
  body: Buffer;
}

/**
 * An answer as the cache holds it: as the service made it (`identity`), and gzip-compressed (RFC 9110
 * §8.4.1.3) once a client that accepts gzip (browsers, `fetch`, `curl --compressed`) has asked for it
 * again, when it is large enough to gain from it ({@link AnswerCache.gzipForm}).
 */
export interface KeptAnswer extends StoredAnswer {
  identity: AnswerForm;
  /** The gzip form: undefined until first asked for; null when compressing does not pay. */
  gzip?: AnswerForm | null;
  /** Bytes counted against the bound. */
  size: number;
}

/** Smallest body worth compressing, in bytes (below it, gzip's header and checksum eat the gain). */
export const MIN_GZIP_BYTES = 1024;

/** Default bound of the cache, in bytes (keys and bodies): 64 MiB. */
export const DEFAULT_ANSWER_CACHE_BYTES = 64 * 1024 * 1024;

/** Most request keys the doorkeeper remembers (as 32-bit hashes) before it forgets them all: 65,536. */
export const DOORKEEPER_KEYS = 65_536;

/** Bytes an answer's headers are counted for, beyond their text (the arrays, the entry). */
const ENTRY_OVERHEAD_BYTES = 256;

/**
 * The request headers the service reads (request-body.ts `readJsonBody`, federation.ts
 * `readFederationHeaders`, the language of `/search`, text-languages.ts): two requests that differ in one
 * of them may get different answers.
 */
export const ANSWER_KEY_HEADERS: readonly string[] = [
  'content-type',
  'accept-language',
  HOP_COUNT_HEADER.toLowerCase(),
  TRAIL_HEADER.toLowerCase(),
];

/**
 * The cache key of a request: method, path with query string, the values of
 * {@link ANSWER_KEY_HEADERS} (joined when repeated, as Node gives them), then the body bytes, each part
 * length-prefixed so no two requests share a key.
 * @param target The request target as received (`req.url`: path and query string).
 */
export function answerKey(
  method: string,
  target: string,
  headers: Readonly<Record<string, string | string[] | undefined>>,
  body: Buffer,
): string {
  const parts = [method, target];
  for (const name of ANSWER_KEY_HEADERS) {
    const value = headers[name];
    parts.push(value === undefined ? '\u0000' : Array.isArray(value) ? value.join(', ') : value);
  }
  parts.push(body.toString('latin1'));
  return parts.map((p) => `${p.length}:${p}`).join('');
}

/** The bounded cache of answers (see the module comment). */
export class AnswerCache {
  private readonly entries = new LruCache<KeptAnswer>(Number.MAX_SAFE_INTEGER);
  private bytes = 0;
  /** The keys offered once and not kept yet ({@link offer}). */
  private readonly doorkeeper = new Doorkeeper(DOORKEEPER_KEYS);
  /** Answers served from the cache, answers stored, and answers compressed, since start. */
  hits = 0;
  stores = 0;
  gzipped = 0;
  /** Answers offered the first time their key was seen, so not kept ({@link offer}), since start. */
  firstSeen = 0;

  /** `maxBytes`: bound on keys plus bodies plus headers; 0 keeps nothing. */
  constructor(readonly maxBytes: number = DEFAULT_ANSWER_CACHE_BYTES) {}

  /** The answer stored under `key`, marked as used. */
  get(key: string): KeptAnswer | undefined {
    const found = this.entries.get(key);
    if (found) this.hits++;
    return found;
  }

  /**
   * Stores `answer` under `key` ({@link set}) when the same key was offered before (since the doorkeeper
   * last forgot: it remembers {@link DOORKEEPER_KEYS} keys as 32-bit hashes, then starts again; two keys
   * of one hash only mean an answer kept one request early). The first offer of a key only marks it.
   * Returns true when the answer was stored.
   */
  offer(key: string, answer: StoredAnswer): boolean {
    if (this.maxBytes === 0) return false;
    if (!this.doorkeeper.admit(key)) {
      this.firstSeen++;
      return false;
    }
    this.set(key, answer);
    return true;
  }

  /** Stores `answer` under `key`, dropping the least recently used answers beyond the bound. */
  set(key: string, answer: StoredAnswer): void {
    const head = answer.headers.flatMap(([name, value]) => [name, value]);
    const identity = {
      rawHeaders: [...head, 'content-length', String(answer.body.length)],
      body: answer.body,
    };
    let size = key.length + answer.body.length + ENTRY_OVERHEAD_BYTES;
    for (const [name, value] of answer.headers) size += name.length + value.length;
    if (size > this.maxBytes) return;
    const previous = this.entries.peek(key);
    if (previous) this.bytes -= previous.size;
    this.entries.set(key, { ...answer, identity, size });
    this.bytes += size;
    this.stores++;
    this.evict();
  }

  /**
   * The gzip form of a kept `answer` (RFC 9110 §8.4.1.3: `Content-Encoding: gzip`, its own
   * `Content-Length`), compressed on the first call and kept with the answer, its bytes counted against
   * the bound; undefined for an answer under {@link MIN_GZIP_BYTES} or one that compression does not
   * make smaller.
   */
  gzipForm(answer: KeptAnswer): AnswerForm | undefined {
    if (answer.gzip !== undefined) return answer.gzip ?? undefined;
    if (answer.body.length < MIN_GZIP_BYTES) return undefined;
    const body = gzipSync(answer.body);
    if (body.length >= answer.body.length) {
      answer.gzip = null;
      return undefined;
    }
    const head = answer.headers.flatMap(([name, value]) => [name, value]);
    const form = {
      rawHeaders: [...head, 'content-encoding', 'gzip', 'content-length', String(body.length)],
      body,
    };
    answer.gzip = form;
    answer.size += body.length;
    this.bytes += body.length;
    this.gzipped++;
    this.evict();
    return form;
  }

  /** Drops the least recently used answers until the held bytes are within the bound. */
  private evict(): void {
    while (this.bytes > this.maxBytes) {
      const dropped = this.entries.shift();
      if (!dropped) break;
      this.bytes -= dropped.size;
    }
  }

  /** Number of answers held. */
  get size(): number {
    return this.entries.size;
  }

  /** Bytes held (as counted against `maxBytes`). */
  get heldBytes(): number {
    return this.bytes;
  }
}
