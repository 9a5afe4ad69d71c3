import type { APIRoute } from 'astro';
import { jwksText } from '../../site-files';

/** The JSON Web Key Set of the placeholder key. */
export const GET: APIRoute = () => new Response(jwksText());
