import type { APIRoute } from 'astro';
import { floorRecords } from '../data';
import { sitemapText } from '../site-files';

/** The sitemap: the index and each agent's two pages. */
export const GET: APIRoute = () => new Response(sitemapText(floorRecords()));
