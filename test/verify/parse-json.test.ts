/**
 * The verifier's JSON reading (src/core/verify/documents.ts `parseJson`): strict UTF-8, JSON, at most 512
 * levels of arrays and objects; a document nested too deeply is refused as such whether or not it is
 * JSON otherwise, and the depth found from the parsed value is the depth of the text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonNestingDepth, MAX_JSON_DEPTH } from '../../src/core/util/json.js';
import { parseJson } from '../../src/core/verify/documents.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const nested = (depth: number, inner = '1') => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;

/** What parseJson answers: the value or the error message. */
function answer(text: string): { value?: unknown; error?: string } {
  try {
    return { value: parseJson(bytes(text), 'the document') };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

describe('parseJson', () => {
  it(`reads ${MAX_JSON_DEPTH} levels and refuses one more, as too deep`, () => {
    expect(answer(nested(MAX_JSON_DEPTH)).value).toBeDefined();
    expect(answer(nested(MAX_JSON_DEPTH + 1)).error).toBe(
      'the document nests arrays and objects more than 512 levels deep, which the verifier does not read',
    );
    expect(answer(`{"a":${nested(MAX_JSON_DEPTH, '{}')}}`).error).toMatch(/more than 512 levels deep/);
  });

  it('calls text that is too deep and not JSON either too deep (the depth is said first)', () => {
    expect(answer(`${nested(100_000)},`).error).toMatch(/more than 512 levels deep/);
    expect(answer('['.repeat(600)).error).toMatch(/more than 512 levels deep/);
  });

  it('calls shallow text that is not JSON not JSON, with the parser’s words', () => {
    expect(answer('{"a": [1, 2}').error).toMatch(/^the document is not JSON: /);
    expect(answer('[1,').error).toMatch(/^the document is not JSON: /);
  });

  it('refuses bytes that are not UTF-8 and drops a byte order mark', () => {
    expect(() => parseJson(new Uint8Array([0x5b, 0xff, 0x5d]), 'the document')).toThrow(/is not JSON/);
    expect(parseJson(new Uint8Array([0xef, 0xbb, 0xbf, 0x5b, 0x5d]), 'x')).toEqual([]);
  });

  it('finds in the parsed value the depth the text scan finds, for any JSON text', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 600 }), (value, wrap) => {
        const text = nested(wrap, JSON.stringify(value));
        const tooDeep = jsonNestingDepth(text) > MAX_JSON_DEPTH;
        const got = answer(text);
        if (tooDeep) expect(got.error).toMatch(/more than 512 levels deep/);
        else expect(got.value).toEqual(JSON.parse(text));
      }),
      { numRuns: 500 },
    );
  });
});
