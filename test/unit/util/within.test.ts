/**
 * Path containment has one rule (src/core/util/within.ts): the folder itself and what lies below it are
 * within it; its parent, its siblings and a folder whose name only starts like it are not; a child named
 * `..cache` is within it.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isWithin } from '../../../src/core/util/within.js';

const root = path.resolve('/srv/site');

describe('isWithin', () => {
  it('holds the folder itself and what lies below it', () => {
    expect(isWithin(root, root)).toBe(true);
    expect(isWithin(root, path.join(root, 'a'))).toBe(true);
    expect(isWithin(root, path.join(root, 'a', 'b', 'c.json'))).toBe(true);
    expect(isWithin(root, path.join(root, 'a', '..', 'b'))).toBe(true);
  });

  it('holds a child whose name begins with two dots', () => {
    expect(isWithin(root, path.join(root, '..cache'))).toBe(true);
    expect(isWithin(root, path.join(root, '..', 'site', '..hidden', 'x'))).toBe(true);
  });

  it('refuses the parent, the parent of the parent, siblings and look-alike names', () => {
    expect(isWithin(root, path.dirname(root))).toBe(false);
    expect(isWithin(root, path.dirname(path.dirname(root)))).toBe(false);
    expect(isWithin(root, path.join(root, '..', 'other'))).toBe(false);
    expect(isWithin(root, `${root}-old`)).toBe(false);
    expect(isWithin(root, path.join(root, 'a', '..', '..'))).toBe(false);
  });

  it('reads relative paths against the same folder', () => {
    expect(isWithin('content', path.join('content', 'agents'))).toBe(true);
    expect(isWithin('content', 'public')).toBe(false);
    expect(isWithin(path.join('content', 'agents'), 'content')).toBe(false);
  });
});
