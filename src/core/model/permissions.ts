/**
 * The data model of permissions derived from API specs (DESIGN.md §9 "Permissions from specs").
 *
 * The RAM proposal says the RAM "catalogs the resource operations themselves and not the specific permissions
 * associated with them (the permission sets are expected to be derived from the RAM via offline tooling)".
 * ardsite is that tooling: each Resource's `spec.specUrl` is stored once in the publisher's project
 * (`npm run specs`), every Operation is resolved against it, and each ResourceAccess gets the
 * authorisation it needs, least privilege first.
 *
 * Where the results live (all computed by src/core/ram/, never authored):
 * - {@link AgentPermissions} per agent: the `permissions.json` file beside its card
 *   (`/agents/<slug>/permissions.json`, {@link PERMISSIONS_FILE_NAME}), typed `application/json` in `_headers`.
 * - {@link CardPermissions} in the card's RAM extension params under the key `permissions` (beside the
 *   RAM and `skillAccesses`, never inside the RAM object): the permission sets, and the file's URL and
 *   `sha256:` digest. The card's A2A signature and the entry's digest cover those params, so the entry pins
 *   the file through the card.
 * - Footprint terms of the ARD entry (`ram:scopes`, `ram:requiredScopes`; src/core/ram/footprint.ts), computed
 *   from the card's permission sets so that a registry can filter agents by the scopes they ask for.
 *
 * A scope is compared between releases ("a broader scope") through {@link PermissionSet}: a grant
 * is broader when it adds a scope, or moves one to a stronger necessity.
 */

/** The file name of an agent's permission sets, beside its card: `/agents/<slug>/permissions.json`. */
export const PERMISSIONS_FILE_NAME = 'permissions.json';

/** The kinds of machine-readable contract ardsite resolves operations against. */
export type SpecFormat = 'openapi' | 'google-discovery' | 'mcp-tools';

/**
 * The type of a security scheme, with OpenAPI's names (OpenAPI 3.1 §4.8.27 `type`): a Google Discovery
 * document's `auth.oauth2` is `oauth2`.
 */
export type SchemeType = 'oauth2' | 'openIdConnect' | 'apiKey' | 'http' | 'mutualTLS';

/** One scheme of a spec and the scopes it asks for: part of a {@link SecurityAlternative}. */
export interface SchemeRequirement {
  /** The scheme's name in the spec (`components.securitySchemes` key; `oauth2` for Discovery). */
  scheme: string;
  /** The scheme's type. */
  type: SchemeType;
  /** The scopes asked of it, sorted; empty for a scheme without scopes (an API key, HTTP auth). */
  scopes: string[];
}

/**
 * One way to be authorised for an operation: every requirement together (OpenAPI 3.1 §4.8.30, the
 * members of one Security Requirement Object are all needed). An operation lists alternatives; any one
 * suffices. A Discovery method's scopes are alternatives of one scope each.
 */
export interface SecurityAlternative {
  requirements: SchemeRequirement[];
}

/**
 * The least-privilege authorisation of one operation: of the alternatives the spec accepts, the one that
 * grants the fewest operations of the spec (a read-only one for a read), and what else it grants.
 */
export interface LeastPrivilege {
  /** The alternative chosen. */
  requirements: SchemeRequirement[];
  /** How many operations of the spec this alternative grants, this one included. */
  grantsCount: number;
  /** The other operations it grants (spec ids, or `METHOD path`), sorted: the blast radius of the grant. */
  alsoGrants: string[];
}

