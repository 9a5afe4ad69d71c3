/**
 * The shapes of the permission page's view-model (DESIGN.md §6): what src/core/pages/permissions.ts
 * `permissionView` computes for one agent from its emitted RAM (the RAM proposal's `Resource`,
 * `Operation` and `ResourceAccess`) and its permission sets, already in words.
 */
import type { GrantView } from './permission-grants.js';
import type { NecessityLevel, OwnerGroup, PageWords } from './words.js';

/** One access of the agent, as a set of sentences. */
export interface AccessView {
  /** The RAM `ResourceAccess.id`. */
  id: string;
  /** HTML id of the access on the page. */
  anchor: string;
  /** What it does: the operation's description. */
  whatItDoes: string;
  /** The language of `whatItDoes` (and `heading`) when it is not the page's (an untranslated text). */
  whatItDoesLang?: string;
  /**
   * The access's heading: {@link AccessView.whatItDoes}, told apart by as whom it acts when another
   * access to the same resource does the same action (no two headings of a resource are the same).
   */
  heading: string;
  /** Why: the access justification. */
  why: string;
  /** The language of `why` when it is not the page's. */
  whyLang?: string;
  /** True when it runs as the visitor (`END_USER`). */
  actsAsYou: boolean;
  asWhom: string;
  asksFirst: boolean;
  asksFirstText: string;
  mayChangeData: boolean;
  /** "It may change data …" or "It only reads data." */
  effectText: string;
  /** It may delete or overwrite data (a REST DELETE; an MCP tool's `destructiveHint`). */
  mayDelete: boolean;
  /** The MCP tool may reach beyond its server (its `openWorldHint`). */
  reachesOutside: boolean;
  /** The sentences of {@link AccessView.mayDelete} and {@link AccessView.reachesOutside}, in page order. */
  moreEffects: string[];
  necessity: NecessityLevel;
  /** The necessity level and what it means, one sentence. */
  necessityText: string;
  higherRisk: boolean;
  /** The operation's documentation links. */
  documentationUrls: string[];
  /** The skills that use this access (when the author mapped them). */
  skills: Array<{ id: string; name: string }>;
  /** Those skills as one sentence ("The skills “A” and “B”."); empty when none. */
  usedByText: string;
}

/** One resource with the agent's accesses to it. */
export interface ResourceView {
  id: string;
  anchor: string;
  displayName: string;
  /** The language of `displayName` when it is not the page's (an untranslated text). */
  displayNameLang?: string;
  description: string;
  /** The language of `description` when it is not the page's. */
  descriptionLang?: string;
  /** What kind of thing it is, by its protocol, in words. */
  kindText: string;
  documentationUrl?: string;
  /** Where the visitor manages or revokes the access (own services only). */
  manageAccessUrl?: string;
  /** What the visitor will be asked to allow on it (own services only; DESIGN.md §9). */
  grant?: GrantView;
  accesses: AccessView[];
}

/**
 * The section of the page a resource is in: its owner group (the RAM proposal's `ResourceOwner`), except
 * that an outside resource run by the publisher itself (src/core/pages/publisher-service.ts) has its own.
 */
export type PageGroup = OwnerGroup | 'publisher';

/** The resources of one section: "Your accounts and data", the publisher's services, or "Outside services". */
export interface ResourceGroupView {
  key: PageGroup;
  heading: string;
  /** A sentence introducing the group, or saying it is empty. */
  intro: string;
  resources: ResourceView[];
}

/** The numbers behind the summary. */
export interface PermissionCounts {
  /** Distinct own (2P) resources. */
  yourServices: number;
  /** Own resources with at least one access as the visitor. */
  yourServicesAsYou: number;
  /** Own resources with at least one access as the agent itself. */
  yourServicesAsItself: number;
  /** Distinct outside (3P) resources. */
  outsideServices: number;
  /**
   * Outside resources with at least one access as the visitor (`END_USER`): the visitor's own account at an
   * outside service, which the summary and the "Your accounts and data" intro must not deny.
   */
  outsideServicesAsYou: number;
  accesses: number;
  asksFirst: number;
  required: number;
  recommended: number;
  optional: number;
  higherRisk: number;
}

/** Keys of the summary items, in page order. */
export type SummaryKey = 'yours' | 'outside' | 'asks-first' | 'necessity' | 'higher-risk' | 'sign-in';

/** One line of the summary on top of the page. */
export interface SummaryItem {
  key: SummaryKey;
  text: string;
}

/** One skill of the agent with the accesses it uses (the seed's "partition by skill"). */
export interface SkillPermissionView {
  id: string;
  name: string;
  /** The language of `name` when it is not the page's. */
  nameLang?: string;
  anchor: string;
  /** The skill's own footprint line. */
  footprint: string;
  accesses: Array<{
    id: string;
    anchor: string;
    resourceName: string;
    whatItDoes: string;
    higherRisk: boolean;
  }>;
}

/** Everything the permission page of one agent shows. */
export interface PermissionView {
  agentName: string;
  /** The language of `agentName` when it is not the page's (an untranslated text). */
  agentNameLang?: string;
  /** The index of the page's language (`/`, `/pt-br/`). */
  homePath: string;
  /** The agent page in the page's language. */
  agentPath: string;
  /** The page's path in the default language's pages: the key of its language versions. */
  pagePath: string;
  /** The BCP 47 tag of the page's words (`<html lang>`). */
  language: string;
  /** The page's words (src/core/i18n/words/). */
  words: PageWords;
  /** False for an agent with no access: the page then says {@link PermissionView.noAccessText}. */
  hasAccess: boolean;
  noAccessText: string;
  counts: PermissionCounts;
  summary: SummaryItem[];
  groups: ResourceGroupView[];
  /** What each necessity level means, in page order. */
  necessityLegend: Array<{ label: string; text: string }>;
  /** Present when the author mapped accesses to skills. */
  skills?: SkillPermissionView[];
  declaration: string;
}
