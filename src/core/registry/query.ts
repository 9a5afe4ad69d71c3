/**
 * The requests of the lookup API, read and checked against ARD draft §5 (`query-model`,
 * `search-request`) and §4.2.1–§4.2.4. The CDDL maps of the requests are closed, so an unknown member is
 * an error, as is a member of the wrong type; every error is a 400 INVALID_ARGUMENT problem that names
 * the member, except an unknown federation mode (501 NOT_IMPLEMENTED, Table 1). Nothing here echoes
 * `query.text` back (ARD draft §7).
 *
 * Choices the draft leaves open (docs/guides/registry.md):
 * - `pageSize` is 1–100, default 10; anything else is a 400 that says so (the message and the behaviour
 *   agree: a larger one is refused, not lowered);
 * - filter values are strings (`[+ tstr] / tstr`); numbers and booleans of an entry match their JSON
 *   text, so `{"ram:actsAsEndUser": ["false"]}` finds the agents that never act as the user;
 * - `query.text` is required by `/search` (§4.2.2.1 says MUST) and optional in `/explore`;
 * - `/explore` takes `{query?, resultType: {facets: [{field, limit?}]}}` as §4.2.3.1 shows it.
 */
import { suggest } from '../model/issues.js';
import { canonicalJson } from '../trust/jcs.js';
import { FEDERATION_MODES, type FederationMode } from '../schema/registry-settings.js';
import { RegistryProblem, invalidArgument } from './problems.js';
import { EMPTY_CONTEXT, parseContext, splitPath, type TermContext } from './terms.js';
import { parseFilterExpression, parseOrderBy, type FilterExpression, type OrderTerm } from './list-filter.js';

/** Default page size (ARD draft §4.2.2.1). */
export const DEFAULT_PAGE_SIZE = 10;
/** Largest page size (ARD draft §4.2.2.1). */
export const MAX_PAGE_SIZE = 100;
/** Longest `query.text`, in characters. */
export const MAX_TEXT_LENGTH = 1_000;
/** Most filter keys in one query. */
export const MAX_FILTER_KEYS = 32;
/** Most values one filter key may list. */
export const MAX_FILTER_VALUES = 64;
/** Most facets one explore request may ask for. */
export const MAX_FACETS = 20;
/** Default and largest bucket count of a facet. */
export const DEFAULT_FACET_LIMIT = 10;
/** Largest bucket count of a facet. */
export const MAX_FACET_LIMIT = 100;

/** One filter key with its values (OR'd); the keys of a query are AND'd (ARD draft §4.2.1). */
export interface FilterClause {
  key: string;
  /** Sorted, without duplicates. */
  values: string[];
}

/** A checked `query-model` (ARD draft §4.2.1, §5). */
export interface QueryModel {
  /** The query's own `@context` (empty when it has none). */
  context: TermContext;
  /** Trimmed; absent when the request has none. */
  text?: string;
  /** Sorted by key. */
  filter: FilterClause[];
  /**
   * The language `text` is read in: one of the catalog's languages (catalog.ts), chosen from the
   * request's `Accept-Language` (text-languages.ts); absent: the site's default language.
   */
  language?: string;
}

/** A checked `search-request` (ARD draft §4.2.2.1, §5). */
export interface SearchRequest {
  query: QueryModel & { text: string };
  federation: FederationMode;
  pageSize: number;
  pageToken?: string;
}

/** One facet of an explore request. */
export interface FacetRequest {
  field: string;
  limit: number;
}

/** A checked explore request (ARD draft §4.2.3.1). */
export interface ExploreRequest {
  query: QueryModel;
  facets: FacetRequest[];
}

/** Default page size of `GET /agents` (ard-spec's OpenAPI, `listAgents`: default 20). */
export const DEFAULT_LIST_PAGE_SIZE = 20;

/** A checked `GET /agents` request (ARD draft §4.2.4, ard-spec's OpenAPI `listAgents`). */
export interface ListRequest {
  /** `filter.<term-path>=` parameters and the exact conditions of `filter`, together. */
  query: QueryModel;
  /** The `displayName` and `updatedAfter` conditions of `filter` (list-filter.ts). */
  expression: Pick<FilterExpression, 'displayNames' | 'updatedAfter'>;
  /** `orderBy`; empty: (identifier, version) order. */
  orderBy: OrderTerm[];
  pageSize: number;
  pageToken?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Refuses members of `value` (at `where`) that are not in `known`, with a "did you mean". */
function assertKnownMembers(value: Record<string, unknown>, known: readonly string[], where: string): void {
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    const hint = suggest(key, known);
    throw invalidArgument(
      `${where}${where ? '.' : ''}${key} is not a member of this request${hint ? ` (did you mean "${hint}"?)` : ''}; the members are ${known.join(', ')}`,
    );
  }
}

