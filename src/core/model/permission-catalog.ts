/**
 * The shapes of a content model's permission catalog (DESIGN.md §9): each resource's stored spec and each
 * RAM operation resolved in it. Computed by catalog.ts; read by the content model, the permission sets and
 * the pages.
 */
import type { LeastPrivilege, SecurityAlternative } from './permissions.js';
import type { SpecIndex, SpecOperation } from './spec-index.js';

/** A resource's stored spec, parsed. */
export interface StoredSpec {
  /** Project-relative path of the stored copy. */
  file: string;
  /** `sha256:<hex>` of its bytes. */
  digest: string;
  index: SpecIndex;
}

/** One RAM operation found in its resource's spec. */
export interface ResolvedOperation {
  resource: string;
  spec: SpecOperation;
  /** The spec's name of the operation (id, else `METHOD path`). */
  specOperation: string;
  accepted: SecurityAlternative[];
  leastPrivilege?: LeastPrivilege;
}

/** The stored specs and resolved operations of a model. */
export interface PermissionCatalog {
  /** resource id → its stored spec. */
  specs: Map<string, StoredSpec>;
  /** operation id → where it is in its resource's spec. */
  operations: Map<string, ResolvedOperation>;
}
