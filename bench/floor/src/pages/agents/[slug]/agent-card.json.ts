import type { APIRoute, GetStaticPaths } from 'astro';
import { floorStaticPaths, type FloorAgent } from '../../../data';

export const getStaticPaths = floorStaticPaths satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => new Response((props as { agent: FloorAgent }).agent.card);
