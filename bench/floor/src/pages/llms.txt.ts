import type { APIRoute } from 'astro';
import { floorRecords } from '../data';
import { llmsText } from '../site-files';

/** llms.txt: one section per agent. */
export const GET: APIRoute = () => new Response(llmsText(floorRecords()));
