/**
 * The view-model of the index page (DESIGN.md §2): the publisher, its agents each with a one-line
 * footprint, and the other entries of its manifest: its own (an MCP server card, …) and other
 * publishers' entries it lists, shown as "Listed, not published by us" (DESIGN.md §1).
 */
import { pagesBase } from '../i18n/languages.js';
import { parseAirUrn } from '../ard/urn.js';
import { newPermissionsNoticeView, type NewPermissionsNoticeView } from './changes-view.js';
import type { SiteBuild } from '../site/site-build.js';
import { footprintLine } from './footprint-line.js';
import { agentLabel, type PermissionLabel } from './permission-label.js';
import { signInFacts } from '../ram/sign-in.js';
import { langField, PageTexts } from './page-texts.js';
import {
  agentPagePath,
  indexPagePath,
  INDEX_PAGE_PATH,
  permissionsPagePath,
  type PageTree,
} from '../site/page-paths.js';
import { wordsFor, type PageWords } from '../i18n/words/index.js';

/** One agent on the index. */
export interface IndexAgentView {
  name: string;
  /** The language of `name` when it is not the page's (a text the publisher did not translate). */
  nameLang?: string;
  description: string;
  /** The language of `description` when it is not the page's. */
  descriptionLang?: string;
  version: string;
  pagePath: string;
  permissionsPath: string;
  footprint: string;
  /** One line per service the agent acts on (src/core/pages/permission-label.ts); absent when it acts on none. */
  label?: PermissionLabel;
  /** The "new permissions" notice while a version that gained access is new (DESIGN.md §9). */
  newPermissions?: NewPermissionsNoticeView;
}

/** One other entry of the manifest on the index. */
export interface IndexEntryView {
  displayName: string;
  /** The language of `displayName` when it is not the page's. */
  displayNameLang?: string;
  description?: string;
  /** The language of `description` when it is not the page's. */
  descriptionLang?: string;
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
  /** The page's words (src/core/i18n/words/). */
  words: PageWords;
  /** The index of the page's language (`/`, `/pt-br/`). */
  homePath: string;
  /** The page's path in the default language's pages, `/` (its language versions: src/core/site/page-paths.ts). */
  pagePath: string;
  title: string;
  /** The language of `title` when it is not the page's. */
  titleLang?: string;
  description?: string;
  /** The language of `description` when it is not the page's. */
  descriptionLang?: string;
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
 * Computes the index page of `site` in the language of `tree` (default: the publisher's language, at `/`),
 * all of it in one language (one page, one `lang`): the page words of that language, or `words` when given
 * (llms.txt asks for English), and the publisher's texts in it (src/core/pages/page-texts.ts).
 * Pure; never throws on a built site whose languages passed the checks.
 */
export function indexView(
  site: Pick<SiteBuild, 'model' | 'agents' | 'otherEntries'>,
  words?: PageWords,
  tree?: PageTree,
): IndexView {
  const { publisher } = site.model;
  const language = tree?.language ?? publisher.language;
  const prefix = tree?.prefix ?? pagesBase(publisher);
  const w = words ?? wordsFor(language);
  const texts = new PageTexts(site.model, language);
  const title = texts.siteName();
  const view: IndexView = {
    language: words && !tree ? w.locale.tag : language,
    words: w,
    homePath: indexPagePath(prefix),
    pagePath: INDEX_PAGE_PATH,
    title: title.text,
    ...langField('title', title),
    organization: publisher.organization,
    organizationUrl: publisher.organizationUrl,
    agents: site.agents.map((build) => {
      const { agent } = build;
      const notice = newPermissionsNoticeView(build, w, prefix);
      const label = agentLabel(build, site.model, w, tree);
      const name = texts.agentName(agent);
      const description = texts.agentDescription(agent);
      return {
        name: name.text,
        ...langField('name', name),
        description: description.text,
        ...langField('description', description),
        version: agent.front.version,
        pagePath: agentPagePath(agent.slug, prefix),
        permissionsPath: permissionsPagePath(agent.slug, prefix),
        footprint: footprintLine(agent.ram, w, 'after-label', signInFacts(agent).userSchemes.length > 0),
        ...(label ? { label } : {}),
        ...(notice ? { newPermissions: notice } : {}),
      };
    }),
    entries: site.otherEntries.map(({ model, entry }) => {
      const displayName = texts.entry(model, 'displayName', String(entry.displayName));
      const item: IndexEntryView = {
        displayName: displayName.text,
        ...langField('displayName', displayName),
        kind: entryKind(String(entry.type), w),
        own: model.own,
        publisherDomain: urnDomain(String(entry.identifier)),
      };
      if (typeof entry.description === 'string') {
        const description = texts.entry(model, 'description', entry.description);
        item.description = description.text;
        Object.assign(item, langField('description', description));
      }
      if (typeof entry.version === 'string') item.version = entry.version;
      if (typeof entry.url === 'string') item.url = entry.url;
      return item;
    }),
  };
  const description = texts.siteDescription();
  if (description)
    Object.assign(view, { description: description.text }, langField('description', description));
  return view;
}
