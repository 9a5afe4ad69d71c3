import type { APIRoute, GetStaticPaths } from 'astro';
import { floorStaticPaths, type FloorAgent } from '../../../data';

export const getStaticPaths = floorStaticPaths satisfies GetStaticPaths;

/** The agent's permission file. */
export const GET: APIRoute = ({ props }) =>
  new Response((props as { agent: FloorAgent }).agent.permissionsFile);
