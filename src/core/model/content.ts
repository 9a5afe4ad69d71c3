/**
 * The validated content model: what `src/core/content/load.ts` makes of `content/` and every later step
 * (checks, cards, entries, pages) reads. Plain data plus the origin of each item, for diagnostics.
 */
import type { Jail } from '../project/project-jail.js';
import type { OperatorTrust } from './operator-trust.js';
import type { AgentFrontMatterInput } from '../schema/agent.js';
import type { OtherEntryInput } from '../schema/entry.js';
import type { PublisherConfig } from '../schema/publisher.js';
import type { Ram, RamOperation, RamResource, RamResourceAccess } from '../schema/ram.js';
import type { PermissionCatalog } from './permission-catalog.js';
import type { ReleaseHistory } from './release-record.js';
import type { SourceDoc } from './source.js';
import type { TextTable } from './text-table.js';

/** Where an item was defined: a document and the field path inside it. */
export interface Origin {
  source: SourceDoc;
  path: PropertyKey[];
}

/** A Resource of the shared RAM catalog, with its authoring-only data. */
export interface CatalogResource {
  resource: RamResource;
  /** Authoring data (DESIGN.md §6): where the user manages or revokes the agent's access. */
  manageAccessUrl?: string;
  /** Authoring data (DESIGN.md §9): the stored copy of the resource's spec, project-relative. */
  specFile?: string;
  /** Authoring data (DESIGN.md §9): `sha256:<hex>` of the stored spec's bytes. */
  specDigest?: string;
  origin: Origin;
}

/** An Operation of the shared RAM catalog, with its authoring-only data. */
export interface CatalogOperation {
  operation: RamOperation;
  /** Authoring data (DESIGN.md §6): the operation never changes data. */
  readOnly?: boolean;
  origin: Origin;
}

/** One ResourceAccess of an agent, with the skills it serves (authoring data, DESIGN.md §1). */
export interface AgentAccess {
  access: RamResourceAccess;
  skills: string[];
  /**
   * Authoring data (docs/permissions.md "Needed scopes"): the scope the access needs, with the reason, when
   * the narrowest scope its spec lists would not do.
   */
  neededScope?: { scope: string; reason: string };
  origin: Origin;
}

/** One agent: its front matter, Markdown body, accesses and emitted RAM. */
export interface AgentModel {
  /** File name without `.md`; the last segment of the URN and of `/agents/<slug>/`. */
  slug: string;
  /** Project-relative path of the agent file. */
  file: string;
  source: SourceDoc;
  front: AgentFrontMatterInput;
  /** The Markdown body (the long description). */
  body: string;
  /** Every project-relative file this agent's output depends on (for `updatedAt`). */
  files: string[];
  accesses: AgentAccess[];
  /** The emitted RAM: exactly the resources and operations the accesses use, in order of first use. */
  ram: Ram;
  /** skill id → access ids, when the author mapped accesses to skills. */
  skillAccesses?: Record<string, string[]>;
  namespace: string;
  /** `urn:air:<domain>:<namespace>:<slug>` (ARD draft §3.4). */
  identifier: string;
}

/** An entry of `content/entries/`. */
export interface OtherEntryModel {
  slug: string;
  file: string;
  source: SourceDoc;
  entry: OtherEntryInput;
  /** True when the URN names the site's own domain: ardsite signs it (DESIGN.md §1). */
  own: boolean;
  /** For a `url` that is a site path: the project-relative file under `public/` it serves. */
  publicFile?: string;
}

/** Everything loaded from `content/`. */
export interface ContentModel {
  /** Absolute project root. */
  root: string;
  publisher: PublisherConfig;
  publisherSource: SourceDoc;
  agents: AgentModel[];
  /**
   * What the agents whose front matter has errors (not built, not in `agents`) name in their accesses:
   * it does not count as unused.
   */
  usedByInvalidAgents: { operationIds: ReadonlySet<string>; resourceIds: ReadonlySet<string> };
  /**
   * The slug of every agent file (`content/agents/<slug>.md`), built or not: what the summary counts,
   * and what `primaryAgent` may name without a second error when the agent itself has errors.
   */
  agentFiles: string[];
  resources: Map<string, CatalogResource>;
  operations: Map<string, CatalogOperation>;
  entries: OtherEntryModel[];
  /**
   * The stored specs and every used operation resolved against them (DESIGN.md §9), set by
   * `loadAndCheck`; absent when the model was loaded without it.
   */
  permissions?: PermissionCatalog;
  /**
   * Agent slug → its release history (`content/releases/<slug>.json`, DESIGN.md §9), set by
   * `loadAndCheck` for the agents that have one.
   */
  releases?: Map<string, ReleaseHistory>;
  /**
   * The texts in the site's other languages (DESIGN.md §9 "Languages"): per-language maps of any content
   * file and the agents' bodies in `content/agents/<slug>.<tag>.md`. Absent (or empty) on a site in one
   * language; the model's own texts are the default language's.
   */
  texts?: TextTable;
  /**
   * Where every read of this build may go: the project and the operator's `ARDSITE_ALLOW_OUTSIDE`
   * folders (src/core/trust/operator-trust.ts; publisher.yaml `allowOutside` only when the operator confirms).
   */
  jail: Jail;
  /** The operator's decisions from the environment (DESIGN.md §10 trust boundary). */
  operator: OperatorTrust;
}
