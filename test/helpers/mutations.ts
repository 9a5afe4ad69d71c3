/**
 * Mutations of a file's bytes for the fuzz tests (test/fuzz/): what a careless editor, a broken host or
 * an attacker does to a file. Each is a value (fast-check generates them, prints them when a property
 * fails, and shrinks them) applied by {@link applyMutation}.
 */
import fc from 'fast-check';

/** One change to a file's bytes. Positions are fractions of the length, so they suit any file. */
export type Mutation =
  | { kind: 'flip'; at: number; byte: number }
  | { kind: 'truncate'; at: number }
  | { kind: 'insert'; at: number; what: Snippet }
  | { kind: 'bom' }
  | { kind: 'swap'; pick: number; to: SwapTarget };

/** Hostile text inserted at some position. */
export type Snippet =
  | { kind: 'deep'; depth: number; open: '[' | '{"a":' }
  | { kind: 'huge-string'; length: number }
  | { kind: 'bytes'; bytes: readonly number[] }
  | { kind: 'text'; text: string };

/** What a value is swapped for by a `swap` mutation (of a JSON or YAML document's value, by index). */
export type SwapTarget =
  'null' | 'number' | 'string' | 'array' | 'object' | 'boolean' | 'huge-string' | 'deep' | 'very-deep';

/** Stands for a 100,000-deep list while a document is serialised (JSON.stringify cannot nest so deep). */
const VERY_DEEP = '\u0000very-deep\u0000';
const VERY_DEEP_TEXT = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;

/** Texts that break parsers or checks in known ways: YAML aliases, tabs, duplicate keys, escapes, … */
const TEXTS = [
  '\n',
  '\t',
  '---\n',
  ': :',
  '"',
  '\\',
  '\\u0000',
  '\\ud800',
  '{}',
  '[]',
  ',',
  '&a [1, 2]\nb: *a\n',
  // An alias bomb, block and flow (anchors after JSON-style keys), and an alias inside its own value.
  `a0: &a0 [x, x, x, x, x, x, x, x, x]\n${Array.from({ length: 9 }, (_, i) => `a${i + 1}: &a${i + 1} [${Array(9).fill(`*a${i}`).join(', ')}]\n`).join('')}`,
  `{"a0":&a0 ["x","x","x","x","x","x","x","x","x"]${Array.from({ length: 9 }, (_, i) => `, "a${i + 1}":&a${i + 1} {${Array.from({ length: 9 }, (_, k) => `"k${k}":*a${i}`).join(',')}}`).join('')}}`,
  'loop: &l\n  again: *l\n',
  '*undefined_alias',
  '!!binary AAAA',
  '!!js/function "x"',
  '<<: *a',
  '1e999999',
  '-0',
  'NaN',
  '<script>alert(1)</script>',
  '\u202e',
  '%F0%9F',
];

const snippet: fc.Arbitrary<Snippet> = fc.oneof(
  fc.record({
    kind: fc.constant('deep' as const),
    depth: fc.constantFrom(50, 520, 3_000, 100_000),
    open: fc.constantFrom('[' as const, '{"a":' as const),
  }),
  fc.record({ kind: fc.constant('huge-string' as const), length: fc.constantFrom(10_000, 1_200_000) }),
  fc.record({
    kind: fc.constant('bytes' as const),
    bytes: fc.constantFrom(
      [0xef, 0xbb, 0xbf],
      [0xc3, 0x28],
      [0xff],
      [0x00],
      [0xed, 0xa0, 0x80],
      [0xf4, 0x90],
    ),
  }),
  fc.record({ kind: fc.constant('text' as const), text: fc.constantFrom(...TEXTS) }),
);

/**
 * Any one mutation. Type swaps weigh most: they keep the document parseable, so deep nesting and huge
 * strings reach the code past the parser (a random insertion mostly makes a syntax error).
 */
