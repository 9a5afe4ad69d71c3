/**
 * Federation peers under verify's address rules (src/core/util/net-address.ts, src/core/verify/http-reader.ts
 * `httpJsonPoster`): publisher.yaml cannot name a peer at localhost or a loopback, private or link-local
 * address (REGISTRY_PEER_PRIVATE, at its line), and the peer client refuses such an address at connect
 * time unless the operator allows it (or maps the name with resolve, as verify's --resolve).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAndCheck } from '../../../src/core/content/index.js';
import { postJson } from '../../../src/core/registry/federation.js';
import { httpJsonPoster } from '../../../src/core/verify/http-reader.js';
import { DEFAULT_PUBLISHER, lineOf, makeSite, removeSites } from '../../helpers/site.js';

let server: http.Server;
let port: number;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ results: [], seen: req.headers.host }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await removeSites();
});

describe('publisher.yaml federation peers', () => {
  const PRIVATE_PEERS = [
    'http://127.0.0.1:8080/ard/v1',
    'https://10.0.0.5/ard/v1',
    'https://169.254.169.254/latest',
    'https://[fe80::1]/ard/v1',
    'https://[::ffff:127.0.0.1]/ard/v1',
    'https://localhost/ard/v1',
    'https://peer.localhost/ard/v1',
  ];

  it('refuses a peer at a private, loopback or link-local address, at its line', async () => {
    const peers = PRIVATE_PEERS.map(
      (url, i) =>
        `      - url: ${url}\n        identifier: urn:air:peer${i}.example.org:agents:registry\n        displayName: Peer ${i}\n`,
    ).join('');
    const publisher = `${DEFAULT_PUBLISHER}registry:\n  federation:\n    peers:\n${peers}`;
    const root = await makeSite({ 'content/publisher.yaml': publisher });
    const { diagnostics } = await loadAndCheck({ root });
    const refused = diagnostics.filter((d) => d.code === 'REGISTRY_PEER_PRIVATE');
    expect(refused.map((d) => d.line)).toEqual(PRIVATE_PEERS.map((url) => lineOf(publisher, url)));
    expect(refused.every((d) => d.file === 'content/publisher.yaml' && d.severity === 'error')).toBe(true);
  });

  it('accepts a public https peer', async () => {
    const publisher = `${DEFAULT_PUBLISHER}registry:\n  federation:\n    peers:\n      - url: https://registry.example.org/ard/v1\n        identifier: urn:air:registry.example.org:agents:registry\n        displayName: Example\n`;
    const root = await makeSite({ 'content/publisher.yaml': publisher });
    const { diagnostics } = await loadAndCheck({ root });
    expect(diagnostics.filter((d) => d.code === 'REGISTRY_PEER_PRIVATE')).toEqual([]);
  });
});

describe('the peer client is verify’s client', () => {
  const body = { query: { text: 'x' } };

  it('refuses a loopback address by default, before connecting', async () => {
    await expect(
      postJson(`http://127.0.0.1:${port}/ard/v1/search`, body, {}, { timeoutMs: 2000 }),
    ).rejects.toThrow(/private address 127\.0\.0\.1/);
  });

  it('reaches it when the operator allows private addresses, or maps the peer’s name with resolve', async () => {
    const allowed = httpJsonPoster({ allowPrivate: true });
    expect(
      await allowed(`http://127.0.0.1:${port}/ard/v1/search`, body, {}, { timeoutMs: 2000 }),
    ).toMatchObject({
      status: 200,
    });
    const mapped = httpJsonPoster({ resolve: new Map([['peer.example.org', `http://127.0.0.1:${port}`]]) });
    const answer = await mapped('https://peer.example.org/ard/v1/search', body, {}, { timeoutMs: 2000 });
    expect(answer).toEqual({ status: 200, body: { results: [], seen: 'peer.example.org' } });
  });
});
