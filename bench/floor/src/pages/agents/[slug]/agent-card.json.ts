import type { APIRoute, GetStaticPaths } from 'astro';
import { floorAgents, type FloorAgent } from '../../../data';

export const getStaticPaths = (() =>
  floorAgents().map((agent) => ({
    params: { slug: agent.slug },
    props: { agent },
  }))) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => new Response((props as { agent: FloorAgent }).agent.card);
