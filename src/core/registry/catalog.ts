/**
 * The registry's index (ARD draft §4.2): the verified entries of the built manifest in an
 * @orama/orama database. Orama does the work a search library should do: tokenizing (English stemming
 * and stop words), BM25 statistics over the discovery signals with field boosts (representativeQueries
 * first, then capabilities, tags, displayName, description) and exact-value filters.
 * `/search` ranks from an inverted index built once from Orama's statistics (text-index.ts: the same
 * BM25 sums as Orama's own search, query words matching as word prefixes, without Orama's per-query
 * result objects); filters, `GET /agents` and `/explore`'s facet counts read the filter index built
 * from the same term values (filter-index.ts: the sets Orama's `enum[]` filter step gives). Once both
 * are laid out, the Orama database is let go (unless `keepOrama` asks for it, to compare with Orama's
 * own search): a serving process holds the entries, the two indexes and the tokenizers only.
 *
 * Filters and facets work on any term path (ARD draft §4.2.1): every scalar value of every entry is
 * indexed under its expanded path (src/core/registry/terms.ts), each distinct path as one `enum[]`
 * property of the Orama schema, named `p0`, `p1`, … (Orama reads dots in property names as nesting, and
 * expanded paths are IRIs full of dots).
 *
 * The index is built once, at start-up, and never changes: entries keep the position they have in the
 * (identifier, version) order, which is the order of `GET /agents` and the tie-break of `/search`.
 */
import { create, insertMultiple, search, type AnyOrama, type Results } from '@orama/orama';
import { parseAirUrn } from '../ard/urn.js';
import { createBoundedIndex, precomputeTermStats } from './bounded-index.js';
import { buildFilterIndex, whereMarks, type FilterIndex } from './filter-index.js';
import { invalidArgument } from './problems.js';
import { textIndexOf } from './orama-text-index.js';
import type { TextIndex } from './text-index.js';
import { ENGLISH, textLanguage } from './text-languages.js';
import {
  TEXT_BOOSTS,
  TEXT_FIELDS,
  languageText,
  text,
  tokenizerFunction,
  tokenizerOf,
  type EntryTexts,
  type LanguageText,
} from './catalog-text.js';

export { TEXT_BOOSTS, TEXT_FIELDS, type EntryTexts, type LanguageText } from './catalog-text.js';
import {
  CORE_TERMS,
  PUBLISHER_TERM,
  entryTermValues,
  expandSegment,
  isAbsoluteIri,
  parseContext,
  pathKey,
  splitPath,
  type TermContext,
} from './terms.js';

/**
 * Stop words: Orama's English list, plus the single letters it leaves out ("a"). Orama matches query
 * words as prefixes of indexed words, so a one-letter word would match every word starting with it.
 */
export const STOP_WORDS: readonly string[] = ENGLISH.stopWords;

/** Most distinct term paths indexed for filters and facets (memory bound: every document has each). */
export const MAX_INDEXED_PATHS = 512;

/** The value of a path an entry does not have: Orama's facet counter needs every property present. */
const NO_VALUES: readonly string[] = Object.freeze([]);

/** One entry of the index. */
export interface IndexedEntry {
  /** The entry exactly as the manifest holds it. */
  entry: Readonly<Record<string, unknown>>;
  identifier: string;
  version?: string;
  /** The `<domain>` of the identifier (the `publisher` term). */
  publisher: string;
  /** True when its publisher trustManifest verified at start-up (ARD draft §3.5.1, §4.3.1). */
  verified: boolean;
}

/** What {@link buildCatalog} takes for one entry. */
export interface CatalogInput {
  entry: Readonly<Record<string, unknown>>;
  verified: boolean;
  /**
   * The entry's texts in the site's other languages, by BCP 47 tag as the site spells it (`pt-BR`): the
   * texts its pages in that language show. A member missing here is the entry's own (default) text.
   */
  texts?: Readonly<Record<string, EntryTexts>>;
}

