/**
 * The walk of src/core/content/bounds.ts `findBoundViolations`, which every content file read goes
 * through: its findings (kind, path, size, document order, the first too-deep container only, at most
 * `max`), and that it spells a path out only for a finding: a walk of a document within the limits makes
 * no copy of a path per value and no `[key, value]` pairs (it iterates no array and calls no
 * `Object.entries`), which was most of what a build's bound checks allocated.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findBoundViolations, type ContentLimits } from '../../../src/core/content/bounds.js';

const limits: ContentLimits = { fileBytes: 1024 * 1024, textBytes: 8, depth: 4 };

/** A document like a parsed agent file: mappings, lists, strings, numbers, booleans, null. */
const withinLimits = {
  name: 'Agent',
  skills: [{ id: 's1', tags: ['a', 'b'] }, { id: 's2' }],
  flags: { on: true, off: null, n: 3 },
};

describe('findBoundViolations', () => {
  afterEach(() => vi.restoreAllMocks());

  it('finds nothing in a document within the limits', () => {
    expect(findBoundViolations(withinLimits, limits)).toEqual([]);
  });

  it('names each long string and key by its path, in document order', () => {
    const doc = {
      a: 'short',
      b: ['ok', 'much too long'],
      c: { 'a key far too long for the limit': 1, d: 'also too long' },
    };
    expect(findBoundViolations(doc, limits)).toEqual([
      { kind: 'text', path: ['b', 1], bytes: 13 },
      { kind: 'text', path: ['c', 'a key far too long for the limit'], bytes: 32 },
      { kind: 'text', path: ['c', 'd'], bytes: 13 },
    ]);
  });

  it('names the first container past the depth, and walks none of its children', () => {
    const doc = { x: { y: { z: { q: ['much too long'] } } }, w: [[[['deep']]]] };
    expect(findBoundViolations(doc, limits)).toEqual([{ kind: 'depth', path: ['x', 'y', 'z', 'q'] }]);
  });

  it('gives the document itself an empty path', () => {
    expect(findBoundViolations('much too long', limits)).toEqual([{ kind: 'text', path: [], bytes: 13 }]);
    expect(findBoundViolations([[[[]]]], { ...limits, depth: 0 })).toEqual([{ kind: 'depth', path: [] }]);
  });

  it('stops at max findings', () => {
    const doc = Array.from({ length: 20 }, () => 'much too long');
    expect(findBoundViolations(doc, limits, 4)).toHaveLength(4);
  });

  it('copies no path and makes no [key, value] pairs while it walks', () => {
    const entries = vi.spyOn(Object, 'entries');
    const map = vi.spyOn(Array.prototype, 'map');
    // A spread (`[...path, key]`) iterates its array; count iterations of arrays during the walk only.
    const iterate = Array.prototype[Symbol.iterator];
    let iterations = 0;
    Array.prototype[Symbol.iterator] = function (this: unknown[]) {
      iterations += 1;
      return iterate.call(this);
    };
    try {
      findBoundViolations(withinLimits, limits);
    } finally {
      Array.prototype[Symbol.iterator] = iterate;
    }
    expect(iterations).toBe(0);
    expect(entries).not.toHaveBeenCalled();
    expect(map).not.toHaveBeenCalled();
  });
});
