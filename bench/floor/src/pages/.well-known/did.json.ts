import type { APIRoute } from 'astro';
import { didText } from '../../site-files';

/** The did:web DID document of the placeholder key. */
export const GET: APIRoute = () => new Response(didText());
