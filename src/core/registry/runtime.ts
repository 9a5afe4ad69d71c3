/**
 * The bridge between the Astro routes of registry mode (src/registry-routes/, compiled into the server
 * bundle by @astrojs/node in `middleware` mode) and the registry service that the one server
 * (src/core/registry/server.ts) builds at start-up: the server passes its service to the adapter's
 * handler in Astro's `locals` on every request, and a route hands its request over with the name of its
 * endpoint. So the routes hold no logic, and several registries can run in one process (the federation
 * tests do), each with its own index.
 *
 * Like problems.ts, this module has no dependencies beyond it: the bundle carries its own copy.
 */
import type { AnswerSlot } from './answer-cache.js';
import { RegistryProblem, problemResponse } from './problems.js';

/**
 * The endpoints of ARD draft §4.2 (`agent`: `GET /agents/{identifier}`, ard-spec's lookup of one entry),
 * plus any other path under the base path.
 */
export type RegistryEndpoint = 'search' | 'explore' | 'agents' | 'agent' | 'unknown';

/** The methods each endpoint takes (OPTIONS, the CORS preflight, is taken by every one besides). */
export const ENDPOINT_METHODS: Readonly<Record<Exclude<RegistryEndpoint, 'unknown'>, readonly string[]>> = {
  search: ['POST'],
  explore: ['POST'],
  agents: ['GET', 'HEAD'],
  agent: ['GET', 'HEAD'],
};

/**
 * The endpoint a path names, `basePath` already matched: `/search`, `/explore`, `/agents`,
 * `/agents/<identifier>`; anything else is `unknown`.
 */
export function endpointAt(basePath: string, pathname: string): RegistryEndpoint {
  const rest = pathname.slice(basePath.length);
  if (rest === '/search') return 'search';
  if (rest === '/explore') return 'explore';
  if (rest === '/agents') return 'agents';
  if (rest.startsWith('/agents/') && rest.length > '/agents/'.length) return 'agent';
  return 'unknown';
}

/**
 * The 405 of a method an endpoint does not take (RFC 9110 §15.5.6: with `Allow`), or undefined when it
 * takes it. For `unknown` paths, undefined: they are a 404 whatever the method.
 */
export function methodProblem(endpoint: RegistryEndpoint, method: string): RegistryProblem | undefined {
  if (endpoint === 'unknown' || method === 'OPTIONS') return undefined;
  const allowed = ENDPOINT_METHODS[endpoint];
  if (allowed.includes(method)) return undefined;
  return new RegistryProblem(
    'NOT_IMPLEMENTED',
    `${method.slice(0, 20)} is not implemented for ${endpoint === 'agent' ? 'agents/{identifier}' : endpoint}; use ${allowed.join(' or ')}`,
    { status: 405, headers: { Allow: [...allowed, 'OPTIONS'].join(', ') } },
  );
}

/** What the routes call: answers one request of one endpoint. */
export interface RegistryRequestHandler {
  /** `slot`: where an answer that may be kept is put for the server's answer cache (answer-cache.ts). */
  handle(endpoint: RegistryEndpoint, request: Request, slot?: AnswerSlot): Promise<Response>;
}

/** The key under which the one server puts its service in Astro's `locals`. */
export const REGISTRY_LOCALS_KEY = 'ardsiteRegistry';

/** The key under which the one server puts the request's {@link AnswerSlot} in Astro's `locals`. */
export const REGISTRY_ANSWER_SLOT_KEY = 'ardsiteAnswerSlot';

/**
 * Answers a registry route's request with the service found in `locals`. Without one (the bundle mounted
 * by something else than the one server) the answer is a 500 INTERNAL_ERROR problem, not a crash.
 */
export function handleRegistryRequest(
  locals: unknown,
  endpoint: RegistryEndpoint,
  request: Request,
): Promise<Response> {
  const own = locals as Record<string, unknown> | undefined;
  const service = own?.[REGISTRY_LOCALS_KEY] as RegistryRequestHandler | undefined;
  if (!service || typeof service.handle !== 'function') {
    return Promise.resolve(
      problemResponse(
        new RegistryProblem(
          'INTERNAL_ERROR',
          'the registry index is not loaded: this server bundle must be mounted by npm run serve',
        ),
        { 'Access-Control-Allow-Origin': '*', 'X-Content-Type-Options': 'nosniff' },
      ),
    );
  }
  const slot = own?.[REGISTRY_ANSWER_SLOT_KEY] as AnswerSlot | undefined;
  return service.handle(endpoint, request, slot);
}
