/**
 * The `mix` scenario of `npm run load:registry` (scripts/lib/mix-scenario.ts): its GET /agents page never
 * carries a POST's Content-Length. autocannon's request builder writes each request's Content-Length into
 * the headers object it is handed (as its httpRequestBuilder does), so a GET sharing the POSTs' headers
 * told the server a body was coming, and every connection stalled after its first GET.
 */
import type autocannon from 'autocannon';
import { describe, expect, it } from 'vitest';
import { mixRequests } from '../../../scripts/lib/mix-scenario.js';

describe('mix scenario requests', () => {
  it('gives every request headers of its own, a GET without Content-Length', () => {
    const [template] = mixRequests('http://127.0.0.1:1/ard/v1', ['when is my next bus'], 100);
    const made: autocannon.Request[] = [];
    for (let i = 0; i < 40; i++) {
      const setup = template!.setupRequest as (
        req: autocannon.Request,
        context: object,
      ) => autocannon.Request;
      const req = setup({ ...template! }, {});
      // What autocannon's builder does with each request.
      const headers = req.headers as Record<string, string>;
      if (typeof req.body === 'string' && req.body.length > 0)
        headers['Content-Length'] = String(req.body.length);
      made.push(req);
    }
    const gets = made.filter((r) => r.method === 'GET');
    expect(gets).toHaveLength(2);
    for (const get of gets) {
      expect(get.body).toBeUndefined();
      expect(Object.keys(get.headers ?? {}).map((h) => h.toLowerCase())).not.toContain('content-length');
    }
    const posts = made.filter((r) => r.method !== 'GET');
    for (const post of posts) {
      expect((post.headers as Record<string, string>)['Content-Length']).toBe(
        String((post.body as string).length),
      );
    }
  });

  it('makes texts of words only, also for the numbers of a later run (past 2^31 / 7919)', () => {
    const [template] = mixRequests('http://127.0.0.1:1/ard/v1', ['when is my next bus'], 10_000, 8_000_000);
    const setup = template!.setupRequest as (req: autocannon.Request, context: object) => autocannon.Request;
    const texts: string[] = [];
    for (let i = 0; i < 400; i++) {
      const req = setup({ ...template! }, {});
      if (typeof req.body === 'string')
        texts.push((JSON.parse(req.body) as { query: { text: string } }).query.text);
    }
    expect(texts.length).toBeGreaterThan(300);
    for (const text of texts) expect(text).not.toMatch(/undefined/);
  });
});