/** The built index. */
export interface Catalog {
  /** Entries by position, in (identifier, version) order. */
  readonly entries: readonly IndexedEntry[];
  /** `identifier \0 version` → position. */
  readonly byKey: ReadonlyMap<string, number>;
  /** identifier → the positions of its versions, oldest first (numbers in versions compared as numbers). */
  readonly byIdentifier: ReadonlyMap<string, readonly number[]>;
  /**
   * The Orama database (ids are positions as strings), only when {@link buildCatalog} was asked to keep
   * it (`keepOrama`: comparisons with Orama's own search); a server's catalog has none.
   */
  readonly db?: AnyOrama;
  /** Term path property → value → positions: filters, lists and facet counts (filter-index.ts). */
  readonly filters: FilterIndex;
  /** Expanded path key → Orama property name. */
  readonly props: ReadonlyMap<string, string>;
  /** Prefix → the IRIs it stands for in the entries' own `@context`s. */
  readonly prefixes: ReadonlyMap<string, ReadonlySet<string>>;
  /** Unprefixed top-level member names the entries use (besides the core terms). */
  readonly topTerms: ReadonlySet<string>;
  /** Compact IRIs indexed as written because their entry does not declare the prefix. */
  readonly literalTerms: ReadonlySet<string>;
  /** Paths left out because of {@link MAX_INDEXED_PATHS}. */
  readonly droppedPaths: number;
  /** The inverted index `/search` ranks with (text-index.ts). */
  readonly text: TextIndex;
  /** The tokenizer that indexed the text properties (stemming, stop words), for query texts. */
  readonly tokenize: (text: string) => string[];
  /**
   * The site's languages (BCP 47 tags as the site spells them), the default first: `text` and `tokenize`
   * are the default language's; `byLanguage` holds the others'. `[]` when not given (one language).
   */
  readonly languages: readonly string[];
  /** The full-text index of each language other than the default (text-languages.ts). */
  readonly byLanguage: ReadonlyMap<string, LanguageText>;
}

/** The (identifier, version) key of an entry (ARD draft §3.4: the pair is unique). */
export function entryKey(identifier: string, version: string | undefined): string {
  return `${identifier}\u0000${version ?? ''}`;
}

/**
 * Builds the index of `inputs` (entries with a string `identifier`; the caller verified them). Entries
 * are ordered by (identifier, version). Full-text queries are bounded in CPU (bounded-index.ts).
 */
