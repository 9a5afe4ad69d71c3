/**
 * One shape for every kind of spec (OpenAPI 3.x, Google Discovery, MCP `tools/list`): its operations with
 * the authorisation each accepts, and its security schemes with their scopes' own descriptions. The
 * parsers (./openapi.ts, ./discovery.ts, ./mcp-tools.ts) build it; resolution (./resolve.ts) and least
 * privilege ({@link leastPrivilege}) read it.
 */
import type { LeastPrivilege, SchemeType, SecurityAlternative, SpecFormat } from './permissions.js';

/** One operation of a spec. */
export interface SpecOperation {
  /** OpenAPI `operationId`, Discovery method `id`, MCP tool `name`; absent when the spec gives none. */
  id?: string;
  /** HTTP method, upper case (absent for an MCP tool). */
  method?: string;
  /** The path template as the spec writes it (OpenAPI `paths` key; Discovery `/` + servicePath + path). */
  path?: string;
  /** Other spellings of the same path a RAM `resourcePath` may use (Discovery `flatPath`, path without servicePath). */
  pathAliases?: string[];
  /** True when the operation only reads: a safe HTTP method (RFC 9110 §9.2.1), or MCP `readOnlyHint: true`. */
  readOnly: boolean;
  /** The spec's own one-line account of the operation (Discovery `description`, OpenAPI `summary`, MCP tool `description`). */
  description?: string;
  /** MCP `destructiveHint` of a tool that is not read-only (MCP's default: true). */
  destructive?: boolean;
  /** MCP `openWorldHint` (MCP's default: true): the tool may reach entities outside its server. */
  openWorld?: boolean;
  /**
   * The alternatives the spec accepts (any one suffices); `[]` when the spec names none. An alternative
   * with no requirement means "no authorisation needed" (OpenAPI `{}`).
   */
  security: SecurityAlternative[];
}

/** One security scheme of a spec. */
export interface SpecScheme {
  type: SchemeType;
  /** The scheme's own description, when the spec gives one. */
  description?: string;
  /** scope → its description in the spec (OAuth 2 flows' `scopes`; Discovery `auth.oauth2.scopes`). */
  scopes: Map<string, string>;
  /** OAuth 2 authorization and token URLs (to recognise the same provider in an agent card). */
  urls: string[];
}

/** A parsed spec: its operations and schemes. */
export interface SpecIndex {
  format: SpecFormat;
  /** A short name for messages ("OpenAPI 3.0.4", "Google Discovery calendar:v3", "MCP tools/list"). */
  title: string;
  operations: SpecOperation[];
  schemes: Map<string, SpecScheme>;
}

/** Safe HTTP methods (RFC 9110 §9.2.1): they only read. */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

/** How an operation is named in messages and blast radius lists: its id, else `METHOD path`. */
export function operationName(op: SpecOperation): string {
  return op.id ?? `${op.method ?? ''} ${op.path ?? ''}`.trim();
}

/** True when `granted` satisfies every requirement of `needed` (same schemes, scopes a subset). */
function satisfies(granted: SecurityAlternative, needed: SecurityAlternative): boolean {
  return needed.requirements.every((need) => {
    const have = granted.requirements.find((g) => g.scheme === need.scheme);
    return have !== undefined && need.scopes.every((s) => have.scopes.includes(s));
  });
}

/** True when the operation needs some authorisation (it has alternatives, none of them empty). */
function needsAuthorisation(op: SpecOperation): boolean {
  return op.security.length > 0 && op.security.every((alt) => alt.requirements.length > 0);
}

/**
 * The operations of `index` that `alternative` grants: those needing authorisation with an alternative
 * that `alternative` satisfies. Operations that need none are left out (every grant "allows" them).
 */
export function grantedOperations(index: SpecIndex, alternative: SecurityAlternative): SpecOperation[] {
  return index.operations.filter(
    (op) => needsAuthorisation(op) && op.security.some((needed) => satisfies(alternative, needed)),
  );
}

/**
 * The alternative of `accepted` (an operation's accepted alternatives, any one suffices) that holds
 * `scope`, with the fewest scopes (ties: the first by scheme and scope); undefined when none holds it: the
 * spec does not accept that scope for the operation (OpenAPI 3.1 §4.8.30 Security Requirement Object; a
 * Discovery method's `scopes`). Pure.
 */
export function alternativeWithScope(
  accepted: readonly SecurityAlternative[],
  scope: string,
): SecurityAlternative | undefined {
  const holding = accepted.filter((alt) => alt.requirements.some((r) => r.scopes.includes(scope)));
  const size = (alt: SecurityAlternative) => alt.requirements.reduce((n, r) => n + r.scopes.length, 0);
  return holding.sort(
    (a, b) =>
      size(a) - size(b) ||
      (alternativeKey(a) < alternativeKey(b) ? -1 : alternativeKey(a) > alternativeKey(b) ? 1 : 0),
  )[0];
}

/** Every scope `accepted` names, sorted and unique: what an access may name as its `neededScope`. */
export function acceptedScopes(accepted: readonly SecurityAlternative[]): string[] {
  return [...new Set(accepted.flatMap((alt) => alt.requirements.flatMap((r) => r.scopes)))].sort();
}

/** A stable key of an alternative, for ties: its schemes and scopes in order. */
function alternativeKey(alt: SecurityAlternative): string {
  return alt.requirements.map((r) => `${r.scheme}:${r.scopes.join(',')}`).join(' ');
}

/**
 * The least-privilege authorisation of `op`: of the alternatives the spec accepts, the one
 * that grants the fewest operations of the spec; for a read, one that grants reads only when there is
 * such an alternative. Ties go to the alternative with fewer scopes, then to the first by name. Returns
 * undefined when the operation needs no authorisation. Linear in the spec's operations per alternative.
 */
export function leastPrivilege(index: SpecIndex, op: SpecOperation): LeastPrivilege | undefined {
  if (!needsAuthorisation(op)) return undefined;
  const candidates = op.security.map((alternative) => {
    const granted = grantedOperations(index, alternative);
    return {
      alternative,
      granted,
      readsOnly: granted.every((g) => g.readOnly),
      scopeCount: alternative.requirements.reduce((n, r) => n + r.scopes.length, 0),
      key: alternativeKey(alternative),
    };
  });
  const pool =
    op.readOnly && candidates.some((c) => c.readsOnly) ? candidates.filter((c) => c.readsOnly) : candidates;
  pool.sort(
    (a, b) =>
      a.granted.length - b.granted.length ||
      a.scopeCount - b.scopeCount ||
      (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
  const best = pool[0]!;
  const self = operationName(op);
  const alsoGrants = [...new Set(best.granted.map(operationName))].filter((n) => n !== self).sort();
  return {
    requirements: best.alternative.requirements.map((r) => ({ ...r, scopes: [...r.scopes] })),
    grantsCount: best.granted.length,
    alsoGrants,
  };
}
