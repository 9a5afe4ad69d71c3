/**
 * Zod 4 schemas of the Resource Access Manifest (RAM), the proto of the RAM proposal (seed 000,
 * `package a2a.v1`) in its proto3 JSON mapping: camelCase field names, enums as their names.
 *
 * Authoring-only fields (never emitted in a card): `manageAccessUrl`, `specFile` and `specDigest` on a
 * Resource, `readOnly` on an Operation, `skills` on a ResourceAccess. The loader strips them when it builds the emitted RAM.
 *
 * The `*_UNSPECIFIED` enum values parse here (they are valid proto names) and are refused by the RAM
 * integrity check with its own code (`RAM_UNSPECIFIED_ENUM`), so the author gets the precise reason.
 */
import { z } from 'zod';
import { httpsUrl, nonEmptyString } from './common.js';

/** `InteractionProtocol` (seed 000): the technical protocol used to reach a Resource. */
export const InteractionProtocol = z.enum(['INTERACTION_PROTOCOL_UNSPECIFIED', 'REST', 'A2A', 'MCP']);
/** `ResourceOwner` (seed 000): CONSUMER is the user's own (2P), THIRD_PARTY an outside service (3P). */
export const ResourceOwner = z.enum(['RESOURCE_OWNER_UNSPECIFIED', 'CONSUMER', 'THIRD_PARTY']);
/** `IdentityType` (seed 000): whose credentials an access runs under. */
export const IdentityType = z.enum(['IDENTITY_TYPE_UNSPECIFIED', 'END_USER', 'AGENT']);
/** `AccessNecessity` (seed 000): how much the agent needs an access. */
export const AccessNecessity = z.enum([
  'ACCESS_NECESSITY_UNSPECIFIED',
  'REQUIRED',
  'RECOMMENDED',
  'OPTIONAL',
]);

/** HTTP methods accepted in `ApiOperationSpec.httpMethod` (RFC 9110 §9, upper case). */
export const HttpMethod = z.enum(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** `ResourceSpec` (seed 000): where the machine-readable contract of a Resource lives. */
export const ResourceSpec = z.strictObject({
  specUrl: httpsUrl.optional(),
  resourcePath: nonEmptyString.optional(),
});

/** `sha256:` and 64 lowercase hex digits: the digest of a stored spec's bytes. */
export const sha256DigestString = z
  .string()
  .regex(/^sha256:[0-9a-f]{64}$/, 'must be "sha256:" and 64 lowercase hex digits');

/**
 * `Resource` (seed 000) plus the authoring-only `manageAccessUrl` (DESIGN.md §6) and the stored copy of
 * its spec, `specFile` and `specDigest` (DESIGN.md §9, written by `npm run specs`).
 */
export const Resource = z.strictObject({
  id: nonEmptyString,
  interactionProtocol: InteractionProtocol,
  owner: ResourceOwner,
  displayName: nonEmptyString,
  description: nonEmptyString,
  developerDocumentationUrl: httpsUrl.optional(),
  spec: ResourceSpec.optional(),
  manageAccessUrl: httpsUrl.optional(),
  specFile: nonEmptyString
    .optional()
    .describe(
      "Project-relative path of the stored copy of this resource's spec (an OpenAPI 3.x document, a Google Discovery document, or an MCP tools/list result). Written by npm run specs, or by hand for a spec kept as a local file; builds read only this copy.",
    ),
  specDigest: sha256DigestString
    .optional()
    .describe(
      'sha256 digest of the stored spec file, "sha256:<hex>". Written by npm run specs; a build refuses a stored copy whose bytes no longer match it.',
    ),
});

/** `ApiOperationSpec` (seed 000): how to find a REST operation in its spec. */
export const ApiOperationSpec = z.strictObject({
  specUrl: httpsUrl.optional(),
  operationId: nonEmptyString.optional(),
  httpMethod: HttpMethod.optional(),
});

/** `Operation` (seed 000) plus the authoring-only `readOnly` flag (DESIGN.md §6). */
export const Operation = z.strictObject({
  id: nonEmptyString,
  resource: nonEmptyString,
  description: nonEmptyString,
  developerDocumentationUrl: z.array(httpsUrl).min(1).optional(),
  apiOperationSpec: ApiOperationSpec.optional(),
  readOnly: z.boolean().optional(),
});

/** `ResourceAccess` (seed 000) plus the authoring-only `skills` list (DESIGN.md §1). */
export const ResourceAccess = z.strictObject({
  id: nonEmptyString,
  operation: nonEmptyString,
  identityUsed: IdentityType,
  confirmationRequired: z.boolean().optional(),
  accessJustification: nonEmptyString,
  necessity: AccessNecessity,
  skills: z.array(nonEmptyString).min(1).optional(),
});

/** `ResourceAccessManifest` (seed 000) as authored in a RAM JSON file (`ramFile:`). */
export const ResourceAccessManifest = z.strictObject({
  resources: z.array(Resource).optional(),
  operations: z.array(Operation).optional(),
  resourceAccesses: z.array(ResourceAccess).optional(),
});

/** A `content/resources/<id>.yaml` file, or an inline resource of an agent: a Resource and its operations. */
export const ResourceFile = Resource.extend({
  operations: z
    .array(Operation.omit({ resource: true }).extend({ resource: nonEmptyString.optional() }))
    .optional(),
});

/** A validated Resource as authored (with `manageAccessUrl`). */
export type ResourceInput = z.infer<typeof Resource>;
/** A validated Operation as authored (with `readOnly`). */
export type OperationInput = z.infer<typeof Operation>;
/** A validated ResourceAccess as authored (with `skills`). */
export type ResourceAccessInput = z.infer<typeof ResourceAccess>;

/** An emitted RAM Resource: the proto fields only (seed 000), camelCase JSON. */
export interface RamResource {
  id: string;
  interactionProtocol: z.infer<typeof InteractionProtocol>;
  owner: z.infer<typeof ResourceOwner>;
  displayName: string;
  description: string;
  developerDocumentationUrl?: string;
  spec?: { specUrl?: string; resourcePath?: string };
}

/** An emitted RAM Operation: the proto fields only (seed 000). */
export interface RamOperation {
  id: string;
  resource: string;
  description: string;
  developerDocumentationUrl?: string[];
  apiOperationSpec?: { specUrl?: string; operationId?: string; httpMethod?: string };
}

/** An emitted RAM ResourceAccess: the proto fields only (seed 000). */
export interface RamResourceAccess {
  id: string;
  operation: string;
  identityUsed: z.infer<typeof IdentityType>;
  confirmationRequired: boolean;
  accessJustification: string;
  necessity: z.infer<typeof AccessNecessity>;
}

/** The emitted `ResourceAccessManifest` of one agent (seed 000; DESIGN.md §3). */
export interface Ram {
  resources: RamResource[];
  operations: RamOperation[];
  resourceAccesses: RamResourceAccess[];
}
