import type { APIRoute } from 'astro';
import { floorRecords } from '../../data';
import { aiCatalogText } from '../../site-files';

/** The ai-catalog copy of the manifest. */
export const GET: APIRoute = () => new Response(aiCatalogText(floorRecords()));
