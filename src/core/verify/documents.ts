/**
 * The documents a verification reads more than once (./site.ts): JSON parsed strictly (RFC 8259 over
 * UTF-8, RFC 3629), DID documents and JWK Sets read once per run, the public keys imported once per run
 * for the libraries (CryptoKeys) and for the fast path (KeyObjects, ./fast-signatures.ts), and the JWS
 * protected headers decoded once per run (a site's cards and trustManifests carry the same few).
 */
import { importJWK } from 'jose';
import { KeyObject } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { ArdsiteError } from '../util/errors.js';
import { jsonNestingDepth, MAX_JSON_DEPTH } from '../util/json.js';
import { decodeProtectedHeader } from '../trust/jws.js';
import { simpleProtectedHeader } from './fast-signatures.js';
import type { FetchedDocument, SiteReader } from './reader.js';

/** Unpadded base64url (RFC 4648 §5), as src/core/trust/jws.ts tests each part of a compact JWS. */
const B64URL = /^[A-Za-z0-9_-]*$/;

/** True for a JSON object (not null, not an array). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A fast `true` for `isDeepStrictEqual(a, b)` over values made by `JSON.parse` (and plain copies of them):
 * the same primitives (`Object.is`, so `0` and `-0` differ as there), arrays of the same length with equal
 * items, plain objects with the same own keys (in any order) and equal values. It answers `false` for
 * anything else, including every value JSON cannot make (another prototype, a function, a symbol), so a
 * `false` only means "ask isDeepStrictEqual", which decides.
 */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return a !== 0 || Object.is(a, b);
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    if (Object.getPrototypeOf(a) !== Array.prototype || Object.getPrototypeOf(b) !== Array.prototype)
      return false;
    for (let i = 0; i < a.length; i++) if (!(i in a) || !(i in b) || !jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  if (Object.getPrototypeOf(a) !== Object.prototype || Object.getPrototypeOf(b) !== Object.prototype)
    return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  if (Object.getOwnPropertySymbols(a).length > 0 || Object.getOwnPropertySymbols(b).length > 0) return false;
  for (const key of keys) {
    if (!Object.hasOwn(b, key)) return false;
    if (!jsonEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}

/**
 * `isDeepStrictEqual(a, b)` (node:util), answered first by a walk made for parsed JSON values that says
 * "equal" only where isDeepStrictEqual would ({@link jsonEqual}); every other answer is isDeepStrictEqual's.
 */
export function deepStrictEqual(a: unknown, b: unknown): boolean {
  return jsonEqual(a, b) || isDeepStrictEqual(a, b);
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
 * The nesting depth of arrays and objects of a parsed JSON value (`0` for a scalar, `1` for `[]`), found
 * with its own stack and given up as soon as it passes `stopAbove` (that depth is returned). For a value
 * made by `JSON.parse` it is the depth {@link jsonNestingDepth} finds in the text, in about a quarter of
 * the time (the text scan visits every character, this every array and object).
 */
function valueNestingDepth(root: unknown, stopAbove: number): number {
  const values: unknown[] = [root];
  const depths: number[] = [0];
  let deepest = 0;
  while (values.length > 0) {
    const value = values.pop();
    const depth = depths.pop()! + 1;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > deepest) {
      deepest = depth;
      if (deepest > stopAbove) return deepest;
    }
    const items = Array.isArray(value) ? value : Object.values(value);
    for (const item of items) {
      if (typeof item === 'object' && item !== null) {
        values.push(item);
        depths.push(depth);
      }
    }
  }
  return deepest;
}

/**
 * The JSON value of `bytes`, decoded as strict UTF-8 (a byte order mark is dropped, as the WHATWG
 * decoder does) and parsed by `JSON.parse` (RFC 8259), at most {@link MAX_JSON_DEPTH} arrays and objects
 * deep (RFC 8259 §9 lets a parser limit nesting), so that no later walk of the value can exhaust the call
 * stack. `what` names the document in the error. Text nested too deeply is refused as such whether or not
 * it is JSON otherwise: the depth of what `JSON.parse` made is measured ({@link valueNestingDepth}; V8's
 * parser keeps its own stack, so deep text cannot overflow it), and the text is scanned only when it is
 * not JSON, to tell the two refusals apart as before.
 * @throws ArdsiteError `JSON_INVALID` when the bytes are not UTF-8, not JSON, or nested too deeply.
 */
export function parseJson(bytes: Uint8Array, what: string): unknown {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch (error) {
    throw new ArdsiteError('JSON_INVALID', `${what} is not JSON: ${(error as Error).message}`);
  }
  const tooDeep = () =>
    new ArdsiteError(
      'JSON_INVALID',
      `${what} nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep, which the verifier does not read`,
    );
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    if (jsonNestingDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) throw tooDeep();
    throw new ArdsiteError('JSON_INVALID', `${what} is not JSON: ${(error as Error).message}`);
  }
  if (valueNestingDepth(value, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) throw tooDeep();
  return value;
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
  private readonly headers = new Map<string, { header: Record<string, unknown> } | { error: unknown }>();
  private readonly simpleHeaders = new Map<string, Record<string, unknown> | undefined>();
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
  /**
   * `decodeProtectedHeader(jws)` (src/core/trust/jws.ts), with each protected header decoded once per run:
   * the same header object (shared: read it, never change it) or the same error. Only the first part is
   * decoded, and only it decides once the other two parts are base64url; otherwise the call is made as is.
   * @throws ArdsiteError `JWS_INVALID` as decodeProtectedHeader.
   */
  protectedHeader(jws: string): Record<string, unknown> {
    const parts = typeof jws === 'string' ? jws.split('.') : [];
    if (parts.length !== 3 || !B64URL.test(parts[1]!) || !B64URL.test(parts[2]!))
      return decodeProtectedHeader(jws);
    const encoded = parts[0]!;
    let known = this.headers.get(encoded);
    if (!known) {
      try {
        known = { header: decodeProtectedHeader(`${encoded}..`) };
      } catch (error) {
        known = { error };
      }
      this.headers.set(encoded, known);
    }
    if ('error' in known) throw known.error;
    return known.header;
  }

  /** `simpleProtectedHeader(encoded)` (./fast-signatures.ts), once per run and header (shared: read only). */
  simpleHeader(encoded: string): Record<string, unknown> | undefined {
    if (this.simpleHeaders.has(encoded)) return this.simpleHeaders.get(encoded);
    const header = simpleProtectedHeader(encoded);
    this.simpleHeaders.set(encoded, header);
    return header;
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
