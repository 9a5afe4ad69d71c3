/**
 * The web form of the registry service (service.ts `handle`, used by the Astro routes of the server
 * bundle): a body that cannot be read to its end (the client went away, a broken stream) is answered as
 * a client's fault (400 problem details, ARD draft §4.2.5), inside the same boundary as every other
 * failure, instead of rejecting the route's promise.
 */
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../../src/core/registry/catalog.js';
import { createRegistryService } from '../../../src/core/registry/service.js';
import { RegistrySettings } from '../../../src/core/schema/registry-settings.js';

const service = async () =>
  createRegistryService({
    catalog: await buildCatalog([
      {
        entry: {
          identifier: 'urn:air:r.example.com:agents:flights',
          displayName: 'Flights',
          type: 'application/a2a-agent-card+json',
          url: 'https://r.example.com/agents/flights.json',
          description: 'Books flights',
        },
        verified: true,
      },
    ]),
    settings: RegistrySettings.parse({}),
    self: { identifier: 'urn:air:r.example.com:registry:main', url: 'https://r.example.com/ard/v1' },
    secret: new Uint8Array(32).fill(3),
    indexFingerprint: 'sha256:0123456789abcdef',
  });

describe('handle (the web form)', () => {
  it('answers a body stream that breaks with a 400 problem, not a rejected promise', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"query":'));
        controller.error(new Error('the client went away'));
      },
    });
    const request = new Request('https://r.example.com/ard/v1/search', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    const response = await (await service()).handle('search', request);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const problem = (await response.json()) as Record<string, unknown>;
    expect(problem).toMatchObject({ error: 'INVALID_ARGUMENT', errorCode: 'INVALID_ARGUMENT' });
    expect(String(problem.message)).toMatch(/could not be read/);
  });

  it('answers a whole body as before', async () => {
    const request = new Request('https://r.example.com/ard/v1/search', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: { text: 'flights' } }),
    });
    const response = await (await service()).handle('search', request);
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { results: Array<{ identifier: string }> };
    expect(answer.results.map((r) => r.identifier)).toEqual(['urn:air:r.example.com:agents:flights']);
  });
});