export async function buildCatalog(
  inputs: readonly CatalogInput[],
  options: {
    /** The full-text step's bound (bounded-index.ts); `false`: Orama's own, unbounded (for comparisons). */
    search?: false | Parameters<typeof createBoundedIndex>[0];
    /**
     * The site's languages, BCP 47 tags (RFC 5646), the default first. Each is indexed with its own
     * tokenizer (text-languages.ts); a language Orama has no stemmer for is tokenized as the default.
     */
    languages?: readonly string[];
    /** Keep the Orama database in the catalog (`db`), for {@link runSearch}; default false. */
    keepOrama?: boolean;
  } = {},
): Promise<Catalog> {
  const entries: Array<IndexedEntry & { texts?: CatalogInput['texts'] }> = inputs
    .map(({ entry, verified, texts }) => {
      const identifier = String(entry.identifier);
      const version = typeof entry.version === 'string' ? entry.version : undefined;
      const urn = parseAirUrn(identifier, 'ard');
      return {
        entry,
        identifier,
        ...(version !== undefined ? { version } : {}),
        publisher: typeof urn === 'string' ? '' : urn.domain,
        verified,
        ...(texts !== undefined ? { texts } : {}),
      };
    })
    .sort((a, b) => {
      const ka = entryKey(a.identifier, a.version);
      const kb = entryKey(b.identifier, b.version);
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    });

  const prefixes = new Map<string, Set<string>>();
  const topTerms = new Set<string>();
  const props = new Map<string, string>();
  let droppedPaths = 0;
  const termValues = entries.map((e) => {
    const parsed = parseContext(e.entry['@context']);
    const context: TermContext = typeof parsed === 'string' ? new Map() : parsed;
    for (const [prefix, iri] of context) {
      let set = prefixes.get(prefix);
      if (!set) prefixes.set(prefix, (set = new Set()));
      set.add(iri);
    }
    for (const key of Object.keys(e.entry)) if (!key.includes(':') && !key.startsWith('@')) topTerms.add(key);
    const values = entryTermValues(e.entry, context, e.publisher ? { [PUBLISHER_TERM]: e.publisher } : {});
    for (const key of values.keys()) {
      if (props.has(key)) continue;
      if (props.size >= MAX_INDEXED_PATHS) {
        droppedPaths++;
        continue;
      }
      props.set(key, `p${props.size}`);
    }
    return values;
  });

  const literalTerms = new Set<string>();
  for (const key of props.keys()) {
    for (const part of key.split(' ')) if (part.includes(':') && !isAbsoluteIri(part)) literalTerms.add(part);
  }
  const schema: Record<string, string> = {};
  for (const field of TEXT_FIELDS) schema[field] = 'string';
  for (const prop of props.values()) schema[prop] = 'enum[]';
  const languages = options.languages ?? [];
  const defaultLanguage =
    (languages[0] !== undefined ? await textLanguage(languages[0]) : undefined) ?? ENGLISH;
  const db = create({
    schema: schema as never,
    // Orama's index with the full-text step bounded in CPU (bounded-index.ts).
    components: {
      tokenizer: tokenizerOf(defaultLanguage),
      ...(options.search === false ? {} : { index: createBoundedIndex(options.search) }),
    },
  }) as AnyOrama;
  await insertMultiple(db, oramaDocuments(entries, termValues, props) as never, 1000);
  precomputeTermStats(db as never, TEXT_FIELDS);
  const textIndex = textIndexOf(db, entries.length, TEXT_BOOSTS);
  const byLanguage = new Map<string, LanguageText>();
  for (const tag of languages.slice(1)) {
    const settings = (await textLanguage(tag)) ?? defaultLanguage;
    byLanguage.set(tag, await languageText(entries, tag, settings));
  }
  const byIdentifier = new Map<string, number[]>();
  entries.forEach((e, i) => {
    const list = byIdentifier.get(e.identifier);
    if (list) list.push(i);
    else byIdentifier.set(e.identifier, [i]);
  });
  const natural = new Intl.Collator('en', { numeric: true });
  for (const list of byIdentifier.values())
    list.sort((a, b) => natural.compare(entries[a]!.version ?? '', entries[b]!.version ?? '') || a - b);
  return {
    entries: entries.map(({ texts: _texts, ...e }) => e),
    byKey: new Map(entries.map((e, i) => [entryKey(e.identifier, e.version), i])),
    byIdentifier,
    ...(options.keepOrama ? { db } : {}),
    filters: buildFilterIndex(termValues, props),
    props,
    prefixes,
    topTerms,
    literalTerms,
    droppedPaths,
    text: textIndex,
    tokenize: tokenizerFunction(db),
    languages,
    byLanguage,
  };
}

/**
 * The Orama documents of `entries` (id: the position as a string): their text members, and each indexed
 * term path's values (`props`: path key → property name) from `termValues` (one map per position).
 * Made in a function of its own, so that no closure of {@link buildCatalog} that outlives it shares a
 * scope with the term values: a closure keeps every variable its scope's closures capture.
 */
function oramaDocuments(
  entries: ReadonlyArray<{ entry: Readonly<Record<string, unknown>> }>,
  termValues: ReadonlyArray<ReadonlyMap<string, ReadonlySet<string>>>,
  props: ReadonlyMap<string, string>,
): Array<Record<string, unknown>> {
  return entries.map((e, position) => {
    const doc: Record<string, unknown> = { id: String(position) };
    for (const field of TEXT_FIELDS) {
      const value = text(e.entry[field]);
      if (value !== undefined) doc[field] = value;
    }
    const values = termValues[position]!;
    for (const [key, prop] of props) {
      const set = values.get(key);
      doc[prop] = set ? [...set] : NO_VALUES;
    }
    return doc;
  });
}

