/**
 * The documents a verification reads more than once (./site.ts): JSON parsed strictly (RFC 8259 over
 * UTF-8, RFC 3629), DID documents and JWK Sets read once per run, and the public keys imported once per
 * run for the libraries (CryptoKeys) and for the fast path (KeyObjects, ./fast-signatures.ts).
 */
import { importJWK } from 'jose';
import { KeyObject } from 'node:crypto';
import { ArdsiteError } from '../errors.js';
import { jsonNestingDepth, MAX_JSON_DEPTH } from '../json.js';
import type { FetchedDocument, SiteReader } from './reader.js';

/** True for a JSON object (not null, not an array). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The first string anywhere in `value` (a parsed JSON document: object values and list items, not keys)
 * that is one of `wanted`, or `undefined`. Walks with its own stack, so a document nested 100,000 levels
 * deep is searched like any other.
 */
export function findString(value: unknown, wanted: ReadonlySet<string>): string | undefined {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') {
      if (wanted.has(item)) return item;
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) stack.push(item[i]);
    } else if (isRecord(item)) {
      const values = Object.values(item);
      for (let i = values.length - 1; i >= 0; i--) stack.push(values[i]);
    }
  }
  return undefined;
}

/** What may stand right before a name for it to be a whole word: nothing, a space, an opening mark. */
const WORD_BEFORE = /[\s"'([{<,;]/;
/** What may follow a name for it to be a whole word: nothing, a space, a closing mark or punctuation. */
const WORD_AFTER = /[\s"')\]}>,;!?]/;

/**
 * Whether `text` holds `name` as a whole word: after the start, a space or an opening mark (so not in a
 * URL's path, query or fragment), and before the end, a space, a closing mark or punctuation (a `.`
 * only when a space or the end follows, so `did:web:acme.co` is not found in `did:web:acme.com` nor in
 * `did:web:acme.co.evil.example`).
 */
function holdsWord(text: string, name: string): boolean {
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
    const before = text[at - 1];
    const after = text[at + name.length];
    const next = text[at + name.length + 1];
    const startsWord = before === undefined || WORD_BEFORE.test(before);
    const endsWord =
      after === undefined ||
      WORD_AFTER.test(after) ||
      (after === '.' && (next === undefined || WORD_AFTER.test(next)));
    if (startsWord && endsWord) return true;
  }
  return false;
}

/**
 * Whether an artifact (`bytes`, any text format) declares an entry (ARD draft §6.2, cross-origin target
 * binding): its `identifier`, or its publisher's `did` (in any case: a did:web DID is a domain), appears
 * as a whole word ({@link holdsWord}). A JSON artifact is searched string by string, keys included, after
 * JSON decoding (so `\u0026` or `\/` escapes are read as the characters they stand for, and an escaped
 * character cannot make a longer name look like this one); any other text is searched as it is.
 */
export function declaresEntry(bytes: Uint8Array, identifier: string, did: string): boolean {
  const lowerDid = did.toLowerCase();
  const holds = (text: string) => holdsWord(text, identifier) || holdsWord(text.toLowerCase(), lowerDid);
  let json: unknown;
  try {
    json = parseJson(bytes, 'the artifact');
  } catch {
    return holds(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  }
  const stack: unknown[] = [json];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') {
      if (holds(item)) return true;
    } else if (Array.isArray(item)) {
      for (const value of item) stack.push(value);
    } else if (isRecord(item)) {
      for (const [key, value] of Object.entries(item)) {
        if (holds(key)) return true;
        stack.push(value);
      }
    }
  }
  return false;
}

/** One strict UTF-8 decoder for every document (a fatal decoder keeps no state between whole calls). */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The JSON value of `bytes`, decoded as strict UTF-8 (a byte order mark is dropped, as the WHATWG
 * decoder does) and parsed by `JSON.parse` (RFC 8259), at most {@link MAX_JSON_DEPTH} arrays and objects
 * deep (RFC 8259 §9 lets a parser limit nesting), so that no later walk of the value can exhaust the call
 * stack. `what` names the document in the error.
 * @throws ArdsiteError `JSON_INVALID` when the bytes are not UTF-8, not JSON, or nested too deeply.
 */