/** What one ResourceAccess of an agent needs, derived from its resource's stored spec. */
export interface AccessPermission {
  /** The RAM `ResourceAccess.id`. */
  access: string;
  /** The RAM `Operation.id`. */
  operation: string;
  /** The RAM `Resource.id`. */
  resource: string;
  /** The access's `necessity` (RAM proposal `AccessNecessity`). */
  necessity: 'REQUIRED' | 'RECOMMENDED' | 'OPTIONAL';
  /** Whose credentials the access runs under (RAM proposal `IdentityType`): only END_USER ones are asked of the person. */
  identityUsed: 'END_USER' | 'AGENT';
  /** The operation as the spec names it: its operationId, Discovery method id or MCP tool name, else `METHOD path`. */
  specOperation: string;
  /** True when the spec says the operation only reads (a safe HTTP method; MCP `readOnlyHint`). */
  readOnly: boolean;
  /**
   * MCP only (MCP 2025-06-18 "Tool annotations"): true when the tool, which is not read-only, may perform
   * destructive updates (`destructiveHint`, default true); absent for a read and for REST operations.
   */
  destructive?: boolean;
  /** MCP only: the tool's `openWorldHint` (default true), whether it may reach entities outside its server. */
  openWorld?: boolean;
  /** Every alternative the spec accepts (any one suffices); absent when the spec names no authorisation. */
  accepted?: SecurityAlternative[];
  /**
   * The narrowest alternative the spec lists for the operation (the one granting the fewest of its
   * operations); absent when the spec names no authorisation for the operation. What the spec allows, not a
   * claim about what the agent needs: {@link AccessPermission.neededScope} says that when it differs.
   */
  leastPrivilege?: LeastPrivilege;
  /**
   * The scope the publisher says the access needs, with the reason (docs/permissions.md "Needed scopes"):
   * then the permission sets grant it instead of {@link AccessPermission.leastPrivilege}.
   */
  neededScope?: NeededScope;
}

/**
 * What an access needs by its publisher's word (the authored `neededScope`, docs/permissions.md "Needed
 * scopes"): an alternative the spec accepts for the operation that holds the scope named, and why.
 */
export interface NeededScope {
  /** The scope named, as the spec writes it. */
  scope: string;
  /** The accepted alternative granted for the access: the one with the fewest scopes that holds `scope`. */
  requirements: SchemeRequirement[];
  /** Why the access needs it, in the site's default language (the publisher's words). */
  reason: string;
}

/** One scheme of one resource that a permission set asks the person to allow. */
export interface PermissionGrant {
  /** The RAM `Resource.id` whose spec defines the scheme. */
  resource: string;
  /** The scheme's name in the spec. */
  scheme: string;
  /** The scheme's type. */
  type: SchemeType;
  /** The scopes, sorted and unique; absent for a scheme without scopes. */
  scopes?: string[];
}

/**
 * A permission set (the RAM proposal’s "permission sets … derived from the RAM"): the union of the
 * least-privilege grants of the accesses that act as the person (`identityUsed: END_USER`: what the
 * person is asked to allow; an access as the agent itself uses the agent's own credentials), by necessity. A scope sits at the strongest necessity of the
 * accesses that need it (REQUIRED before RECOMMENDED before OPTIONAL), and only there; a scope the other
 * grants of its necessity and the stronger ones make redundant (each access of that necessity still has an
 * accepted alternative they satisfy) is left out. Empty levels are left out (DESIGN.md §3: nothing empty in
 * a card).
 */
export interface PermissionSet {
  required?: PermissionGrant[];
  recommended?: PermissionGrant[];
  optional?: PermissionGrant[];
}

/** The stored spec one resource was resolved against. */
export interface SpecSource {
  /** The RAM `Resource.id`. */
  resource: string;
  format: SpecFormat;
  /** The spec's own URL (`spec.specUrl`), when it has one. */
  specUrl?: string;
  /** `sha256:<hex>` of the stored copy's bytes. */
  digest: string;
}

/**
 * The permission file of one agent (`/agents/<slug>/permissions.json`): what each access needs, and the
 * permission sets of the agent and of each skill.
 */
export interface AgentPermissions {
  /** The agent's ARD identifier (`urn:air:…`). */
  agent: string;
  /** The specs the accesses were resolved against. */
  specs: SpecSource[];
  /** Each access whose resource has a stored spec, in RAM order. */
  accesses: AccessPermission[];
  /** The agent's permission set (every access). */
  permissionSet?: PermissionSet;
  /** skill id → the permission set of the accesses mapped to that skill (when the author mapped them). */
  skillPermissionSets?: Record<string, PermissionSet>;
}

/**
 * The `permissions` member of the card's RAM extension params: the permission sets, and the permission
 * file pinned by its digest (the card's signature and the entry's digest cover it).
 */
export interface CardPermissions {
  /** The agent's permission set. */
  permissionSet?: PermissionSet;
  /** skill id → permission set. */
  skillPermissionSets?: Record<string, PermissionSet>;
  /** Absolute URL of the agent's permission file. */
  file: string;
  /** `sha256:<hex>` of the permission file's bytes as served. */
  digest: string;
}
