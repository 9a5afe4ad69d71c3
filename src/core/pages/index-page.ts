/**
 * The view-model of the index page (DESIGN.md §2): the publisher, its agents each with a one-line
 * footprint, and the other entries of its manifest: its own (an MCP server card, …) and other
 * publishers' entries it lists, shown as "Listed, not published by us" (DESIGN.md §1).
 */
import { parseAirUrn } from '../urn.js';
import { newPermissionsNoticeView, type NewPermissionsNoticeView } from './changes-view.js';
import type { SiteBuild } from '../site-build.js';
import { footprintLine } from './footprint-line.js';
import { agentPagePath, permissionsPagePath } from './paths.js';
import { wordsFor, type PageWords } from './words/index.js';

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
  /** The BCP 47 tag of the page's words (the publisher's `language`). */
  language: string;
  /** The page's words (src/core/pages/words/). */
  words: PageWords;
  title: string;
  description?: string;
  organization: string;
  organizationUrl: string;
  agents: IndexAgentView[];
  entries: IndexEntryView[];
}

/** What an entry of media type `type` describes, in words of `w` (ARD draft §3.2.1 `type`). */
export function entryKind(type: string, w: PageWords): string {
  return w.index.entryKinds[type] ?? w.index.otherKind(type);
}

function urnDomain(identifier: string): string {
  const urn = parseAirUrn(identifier);
  return typeof urn === 'string' ? '' : urn.domain;
}

/**
 * Computes the index page of `site`, all of it in the publisher's language (one page, one `lang`), or in
 * `words` when given (llms.txt asks for English).
 * Pure; never throws on a built site whose language passed the checks.
 */
export function indexView(
  site: Pick<SiteBuild, 'model' | 'agents' | 'otherEntries'>,
  words?: PageWords,
): IndexView {
  const { publisher } = site.model;
  const w = words ?? wordsFor(publisher.language);
  const view: IndexView = {
    language: words ? w.locale.tag : publisher.language,
    words: w,
    title: publisher.siteName ?? publisher.organization,
    organization: publisher.organization,
    organizationUrl: publisher.organizationUrl,
    agents: site.agents.map((build) => {
      const { agent } = build;
      const notice = newPermissionsNoticeView(build, w);
      return {
        name: agent.front.name,
        description: agent.front.description,
        version: agent.front.version,
        pagePath: agentPagePath(agent.slug),
        permissionsPath: permissionsPagePath(agent.slug),
        footprint: footprintLine(agent.ram, w, 'after-label'),
        ...(notice ? { newPermissions: notice } : {}),
      };
    }),
    entries: site.otherEntries.map(({ model, entry }) => {
      const item: IndexEntryView = {
        displayName: String(entry.displayName),
        kind: entryKind(String(entry.type), w),
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
