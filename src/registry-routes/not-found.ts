/**
 * Any other path under `{basePath}/`: a 404 NOT_FOUND problem (ARD draft §4.2.5), not the HTML 404 page.
 * Injected only in registry mode (src/core/build/registry-astro.ts).
 */
import type { APIRoute } from 'astro';
import { handleRegistryRequest } from '../core/registry/runtime.js';

/** Rendered on demand by @astrojs/node, never prerendered. */
export const prerender = false;

/** Every method gets the same problem. */
export const ALL: APIRoute = ({ request, locals }) => handleRegistryRequest(locals, 'unknown', request);
