/**
 * `/.well-known/ai-catalog.json`: a compatibility copy of the ARD manifest for ARD v0.9-era consumers
 * (DESIGN.md §9 "Crawler files amended"): Lighthouse's `ard-schema` audit, crawlers written against
 * ards-project/ard-spec v0.9 and its schema `spec/schemas/ai-catalog.schema.json`. The seed-002 manifest
 * at `/.well-known/ard.json` stays the primary output; this copy lists the same entries in the shape that
 * schema accepts, and is computed from those entries by {@link aiCatalogEntry}, so the verifier can
 * compute it again from ard.json and compare.
 *
 * What the v0.9 shape cannot carry is left out rather than weakened:
 * - The v0.9 `trustManifest` allows only `identity`, `identityType`, `trustSchema`, `attestations`,
 *   `provenance` and `signature` (additionalProperties false): no `subject`, no `issuedAt`. ardsite's
 *   signature covers the JCS of the whole seed-002 trustManifest, subject included (ARD draft §3.5.2), so
 *   in the v0.9 shape it would be a signature that neither verifies nor binds its subject: the
 *   substitution that ai-catalog ADR-0009 warns about. The copy therefore never carries a `signature`
 *   (nor `trustManifests`); an entry whose manifest was signed names the signed manifest instead, in
 *   `metadata.signedManifest` (the v0.9 extension point), and a consumer that wants proof reads it there.
 * - `representativeQueries` holds 2 to 5 queries in v0.9 (`minItems`/`maxItems`): more are cut to the
 *   first 5, fewer are left out (`npm run check` already warns about both).
 * - `metadata` values are strings, numbers, booleans or null in v0.9: other values are left out.
 * - `updatedAt` is an RFC 3339 `date-time` in v0.9: a seed-002 HTTP-date is written as one; a value that
 *   is no date is left out.
 * Other members (the RAM footprint terms and their `@context`, `digest`) are kept: v0.9 entries are open.
 */
import { setMember, type JsonObject, type JsonValue } from '../util/json.js';

/** The `specVersion` of the copy (ai-catalog.schema.json: `enum: ["1.0"]`). */
export const AI_CATALOG_SPEC_VERSION = '1.0';

/** Media type of an ai-catalog document (ai-catalog specification). */
export const AI_CATALOG_MEDIA_TYPE = 'application/ai-catalog+json';

/** The `metadata` key that names the signed manifest of an entry whose signature the copy leaves out. */
export const SIGNED_MANIFEST_KEY = 'signedManifest';

/** `host` of the copy (ai-catalog.schema.json `host`): who publishes the catalog. */
export interface AiCatalogHost {
  displayName: string;
  /** The publisher's `did:web` DID. */
  identifier?: string;
  documentationUrl?: string;
}

/** The v0.9 `identityType` values (ai-catalog.schema.json `trustManifest.identityType`). */
const IDENTITY_TYPES: ReadonlySet<string> = new Set(['spiffe', 'did', 'https', 'other']);
/** The v0.9 provenance relations. */
const RELATIONS: ReadonlySet<string> = new Set(['derivedFrom', 'publishedFrom', 'copiedFrom']);
/** RFC 3339 `date-time` (the JSON Schema `date-time` format). */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);

/** The members of `source` named in `keys` whose value passes `keep`, in the order of `keys`. */
function pick(source: Record<string, unknown>, keys: readonly string[], keep = isString): JsonObject {
  const out: JsonObject = {};
  for (const k of keys) if (keep(source[k])) out[k] = source[k] as JsonValue;
  return out;
}

/** `trustSchema` in the v0.9 shape, or undefined when it lacks the required `identifier` and `version`. */
function trustSchemaV09(value: unknown): JsonObject | undefined {
  if (!isObject(value) || !isString(value.identifier) || !isString(value.version)) return undefined;
  const out = pick(value, ['identifier', 'version', 'governanceUri']);
  if (isStringList(value.verificationMethods)) out.verificationMethods = [...value.verificationMethods];
  return out;
}

