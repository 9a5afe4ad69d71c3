/**
 * Term paths of the query model (ARD draft §3.1, §4.2.1): filter keys and facet fields are dot paths of
 * terms (`tags`, `trustManifest.identity`, `ram:actsAsEndUser`) that name the same thing when they expand
 * to the same IRIs. Expansion follows the draft's JSON-LD rule without a JSON-LD processor:
 *
 * - the base context maps every core term to `https://agenticresourcediscovery.org/ns#<term>`;
 * - a context (the query's `@context`, an entry's `@context`) maps a prefix or a term to an IRI;
 * - a compact IRI `prefix:suffix` expands to IRI(prefix) + suffix; an absolute IRI stays as it is;
 * - a term without a prefix expands through the context when the context defines it, else through the
 *   base context.
 *
 * An entry's values are indexed under the expanded path of each member, so `ram:owners` in a query
 * finds the entries whose own `@context` maps `ram` to the same IRI. Arrays are looked through: the
 * path `trustManifest.attestations.type` reaches every attestation's type.
 *
 * Limits (documented in docs/guides/registry.md): a `@context` is an object, an array of objects, or the ARD base
 * context URL (remote contexts are not fetched); nested `@context`s are not applied; a key that itself
 * contains a dot cannot be addressed by a path.
 */

/** URL of the ARD base context (ARD draft §3.1). */
export const ARD_BASE_CONTEXT_URL = 'https://agenticresourcediscovery.org/context/v1';
/** The namespace the base context maps core terms into (ARD draft §3.1). */
export const ARD_NAMESPACE = 'https://agenticresourcediscovery.org/ns#';

/**
 * The core terms of an ARD entry (ARD draft §3.2, §5), plus `publisher`: a term of this registry, the
 * `<domain>` of the entry's `urn:air:<domain>:…` identifier, which the explore example facets on.
 */
export const CORE_TERMS: ReadonlySet<string> = new Set([
  '@id',
  '@type',
  'identifier',
  'displayName',
  'type',
  'url',
  'data',
  'description',
  'tags',
  'capabilities',
  'representativeQueries',
  'version',
  'digest',
  'updatedAt',
  'metadata',
  'trustManifest',
  'trustManifests',
  'publisher',
]);

/** The registry's own term: the URN's publisher domain. */
export const PUBLISHER_TERM = 'publisher';

/** A context: prefix or term → IRI. */
export type TermContext = ReadonlyMap<string, string>;

/** An empty context (only the base context applies). */
export const EMPTY_CONTEXT: TermContext = new Map();

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True for `scheme://…` and `urn:…`: an IRI that is not a compact IRI. */
export function isAbsoluteIri(value: string): boolean {
  return /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(value) || /^urn:/i.test(value);
}

/**
 * Reads a `@context` value: an object whose members map a prefix or term to an IRI string (or to
 * `{"@id": IRI}`), an array of such values merged in order, or the base context URL.
 * @returns the context, or a reason string when the value is not one of these.
 */
export function parseContext(value: unknown): TermContext | string {
  const out = new Map<string, string>();
  const add = (item: unknown, where: string): string | undefined => {
    if (item === null || item === undefined) return undefined;
    if (typeof item === 'string') {
      return item === ARD_BASE_CONTEXT_URL
        ? undefined
        : `${where} names the remote context ${JSON.stringify(item)}, which is not fetched; give the prefixes as an object`;
    }
    if (!isRecord(item)) return `${where} must be an object mapping prefixes to IRIs`;
    for (const [key, definition] of Object.entries(item)) {
      if (key.startsWith('@')) continue; // @version, @vocab, @base: not used for term paths
      const iri =
        typeof definition === 'string' ? definition : isRecord(definition) ? definition['@id'] : undefined;
      if (typeof iri !== 'string' || iri === '')
        return `${where}.${key} must be an IRI string (or {"@id": IRI})`;
      out.set(key, iri);
    }
    return undefined;
  };
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const problem = add(item, `@context[${i}]`);
      if (problem) return problem;
    }
  } else {
    const problem = add(value, '@context');
    if (problem) return problem;
  }
  return out;
}

/** How one segment of a path expanded: its IRI, or the prefix no context declares. */
export type SegmentExpansion = { iri: string } | { undeclaredPrefix: string };

/** Expands one term or compact IRI through `context` and the base context (see the module comment). */
export function expandSegment(segment: string, context: TermContext): SegmentExpansion {
  if (segment.startsWith('@')) return { iri: segment };
  if (isAbsoluteIri(segment)) return { iri: segment };
  const colon = segment.indexOf(':');
  if (colon > 0) {
    const prefix = segment.slice(0, colon);
    const iri = context.get(prefix);
    return iri === undefined ? { undeclaredPrefix: prefix } : { iri: `${iri}${segment.slice(colon + 1)}` };
  }
  return { iri: context.get(segment) ?? `${ARD_NAMESPACE}${segment}` };
}

/** Splits a dot path into its segments; `undefined` when a segment is empty (`a..b`, `.a`, `a.`). */
export function splitPath(key: string): string[] | undefined {
  const segments = key.split('.');
  return segments.every((s) => s.length > 0) ? segments : undefined;
}

/** The index key of an expanded path (IRIs joined by a space, which no IRI contains). */
export function pathKey(iris: readonly string[]): string {
  return iris.join(' ');
}

/** The text under which a scalar value is indexed and compared: strings as they are, others as JSON. */
export function valueText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value);
  return undefined;
}

/** Deepest path indexed in an entry (deeper values cannot be filtered on). */
export const MAX_PATH_DEPTH = 8;

/**
 * Every scalar value of `entry` by expanded path key (see {@link pathKey}), with members expanded through
 * `context` (the entry's own `@context`). The entry's `@context` itself is not indexed. `extra` adds
 * values the registry derives (the `publisher` term).
 */
export function entryTermValues(
  entry: Readonly<Record<string, unknown>>,
  context: TermContext,
  extra: Readonly<Record<string, string>> = {},
): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const put = (iris: readonly string[], value: string) => {
    const key = pathKey(iris);
    let set = out.get(key);
    if (!set) out.set(key, (set = new Set()));
    set.add(value);
  };
  const walk = (value: unknown, iris: string[]): void => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item, iris);
      return;
    }
    if (isRecord(value)) {
      if (iris.length >= MAX_PATH_DEPTH) return;
      for (const [key, member] of Object.entries(value)) {
        if (key === '@context') continue;
        const expanded = expandSegment(key, context);
        // A member whose prefix the entry does not declare is kept under its literal name, so a query
        // can still reach it with the same undeclared spelling (resolved through the literal name).
        walk(member, [...iris, 'iri' in expanded ? expanded.iri : key]);
      }
      return;
    }
    const text = valueText(value);
    if (text !== undefined && iris.length > 0) put(iris, text);
  };
  walk(entry, []);
  for (const [term, value] of Object.entries(extra)) put([`${ARD_NAMESPACE}${term}`], value);
  return out;
}
