import type { APIRoute } from 'astro';
import { floorAgents } from '../data';

/** A manifest of the same size class: one entry of ~2.8 KB per agent. */
export const GET: APIRoute = () =>
  new Response(
    `${JSON.stringify({ entries: floorAgents().map((a) => ({ identifier: `urn:air:bench.example.com:bench:${a.slug}`, displayName: a.name, card: a.card.slice(0, 2000) })) }, null, 2)}\n`,
  );
