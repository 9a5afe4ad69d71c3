import type { APIRoute } from 'astro';
import { robotsText } from '../site-files';

/** robots.txt. */
export const GET: APIRoute = () => new Response(robotsText());