/**
 * A trustManifest in the v0.9 shape: identity, identityType, trustSchema, attestations and provenance
 * that hold the members v0.9 requires, never a signature (see the module comment). Undefined when there is
 * no string `identity`.
 */
export function trustManifestV09(manifest: unknown): JsonObject | undefined {
  if (!isObject(manifest) || !isString(manifest.identity)) return undefined;
  const out: JsonObject = { identity: manifest.identity };
  if (isString(manifest.identityType) && IDENTITY_TYPES.has(manifest.identityType))
    out.identityType = manifest.identityType;
  const schema = trustSchemaV09(manifest.trustSchema);
  if (schema) out.trustSchema = schema;
  const attestations = (Array.isArray(manifest.attestations) ? manifest.attestations : [])
    .filter((a): a is Record<string, unknown> => isObject(a) && [a.type, a.uri, a.mediaType].every(isString))
    .map((a) => pick(a, ['type', 'uri', 'mediaType', 'digest']));
  if (attestations.length > 0) out.attestations = attestations;
  const provenance = (Array.isArray(manifest.provenance) ? manifest.provenance : [])
    .filter(
      (p): p is Record<string, unknown> =>
        isObject(p) && isString(p.relation) && RELATIONS.has(p.relation) && isString(p.sourceId),
    )
    .map((p) => pick(p, ['relation', 'sourceId', 'sourceDigest']));
  if (provenance.length > 0) out.provenance = provenance;
  return out;
}

function isSigned(manifest: unknown): boolean {
  return isObject(manifest) && isString(manifest.signature);
}

function dateTime(value: unknown): string | undefined {
  if (!isString(value)) return undefined;
  if (DATE_TIME.test(value)) return value;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString().replace('.000Z', 'Z');
}

/**
 * The entry of the copy for one ARD manifest entry (ARD draft §3.2, as emitted in ard.json), per the
 * rules of the module comment. `manifestUrl` is the absolute URL of ard.json, written in
 * `metadata.signedManifest` when the entry's trustManifest (or one of its `trustManifests`) was signed.
 * Pure: the same entry and URL give the same object, members in the entry's order.
 */
export function aiCatalogEntry(entry: Record<string, unknown>, manifestUrl: string): JsonObject {
  const out: JsonObject = {};
  const signed =
    isSigned(entry.trustManifest) ||
    (Array.isArray(entry.trustManifests) && entry.trustManifests.some(isSigned));
  for (const [key, value] of Object.entries(entry)) {
    if (value === undefined) continue;
    switch (key) {
      case 'trustManifests':
        break;
      case 'trustManifest': {
        const v09 = trustManifestV09(value);
        if (v09) out.trustManifest = v09;
        break;
      }
      case 'representativeQueries':
        if (isStringList(value) && value.length >= 2) out.representativeQueries = value.slice(0, 5);
        break;
      case 'updatedAt': {
        const date = dateTime(value);
        if (date) out.updatedAt = date;
        break;
      }
      case 'metadata': {
        if (!isObject(value)) break;
        const kept = Object.entries(value).filter(([, v]) => v === null || typeof v !== 'object');
        if (kept.length > 0) out.metadata = Object.fromEntries(kept) as JsonObject;
        break;
      }
      default:
        setMember(out, key, value);
    }
  }
  if (signed) out.metadata = { ...((out.metadata as JsonObject) ?? {}), [SIGNED_MANIFEST_KEY]: manifestUrl };
  return out;
}

/**
 * The whole copy: `{specVersion, host, entries}` (ai-catalog.schema.json), its entries computed by
 * {@link aiCatalogEntry} from the manifest's `entries` in their order.
 */
export function aiCatalogDocument(
  entries: readonly Record<string, unknown>[],
  host: AiCatalogHost,
  manifestUrl: string,
): JsonObject {
  return {
    specVersion: AI_CATALOG_SPEC_VERSION,
    host: { ...host },
    entries: entries.map((e) => aiCatalogEntry(e, manifestUrl)),
  };
}
