/**
 * In-memory data of the benchmark floor: for N agents (`FLOOR_AGENTS`), the synthetic publisher's own
 * agents (bench/synthetic.ts) as plain records (./agent-model.ts), and everything the floor's routes
 * and its plain file writes (./plain-files.ts) write, made from them by plain templating: the page views
 * ardsite's page components take (src/components/AgentPage.astro, PermissionPage.astro, IndexPage.astro; ./agent-views.ts), the card,
 * the permission file and the entry JSON-LD (./agent-files.ts), the site-wide files (./site-files.ts).
 * No loading, checks, ardsite view code, signing or verification.
 */
import type { AgentPageView } from '../../../src/core/pages/agent-page';
import type { IndexView } from '../../../src/core/pages/index-page';
import type { PermissionView } from '../../../src/core/pages/permissions';
import { ENGLISH_WORDS } from '../../../src/core/i18n/words';
import { floorModels, ORGANIZATION, type FloorModel } from './agent-model';
import { cardText, jsonLdOf, permissionsText } from './agent-files';
import { agentViewOf, footprintOf, labelOf, permissionViewOf } from './agent-views';

/**
 * One agent of the floor: its records, and what its pages and files are made from, each made when a route
 * reads it and not kept (a plain site renders each page from its data; holding every agent's views and
 * files through the whole build raised the floor's peak RSS, 666 MiB in one run at 1,000 agents against
 * 544–590 made per route).
 */
export interface FloorAgent {
  readonly slug: string;
  readonly model: FloorModel;
  /** The agent page's view, with its label. */
  readonly view: AgentPageView;
  /** The permission page's view, with its grants. */
  readonly permissions: PermissionView;
  /** The agent card, as written. */
  readonly card: string;
  /** The permission file, as written. */
  readonly permissionsFile: string;
  /** The `<script>` text of the agent's entry, as agent pages embed it. */
  readonly jsonLd: string;
}

const SLOT = Symbol.for('ardsite.floorAgents');

/** One agent's data: its records, the rest made on each read. */
function makeAgent(model: FloorModel): FloorAgent {
  return {
    slug: model.slug,
    model,
    get view() {
      return agentViewOf(model, labelOf(model));
    },
    get permissions() {
      return permissionViewOf(model);
    },
    get card() {
      return cardText(model);
    },
    get permissionsFile() {
      return permissionsText(model);
    },
    get jsonLd() {
      return jsonLdOf(model);
    },
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
    agents: floorAgents().map(({ model: m }) => ({
      name: m.name,
      description: m.description,
      version: m.version,
      footprint: footprintOf(m.resources),
      pagePath: `/agents/${m.slug}/`,
      permissionsPath: `/agents/${m.slug}/permissions/`,
      label: labelOf(m),
    })),
    entries: [],
  };
}
