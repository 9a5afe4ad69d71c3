/**
 * Reads Orama 3.1's full-text statistics of a database (its radix trees, term frequencies, occurrence
 * counts and field lengths) into the registry's inverted index (text-index.ts), so that `/search` sums
 * the same BM25 weights Orama's own search sums.
 */
import type { AnyOrama } from '@orama/orama';
import { buildTextIndex, type OramaTextProperty, type TextIndex } from './text-index.js';

/** Orama 3.1's index data, as far as {@link textIndexOf} reads it. */
interface OramaIndexData {
  indexes: Record<string, { type: string; node: RadixNode }>;
  frequencies: Record<string, OramaTextProperty['frequencies']>;
  tokenOccurrences: Record<string, OramaTextProperty['occurrences']>;
  fieldLengths: Record<string, OramaTextProperty['fieldLengths']>;
  avgFieldLength: Record<string, number>;
}

/** A radix tree node, as Orama 3.1's RadixNode holds it. */
interface RadixNode {
  c: Map<string, RadixNode>;
  d: Set<number>;
  e: boolean;
  w: string;
}

/** The words of a radix tree with their document sets (iteratively: trees can be deep). */
function wordsOf(root: RadixNode): Map<string, ReadonlySet<number>> {
  const docs = new Map<string, ReadonlySet<number>>();
  const stack: RadixNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.e && node.d.size > 0) docs.set(node.w, node.d);
    for (const child of node.c.values()) stack.push(child);
  }
  return docs;
}

/**
 * The inverted index (text-index.ts) of the text properties of `db` named by `boosts` (property → boost),
 * over catalog positions: Orama's document ids are the positions as strings.
 */
export function textIndexOf(db: AnyOrama, size: number, boosts: Readonly<Record<string, number>>): TextIndex {
  const data = db.data.index as unknown as OramaIndexData;
  const ids = (db as unknown as { internalDocumentIDStore: { internalIdToId: string[] } })
    .internalDocumentIDStore.internalIdToId;
  const properties: OramaTextProperty[] = Object.keys(boosts).map((field) => ({
    docs: wordsOf(data.indexes[field]!.node),
    frequencies: data.frequencies[field] ?? {},
    occurrences: data.tokenOccurrences[field] ?? {},
    fieldLengths: data.fieldLengths[field] ?? {},
    averageFieldLength: data.avgFieldLength[field] ?? 0,
    boost: boosts[field]!,
  }));
  return buildTextIndex(properties, size, (internalId) => Number(ids[internalId - 1]));
}
