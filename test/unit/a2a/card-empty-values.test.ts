/**
 * The card builder's guard against empty values: it builds a JSON path only for the value it
 * reports, and its messages are what they were.
 */
import { describe, expect, it } from 'vitest';
import { assertNoEmptyValues } from '../../../src/core/a2a/card.js';

describe('assertNoEmptyValues (the path is made only for the value it reports)', () => {
  it.each([
    [{ a: '' }, '$.a is empty'],
    [{ a: [1, { b: null }] }, '$.a[1].b is empty'],
    [{ a: {} }, '$.a is an empty object'],
    [{ a: [] }, '$.a is an empty list'],
    [{ x: 1, y: { z: [{ q: 'w' }, { r: undefined }] }, later: '' }, '$.y.z[1].r is empty'],
    ['', '$ is empty'],
    [[], '$ is an empty list'],
  ])('%j: %s', (value, message) => {
    expect(() => assertNoEmptyValues(value, 'agent card of x.md')).toThrow(
      expect.objectContaining({ code: 'SCHEMA_EMPTY', message: `agent card of x.md: ${message}` }),
    );
  });

  it('passes a value with nothing empty, and starts the path where it is told', () => {
    expect(() => assertNoEmptyValues({ ok: [1, 'a', { b: false, n: 0 }] }, 'w')).not.toThrow();
    expect(() => assertNoEmptyValues({ a: [''] }, 'w', '$.card')).toThrow('w: $.card.a[0] is empty');
  });
});
