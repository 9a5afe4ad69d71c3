/**
 * The `filter` expression and `orderBy` parameters of `GET /agents`, as ard-spec's OpenAPI
 * (`spec/schemas/ard.openapi.yaml`, `listAgents`) and its Appendix A describe them ("EBNF-like filter
 * expression", e.g. `type = 'application/mcp-server-card+json' AND updatedAfter > '2026-01-01'`;
 * `orderBy` "Field and sorting direction", e.g. `displayName`, `updatedAt DESC`). ARD draft §4.2.4 (seed
 * 002) asks only for "a deterministic filter query string"; this is ardsite's reading of both:
 *
 *     filter     = condition *( AND condition )           ; AND in any letter case
 *     condition  = field ( "=" / ">" / ">=" ) value *( "," value )   ; the values OR'd
 *     field      = term-path / "publisherId" / "updatedAfter" / "createdAfter"
 *     value      = "'" *( char / "''" ) "'" / DQUOTE *char DQUOTE / 1*bare
 *     orderBy    = key [ ASC / DESC ] *( "," key [ ASC / DESC ] )
 *     key        = identifier / displayName / version / updatedAt / type / publisher
 *
 * - A term path compares exactly, as the `filter.<term-path>=` parameters and the POST filters do (ARD
 *   draft §4.2.1); `publisherId` is the `publisher` term (the identifier's `<domain>`).
 * - `type` and `publisherId` also split a quoted value at commas (Appendix A: "comma-separated … OR").
 * - `displayName` compares without regard to letter case (Appendix A: "case-insensitive name filter").
 * - `updatedAfter` (with `>` or `=`): entries whose `updatedAt` is later than the ISO 8601 time.
 * - `createdAfter` is refused with a 400 that says why: ARD entries carry no creation time.
 * - `=` is the only operator for other fields; `OR` between conditions is refused with a hint.
 *
 * Every error is a 400 INVALID_ARGUMENT naming the parameter, the character position and what was expected.
 */
import { invalidArgument } from './problems.js';
import { splitPath } from './terms.js';

/** Longest `filter` expression, in characters. */
export const MAX_FILTER_EXPRESSION = 2_000;
/** Most conditions of one `filter` expression. */
export const MAX_FILTER_CONDITIONS = 16;
/** Most keys of one `orderBy`. */
export const MAX_ORDER_KEYS = 4;

/** A parsed `filter` expression. */
export interface FilterExpression {
  /** Exact conditions on term paths: values of one clause OR'd, clauses AND'd. */
  clauses: Array<{ key: string; values: string[] }>;
  /** `displayName` conditions, lowercased: each a list of alternatives; all must hold. */
  displayNames: string[][];
  /** `updatedAfter` bounds in ms since the epoch; the entry's `updatedAt` must be later than each. */
  updatedAfter: number[];
}

/** The keys `orderBy` sorts by, with the aliases ard-spec's prose uses. */
export const ORDER_KEYS: Readonly<Record<string, OrderKey>> = {
  identifier: 'identifier',
  displayName: 'displayName',
  name: 'displayName',
  version: 'version',
  updatedAt: 'updatedAt',
  updated_at: 'updatedAt',
  type: 'type',
  publisher: 'publisher',
  publisherId: 'publisher',
};

/** An entry member (or the identifier's domain) `orderBy` can sort by. */
export type OrderKey = 'identifier' | 'displayName' | 'version' | 'updatedAt' | 'type' | 'publisher';

/** One key of a parsed `orderBy`. */
export interface OrderTerm {
  key: OrderKey;
  descending: boolean;
}

type Token =
  | { kind: 'word'; text: string; at: number }
  | { kind: 'string'; text: string; at: number }
  | { kind: 'op'; text: '=' | '>' | '>=' | ','; at: number };

