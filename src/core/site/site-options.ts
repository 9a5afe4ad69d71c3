/**
 * The inputs of a build's computing step (src/core/build/site.ts `computeSite`, DESIGN.md §4 and §7): the key
 * and the keys still published, the times, the signer, and the callbacks that hear each agent as soon as
 * it is built.
 */
import type { PublishedJwk } from '../trust/jwk.js';
import type { JwsSigner, SigningKey } from '../trust/keys.js';
import type { AgentBuild, Artifact } from './site-build.js';
import type { PhaseTimer } from '../util/timings.js';

/** Inputs of `computeSite` (./site.ts). */
export interface ComputeSiteOptions {
  key: SigningKey;
  /** Rotated-out keys still to publish (DESIGN.md §4); the active key is added first. */
  retiredKeys?: readonly PublishedJwk[];
  /** SOURCE_DATE_EPOCH, or the build time: `issuedAt` and the `updatedAt` fallback. */
  buildTime: Date;
  /** Last commit time per project-relative file (see `gitLastCommitTimes`). */
  gitTimes: ReadonlyMap<string, number>;
  /**
   * What signs (default `key` itself, in this thread): a pool of worker threads holding `key`
   * (src/core/trust/signer-pool.ts) for many agents. The same bytes either way.
   */
  signer?: JwsSigner;
  /** Receives the time spent signing (in this thread) and deriving permissions, when given. */
  timer?: PhaseTimer;
  /**
   * Hears each agent's build as soon as it is complete (its card signed, its entry and trustManifest
   * made), in no set order, before the rest of the site is: scripts/build.ts renders that agent's pages
   * meanwhile.
   */
  onAgent?: (build: AgentBuild) => void;
  /**
   * Takes each agent's card and permission file as soon as they are computed (scripts/build.ts writes
   * them), so that the site does not hold their bytes until the end: they
   * are then listed in `SiteBuild.streamed`, not in `artifacts`. Awaited before the agent counts as
   * built; what it throws fails the computation. The primary agent's card is still copied to the
   * well-known paths.
   */
  sink?: (artifacts: Artifact[]) => Promise<void>;
}
