/**
 * The shapes of a release history (DESIGN.md §9 "Releases", docs/releases.md): one recorded release of an
 * agent (its `version`, when, the RAM its card published and the authoring data a comparison needs), and
 * one agent's history file. Read and written by history.ts.
 */
import type { SourceDoc } from './source.js';
import type { Ram } from '../schema/ram.js';

/** One recorded release, its RAM with every list present. */
export interface ReleaseRecord {
  version: string;
  releasedAt: string;
  ram: Ram;
  readOnlyOperations?: string[];
  scopes?: Record<string, string[]>;
}

/** One agent's release history. */
export interface ReleaseHistory {
  /** Project-relative path of the file. */
  file: string;
  identifier: string;
  releases: ReleaseRecord[];
  source: SourceDoc;
}
