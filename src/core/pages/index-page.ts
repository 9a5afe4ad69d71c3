/**
 * The view-model of the index page (DESIGN.md §2): the publisher, its agents each with a one-line
 * footprint, and the other entries of its manifest: its own (an MCP server card, …) and other
 * publishers' entries it lists, shown as "Listed, not published by us" (DESIGN.md §1).
 */
import { parseAirUrn } from '../urn.js';
import { newPermissionsNoticeView, type NewPermissionsNoticeView } from './changes-view.js';
import type { SiteBuild } from '../site.js';
import { footprintLine } from './footprint-line.js';
import { agentPagePath, permissionsPagePath } from './paths.js';

/** The note shown beside another publisher's entry (DESIGN.md §1). */
export const FOREIGN_ENTRY_NOTE = 'Listed, not published by us';

/** One agent on the index. */
export interface IndexAgentView {
  name: string;
  description: string;
  version: string;
  pagePath: string;
  permissionsPath: string;
  footprint: string;
  /** The "new permissions" notice while a version that gained access is new (DESIGN.md §9). */
  newPermissions?: NewPermissionsNoticeView;
}

/** One other entry of the manifest on the index. */
export interface IndexEntryView {
  displayName: string;
  description?: string;
  /** What the entry describes, in words, from its media type. */
  kind: string;
  version?: string;
  /** Where its description lives; absent for inline (`data`) entries. */
  url?: string;
  /** False for another publisher's entry. */
  own: boolean;
  /** The publishing domain named by the entry's URN. */
  publisherDomain: string;
}

/** Everything the index shows. */
export interface IndexView {
  title: string;
  description?: string;
  organization: string;
  organizationUrl: string;
  agents: IndexAgentView[];
  entries: IndexEntryView[];
}

const KIND_BY_TYPE: Readonly<Record<string, string>> = {
  'application/a2a-agent-card+json': 'AI agent',
  'application/mcp-server-card+json': 'Model Context Protocol server',
  'application/ai-registry+json': 'Registry of agents',
};

/** What an entry of media type `type` describes, in words (ARD draft §3.2.1 `type`). */
export function entryKind(type: string): string {
  return KIND_BY_TYPE[type] ?? `Resource described as ${type}`;
}

function urnDomain(identifier: string): string {
  const urn = parseAirUrn(identifier);
  return typeof urn === 'string' ? '' : urn.domain;
}

/** Computes the index page of `site`. Pure; never throws on a built site. */
export function indexView(site: Pick<SiteBuild, 'model' | 'agents' | 'otherEntries'>): IndexView {
  const { publisher } = site.model;
  const view: IndexView = {
    title: publisher.siteName ?? publisher.organization,
    organization: publisher.organization,
    organizationUrl: publisher.organizationUrl,
    agents: site.agents.map((build) => {
      const { agent } = build;
      const notice = newPermissionsNoticeView(build);
      return {
        name: agent.front.name,
        description: agent.front.description,
        version: agent.front.version,
        pagePath: agentPagePath(agent.slug),
        permissionsPath: permissionsPagePath(agent.slug),
        footprint: footprintLine(agent.ram),
        ...(notice ? { newPermissions: notice } : {}),
      };
    }),
    entries: site.otherEntries.map(({ model, entry }) => {
      const item: IndexEntryView = {
        displayName: String(entry.displayName),
        kind: entryKind(String(entry.type)),
        own: model.own,
        publisherDomain: urnDomain(String(entry.identifier)),
      };
      if (typeof entry.description === 'string') item.description = entry.description;
      if (typeof entry.version === 'string') item.version = entry.version;
      if (typeof entry.url === 'string') item.url = entry.url;
      return item;
    }),
  };
  if (publisher.description) view.description = publisher.description;
  return view;
}
