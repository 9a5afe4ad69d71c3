/**
 * fast-check arbitraries made from ardsite's own schemas, for the fuzz tests (test/fuzz/): a zod schema
 * is exported as JSON Schema (zod's `toJSONSchema`, the input side, with what JSON Schema cannot say
 * left open) and each JSON Schema keyword becomes an arbitrary: objects with their required members and
 * some optional ones, enums and consts, arrays within their bounds, strings that match the `pattern`
 * when there is one (else a mix of plausible values: https URLs, ids, enum-like names, and any text),
 * numbers, booleans, and `anyOf`/`oneOf` as a choice. Values are shaped like content, not always valid:
 * the checks' cross-file rules (references, URN domains) are not known here, which is the point.
 */
import fc from 'fast-check';
import { z } from 'zod';

/** A JSON Schema node as zod writes it (draft 2020-12), the keywords used here. */
interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  minItems?: number;
  maxItems?: number;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
}

/** Deepest nesting generated; deeper nodes get a scalar. */
const MAX_DEPTH = 6;

/** Strings a publisher might write in any field: they reach the checks further than random text. */
const PLAUSIBLE = fc.constantFrom(
  'https://api.fuzz.example/v1',
  'https://agents.valid.example/',
  'http://localhost:8080/x',
  'did:web:agents.valid.example',
  'urn:air:agents.valid.example:demo:note-taker',
  'notes-api',
  'notes-api-list',
  'take-notes',
  'note-taker',
  'REST',
  'END_USER',
  'REQUIRED',
  'GET',
  'text/plain',
  '1.0',
  '2026-01-01',
  'sha256:',
  '',
  ' ',
  '../../etc/passwd',
  '/\\evil.example',
  '\u0000',
  '💥',
);

function stringArbitrary(node: JsonSchema): fc.Arbitrary<string> {
  const choices: Array<fc.Arbitrary<string>> = [
    PLAUSIBLE,
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'grapheme', maxLength: 20 }),
  ];
  if (node.pattern) {
    try {
      choices.unshift(fc.stringMatching(new RegExp(node.pattern)).map((s) => s.slice(0, 200)));
    } catch {
      // a pattern fast-check cannot generate from: the other choices only
    }
  }
  if (node.format === 'uri' || node.format === 'url') choices.unshift(fc.webUrl());
  return fc.oneof(...choices);
}

/** The arbitrary of `node`, resolving `$ref` against `root`'s `$defs`. */
function toArbitrary(node: JsonSchema, root: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  if (node.$ref) {
    const name = node.$ref.replace(/^#\/\$defs\//, '');
    const target = node.$ref === '#' ? root : root.$defs?.[name];
    if (!target || depth > MAX_DEPTH) return fc.constant(null);
    return fc.constant(null).chain(() => toArbitrary(target, root, depth + 1));
  }
  if (node.const !== undefined) return fc.constant(node.const);
  if (node.enum) return fc.constantFrom(...node.enum);
  const options = node.anyOf ?? node.oneOf;
  if (options && options.length > 0) return fc.oneof(...options.map((o) => toArbitrary(o, root, depth + 1)));
  if (node.allOf && node.allOf.length > 0)
    return toArbitrary(Object.assign({}, ...node.allOf) as JsonSchema, root, depth);
  const type = Array.isArray(node.type) ? node.type[0] : node.type;
  if (depth > MAX_DEPTH && (type === 'object' || type === 'array'))
    return type === 'object' ? fc.constant({}) : fc.constant([]);
  switch (type) {
    case 'object': {
      const props = node.properties ?? {};
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, child] of Object.entries(props)) model[key] = toArbitrary(child, root, depth + 1);
      const record = fc.record(model, { requiredKeys: (node.required ?? []).filter((k) => k in props) });
      if (Object.keys(props).length === 0 && node.additionalProperties !== false)
        return fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
      return record;
    }
    case 'array': {
      const item = node.items ? toArbitrary(node.items, root, depth + 1) : fc.jsonValue({ maxDepth: 1 });
      const minLength = node.minItems ?? 0;
      return fc.array(item, { minLength, maxLength: Math.max(minLength, Math.min(node.maxItems ?? 3, 3)) });
    }
    case 'string':
      return stringArbitrary(node);
    case 'integer':
      return fc.integer({ min: node.minimum ?? -10, max: node.maximum ?? 1000 });
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/**
 * An arbitrary of values shaped by `schema` (a zod schema of src/core/schema/): JSON values only (no
 * `undefined`), as a content file would hold after YAML or JSON parsing.
 */
export function arbitraryOf(schema: z.ZodType): fc.Arbitrary<unknown> {
  const json = z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' }) as JsonSchema;
  return toArbitrary(json, json, 0);
}