/**
 * The Orama properties a filter key or facet field names (ARD draft §4.2.1): the key's segments are
 * expanded through the query's `@context` and the base context; a prefix the query does not declare
 * stands for every IRI the indexed entries' own `@context`s give it (so `ram:owners` works without
 * declaring `ram`). An empty list means the path is valid but no entry has it: nothing matches.
 * @throws RegistryProblem INVALID_ARGUMENT for an unsupported term: a prefix declared neither by the query
 *   nor by any entry, or a first term that is no ARD term, no term of the query's context and no member
 *   any entry has.
 */
export function resolveTermPath(catalog: Catalog, key: string, context: TermContext): string[] {
  const segments = splitPath(key);
  if (!segments) throw invalidArgument(`"${key}" is not a term path`);
  const first = segments[0]!;
  if (!first.includes(':') && !CORE_TERMS.has(first) && !catalog.topTerms.has(first) && !context.has(first)) {
    throw invalidArgument(
      `unsupported filter term "${key}": "${first}" is not an ARD entry term (ARD draft §3.2) nor a member of any indexed entry; prefixed terms such as ram:owners need a prefix`,
    );
  }
  let paths: string[][] = [[]];
  for (const segment of segments) {
    const expanded = expandSegment(segment, context);
    let options: string[];
    if ('iri' in expanded) options = [expanded.iri];
    else {
      const suffix = segment.slice(expanded.undeclaredPrefix.length + 1);
      const iris = catalog.prefixes.get(expanded.undeclaredPrefix);
      options = [...(iris ?? [])].map((iri) => `${iri}${suffix}`);
      // An entry member whose prefix the entry itself does not declare is indexed under its literal name.
      if (catalog.literalTerms.has(segment)) options.push(segment);
      if (options.length === 0) {
        throw invalidArgument(
          `unsupported filter term "${key}": the prefix "${expanded.undeclaredPrefix}" is declared neither in the query's @context nor in any indexed entry's`,
        );
      }
    }
    paths = paths.flatMap((p) => options.map((o) => [...p, o]));
  }
  return [
    ...new Set(paths.map((p) => catalog.props.get(pathKey(p))).filter((p): p is string => p !== undefined)),
  ];
}

/** An Orama `where` clause (values of one key OR'd, keys AND'd), or `'none'` when nothing can match. */
export type WhereClause = Record<string, unknown> | undefined | 'none';

/**
 * The Orama `where` of a query's filter (ARD draft §4.2.1): `undefined` when there is no filter,
 * `'none'` when a key names a path no entry has.
 * @throws RegistryProblem INVALID_ARGUMENT (see {@link resolveTermPath}).
 */
export function whereOf(
  catalog: Catalog,
  filter: ReadonlyArray<{ key: string; values: readonly string[] }>,
  context: TermContext,
): WhereClause {
  if (filter.length === 0) return undefined;
  const clauses: Record<string, unknown>[] = [];
  let none = false;
  for (const { key, values } of filter) {
    const props = resolveTermPath(catalog, key, context);
    if (props.length === 0) none = true;
    const alternatives = props.map((prop) => ({ [prop]: { containsAny: [...values] } }));
    clauses.push(alternatives.length === 1 ? alternatives[0]! : { or: alternatives });
  }
  if (none) return 'none';
  return clauses.length === 1 ? clauses[0] : { and: clauses };
}

/**
 * The catalog positions a `where` clause (from {@link whereOf}) admits, one mark per position (1:
 * admitted), from the filter index (filter-index.ts: the sets Orama's `searchByWhereClause` gives).
 */
export function filterMarks(catalog: Catalog, where: Readonly<Record<string, unknown>>): Uint8Array {
  return whereMarks(catalog.filters, catalog.entries.length, where);
}

/**
 * Runs an Orama search over a catalog built with `keepOrama` (its index has no asynchronous hooks).
 * @throws Error when the catalog holds no Orama database.
 */
export function runSearch(
  catalog: Catalog,
  params: Record<string, unknown>,
): Results<Record<string, unknown>> {
  if (!catalog.db) throw new Error('this catalog was built without its Orama database (keepOrama)');
  const result = search(catalog.db, params as never);
  if (result instanceof Promise) throw new Error('the registry index unexpectedly has asynchronous hooks');
  return result as Results<Record<string, unknown>>;
}
