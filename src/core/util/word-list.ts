/**
 * English word lists for messages people read.
 */

/**
 * `items` as an English list: `''`, `a`, `a and b`, `a, b and c` (no serial comma). Never throws.
 */
export function andList(items: readonly string[]): string {
  return items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}`;
}
