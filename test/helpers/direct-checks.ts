/**
 * Independent checks of a built site folder, written against the specifications with jose,
 * canonicalize, node:crypto and @a2a-js/sdk directly — never through `src/core` — so that one
 * misreading of a spec cannot pass both the signer and its checker (DESIGN.md §4).
 *
 * {@link directProblems} runs every check over every own entry and returns what failed, as short
 * stable labels (`<identifier>: <check>`), so tests can assert both "nothing failed" and "exactly this
 * failed".
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { verifyAgentCardSignature } from '@a2a-js/sdk';
import canonicalize from 'canonicalize';
import { wholeCardSignatures } from './consumers.js';
import { calculateJwkThumbprint, decodeProtectedHeader, flattenedVerify, importJWK, type JWK } from 'jose';

export const DOMAIN = 'agents.example.com';
export const ORIGIN = `https://${DOMAIN}`;
export const DID = `did:web:${DOMAIN}`;
export const JKU = `${ORIGIN}/.well-known/jwks.json`;
export const A2A_TYPE = 'application/a2a-agent-card+json';
export const RAM_EXTENSION_URI = 'https://github.com/a2aproject/A2A/issues/1426';

/** A JSON object as read from a file. */
export type Json = Record<string, unknown>;

export async function readJson(dir: string, rel: string): Promise<Json> {
  return JSON.parse(await readFile(path.join(dir, rel), 'utf8')) as Json;
}