export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('flip' as const),
      at: fc.double({ min: 0, max: 1, noNaN: true }),
      byte: fc.integer({ min: 0, max: 255 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('truncate' as const),
      at: fc.double({ min: 0, max: 1, noNaN: true }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('insert' as const),
      at: fc.double({ min: 0, max: 1, noNaN: true }),
      what: snippet,
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'bom' as const }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('swap' as const),
      pick: fc.nat(),
      to: fc.constantFrom<SwapTarget>(
        'null',
        'number',
        'string',
        'array',
        'object',
        'boolean',
        'huge-string',
        'deep',
        'very-deep',
      ),
    }),
  },
);

function snippetBytes(s: Snippet): Buffer {
  switch (s.kind) {
    case 'deep': {
      const close = s.open === '[' ? ']' : '}';
      return Buffer.from(`${s.open.repeat(s.depth)}${s.open === '[' ? '' : '1'}${close.repeat(s.depth)}`);
    }
    case 'huge-string':
      return Buffer.from(`"${'x'.repeat(s.length)}"`);
    case 'bytes':
      return Buffer.from(s.bytes);
    case 'text':
      return Buffer.from(s.text);
  }
}

function swapValue(to: SwapTarget): unknown {
  switch (to) {
    case 'null':
      return null;
    case 'number':
      return -1.5e308;
    case 'string':
      return 'swapped';
    case 'array':
      return [];
    case 'object':
      return {};
    case 'boolean':
      return true;
    case 'huge-string':
      return 'y'.repeat(1_200_000);
    case 'deep': {
      let v: unknown = 1;
      for (let i = 0; i < 3_000; i++) v = [v];
      return v;
    }
    case 'very-deep':
      return VERY_DEEP;
  }
}

/**
 * Replaces the `pick`-th value (modulo the count, in depth-first order, the root excluded) of `doc` by
 * the value `to` names; `doc` is changed in place. Returns false when the document has no inner value.
 */
export function swapInDocument(doc: unknown, pick: number, to: SwapTarget): boolean {
  const slots: Array<[Record<string, unknown> | unknown[], string | number]> = [];
  const walk = (v: unknown, depth: number) => {
    if (depth > 20 || slots.length > 5_000) return;
    if (Array.isArray(v)) {
      v.forEach((item, i) => {
        slots.push([v, i]);
        walk(item, depth + 1);
      });
    } else if (v && typeof v === 'object') {
      for (const [k, item] of Object.entries(v)) {
        slots.push([v as Record<string, unknown>, k]);
        walk(item, depth + 1);
      }
    }
  };
  walk(doc, 0);
  if (slots.length === 0) return false;
  const [holder, key] = slots[pick % slots.length]!;
  (holder as Record<string | number, unknown>)[key] = swapValue(to);
  return true;
}

/**
 * `bytes` changed by `m`. A `swap` needs the document's value: `parse` gives it and `serialise` writes it
 * back (when either throws, the bytes are returned unchanged).
 */
export function applyMutation(
  bytes: Buffer,
  m: Mutation,
  codec?: { parse(text: string): unknown; serialise(value: unknown): string },
): Buffer {
  const at = (f: number) => Math.min(bytes.length, Math.floor(f * bytes.length));
  switch (m.kind) {
    case 'flip': {
      if (bytes.length === 0) return bytes;
      const copy = Buffer.from(bytes);
      copy[Math.min(copy.length - 1, at(m.at))] = m.byte;
      return copy;
    }
    case 'truncate':
      return bytes.subarray(0, at(m.at));
    case 'insert':
      return Buffer.concat([bytes.subarray(0, at(m.at)), snippetBytes(m.what), bytes.subarray(at(m.at))]);
    case 'bom':
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]);
    case 'swap': {
      if (!codec) return bytes;
      let doc: unknown;
      try {
        doc = codec.parse(bytes.toString('utf8'));
      } catch {
        return bytes;
      }
      if (!swapInDocument(doc, m.pick, m.to)) return bytes;
      let text: string;
      try {
        text = codec.serialise(doc);
      } catch {
        return bytes; // a document an earlier mutation nested too deeply for JSON.stringify
      }
      return Buffer.from(text.replace(JSON.stringify(VERY_DEEP), VERY_DEEP_TEXT));
    }
  }
}
