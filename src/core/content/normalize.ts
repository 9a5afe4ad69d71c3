/**
 * snake_case → camelCase normalisation of RAM input (DESIGN.md §1): the proto's field names
 * (`identity_used`, `display_name`, …) are accepted beside their proto3 JSON names and rewritten, so the
 * seed's JSON example loads as written. An object that spells one field both ways is refused
 * (`RAM_CASE_CONFLICT`, DESIGN.md §4 RAM integrity).
 */
import { formatPath, type Diagnostic } from '../util/errors.js';
import { setMember } from '../util/json.js';
import { toCamelCase, type SourceDoc } from '../model/source.js';

const SNAKE = /^[a-z][a-z0-9]*(_[a-z0-9]+)+$/;

/** True for an object or array (what has keys to rename inside it), false for a leaf. */
const isContainer = (value: unknown): value is object => value !== null && typeof value === 'object';

/**
 * Returns a deep copy of `value` with every snake_case key of every object renamed to camelCase, and
 * one `RAM_CASE_CONFLICT` diagnostic for each object that has both spellings of a field (the camelCase
 * value is kept). `basePath` is the location of `value` inside `source`.
 */
export function normalizeRamKeys(
  value: unknown,
  source: SourceDoc,
  basePath: readonly PropertyKey[],
  diagnostics: Diagnostic[],
): unknown {
  if (!isContainer(value)) return value;
  if (Array.isArray(value)) {
    // A leaf is kept as it is, without a path made for it: most values of a RAM are leaves.
    return value.map((item, i) =>
      isContainer(item) ? normalizeRamKeys(item, source, [...basePath, i], diagnostics) : item,
    );
  }
  const out: Record<string, unknown> = {};
  const input = value as Record<string, unknown>;
  for (const key of Object.keys(input)) {
    const child = input[key];
    const camel = SNAKE.test(key) ? toCamelCase(key) : key;
    if (camel !== key && Object.prototype.hasOwnProperty.call(input, camel)) {
      diagnostics.push(
        source.diagnostic(
          {
            code: 'RAM_CASE_CONFLICT',
            severity: 'error',
            message: `"${key}" and "${camel}" are the same field written twice; keep one`,
            path: formatPath([...basePath, key]),
          },
          [...basePath, key],
        ),
      );
      continue;
    }
    // Free-form maps keep their keys as written.
    setMember(
      out,
      camel,
      camel === 'metadata' || !isContainer(child)
        ? child
        : normalizeRamKeys(child, source, [...basePath, key], diagnostics),
    );
  }
  return out;
}