const BARE = /[^\s,'"=<>()!]/u;

function lex(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/u.test(c)) {
      i++;
    } else if (c === "'" || c === '"') {
      const start = i;
      let value = '';
      i++;
      for (;;) {
        if (i >= text.length)
          throw invalidArgument(`filter: the string opened at character ${start + 1} is never closed`);
        if (text[i] === c) {
          if (c === "'" && text[i + 1] === "'") {
            value += "'";
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += text[i];
        i++;
      }
      tokens.push({ kind: 'string', text: value, at: start });
    } else if (c === '>' && text[i + 1] === '=') {
      tokens.push({ kind: 'op', text: '>=', at: i });
      i += 2;
    } else if (c === '=' || c === '>' || c === ',') {
      tokens.push({ kind: 'op', text: c, at: i });
      i++;
    } else if (BARE.test(c)) {
      const start = i;
      while (i < text.length && BARE.test(text[i]!)) i++;
      tokens.push({ kind: 'word', text: text.slice(start, i), at: start });
    } else {
      throw invalidArgument(
        `filter: "${c}" at character ${i + 1} is not part of the filter syntax; write field = 'value' [, 'value'] [AND …] (operators: =, and > for updatedAfter)`,
      );
    }
  }
  return tokens;
}

function describeToken(token: Token | undefined): string {
  if (!token) return 'the end of the expression';
  return `${token.kind === 'string' ? `'${token.text.slice(0, 40)}'` : `"${token.text.slice(0, 40)}"`} at character ${token.at + 1}`;
}

function parseTime(value: string, field: string): number {
  const ms = /^\d{4}-\d{2}-\d{2}([Tt ][\d:.]+([Zz]|[+-]\d{2}:?\d{2})?)?$/u.test(value)
    ? Date.parse(value)
    : NaN;
  if (Number.isNaN(ms))
    throw invalidArgument(
      `filter: ${field} takes an ISO 8601 date or time, such as '2026-01-01', not '${value.slice(0, 40)}'`,
    );
  return ms;
}

/**
 * Parses a `filter` expression (see the module comment).
 * @throws RegistryProblem INVALID_ARGUMENT with the position and what was expected.
 */
export function parseFilterExpression(text: string): FilterExpression {
  if (text.length > MAX_FILTER_EXPRESSION)
    throw invalidArgument(`filter is longer than ${MAX_FILTER_EXPRESSION} characters`);
  const tokens = lex(text);
  const out: FilterExpression = { clauses: [], displayNames: [], updatedAfter: [] };
  let i = 0;
  let conditions = 0;
  while (i < tokens.length || conditions === 0) {
    const field = tokens[i];
    if (!field || field.kind !== 'word')
      throw invalidArgument(
        `filter: expected a field name such as type, publisherId or tags, found ${describeToken(field)}`,
      );
    if (/^(AND|OR|NOT)$/iu.test(field.text))
      throw invalidArgument(`filter: expected a field name before ${describeToken(field)}`);
    const op = tokens[i + 1];
    if (!op || op.kind !== 'op' || op.text === ',')
      throw invalidArgument(
        `filter: expected = after the field ${field.text.slice(0, 60)}, found ${describeToken(op)}`,
      );
    i += 2;
    const values: string[] = [];
    for (;;) {
      const value = tokens[i];
      if (!value || value.kind === 'op')
        throw invalidArgument(
          `filter: expected a value after ${describeToken(tokens[i - 1])}, found ${describeToken(value)}`,
        );
      values.push(value.text);
      i++;
      if (tokens[i]?.kind === 'op' && tokens[i]!.text === ',') i++;
      else break;
    }
    const name = field.text;
    const rangeOk = name === 'updatedAfter' || name === 'createdAfter';
    if (op.text !== '=' && !rangeOk)
      throw invalidArgument(
        `filter: ${name.slice(0, 60)} compares with = only (> and >= are for updatedAfter)`,
      );
    if (name === 'createdAfter') {
      throw invalidArgument(
        'filter: createdAfter cannot be answered here: ARD entries carry no creation time (ARD draft §3.2 has updatedAt); use updatedAfter',
      );
    } else if (name === 'updatedAfter') {
      // The latest bound is the one that matters among alternatives: an entry later than any of them.
      out.updatedAfter.push(Math.min(...values.map((v) => parseTime(v, name))));
    } else if (name === 'displayName') {
      out.displayNames.push([...new Set(values.map((v) => v.toLowerCase()))]);
    } else {
      const key = name === 'publisherId' ? 'publisher' : name;
      if (key.length > 512 || splitPath(key) === undefined)
        throw invalidArgument(
          `filter: "${name.slice(0, 60)}" is not a field: a term path such as tags, trustManifest.identity or ram:owners`,
        );
      const split =
        key === 'type' || key === 'publisher'
          ? values.flatMap((v) => v.split(',').map((s) => s.trim()))
          : values;
      const kept = [...new Set(split.filter((v) => v.length > 0))].sort();
      if (kept.length === 0) throw invalidArgument(`filter: ${name} = needs a non-empty value`);
      out.clauses.push({ key, values: kept });
    }
    conditions++;
    if (conditions > MAX_FILTER_CONDITIONS)
      throw invalidArgument(`filter has more than ${MAX_FILTER_CONDITIONS} conditions`);
    const joiner = tokens[i];
    if (!joiner) break;
    if (joiner.kind === 'word' && /^AND$/iu.test(joiner.text)) {
      i++;
      if (i >= tokens.length)
        throw invalidArgument('filter: expected a condition after AND, found the end of the expression');
      continue;
    }
    if (joiner.kind === 'word' && /^OR$/iu.test(joiner.text))
      throw invalidArgument(
        `filter: OR between conditions is not supported (${describeToken(joiner)}); list the values of one field instead: type = 'a', 'b'`,
      );
    throw invalidArgument(
      `filter: expected AND or the end of the expression, found ${describeToken(joiner)}`,
    );
  }
  return out;
}

/**
 * Parses `orderBy` (see the module comment): keys separated by commas, each optionally followed by ASC
 * or DESC (any letter case).
 * @throws RegistryProblem INVALID_ARGUMENT for an unknown key (one of {@link ORDER_KEYS}' own names only) or
 *   direction, a repeated key, too many keys.
 */
export function parseOrderBy(text: string): OrderTerm[] {
  const parts = text.split(',').map((p) => p.trim());
  if (parts.length > MAX_ORDER_KEYS) throw invalidArgument(`orderBy has more than ${MAX_ORDER_KEYS} keys`);
  const terms: OrderTerm[] = [];
  for (const part of parts) {
    const [name = '', direction, extra] = part.split(/\s+/u);
    // Own keys only: `constructor`, `__proto__` or `toString` are names every object inherits.
    const key = Object.hasOwn(ORDER_KEYS, name) ? ORDER_KEYS[name] : undefined;
    if (!key || extra !== undefined || (direction !== undefined && !/^(ASC|DESC)$/iu.test(direction))) {
      throw invalidArgument(
        `orderBy "${part.slice(0, 60)}" is not a sort key: write a key among ${[...new Set(Object.values(ORDER_KEYS))].join(', ')}, optionally followed by ASC or DESC, keys separated by commas`,
      );
    }
    if (terms.some((t) => t.key === key)) throw invalidArgument(`orderBy names ${key} twice`);
    terms.push({ key, descending: direction !== undefined && /^DESC$/iu.test(direction) });
  }
  return terms;
}
