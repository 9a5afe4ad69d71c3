/**
 * Turns zod issues into ardsite diagnostics: the stable code, the field path, the line in the source,
 * and for unknown keys a "did you mean" taken from the keys the schema knows at that place.
 */
import type { z } from 'zod';
import { formatPath, type Diagnostic, type ErrorCode } from '../util/errors.js';
import type { SourceDoc } from './source.js';

/** Levenshtein distance, for "did you mean" suggestions (small strings only). */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length]!;
}

/** The closest known name to `name`, when it is close enough to be a plausible typo. */
export function suggest(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase().replace(/_/g, '');
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = editDistance(lower, candidate.toLowerCase().replace(/_/g, ''));
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(name.length / 3)) ? best : undefined;
}

interface ZodDefLike {
  def?: {
    type?: string;
    shape?: Record<string, unknown>;
    element?: unknown;
    innerType?: unknown;
    in?: unknown;
    out?: unknown;
    valueType?: unknown;
  };
  shape?: Record<string, unknown>;
}

/**
 * Walks a zod schema along `path` (array indexes and record keys step into the element and value
 * schemas), unwrapping optional/default/pipe wrappers; returns the keys of the object shape found there,
 * or `[]` when there is none.
 */
export function knownKeysAt(schema: unknown, path: readonly PropertyKey[]): string[] {
  let current = schema as ZodDefLike | undefined;
  const unwrap = (s: ZodDefLike | undefined): ZodDefLike | undefined => {
    let cur = s;
    for (let i = 0; i < 10 && cur?.def; i++) {
      const t = cur.def.type;
      if (t === 'optional' || t === 'default' || t === 'nullable' || t === 'prefault' || t === 'readonly') {
        cur = cur.def.innerType as ZodDefLike;
      } else if (t === 'pipe')
        cur =
          (cur.def.out as ZodDefLike)?.def?.type === 'transform'
            ? (cur.def.in as ZodDefLike)
            : (cur.def.out as ZodDefLike);
      else break;
    }
    return cur;
  };
  current = unwrap(current);
  for (const part of path) {
    if (!current?.def) return [];
    if (current.def.type === 'object') current = unwrap(current.def.shape?.[String(part)] as ZodDefLike);
    else if (current.def.type === 'array') current = unwrap(current.def.element as ZodDefLike);
    else if (current.def.type === 'record') current = unwrap(current.def.valueType as ZodDefLike);
    else return [];
  }
  return current?.def?.type === 'object' ? Object.keys(current.def.shape ?? {}) : [];
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `${typeof value} ${JSON.stringify(value)}`;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = root;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

/**
 * Converts the issues of a failed `safeParse` of `input` (read from `source`) into diagnostics.
 * `basePath` prefixes every path (when the parsed value sits inside a larger document).
 */
export function issuesToDiagnostics(
  issues: readonly z.core.$ZodIssue[],
  schema: unknown,
  input: unknown,
  source: SourceDoc,
  basePath: readonly PropertyKey[] = [],
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const issue of issues) {
    const rel = issue.path as PropertyKey[];
    const full = [...basePath, ...rel];
    const received = valueAt(input, rel);
    let code: ErrorCode = 'SCHEMA_INVALID_VALUE';
    let message = issue.message;
    if (issue.code === 'unrecognized_keys') {
      const known = knownKeysAt(schema, rel);
      // A key the object one level up has (`specFile` written under `spec:`): say where it belongs.
      const holder = rel.at(-1);
      const above = typeof holder === 'string' ? knownKeysAt(schema, rel.slice(0, -1)) : [];
      for (const key of issue.keys) {
        const hint = suggest(key, known);
        const upHint = above.includes(key)
          ? ` here: it belongs one level up, beside "${String(holder)}:", not under it`
          : '';
        out.push(
          source.diagnostic(
            {
              code: 'SCHEMA_UNKNOWN_KEY',
              severity: 'error',
              message: `unknown key "${key}"${upHint || (hint ? ` (did you mean "${hint}"?)` : '')}`,
              path: formatPath([...full, key]),
            },
            [...full, key],
          ),
        );
      }
      continue;
    }
    if (issue.code === 'invalid_type') {
      if (received === undefined) {
        code = 'SCHEMA_REQUIRED';
        message = 'required field is missing';
      } else if (received === null) {
        // `description:` with nothing after it: YAML reads null, which says nothing to an author.
        code = 'SCHEMA_EMPTY';
        const key = rel.at(-1);
        message = `is empty: write ${issue.expected === 'string' ? 'the text' : `the ${issue.expected}`} after "${typeof key === 'string' ? key : '-'}:"`;
      } else {
        code = 'SCHEMA_INVALID_TYPE';
        message = `expected ${issue.expected}, got ${describe(received)}${
          issue.expected === 'string' && typeof received === 'number' ? ' (quote it in YAML)' : ''
        }`;
      }
    } else if (issue.code === 'invalid_value' && received === undefined) {
      code = 'SCHEMA_REQUIRED';
      message = `required field is missing (one of ${issue.values
        .map((v) => String(v))
        .filter((v) => !v.endsWith('_UNSPECIFIED'))
        .join(', ')})`;
    } else if (issue.code === 'invalid_value') {
      code = 'SCHEMA_INVALID_ENUM';
      // `*_UNSPECIFIED` parses (so its own check can say why it is refused) but is never a good answer.
      const values = issue.values.map((v) => String(v)).filter((v) => !v.endsWith('_UNSPECIFIED'));
      const hint = typeof received === 'string' ? suggest(received, values) : undefined;
      message = `${describe(received)} is not one of ${values.join(', ')}${hint ? ` (did you mean "${hint}"?)` : ''}`;
    } else if (issue.code === 'too_small' && (issue.origin === 'string' || issue.origin === 'array')) {
      code = 'SCHEMA_EMPTY';
      message =
        issue.origin === 'string'
          ? 'must not be empty'
          : `must hold at least ${String(issue.minimum)} item(s)`;
    } else if (issue.code === 'custom') {
      const params = (issue as { params?: { code?: ErrorCode } }).params;
      if (params?.code) code = params.code;
    }
    out.push(
      source.diagnostic({ code, severity: 'error', message, path: formatPath(full) || '(document)' }, full),
    );
  }
  return out;
}

/**
 * Parses `value` with the zod 4 `schema`, reporting every issue against `source` at `basePath` (file,
 * field path and line, through {@link issuesToDiagnostics}).
 *
 * @returns the parsed value, or `undefined` after pushing the diagnostics. Never throws on bad input.
 */
export function validate<S extends z.ZodType>(
  schema: S,
  value: unknown,
  source: SourceDoc,
  diagnostics: Diagnostic[],
  basePath: PropertyKey[] = [],
): z.output<S> | undefined {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  diagnostics.push(...issuesToDiagnostics(result.error.issues, schema, value, source, basePath));
  return undefined;
}
