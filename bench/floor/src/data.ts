/**
 * In-memory data of the benchmark floor: for N agents (`FLOOR_AGENTS`), the synthetic publisher's own
 * agents (bench/synthetic.ts) as plain records (./agent-model.ts), and everything the floor's routes
 * write, made from them by plain templating: the page views ardsite's page components take
 * (src/components/AgentPage.astro, PermissionPage.astro, IndexPage.astro; ./agent-views.ts), the card,
 * the permission file and the entry JSON-LD (./agent-files.ts), the site-wide files (./site-files.ts).
 * No loading, checks, ardsite view code, signing or verification.
 */
import type { AgentPageView } from '../../../src/core/pages/agent-page';
import type { IndexView } from '../../../src/core/pages/index-page';
import type { PermissionView } from '../../../src/core/pages/permissions';
import { ENGLISH_WORDS } from '../../../src/core/i18n/words';
import { floorModels, ORGANIZATION, type FloorModel } from './agent-model';
import { cardText, jsonLdOf, permissionsText } from './agent-files';
import { agentViewOf, labelOf, permissionViewOf } from './agent-views';

/** One agent of the floor: its records and what its pages and files are made from. */
export interface FloorAgent {
  slug: string;
  model: FloorModel;
  body: string;
  view: AgentPageView;
  permissions: PermissionView;
  /** The agent card, as written. */
  card: string;
  /** The permission file, as written. */
  permissionsFile: string;
  /** The `<script>` text of the agent's entry, as agent pages embed it. */
  jsonLd: string;
}

const SLOT = Symbol.for('ardsite.floorAgents');

/** One agent's data. */
function makeAgent(model: FloorModel): FloorAgent {
  const view = agentViewOf(model, labelOf(model));
  return {
    slug: model.slug,
    model,
    body: view.body,
    view,
    permissions: permissionViewOf(model),
    card: cardText(model),
    permissionsFile: permissionsText(model),
    jsonLd: jsonLdOf(model),
  };
}

/** The floor's agents (made once per process). */
export function floorAgents(): FloorAgent[] {
  const slot = globalThis as { [SLOT]?: FloorAgent[] };
  if (!slot[SLOT]) slot[SLOT] = floorModels(Number(process.env.FLOOR_AGENTS ?? '10')).map(makeAgent);
  return slot[SLOT];
}

/** The records of every agent, for the site-wide files. */
export const floorRecords = (): FloorModel[] => floorAgents().map((a) => a.model);

/** `getStaticPaths` of the floor's per-agent routes: one path per agent, the agent as its prop. */
export function floorStaticPaths(): Array<{ params: { slug: string }; props: { agent: FloorAgent } }> {
  return floorAgents().map((agent) => ({ params: { slug: agent.slug }, props: { agent } }));
}

/** The floor's home page view: one card per agent, with its label. */
export function floorIndex(): IndexView {
  return {
    language: 'en',
    words: ENGLISH_WORDS,
    homePath: '/',
    pagePath: '/',
    title: ORGANIZATION,
    organization: ORGANIZATION,
    organizationUrl: 'https://www.example.com/',
    agents: floorAgents().map((a) => ({
      name: a.view.name,
      description: a.view.description,
      version: a.view.version,
      footprint: a.view.footprint,
      pagePath: `/agents/${a.slug}/`,
      permissionsPath: a.view.permissionsPath,
      ...(a.view.label ? { label: a.view.label } : {}),
    })),
    entries: [],
  };
}