function readPageSize(value: unknown, where: string, fallback = DEFAULT_PAGE_SIZE): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_PAGE_SIZE) {
    throw invalidArgument(
      `${where} must be a whole number from 1 to ${MAX_PAGE_SIZE}, not ${typeof value === 'number' ? JSON.stringify(value) : describe(value)}`,
    );
  }
  return value;
}

function readPageToken(value: unknown, where: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length === 0 || value.length > 4096)
    throw invalidArgument(`${where} must be the non-empty string a previous page returned as nextPageToken`);
  return value;
}

function readFilterValues(key: string, value: unknown): string[] {
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || list.length === 0) {
    throw invalidArgument(
      `query.filter["${key}"] must be a string or a non-empty array of strings (ARD draft §5), not ${describe(value)}`,
    );
  }
  if (list.length > MAX_FILTER_VALUES)
    throw invalidArgument(`query.filter["${key}"] lists more than ${MAX_FILTER_VALUES} values`);
  for (const item of list) {
    if (typeof item !== 'string') {
      throw invalidArgument(
        `query.filter["${key}"] holds ${describe(item)}; filter values are strings (numbers and booleans are written as their JSON text, e.g. "false", "0")`,
      );
    }
  }
  return [...new Set(list as string[])].sort();
}

/** Checks a filter key's syntax; resolving it against the index is the catalog's job. */
function checkFilterKey(key: string, where: string): void {
  if (key.length === 0 || key.length > 512 || splitPath(key) === undefined) {
    throw invalidArgument(
      `${where} "${key}" is not a term path: dot-separated terms such as tags, trustManifest.identity or ram:owners`,
    );
  }
}

/** Reads a `filter` object into sorted clauses. */
export function readFilter(value: unknown, where = 'query.filter'): FilterClause[] {
  if (value === undefined) return [];
  if (!isRecord(value))
    throw invalidArgument(`${where} must be an object of term path → values, not ${describe(value)}`);
  const keys = Object.keys(value);
  if (keys.length > MAX_FILTER_KEYS) throw invalidArgument(`${where} has more than ${MAX_FILTER_KEYS} keys`);
  return keys.sort().map((key) => {
    checkFilterKey(key, `${where} key`);
    return { key, values: readFilterValues(key, value[key]) };
  });
}

function readContext(value: unknown): TermContext {
  if (value === undefined) return EMPTY_CONTEXT;
  const context = parseContext(value);
  if (typeof context === 'string') throw invalidArgument(`query.${context}`);
  return context;
}

/**
 * Reads a `query-model` (ARD draft §5): `{? text, ? "@context", ? filter}`.
 * @throws RegistryProblem INVALID_ARGUMENT for anything else.
 */
export function readQueryModel(value: unknown, options: { textRequired: boolean }): QueryModel {
  if (!isRecord(value))
    throw invalidArgument(`query must be an object (ARD draft §4.2.1), not ${describe(value)}`);
  assertKnownMembers(value, ['text', '@context', 'filter'], 'query');
  let text: string | undefined;
  if (value.text !== undefined || options.textRequired) {
    if (typeof value.text !== 'string') {
      throw invalidArgument(
        value.text === undefined
          ? 'query.text is required: the natural-language intent to rank by (ARD draft §4.2.2.1); to list entries by filter alone, use GET /agents'
          : `query.text must be a string, not ${describe(value.text)}`,
      );
    }
    text = value.text.trim();
    if (text.length === 0 && options.textRequired)
      throw invalidArgument('query.text is empty; to list entries by filter alone, use GET /agents');
    if (text.length > MAX_TEXT_LENGTH)
      throw invalidArgument(`query.text is longer than ${MAX_TEXT_LENGTH} characters`);
    if (text.length === 0) text = undefined;
  }
  return {
    context: readContext(value['@context']),
    ...(text !== undefined ? { text } : {}),
    filter: readFilter(value.filter),
  };
}

