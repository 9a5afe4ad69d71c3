/**
 * The consumers of a built site's A2A cards, run the way each one really reads a card, with their own
 * libraries and never through `src/core` (DESIGN.md §9 "Consumers decide"):
 *
 * - the official A2A v0.3.0 JSON Schema (`AgentCard`, ajv + ajv-formats), for cards that offer v0.3;
 * - @a2a-js/sdk: `verifyAgentCardSignature` (its canonical form), the v1 client's
 *   `DefaultAgentCardResolver` (with and without `legacyCompat`), and the v0.3 translator
 *   `parseLegacyAgentCard` for cards that offer v0.3;
 * - a whole-card verifier: RFC 8785 JCS (`canonicalize`) of the card as served minus `signatures`,
 *   checked with jose's `flattenedVerify` against the key the `kid` names in did.json;
 * - jose over the trustManifests of ard.json (through did.json's `assertionMethod`).
 *
 * Used by the interop tests and by `scripts/interop.ts`, which prints the table of docs/interop.md.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { verifyAgentCardSignature } from '@a2a-js/sdk';
import { DefaultAgentCardResolver } from '@a2a-js/sdk/client';
import { parseLegacyAgentCard } from '@a2a-js/sdk/compat/v0_3/client';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import canonicalize from 'canonicalize';
import { decodeProtectedHeader, flattenedVerify, importJWK, type JWK } from 'jose';

/** A JSON object as read from a file. */
export type Json = Record<string, unknown>;

/** The official A2A v0.3.0 JSON Schema (test/fixtures/a2a/, its source and licence in the README there). */
export const A2A_V03_SCHEMA = path.resolve(
  path.dirname(new URL(import.meta.url).pathname),
  '../fixtures/a2a/a2a-v0.3.0.schema.json',
);

let validateCard: ((card: unknown) => string[]) | undefined;

/** Errors of `card` under the official A2A v0.3.0 JSON Schema's `AgentCard` (`[]` when valid). */
export async function v03SchemaErrors(card: unknown): Promise<string[]> {
  if (!validateCard) {
    const schema = JSON.parse(await readFile(A2A_V03_SCHEMA, 'utf8')) as Json;
    const ajv = new Ajv({ allErrors: true, strict: false });
    const addFormats = addFormatsModule as unknown as (a: Ajv) => void;
    addFormats(ajv);
    ajv.addSchema(schema, 'a2a-v0.3.0');
    const validate = ajv.getSchema('a2a-v0.3.0#/definitions/AgentCard');
    if (!validate) throw new Error('AgentCard is not in the A2A v0.3.0 schema');
    validateCard = (value) =>
      validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
  }
  return validateCard(card);
}

/** Whether a card offers v0.3 (a v0.3 client would read it): it carries the v0.3 `url`/`protocolVersion`. */
export function offersV03(card: Json): boolean {
  return typeof card.url === 'string' || typeof card.protocolVersion === 'string';
}

