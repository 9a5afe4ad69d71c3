/**
 * `POST {basePath}/search` (ARD draft §4.2.2): ranked search with filters and federation.
 * Injected only in registry mode (src/core/build/registry-astro.ts); the work is done by src/core/registry.
 */
import type { APIRoute } from 'astro';
import { handleRegistryRequest } from '../core/registry/runtime.js';

/** Rendered on demand by @astrojs/node, never prerendered. */
export const prerender = false;

/** Every method: the service answers 405 for the ones this endpoint does not take, and CORS preflights. */
export const ALL: APIRoute = ({ request, locals }) => handleRegistryRequest(locals, 'search', request);
