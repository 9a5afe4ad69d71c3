import type { APIRoute } from 'astro';
import { floorAgents } from '../data';

/** A manifest of the same size class as ardsite's: one entry of about 2.8 KB per agent. */
export const GET: APIRoute = () =>
  new Response(
    `${JSON.stringify({ entries: floorAgents().map((a) => ({ identifier: `urn:air:bench.example.com:bench:${a.slug}`, displayName: a.view.name, card: a.card.slice(0, 2700) })) }, null, 2)}\n`,
  );