/** @a2a-js/sdk's v0.3 → v1 translator over the card; returns the error message, or undefined. */
export function v03TranslatorError(card: Json): string | undefined {
  try {
    parseLegacyAgentCard(card as never);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * @a2a-js/sdk's v1 client resolver (`DefaultAgentCardResolver`, `legacyCompat` on or off) over the card's
 * bytes; returns the error message, or undefined when it resolves a card naming every v1.0 interface.
 */
export async function v1ResolverError(bytes: Uint8Array, legacyCompat: boolean): Promise<string | undefined> {
  const fetchImpl = (async () =>
    new Response(bytes as BodyInit, { headers: { 'content-type': 'application/json' } })) as typeof fetch;
  try {
    const resolver = new DefaultAgentCardResolver({ fetchImpl, legacyCompat: { enabled: legacyCompat } });
    const resolved = (await resolver.resolve('https://agents.example.com/')) as unknown as Json;
    const card = JSON.parse(new TextDecoder().decode(bytes)) as Json;
    const want = ((card.supportedInterfaces ?? []) as Json[]).map((i) => i.url);
    const got = ((resolved.supportedInterfaces ?? []) as Json[]).map((i) => i.url);
    const missing = want.filter((u) => !got.includes(u));
    return missing.length > 0 ? `resolved card lacks the interfaces ${missing.join(', ')}` : undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** The public JWK that did.json lists under `assertionMethod` for `kid`, or undefined. */
export function assertionKey(didDocument: Json, kid: string): Json | undefined {
  const assertion = (didDocument.assertionMethod ?? []) as unknown[];
  if (!assertion.includes(kid)) return undefined;
  const method = ((didDocument.verificationMethod ?? []) as Json[]).find((m) => m.id === kid);
  return method?.publicKeyJwk as Json | undefined;
}

/**
 * @a2a-js/sdk's `verifyAgentCardSignature` with the key did.json names (the SDK's reading: its own
 * canonical form). Returns the error message, or undefined when one signature verifies.
 */
export async function sdkSignatureError(card: Json, didDocument: Json): Promise<string | undefined> {
  const verify = verifyAgentCardSignature(async (kid) => {
    const jwk = assertionKey(didDocument, kid);
    if (!jwk) throw new Error(`kid ${kid} is not an assertion method of did.json`);
    return (await importJWK(jwk as JWK, jwk.kty === 'OKP' ? 'EdDSA' : 'ES256')) as CryptoKey;
  });
  const debug = console.debug;
  console.debug = () => {}; // the SDK logs each failed attempt at debug level
  try {
    await verify(card as never);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  } finally {
    console.debug = debug;
  }
}

/**
 * The whole-card reading of A2A §8.4 (A2A#2122): a signature whose payload is the RFC 8785 JCS of the
 * card exactly as served minus `signatures`, checked with jose against did.json's key for its `kid`.
 * Returns the indexes of the signatures that verify under this reading.
 */
export async function wholeCardSignatures(card: Json, didDocument: Json): Promise<number[]> {
  const { signatures, ...served } = card;
  const payload = canonicalize(served);
  if (typeof payload !== 'string') return [];
  const ok: number[] = [];
  for (const [i, s] of ((Array.isArray(signatures) ? signatures : []) as Json[]).entries()) {
    try {
      const header = decodeProtectedHeader({ protected: String(s.protected) } as never) as Json;
      const jwk = assertionKey(didDocument, String(header.kid));
      if (!jwk) continue;
      const key = await importJWK(jwk as JWK, String(header.alg));
      await flattenedVerify(
        {
          protected: String(s.protected),
          payload: Buffer.from(payload, 'utf8').toString('base64url'),
          signature: String(s.signature),
        },
        key,
        { algorithms: ['ES256', 'EdDSA'] },
      );
      ok.push(i);
    } catch {
      // this signature does not hold under the whole-card reading
    }
  }
  return ok;
}

/** One consumer's verdict over one card: `undefined` = not applicable, `''` = accepted, text = why not. */
export interface CardVerdicts {
  file: string;
  offersV03: boolean;
  v03Schema?: string;
  v03Translator?: string;
  v1Resolver: string;
  v1ResolverCompat: string;
  sdkSignature: string;
  wholeCard: string;
}

/** Every consumer's verdict over one card's served bytes (`''` accepted, else the reason). */
export async function cardVerdicts(
  file: string,
  bytes: Uint8Array,
  didDocument: Json,
): Promise<CardVerdicts> {
  const card = JSON.parse(new TextDecoder().decode(bytes)) as Json;
  const v03 = offersV03(card);
  const verdicts: CardVerdicts = {
    file,
    offersV03: v03,
    v1Resolver: (await v1ResolverError(bytes, false)) ?? '',
    v1ResolverCompat: (await v1ResolverError(bytes, true)) ?? '',
    sdkSignature: (await sdkSignatureError(card, didDocument)) ?? '',
    wholeCard: (await wholeCardSignatures(card, didDocument)).length > 0 ? '' : 'no signature verifies',
  };
  if (v03) {
    verdicts.v03Schema = (await v03SchemaErrors(card)).join('; ');
    verdicts.v03Translator = v03TranslatorError(card) ?? '';
  }
  return verdicts;
}

/** The verdicts over every A2A card an ard.json entry of `dir` points at (same-origin files only). */
export async function siteCardVerdicts(dir: string): Promise<CardVerdicts[]> {
  const ard = JSON.parse(await readFile(path.join(dir, '.well-known/ard.json'), 'utf8')) as Json;
  const did = JSON.parse(await readFile(path.join(dir, '.well-known/did.json'), 'utf8')) as Json;
  const origin = `https://${String(did.id).replace(/^did:web:/, '')}`;
  const out: CardVerdicts[] = [];
  for (const entry of (ard.entries ?? []) as Json[]) {
    if (entry.type !== 'application/a2a-agent-card+json' || typeof entry.url !== 'string') continue;
    const url = new URL(entry.url);
    if (url.origin !== origin) continue;
    const rel = decodeURIComponent(url.pathname);
    out.push(await cardVerdicts(rel, await readFile(path.join(dir, rel)), did));
  }
  return out;
}
