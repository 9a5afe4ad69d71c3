/** The English lists of messages (src/core/util/word-list.ts). */
import { describe, expect, it } from 'vitest';
import { andList } from '../../../src/core/util/word-list.js';

describe('andList', () => {
  it('joins none, one, two and three items as English does, without a serial comma', () => {
    expect(andList([])).toBe('');
    expect(andList(['a'])).toBe('a');
    expect(andList(['a', 'b'])).toBe('a and b');
    expect(andList(['a', 'b', 'c'])).toBe('a, b and c');
  });
});
