/**
 * Content is JSON data: a YAML value that JSON cannot hold (`!!binary`, `!!timestamp`, `!!set`, `.nan`,
 * `.inf`) is a `YAML_INVALID` error at its field and line (src/core/model/source.ts `jsonOnly`), found by
 * `npm run check`, so that it never reaches a signature or a digest (RFC 8785 has no such values).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { loadAndCheck } from '../../../src/core/content/index.js';
import { nonJsonValue } from '../../../src/core/util/json.js';
import { makeSite, removeSites } from '../../helpers/site.js';

afterAll(removeSites);

const entry = (data: string) => `identifier: urn:air:agents.example.test:tools:blob
displayName: Blob
type: application/json
version: 1.0.0
description: An entry whose data holds a YAML value that is not JSON.
representativeQueries: [first query, second query]
data:
  name: blob
${data}
`;

describe('YAML values that JSON cannot hold', () => {
  it.each([
    ['binary data', '  blob: !!binary AAECAwQFBgcICQoLDA==', 'binary data (!!binary)'],
    ['a set', '  tags: !!set { a, b }', 'a set (!!set)'],
    ['NaN', '  ratio: .nan', 'NaN (.nan)'],
    [
      'Infinity, behind an anchor (the `yaml` path)',
      '  base: &x 1\n  copy: *x\n  limit: -.inf',
      '-Infinity (.inf)',
    ],
  ])('%s in an entry’s data is YAML_INVALID at its field and line', async (_label, data, what) => {
    const text = entry(data);
    const root = await makeSite({ 'content/entries/blob.yaml': text });
    const { diagnostics } = await loadAndCheck({ root });
    const errors = diagnostics.filter((d) => d.severity === 'error');
    expect(errors).toHaveLength(1);
    const field = data.trim().split('\n').pop()!.split(':')[0]!.trim();
    expect(errors[0]).toMatchObject({
      code: 'YAML_INVALID',
      file: 'content/entries/blob.yaml',
      path: `data.${field}`,
      line: text.split('\n').findIndex((l) => l.trimStart().startsWith(`${field}:`)) + 1,
      message: `invalid YAML: ${what}, which JSON cannot hold; write it as a string or a number`,
    });
  });

  it('finds the first such value anywhere, depth first and in order, and nothing in plain JSON data', () => {
    expect(nonJsonValue({ a: [1, 'x', { b: null, c: true }], d: { e: 2.5 } })).toBeUndefined();
    expect(nonJsonValue({ a: [1, { b: new Date(0) }], c: NaN })).toEqual({
      path: ['a', 1, 'b'],
      what: 'a date (!!timestamp)',
    });
    expect(nonJsonValue(new Uint8Array(2))).toEqual({ path: [], what: 'binary data (!!binary)' });
    expect(nonJsonValue(Object.assign(Object.create(null), { k: new Map() }))).toEqual({
      path: ['k'],
      what: 'a mapping with keys that are not strings, or an ordered map (!!omap)',
    });
    let deep: unknown = Infinity;
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(nonJsonValue(deep)?.path).toHaveLength(10_000);
  });
});
