/**
 * Bounded input (DESIGN.md §9, "the project is a jail"): a content file, a single text and the nesting
 * of a document have limits that a real publisher never meets, so that a hostile or broken file ends in
 * a coded finding with file, field and line instead of a crash (`RangeError` at 2,000 levels), an
 * out-of-memory build (a 100 MB string) or a 15 MB page. The same limits hold for YAML, JSON and front
 * matter; sizes are checked before a file is read, depth before JSON is parsed.
 */
import type { Diagnostic } from '../util/errors.js';
import { formatPath } from '../util/errors.js';
import { DEFAULT_LIMITS, type ContentLimits } from '../schema/publisher.js';
import type { SourceDoc } from '../model/source.js';

export { DEFAULT_LIMITS, type ContentLimits };

/** `1048576` → `1 MiB`, `1500` → `1,500 bytes`. */
export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n.toLocaleString('en')} bytes`;
}

/** One value past a limit: its path in the document and which limit. */
export interface BoundViolation {
  kind: 'depth' | 'text';
  path: PropertyKey[];
  /** For `text`: the string's size in UTF-8 bytes. */
  bytes?: number;
}

/** UTF-8 length of `s`, cheaply when it is clearly under `limit` (at most 3 bytes per UTF-16 unit). */
function overText(s: string, limit: number): number | undefined {
  if (s.length * 3 <= limit) return undefined;
  const bytes = Buffer.byteLength(s, 'utf8');
  return bytes > limit ? bytes : undefined;
}

/**
 * A container on the walk's way: its parent and its key there, so a value's path is spelled out only
 * when it is a finding (a copy of the path per value walked was most of what a walk allocated).
 */
interface Step {
  parent: Step | undefined;
  /** Undefined for the document itself. */
  key: PropertyKey | undefined;
  /** Containers from the document to this one, the document itself being 1. */
  level: number;
}

/** The path of `key` inside the container `at` (the document when undefined), from the document down. */
function pathOf(at: Step | undefined, key: PropertyKey | undefined): PropertyKey[] {
  const path: PropertyKey[] = key === undefined ? [] : [key];
  for (let s = at; s?.key !== undefined; s = s.parent) path.push(s.key);
  return path.reverse();
}

/**
 * Walks a parsed document without recursion and lists the values past `limits`: the first container
 * deeper than `limits.depth` (its children are not walked), and each string or key longer than
 * `limits.textBytes` (at most `max` findings, default 10), in document order. Allocates nothing per
 * string and one small record per container; a finding's path is made when it is found.
 */
export function findBoundViolations(value: unknown, limits: ContentLimits, max = 10): BoundViolation[] {
  const out: BoundViolation[] = [];
  // Each value to look at, with the container it is in and its key there (undefined for the document).
  const values: unknown[] = [value];
  const places: Array<Step | undefined> = [undefined];
  const keys: Array<PropertyKey | undefined> = [undefined];
  let deep = false;
  while (values.length > 0 && out.length < max) {
    const v = values.pop();
    const at = places.pop();
    const key = keys.pop();
    if (typeof v === 'string') {
      const bytes = overText(v, limits.textBytes);
      if (bytes !== undefined) out.push({ kind: 'text', path: pathOf(at, key), bytes });
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    const level = (at?.level ?? 0) + 1;
    if (level > limits.depth) {
      if (!deep) out.push({ kind: 'depth', path: pathOf(at, key) });
      deep = true;
      continue;
    }
    const step: Step = { parent: at, key, level };
    // Pushed last child first, so that they are popped in document order.
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) {
        values.push(v[i]);
        places.push(step);
        keys.push(i);
      }
      continue;
    }
    const names = Object.keys(v);
    for (let i = names.length - 1; i >= 0; i--) {
      const k = names[i]!;
      const bytes = overText(k, limits.textBytes);
      if (bytes !== undefined) {
        out.push({ kind: 'text', path: pathOf(step, k.slice(0, 40)), bytes });
        continue;
      }
      values.push((v as Record<string, unknown>)[k]);
      places.push(step);
      keys.push(k);
    }
  }
  return out;
}

/**
 * The diagnostics of {@link findBoundViolations} for a parsed document: `CONTENT_TOO_DEEP` and
 * `TEXT_TOO_LONG`, each with the file, the field path and its line. Empty when the document is within
 * the limits.
 */
export function boundDiagnostics(source: SourceDoc, limits: ContentLimits): Diagnostic[] {
  return findBoundViolations(source.value, limits).map((v) =>
    v.kind === 'depth'
      ? source.diagnostic(
          {
            code: 'CONTENT_TOO_DEEP',
            severity: 'error',
            message: `lists and mappings are nested more than ${limits.depth} levels deep here (limits.depth in content/publisher.yaml)`,
            path: formatPath(v.path) || '(document)',
          },
          v.path,
        )
      : source.diagnostic(
          {
            code: 'TEXT_TOO_LONG',
            severity: 'error',
            message: `this text is ${formatBytes(v.bytes!)} long; the limit is ${formatBytes(limits.textBytes)} (limits.textBytes in content/publisher.yaml)`,
            path: formatPath(v.path) || '(document)',
          },
          v.path,
        ),
  );
}
