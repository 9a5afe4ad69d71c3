/**
 * The doorkeeper of the registry's caches (src/core/util/doorkeeper.ts): a key is admitted the second
 * time it is seen, then counts as new again; past its capacity it forgets every key at once.
 */
import { describe, expect, it } from 'vitest';
import { Doorkeeper } from '../../../src/core/util/doorkeeper.js';

describe('Doorkeeper', () => {
  it('admits a key from its second sighting, then starts that key again', () => {
    const door = new Doorkeeper(8);
    expect(door.admit('a')).toBe(false);
    expect(door.admit('b')).toBe(false);
    expect(door.size).toBe(2);
    expect(door.admit('a')).toBe(true);
    expect(door.size).toBe(1);
    expect(door.admit('a')).toBe(false);
    expect(door.admit('b')).toBe(true);
  });

  it('forgets every key it saw once when it reaches its capacity', () => {
    const door = new Doorkeeper(3);
    for (const key of ['a', 'b', 'c']) expect(door.admit(key)).toBe(false);
    expect(door.admit('d')).toBe(false);
    expect(door.size).toBe(1);
    expect(door.admit('a')).toBe(false);
    expect(door.admit('d')).toBe(true);
  });
});
