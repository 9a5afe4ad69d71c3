/** The one scan of JSON nesting that content limits and verify share (src/core/util/json.ts). */
import { describe, expect, it } from 'vitest';
import { jsonDepthExceeded, jsonNestingDepth } from '../../../src/core/util/json.js';

describe('JSON nesting without parsing', () => {
  it('finds the line and column of the first bracket past the limit', () => {
    expect(jsonDepthExceeded('{\n "a": [\n  [[1]]\n ]\n}', 3)).toEqual({ line: 3, column: 4 });
    expect(jsonDepthExceeded('[[[[', 3)).toEqual({ line: 1, column: 4 });
    expect(jsonDepthExceeded('[[[]]]', 3)).toBeUndefined();
  });

  it('skips brackets inside strings, escaped quotes included', () => {
    expect(jsonDepthExceeded('{"a\\"[[[": [[1]]}', 3)).toBeUndefined();
    expect(jsonNestingDepth('[[["]]]]\\"[[["]]]')).toBe(3);
  });

  it('stops at the first level past stopAbove, however deep the rest goes', () => {
    expect(jsonNestingDepth('['.repeat(100_000), 512)).toBe(513);
  });
});
