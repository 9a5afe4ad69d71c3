/**
 * What one build computed (DESIGN.md §5): the artifacts of the site (URL path → bytes), each agent's
 * card digest, ARD entry and signed trustManifest, and the manifest's entries. The types shared by the
 * computing step (site.ts), the file list (site-files.ts), the writer and the pages.
 */
import type { JsonObject } from '../a2a/card.js';
import type { AgentModel, ContentModel, OtherEntryModel } from '../model/content.js';
import type { AgentPermissions } from '../model/permissions.js';
import type { AgentChanges } from '../releases/agent-changes.js';
import type { SignedTrustManifest } from '../trust/trust-manifest.js';

/** One file of the built site. `path` is the URL path (leading `/`). */
export interface Artifact {
  path: string;
  bytes: Uint8Array;
  mediaType: string;
  /** `sha256:<hex>` of `bytes`, when it was computed with them (a card's: its entry pins it). */
  digest?: string;
}

/**
 * An artifact handed to a build's sink as soon as it was computed (src/core/site/site-options.ts
 * `ComputeSiteOptions.sink`), whose bytes the site no longer holds: its path and media type, for the
 * files that list it (`_headers`).
 */
export type StreamedArtifact = Pick<Artifact, 'path' | 'mediaType'>;

/** An ARD entry as emitted (ARD draft §3.2). */
export type ArdEntry = JsonObject;

/** What the build made of one agent. */
export interface AgentBuild {
  agent: AgentModel;
  /** The card's provider (A2A `AgentProvider`), for the pages. */
  provider: { organization: string; url: string };
  /**
   * `sha256:<hex>` of the signed card's one serialisation (the artifact at `cardPath`). Neither the card
   * object nor its bytes are kept here: at 10,000 agents they would hold hundreds of megabytes through
   * rendering; the bytes go to the build's sink as soon as the card is signed (scripts/build.ts writes
   * them then), or live in `SiteBuild.artifacts` until they are written (no sink: the dev server, tests).
   */
  digest: string;
  /** `/agents/<slug>/agent-card.json`. */
  cardPath: string;
  /** Absolute URL of the card. */
  cardUrl: string;
  entry: ArdEntry;
  trustManifest: SignedTrustManifest;
  /**
   * What the agent's accesses need, derived from the stored specs (DESIGN.md §9), when some access has
   * one; served at `permissionsPath`, pinned by digest in the card's RAM extension params.
   */
  permissions?: AgentPermissions;
  /** `/agents/<slug>/permissions.json`, when `permissions` is set. */
  permissionsPath?: string;
  /** What changed across the agent's recorded releases, when it has a history (DESIGN.md §9). */
  changes?: AgentChanges;
}

/** What the build made of one `content/entries/` file. */
export interface OtherEntryBuild {
  model: OtherEntryModel;
  entry: ArdEntry;
}

/**
 * What the pages of a build need before any card is signed (scripts/build.ts hands it to Astro as soon as
 * the content passed its checks and the key is known): the model, the site's DID, the signing
 * key's id and algorithm, and the build's timestamp. A {@link SiteBuild} is one.
 */
export type SiteOutline = Pick<SiteBuild, 'model' | 'did' | 'kid' | 'alg' | 'builtAt'>;

/** Everything one build computed. */
export interface SiteBuild {
  model: ContentModel;
  /** `did:web:<domain>`. */
  did: string;
  /** kid of the active signing key. */
  kid: string;
  alg: string;
  agents: AgentBuild[];
  otherEntries: OtherEntryBuild[];
  /** Registry mode only: the signed `application/ai-registry+json` entry of the site's lookup API. */
  registryEntry?: ArdEntry;
  /** The manifest's entries, sorted by identifier then version. */
  entries: ArdEntry[];
  /**
   * URL path → artifact. scripts/build.ts writes them before rendering and then empties this map, so the
   * pages never read it (the dev server does). Without the artifacts handed to a sink while computing
   * ({@link SiteBuild.streamed}).
   */
  artifacts: Map<string, Artifact>;
  /**
   * The artifacts handed to `ComputeSiteOptions.sink` while computing (agent cards and permission
   * files), by URL path; empty without a sink.
   */
  streamed: Map<string, StreamedArtifact>;
  /** The build's timestamp (SOURCE_DATE_EPOCH or now), ISO 8601 UTC. */
  builtAt: string;
}
