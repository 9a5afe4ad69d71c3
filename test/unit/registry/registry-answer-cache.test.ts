/**
 * The answer cache of the one server (src/core/registry/answer-cache.ts): keys that tell requests apart,
 * the byte bound and least-recently-used eviction.
 */
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  AnswerCache,
  DOORKEEPER_KEYS,
  answerKey,
  type StoredAnswer,
} from '../../../src/core/registry/answer-cache.js';

const answer = (text: string): StoredAnswer => ({
  status: 200,
  headers: [['content-type', 'application/json']],
  body: Buffer.from(text),
});
const json = { 'content-type': 'application/json' };

describe('answerKey', () => {
  it('tells apart every part the service reads, and nothing else', () => {
    const base = answerKey('POST', '/ard/v1/search', json, Buffer.from('{"query":{}}'));
    const others = [
      answerKey('GET', '/ard/v1/search', json, Buffer.from('{"query":{}}')),
      answerKey('POST', '/ard/v1/explore', json, Buffer.from('{"query":{}}')),
      answerKey('POST', '/ard/v1/search', { 'content-type': 'text/plain' }, Buffer.from('{"query":{}}')),
      answerKey('POST', '/ard/v1/search', { ...json, 'hop-count': '1' }, Buffer.from('{"query":{}}')),
      answerKey(
        'POST',
        '/ard/v1/search',
        { ...json, 'ard-registry-trail': 'urn:a' },
        Buffer.from('{"query":{}}'),
      ),
      answerKey('POST', '/ard/v1/search', json, Buffer.from('{"query": {}}')),
      answerKey('POST', '/ard/v1/search', {}, Buffer.from('{"query":{}}')),
      answerKey('POST', '/ard/v1/search', { 'content-type': '' }, Buffer.from('{"query":{}}')),
    ];
    expect(new Set([base, ...others]).size).toBe(others.length + 1);
    // Headers the service never reads do not split the cache.
    expect(
      answerKey(
        'POST',
        '/ard/v1/search',
        { ...json, 'user-agent': 'x', accept: '*/*' },
        Buffer.from('{"query":{}}'),
      ),
    ).toBe(base);
  });

  it('cannot be forged by moving bytes from one part to the next', () => {
    expect(answerKey('POST', '/a', { 'content-type': 'x' }, Buffer.from('y'))).not.toBe(
      answerKey('POST', '/a', { 'content-type': 'xy' }, Buffer.alloc(0)),
    );
  });

  it('keeps every body byte (not only valid UTF-8)', () => {
    expect(answerKey('POST', '/a', json, Buffer.from([0xff]))).not.toBe(
      answerKey('POST', '/a', json, Buffer.from([0xfe])),
    );
  });
});

