import { codeOf } from '../../helpers/errors.js';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalBytes, canonicalJson } from '../../../src/core/trust/jcs.js';
import { sharedTestdata } from '../../helpers/shared-testdata.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const shared = sharedTestdata('rfc8785/input') ? sharedTestdata('rfc8785') : undefined;
const fixture = path.resolve(here, '../../fixtures/rfc8785');
const vectorDir = fixture;
const names = readdirSync(path.join(vectorDir, 'input')).filter((n) => n.endsWith('.json'));

describe('canonicalJson (RFC 8785)', () => {
  it('has the RFC 8785 vectors', () => {
    expect(names.sort()).toEqual([
      'arrays.json',
      'french.json',
      'structures.json',
      'unicode.json',
      'values.json',
      'weird.json',
    ]);
  });

  it.each(names)('%s canonicalises to exactly the expected bytes', (name) => {
    const input: unknown = JSON.parse(readFileSync(path.join(vectorDir, 'input', name), 'utf8'));
    const expected = readFileSync(path.join(vectorDir, 'output', name));
    expect(Buffer.from(canonicalBytes(input)).equals(expected)).toBe(true);
    expect(canonicalJson(input)).toBe(expected.toString('utf8'));
  });

  it.skipIf(shared === undefined)('the fixture copy equals its source when both exist', () => {
    if (shared === undefined) return;
    for (const name of names) {
      for (const dir of ['input', 'output']) {
        expect(
          readFileSync(path.join(fixture, dir, name)).equals(readFileSync(path.join(shared, dir, name))),
        ).toBe(true);
      }
    }
  });

  it('sorts members by UTF-16 code units and writes numbers the ECMAScript way', () => {
    expect(
      canonicalJson({ b: 1, a: [1e21, 0.1, -0, 1.5e-7], '\u00e9': true, '\ud83d\ude00': null, z: 'x' }),
    ).toBe('{"a":[1e+21,0.1,0,1.5e-7],"b":1,"z":"x","\u00e9":true,"\ud83d\ude00":null}');
  });

  it('encodes as UTF-8', () => {
    expect(Array.from(canonicalBytes('€'))).toEqual([0x22, 0xe2, 0x82, 0xac, 0x22]);
  });

  it('drops undefined members like JSON.stringify', () => {
    expect(canonicalJson({ a: undefined, b: 2 })).toBe('{"b":2}');
  });

  it.each([
    ['undefined', undefined],
    ['a function', () => 1],
    ['a symbol', Symbol('s')],
    ['NaN', NaN],
    ['Infinity inside an object', { n: Infinity }],
    ['a BigInt', 1n],
    ['a lone surrogate', { s: '\ud800' }],
  ])('refuses %s with SCHEMA_INVALID_VALUE', (_label, value) => {
    expect(codeOf(() => canonicalJson(value))).toBe('SCHEMA_INVALID_VALUE');
    expect(codeOf(() => canonicalBytes(value))).toBe('SCHEMA_INVALID_VALUE');
  });

  it('refuses a cycle with SCHEMA_INVALID_VALUE', () => {
    const a: Record<string, unknown> = {};
    a.self = a;
    expect(codeOf(() => canonicalJson(a))).toBe('SCHEMA_INVALID_VALUE');
  });

  /** canonicalize's text, or `refused`: the reference canonicalJson must agree with on every value. */
  const reference = (value: unknown): string => {
    try {
      const text = canonicalize(value);
      return typeof text === 'string' ? text : 'refused';
    } catch {
      return 'refused';
    }
  };
  const ours = (value: unknown): string => {
    try {
      return canonicalJson(value);
    } catch {
      expect(codeOf(() => canonicalJson(value))).toBe('SCHEMA_INVALID_VALUE');
      return 'refused';
    }
  };
  // Strings of any UTF-16 code units, lone surrogates and text that only looks like their escape among them.
  const anyString = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 12 }),
    fc.string({ unit: 'grapheme', maxLength: 12 }),
    fc.constantFrom('\ud800', '\udfff', '\\ud800', '\\\ud83d', 'a\u00e9', '\ud83d\ude00'),
    fc
      .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 6 })
      .map((units) => String.fromCharCode(...units)),
  );

  it('writes what canonicalize writes, and refuses what it refuses, on generated JSON data', () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constant(null),
        fc.boolean(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.integer(),
        anyString,
        fc.array(tie('value'), { maxLength: 5 }),
        fc.dictionary(anyString, tie('value'), { maxKeys: 6 }),
      ),
    })).value;
    fc.assert(
      fc.property(json, (value) => {
        expect(ours(value)).toBe(reference(value));
      }),
      { numRuns: 3000 },
    );
  });

  it("agrees with canonicalize past safe-stable-stringify's size switches (strings of 5,000 characters, 200 keys)", () => {
    const long = `${'a"\\\u0001é😀'.repeat(1200)}\u2028`;
    const keys = Object.fromEntries(
      Array.from({ length: 250 }, (_, i) => [i % 3 === 0 ? String(i) : `k${(i * 7919) % 997}`, i]),
    );
    for (const value of [long, { long, keys }, [keys, { '10': 1, '9': 2, __proto__: null }]]) {
      expect(canonicalJson(value)).toBe(canonicalize(value));
    }
    expect(codeOf(() => canonicalJson({ long: `${'x'.repeat(6000)}\ud800` }))).toBe('SCHEMA_INVALID_VALUE');
  });

  it('agrees with canonicalize on generated values that are not all JSON (NaN, ±Infinity, undefined, -0)', () => {
    fc.assert(
      fc.property(fc.anything({ key: anyString, maxDepth: 3 }), (value) => {
        expect(ours(value)).toBe(reference(value));
      }),
      { numRuns: 2000 },
    );
  });
});
