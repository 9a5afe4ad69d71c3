import { codeOf } from '../../helpers/errors.js';
import { describe, expect, it } from 'vitest';
import { digestMatches, parseDigest, sha256Digest } from '../../../src/core/ard/digest.js';

// FIPS 180-2 / NIST example values for "abc" and the empty string.
const SHA256_EMPTY = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const SHA256_ABC = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
const SHA384_ABC =
  'cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7';
const SHA512_ABC =
  'ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f';

describe('sha256Digest', () => {
  it('gives sha256:<lowercase hex>', () => {
    expect(sha256Digest(new Uint8Array())).toBe(`sha256:${SHA256_EMPTY}`);
    expect(sha256Digest(new TextEncoder().encode('abc'))).toBe(`sha256:${SHA256_ABC}`);
  });
  it('hashes strings as UTF-8', () => {
    expect(sha256Digest('abc')).toBe(`sha256:${SHA256_ABC}`);
    expect(sha256Digest('é')).toBe(sha256Digest(new Uint8Array([0xc3, 0xa9])));
  });
});

describe('parseDigest', () => {
  it('splits algorithm and hex, lowercasing the hex', () => {
    expect(parseDigest(`sha256:${SHA256_ABC.toUpperCase()}`)).toEqual({
      algorithm: 'sha256',
      hex: SHA256_ABC,
    });
    expect(parseDigest(`sha384:${SHA384_ABC}`)).toEqual({ algorithm: 'sha384', hex: SHA384_ABC });
    expect(parseDigest(`sha512:${SHA512_ABC}`)).toEqual({ algorithm: 'sha512', hex: SHA512_ABC });
  });
  it.each([
    ['no colon', SHA256_ABC],
    ['empty hex', 'sha256:'],
    ['unknown algorithm', `md5:${'0'.repeat(32)}`],
    ['uppercase algorithm', `SHA256:${SHA256_ABC}`],
    ['non-hex', `sha256:${'g'.repeat(64)}`],
    ['short hex', `sha256:${SHA256_ABC.slice(2)}`],
    ['sha384 length on sha256', `sha256:${SHA384_ABC}`],
    ['spaces', ` sha256:${SHA256_ABC}`],
  ])('refuses %s with SCHEMA_INVALID_VALUE', (_label, s) => {
    expect(codeOf(() => parseDigest(s))).toBe('SCHEMA_INVALID_VALUE');
  });
});

describe('digestMatches', () => {
  it('accepts the right digest for each algorithm', () => {
    expect(digestMatches(`sha256:${SHA256_ABC}`, 'abc')).toBe(true);
    expect(digestMatches(`sha384:${SHA384_ABC}`, 'abc')).toBe(true);
    expect(digestMatches(`sha512:${SHA512_ABC}`, new TextEncoder().encode('abc'))).toBe(true);
  });
  it('rejects other bytes', () => {
    expect(digestMatches(`sha256:${SHA256_ABC}`, 'abd')).toBe(false);
    expect(digestMatches(`sha512:${SHA512_ABC}`, 'ab')).toBe(false);
  });
  it('rejects a digest with one changed hex digit', () => {
    const changed = `sha256:${SHA256_ABC.slice(0, -1)}${SHA256_ABC.endsWith('d') ? 'e' : 'd'}`;
    expect(digestMatches(changed, 'abc')).toBe(false);
  });
  it('throws on a malformed digest', () => {
    expect(codeOf(() => digestMatches('sha1:abc', 'abc'))).toBe('SCHEMA_INVALID_VALUE');
  });
});
