/**
 * What the programmatic API tells its caller while it works: one typed event sink per call (`onEvent`),
 * so that a command line, a dev server or an Astro integration decides how to show progress and
 * warnings, and nothing in `src/core` prints or exits. Events never carry key material.
 */
import type { Diagnostic } from '../util/errors.js';

/** One event of a build (src/core/build/pipeline.ts `build`). */
export type BuildEvent =
  /** Temporary folders that killed builds left behind were removed (absolute paths). */
  | { type: 'stale-temp-removed'; folders: string[] }
  /** A warning of the content (errors fail the build instead, in the thrown ArdsiteError). */
  | { type: 'diagnostic'; diagnostic: Diagnostic }
  /**
   * The signing key the build uses: `source` names where it came from (`ARDSITE_SIGNING_KEY`, a file, the
   * throw-away note), `file` its absolute path when it is a file, `created` when this build made it,
   * `ephemeral` for a throw-away key (`ARDSITE_DEV_KEY=1`). The key's id, never its material.
   */
  | {
      type: 'key';
      source: string;
      kid: string;
      created: boolean;
      ephemeral: boolean;
      file?: string;
    }
  /** The machine-check worker thread stopped (`reason`); the checks go on in the calling thread. */
  | { type: 'self-check-in-main-thread'; reason: string };

/** Receives the events of one call; what it throws is not caught. */
export type EventSink = (event: BuildEvent) => void;