export function parseJson(bytes: Uint8Array, what: string): unknown {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch (error) {
    throw new ArdsiteError('JSON_INVALID', `${what} is not JSON: ${(error as Error).message}`);
  }
  const depth = jsonNestingDepth(text, MAX_JSON_DEPTH);
  if (depth > MAX_JSON_DEPTH) {
    throw new ArdsiteError(
      'JSON_INVALID',
      `${what} nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep, which the verifier does not read`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ArdsiteError('JSON_INVALID', `${what} is not JSON: ${(error as Error).message}`);
  }
}

/** Whether `bytes` start with a UTF-8 byte order mark (EF BB BF), which RFC 8259 §8.1 forbids senders to add. */
export function startsWithBom(bytes: Uint8Array): boolean {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

/** The `JSON_BOM` warning's text for the document at `url` (RFC 8259 §8.1). */
export function bomMessage(url: string): string {
  return `${url} starts with a UTF-8 byte order mark: JSON senders must not add one (RFC 8259 §8.1), and some parsers refuse the document`;
}

/** A document that could not be read at all (as opposed to one that was read and does not hold). */
export class Unreadable extends Error {}

/** A DID document that could not be read: a failure for the site's own DID, a warning for others'. */
export class DidUnreadable extends ArdsiteError {
  constructor(message: string) {
    super('DID_RESOLUTION_FAILED', message);
  }
}

/**
 * A per-run cache of JSON documents (DID documents, JWK Sets), by URL: each is read at most once; and of
 * imported public keys (CryptoKeys for the libraries, KeyObjects for the fast path), so thousands of
 * signature checks share one import per key.
 */
export class DocumentCache {
  private readonly docs = new Map<string, Promise<unknown>>();
  private readonly keys = new Map<string, Promise<CryptoKey>>();
  private readonly verificationKeys = new Map<string, Promise<CryptoKey>>();
  private readonly keyObjects = new Map<Promise<CryptoKey>, Promise<KeyObject | undefined>>();
  /** The URLs of the documents read through {@link json} that start with a byte order mark. */
  readonly withBom = new Set<string>();

  /** The public key of `jwk` (EC P-256 → ES256, OKP Ed25519 → EdDSA), imported once per run. */
  publicKey(jwk: Record<string, unknown>): Promise<CryptoKey> {
    const id = `${String(jwk.kty)}|${String(jwk.crv)}|${String(jwk.x)}|${String(jwk.y)}`;
    let key = this.keys.get(id);
    if (!key) {
      const alg = jwk.kty === 'OKP' ? 'EdDSA' : 'ES256';
      const members = { kty: jwk.kty, crv: jwk.crv, x: jwk.x, ...(jwk.y ? { y: jwk.y } : {}) };
      key = importJWK(members as never, alg) as Promise<CryptoKey>;
      this.keys.set(id, key);
    }
    return key;
  }

  /**
   * The KeyObject of `members` imported by jose's `importJWK` for `alg` (so a key jose refuses is never
   * used), once per run; `undefined` when jose refuses it.
   */
  keyObject(members: Record<string, unknown>, alg: string): Promise<KeyObject | undefined> {
    const id = `${alg}|${String(members.kty)}|${String(members.crv)}|${String(members.x)}|${String(members.y)}`;
    let key = this.verificationKeys.get(id);
    if (!key) {
      key = importJWK(members as never, alg) as Promise<CryptoKey>;
      this.verificationKeys.set(id, key);
    }
    return this.keyObjectOf(key);
  }

  /** The KeyObject of an imported CryptoKey, made once per key; `undefined` when the import failed. */
  keyObjectOf(key: Promise<CryptoKey>): Promise<KeyObject | undefined> {
    let object = this.keyObjects.get(key);
    if (!object) {
      // jose uses a CryptoKey only as a public key that may verify (its checkCryptoKey).
      object = key.then(
        (k) => (k.type === 'public' && k.usages.includes('verify') ? KeyObject.from(k) : undefined),
        () => undefined,
      );
      this.keyObjects.set(key, object);
    }
    return object;
  }
  constructor(private readonly reader: SiteReader) {}
  /**
   * @throws Unreadable when the document is outside the reader or the read failed;
   *   ArdsiteError `JSON_INVALID` when it is not JSON.
   */
  json(url: string, what: string): Promise<unknown> {
    let p = this.docs.get(url);
    if (!p) {
      p = (async () => {
        let doc: FetchedDocument | undefined;
        try {
          doc = await this.reader.read(url);
        } catch (error) {
          throw new Unreadable(`${what} at ${url} cannot be read: ${(error as Error).message}`);
        }
        if (!doc) throw new Unreadable(`${what} at ${url} is on another origin, which is not read from here`);
        if (startsWithBom(doc.bytes)) this.withBom.add(url);
        return parseJson(doc.bytes, `${what} at ${url}`);
      })();
      this.docs.set(url, p);
    }
    return p;
  }
}