/**
 * Reads a federation mode: absent → `defaultMode`; a mode this registry does not answer → 501.
 * @throws RegistryProblem INVALID_ARGUMENT (not a string) or NOT_IMPLEMENTED (another mode).
 */
export function readFederationMode(
  value: unknown,
  options: { defaultMode: FederationMode; modes: readonly FederationMode[] },
): FederationMode {
  if (value === undefined) return options.defaultMode;
  if (typeof value !== 'string') throw invalidArgument(`federation must be a string, not ${describe(value)}`);
  if (
    !(FEDERATION_MODES as readonly string[]).includes(value) ||
    !options.modes.includes(value as FederationMode)
  ) {
    throw new RegistryProblem(
      'NOT_IMPLEMENTED',
      `the federation mode ${JSON.stringify(value.slice(0, 40))} is not implemented here; this registry answers ${options.modes.join(', ')}`,
    );
  }
  return value as FederationMode;
}

/**
 * Reads the body of `POST /search` (ARD draft §4.2.2.1, §5 `search-request`).
 * @throws RegistryProblem (see the module comment).
 */
export function readSearchRequest(
  body: unknown,
  options: { defaultMode: FederationMode; modes: readonly FederationMode[] },
): SearchRequest {
  if (!isRecord(body))
    throw invalidArgument(`the body must be a JSON object (search-request), not ${describe(body)}`);
  assertKnownMembers(body, ['query', 'federation', 'pageSize', 'pageToken'], '');
  if (body.query === undefined) throw invalidArgument('query is required (ARD draft §4.2.2.1)');
  const query = readQueryModel(body.query, { textRequired: true }) as SearchRequest['query'];
  const pageToken = readPageToken(body.pageToken, 'pageToken');
  return {
    query,
    federation: readFederationMode(body.federation, options),
    pageSize: readPageSize(body.pageSize, 'pageSize'),
    ...(pageToken !== undefined ? { pageToken } : {}),
  };
}

/**
 * Reads the body of `POST /explore` (ARD draft §4.2.3.1): `{? query, resultType: {facets: [+ {field,
 * ? limit}]}}`.
 * @throws RegistryProblem INVALID_ARGUMENT.
 */
export function readExploreRequest(body: unknown): ExploreRequest {
  if (!isRecord(body))
    throw invalidArgument(`the body must be a JSON object (explore request), not ${describe(body)}`);
  assertKnownMembers(body, ['query', 'resultType'], '');
  const query =
    body.query === undefined
      ? { context: EMPTY_CONTEXT, filter: [] }
      : readQueryModel(body.query, { textRequired: false });
  const resultType = body.resultType;
  if (!isRecord(resultType))
    throw invalidArgument(
      'resultType is required: {"facets": [{"field": "capabilities", "limit": 10}]} (ARD draft §4.2.3.1)',
    );
  assertKnownMembers(resultType, ['facets'], 'resultType');
  const list = resultType.facets;
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_FACETS)
    throw invalidArgument(`resultType.facets must be an array of 1 to ${MAX_FACETS} facets`);
  const seen = new Set<string>();
  const facets = list.map((item, i): FacetRequest => {
    const where = `resultType.facets[${i}]`;
    if (!isRecord(item)) throw invalidArgument(`${where} must be an object {"field", "limit"}`);
    assertKnownMembers(item, ['field', 'limit'], where);
    if (typeof item.field !== 'string')
      throw invalidArgument(`${where}.field must be a string, not ${describe(item.field)}`);
    checkFilterKey(item.field, `${where}.field`);
    if (seen.has(item.field)) throw invalidArgument(`${where}.field "${item.field}" is asked for twice`);
    seen.add(item.field);
    let limit = DEFAULT_FACET_LIMIT;
    if (item.limit !== undefined) {
      if (
        typeof item.limit !== 'number' ||
        !Number.isInteger(item.limit) ||
        item.limit < 1 ||
        item.limit > MAX_FACET_LIMIT
      )
        throw invalidArgument(`${where}.limit must be a whole number from 1 to ${MAX_FACET_LIMIT}`);
      limit = item.limit;
    }
    return { field: item.field, limit };
  });
  return { query, facets };
}

