/**
 * The `mix-open` scenario of `npm run load:registry` (scripts/lib/open-loop.ts): every request offered is
 * sent once, as the mix makes it (method, path, body, a body's length), over at most the connections
 * asked for, and counted once; the percentile is the nearest rank. No figure of time is checked here.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { mixRequests } from '../../../scripts/lib/mix-scenario.js';
import { openLoop, percentile } from '../../../scripts/lib/open-loop.js';

describe('open-loop load', () => {
  it('takes the nearest rank', () => {
    const xs = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(xs, 0.5)).toBe(50);
    expect(percentile(xs, 0.99)).toBe(99);
    expect(percentile(xs, 1)).toBe(100);
    expect(percentile([7], 0.99)).toBe(7);
    expect(percentile([], 0.5)).toBe(0);
  });

  it('sends each offered request once, as the mix makes it, over at most the connections asked for', async () => {
    const seen: Array<{ method: string; url: string; body: string; length?: string }> = [];
    const sockets = new Set<unknown>();
    const server = http.createServer((req, res) => {
      sockets.add(req.socket);
      let body = '';
      req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, body, length: req.headers['content-length'] });
        res.writeHead(seen.length % 10 === 0 ? 503 : 200, { 'content-type': 'application/json' });
        res.end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const figures = await openLoop('mix-open', {
        origin,
        connections: 3,
        rate: 2000,
        duration: 0.02,
        requests: mixRequests(`${origin}/ard/v1`, ['when is my next bus'], 100),
        timeout: 30,
      });
      expect(figures.requests).toBe(40);
      expect(seen).toHaveLength(40);
      expect(figures.non2xx).toBe(4);
      expect(figures.errors).toBe(0);
      expect(sockets.size).toBeLessThanOrEqual(3);
      // The 20th request of every 20 is a GET /agents page without a body; the others POST /search.
      expect(seen.filter((r) => r.method === 'GET')).toHaveLength(2);
      for (const r of seen.filter((x) => x.method === 'POST')) {
        expect(r.url).toBe('/ard/v1/search');
        expect(r.length).toBe(String(Buffer.byteLength(r.body)));
        expect(JSON.parse(r.body)).toHaveProperty('query.text');
      }
      expect(figures.p50).toBeLessThanOrEqual(figures.p99);
      expect(figures.p99).toBeLessThanOrEqual(figures.max);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
  it('counts a request that times out once, as a timeout, and keeps its time among the latencies', async () => {
    let n = 0;
    const server = http.createServer((req, res) => {
      req.resume();
      // Every fifth request is never answered.
      if (++n % 5 === 0) return;
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const figures = await openLoop('mix-open', {
        origin,
        connections: 10,
        rate: 1000,
        duration: 0.01,
        requests: mixRequests(`${origin}/ard/v1`, ['when is my next bus'], 100),
        timeout: 0.2,
      });
      expect(figures.requests).toBe(10);
      expect(figures.timeouts).toBe(2);
      expect(figures.errors).toBe(0);
      // A timed-out request took at least the timeout, so the slowest latency is at least that.
      expect(figures.max).toBeGreaterThanOrEqual(200);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