/** `sha256:<lowercase hex>` of `bytes`, with node:crypto. */
export function sha256(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/** The file of `dir` that a URL of the site maps to, or undefined for another origin. */
export function fileOf(dir: string, url: string): string | undefined {
  const u = new URL(url);
  if (u.origin !== ORIGIN) return undefined;
  const rel = decodeURIComponent(u.pathname).replace(/\/$/, '/index.html');
  return path.join(dir, ...rel.split('/').filter(Boolean));
}

function b64u(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}

/** The domain a `urn:air:<domain>:<ns>:<name>` names. */
export function urnDomain(identifier: string): string {
  return identifier.split(':')[2] ?? '';
}

/**
 * Verifies a trustManifest the way ARD draft §3.5 and DESIGN.md §4 step 5 describe it: a compact JWS
 * with detached payload `h..s`, payload = RFC 8785 JCS (`canonicalize`) of the manifest without
 * `signature`, key = the did.json verification method whose id is the header's `kid` and which is
 * listed under `assertionMethod`. Returns the protected header; throws when anything does not hold.
 */
export async function verifyTrustManifest(tm: Json, didDocument: Json): Promise<Json> {
  const jws = tm.signature;
  if (typeof jws !== 'string') throw new Error('no signature');
  const parts = jws.split('.');
  if (parts.length !== 3 || parts[1] !== '')
    throw new Error(`not a compact detached JWS: ${jws.slice(0, 20)}…`);
  const [h, , s] = parts as [string, string, string];
  const header = decodeProtectedHeader(jws) as Json;
  const kid = header.kid;
  if (typeof kid !== 'string') throw new Error('no kid');
  const methods = (didDocument.verificationMethod ?? []) as Json[];
  const assertion = (didDocument.assertionMethod ?? []) as unknown[];
  const method = methods.find((m) => m.id === kid);
  if (!method || !assertion.includes(kid))
    throw new Error(`kid ${kid} is not an assertion method of did.json`);
  const { signature: _s, ...unsigned } = tm;
  const payload = canonicalize(unsigned);
  if (typeof payload !== 'string') throw new Error('no canonical form');
  const key = await importJWK(method.publicKeyJwk as JWK, String(header.alg));
  await flattenedVerify({ protected: h, payload: b64u(payload), signature: s }, key, {
    algorithms: ['ES256', 'EdDSA'],
  });
  return header;
}

/**
 * Verifies an A2A card with @a2a-js/sdk's `verifyAgentCardSignature`, the key taken from `jwks` by
 * `kid`. Returns the `jku` values the SDK asked for; throws when the card does not verify.
 */
export async function verifyCard(card: Json, jwks: Json): Promise<(string | undefined)[]> {
  const asked: (string | undefined)[] = [];
  const keys = (jwks.keys ?? []) as Json[];
  const verify = verifyAgentCardSignature(async (kid, jku) => {
    asked.push(jku);
    const key = keys.find((k) => k.kid === kid);
    if (!key) throw new Error(`kid ${kid} not in jwks.json`);
    return (await importJWK(key as JWK, String(key.alg))) as CryptoKey;
  });
  const debug = console.debug;
  console.debug = () => {}; // the SDK logs each failed attempt at debug level
  try {
    await verify(card as never);
  } finally {
    console.debug = debug;
  }
  return asked;
}

/** The RFC 7638 thumbprint of a JWK, by jose. */
export function thumbprint(jwk: Json): Promise<string> {
  return calculateJwkThumbprint(jwk as JWK, 'sha256');
}

/**
 * Every independent check over the site in `dir`, for every entry of ard.json whose URN names our
 * domain: the digest of the bytes its url serves, the trustManifest (signature through did.json,
 * identity, kid = identity#thumbprint, subject = the entry), and for A2A cards the SDK signature check,
 * the card's entry extension and the two RAM copies being equal. Returns the labels of what failed, sorted; `[]` when all holds.
 */
export async function directProblems(dir: string): Promise<string[]> {
  const problems: string[] = [];
  const ard = await readJson(dir, '.well-known/ard.json');
  const did = await readJson(dir, '.well-known/did.json');
  const jwks = await readJson(dir, '.well-known/jwks.json');
  for (const entry of ard.entries as Json[]) {
    const id = String(entry.identifier);
    if (urnDomain(id) !== DOMAIN) continue;
    const file = typeof entry.url === 'string' ? fileOf(dir, entry.url) : undefined;
    const bytes = file ? await readFile(file).catch(() => undefined) : undefined;
    if (!bytes || entry.digest !== sha256(bytes)) problems.push(`${id}: digest`);

    const tm = entry.trustManifest as Json | undefined;
    if (!tm) {
      problems.push(`${id}: no trustManifest`);
    } else {
      const header = await verifyTrustManifest(tm, did).catch(() => undefined);
      if (!header) problems.push(`${id}: trustManifest signature`);
      else {
        const members = (did.verificationMethod as Json[]).find((m) => m.id === header.kid)
          ?.publicKeyJwk as Json;
        if (header.kid !== `${DID}#${await thumbprint(members)}`) problems.push(`${id}: kid`);
      }
      if (tm.identity !== DID) problems.push(`${id}: identity`);
      const subject = (tm.subject ?? {}) as Json;
      for (const f of ['identifier', 'type', 'version', 'digest']) {
        if (subject[f] !== entry[f]) problems.push(`${id}: subject.${f}`);
      }
    }

    if (entry.type === A2A_TYPE && bytes) {
      let card: Json | undefined;
      try {
        card = JSON.parse(bytes.toString('utf8')) as Json;
      } catch {
        problems.push(`${id}: card JSON`);
      }
      if (card) {
        const jku = await verifyCard(card, jwks).catch(() => undefined);
        if (!jku || jku.some((u) => u !== JKU)) problems.push(`${id}: card signature`);
        // The whole-card reading (A2A#2122): JCS of the card as served minus signatures, did.json's key.
        if ((await wholeCardSignatures(card, did)).length === 0) problems.push(`${id}: whole-card signature`);
        const exts = ((card.capabilities as Json | undefined)?.extensions ?? []) as Json[];
        if (!exts.some((e) => (e.params as Json | undefined)?.identifier === id))
          problems.push(`${id}: card entry extension`);
        // The two RAM copies (DESIGN.md §3): the top-level one only the ARD digest covers, the
        // extension one the A2A signature covers too; they must be the same object.
        const ramExt = exts.find((e) => e.uri === RAM_EXTENSION_URI);
        // (A card may leave out the top-level copy, `ram.topLevel: false`, never the extension one.)
        if (card.resourceAccessManifest !== undefined) {
          // Beside the RAM in the params: the skill map, the permission sets and the permission page's
          // facts (readOnlyOperations, manageAccessUrls), never inside it.
          const {
            skillAccesses: _s,
            permissions: _p,
            readOnlyOperations: _r,
            manageAccessUrls: _m,
            ...extRam
          } = (ramExt?.params ?? {}) as Json;
          if (!ramExt || !isDeepStrictEqual(card.resourceAccessManifest, extRam))
            problems.push(`${id}: RAM copies`);
        }
      }
    }
  }
  return problems.sort();
}

/** JSON paths of every `""`, `[]` and `{}` inside `value`. */
export function emptyValues(value: unknown, at = '$'): string[] {
  if (value === '') return [at];
  if (Array.isArray(value))
    return value.length === 0 ? [at] : value.flatMap((v, i) => emptyValues(v, `${at}[${i}]`));
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    return entries.length === 0 ? [at] : entries.flatMap(([k, v]) => emptyValues(v, `${at}.${k}`));
  }
  return [];
}

/** A copy of `value` with every object key turned from snake_case into camelCase (values untouched). */
export function camelCaseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelCaseKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()),
        camelCaseKeys(v),
      ]),
    );
  }
  return value;
}