/** The parameters of `GET /agents`, for messages. */
const LIST_PARAMETERS = ['filter', 'orderBy', 'pageSize', 'pageToken', 'context'];

/**
 * Reads the query string of `GET /agents` (ARD draft §4.2.4; ard-spec's OpenAPI `listAgents`). The
 * grammar (docs/guides/registry.md, "Filters and term paths"):
 *
 *     query   = param *( "&" param )
 *     param   = "pageSize=" 1*DIGIT / "pageToken=" token
 *             / "filter=" expression                   ; list-filter.ts
 *             / "orderBy=" keys                        ; list-filter.ts
 *             / "filter." term-path "=" value          ; repeated key: values OR'd; keys AND'd
 *             / "context." prefix "=" iri              ; the query's @context
 *
 * Everything given is AND'd. Names and values are percent-decoded once (x-www-form-urlencoded).
 * @throws RegistryProblem INVALID_ARGUMENT for an unknown or repeated parameter, an empty value, a
 *   malformed number, a pageSize outside 1–100, a filter or orderBy that does not parse.
 */
export function readListQuery(params: URLSearchParams): ListRequest {
  const filter = new Map<string, string[]>();
  const context: Record<string, string> = {};
  let pageSize: unknown;
  let pageToken: unknown;
  let expression: FilterExpression | undefined;
  let orderBy: OrderTerm[] | undefined;
  for (const [name, value] of params) {
    if (value === '') throw invalidArgument(`the query parameter ${name.slice(0, 64)} is empty`);
    if (name === 'pageSize') {
      if (pageSize !== undefined) throw invalidArgument('pageSize is given twice');
      pageSize = /^\d{1,6}$/.test(value) ? Number(value) : value;
    } else if (name === 'pageToken') {
      if (pageToken !== undefined) throw invalidArgument('pageToken is given twice');
      pageToken = value;
    } else if (name === 'filter') {
      if (expression) throw invalidArgument('filter is given twice; join the conditions with AND');
      expression = parseFilterExpression(value);
    } else if (name === 'orderBy') {
      if (orderBy) throw invalidArgument('orderBy is given twice; separate the keys with commas');
      orderBy = parseOrderBy(value);
    } else if (name.startsWith('filter.')) {
      const key = name.slice('filter.'.length);
      checkFilterKey(key, 'the filter key');
      filter.set(key, [...(filter.get(key) ?? []), value]);
    } else if (name.startsWith('context.') && name.length > 'context.'.length) {
      context[name.slice('context.'.length)] = value;
    } else {
      const hint = suggest(name, LIST_PARAMETERS);
      throw invalidArgument(
        `unknown query parameter ${JSON.stringify(name.slice(0, 64))}${hint && hint !== name ? ` (did you mean "${hint}"?)` : ''}; GET /agents takes filter=<expression>, orderBy=<keys>, pageSize, pageToken, filter.<term-path>=<value> and context.<prefix>=<IRI>`,
      );
    }
  }
  if (filter.size > MAX_FILTER_KEYS) throw invalidArgument(`more than ${MAX_FILTER_KEYS} filter keys`);
  const clauses = [
    ...[...filter.keys()].map((key) => ({ key, values: readFilterValues(key, filter.get(key)) })),
    ...(expression?.clauses ?? []),
  ].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const token = readPageToken(pageToken, 'pageToken');
  return {
    query: { context: readContext(Object.keys(context).length > 0 ? context : undefined), filter: clauses },
    expression: {
      displayNames: expression?.displayNames ?? [],
      updatedAfter: expression?.updatedAfter ?? [],
    },
    orderBy: orderBy ?? [],
    pageSize: readPageSize(pageSize, 'pageSize', DEFAULT_LIST_PAGE_SIZE),
    ...(token !== undefined ? { pageToken: token } : {}),
  };
}

/**
 * A stable text of what a query asks for (not how many per page): the page token binds to it, so a token
 * is refused with another query. Equal queries written in another member or value order give equal text.
 */
export function queryFingerprint(
  kind: string,
  query: QueryModel,
  extra: Record<string, string> = {},
): string {
  return canonicalJson({
    kind,
    context: Object.fromEntries([...query.context].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    text: query.text ?? null,
    filter: query.filter.map((c) => [c.key, c.values]),
    ...(query.language !== undefined ? { language: query.language } : {}),
    ...extra,
  });
}
