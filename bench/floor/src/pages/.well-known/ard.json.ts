import type { APIRoute } from 'astro';
import { floorRecords } from '../../data';
import { ardText } from '../../site-files';

/** The ARD manifest: one signed entry per agent (signatures as placeholders). */
export const GET: APIRoute = () => new Response(ardText(floorRecords()));