describe('AnswerCache', () => {
  it('keeps an offered answer from the second offer of its key on (the doorkeeper), never with the cache off', () => {
    const cache = new AnswerCache(10_000);
    expect(cache.offer('k', answer('{"results":[1]}'))).toBe(false);
    expect(cache.get('k')).toBeUndefined();
    expect(cache.offer('other', answer('{}'))).toBe(false);
    expect(cache.offer('k', answer('{"results":[1]}'))).toBe(true);
    expect(cache.get('k')?.body.toString()).toBe('{"results":[1]}');
    expect([cache.firstSeen, cache.stores, cache.size]).toEqual([2, 1, 1]);
    const off = new AnswerCache(0);
    off.offer('k', answer('{}'));
    expect(off.offer('k', answer('{}'))).toBe(false);
    expect(off.size).toBe(0);
  });

  it('forgets the keys it saw once after DOORKEEPER_KEYS of them, and starts again', () => {
    const cache = new AnswerCache(10_000_000);
    cache.offer('first', answer('{}'));
    for (let i = 1; i < DOORKEEPER_KEYS; i++) cache.offer(`q${i}`, answer('{}'));
    // The doorkeeper is full: the next new key makes it forget every key before it.
    cache.offer('one more', answer('{}'));
    expect(cache.offer('first', answer('{}'))).toBe(false);
    expect(cache.offer('one more', answer('{}'))).toBe(true);
    expect(cache.size).toBe(1);
  });

  it('gives back what it stored, and counts hits', () => {
    const cache = new AnswerCache(10_000);
    cache.set('k', answer('{"results":[]}'));
    expect(cache.get('k')?.body.toString()).toBe('{"results":[]}');
    expect(cache.get('other')).toBeUndefined();
    expect(cache.hits).toBe(1);
  });

  it('stays within its byte bound, dropping the least recently used answer first', () => {
    const cache = new AnswerCache(3 * (1000 + 256 + 40));
    cache.set('a', answer('x'.repeat(1000)));
    cache.set('b', answer('x'.repeat(1000)));
    cache.set('c', answer('x'.repeat(1000)));
    expect(cache.size).toBe(3);
    cache.get('a'); // a is now the most recently used
    cache.set('d', answer('x'.repeat(1000)));
    expect(cache.size).toBe(3);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.heldBytes).toBeLessThanOrEqual(cache.maxBytes);
  });

  it('replaces an answer stored again under the same key without counting it twice', () => {
    const cache = new AnswerCache(100_000);
    cache.set('a', answer('x'.repeat(1000)));
    const once = cache.heldBytes;
    cache.set('a', answer('x'.repeat(1000)));
    expect(cache.heldBytes).toBe(once);
  });

  it('keeps a gzip form of answers of 1 KiB or more, with its own Content-Encoding and Content-Length', () => {
    const cache = new AnswerCache(100_000);
    cache.set('small', answer('{"results":[]}'));
    cache.set('large', answer(JSON.stringify({ results: Array.from({ length: 200 }, (_, i) => ({ i })) })));
    expect(cache.gzipForm(cache.get('small')!)).toBeUndefined();
    const large = cache.get('large')!;
    const gzip = cache.gzipForm(large)!;
    expect(gunzipSync(gzip.body).equals(large.body)).toBe(true);
    expect(gzip.rawHeaders).toEqual([
      'content-type',
      'application/json',
      'content-encoding',
      'gzip',
      'content-length',
      String(gzip.body.length),
    ]);
    expect(large.identity.rawHeaders.slice(-2)).toEqual(['content-length', String(large.body.length)]);
  });

  it('compresses an answer only when it is given again, once, and counts the gzip bytes against the bound', () => {
    const cache = new AnswerCache(100_000);
    const text = JSON.stringify({ results: Array.from({ length: 200 }, (_, i) => ({ i })) });
    cache.set('large', answer(text));
    const stored = cache.heldBytes;
    // A never-repeated answer costs no compression.
    expect(cache.gzipped).toBe(0);
    expect(cache.get('large')!.gzip).toBeUndefined();
    const first = cache.gzipForm(cache.get('large')!)!;
    expect(cache.gzipForm(cache.get('large')!)).toBe(first);
    expect(cache.gzipped).toBe(1);
    expect(cache.heldBytes).toBe(stored + first.body.length);
  });

  it('drops answers beyond the bound when a gzip form grows the held bytes', () => {
    const text = (seed: number) =>
      Array.from({ length: 400 }, (_, i) => ((i * 7919 + seed) % 1000).toString(36)).join(',');
    const probe = new AnswerCache(100_000);
    probe.set('a', answer(text(1)));
    const one = probe.heldBytes;
    const cache = new AnswerCache(2 * one + 10);
    cache.set('a', answer(text(1)));
    cache.set('b', answer(text(2)));
    expect(cache.size).toBe(2);
    cache.gzipForm(cache.get('b')!);
    expect(cache.size).toBe(1);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.heldBytes).toBeLessThanOrEqual(cache.maxBytes);
  });

  it('keeps nothing larger than its bound, and nothing at all with a bound of 0', () => {
    const small = new AnswerCache(500);
    small.set('a', answer('x'.repeat(1000)));
    expect(small.size).toBe(0);
    const off = new AnswerCache(0);
    off.set('a', answer(''));
    expect(off.size).toBe(0);
  });
});
