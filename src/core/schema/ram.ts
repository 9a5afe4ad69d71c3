/**
 * Zod 4 schemas of the Resource Access Manifest (RAM), the proto of the RAM proposal (
 * `package a2a.v1`) in its proto3 JSON mapping: camelCase field names, enums as their names.
 *
 * Authoring-only fields (never emitted in a card): `manageAccessUrl`, `specFile` and `specDigest` on a
 * Resource, `readOnly` on an Operation, `skills` and `neededScope` on a ResourceAccess. The loader strips them when it builds the emitted RAM.
 *
 * The `*_UNSPECIFIED` enum values parse here (they are valid proto names) and are refused by the RAM
 * integrity check with its own code (`RAM_UNSPECIFIED_ENUM`), so the author gets the precise reason.
 */
import { z } from 'zod';
import { httpsUrl, nonEmptyString, PER_LANGUAGE } from './common.js';
import { relativePathProblem } from '../project/contained-write.js';

/** Where stored specs live, project-relative (DESIGN.md §9). */
export const STORED_SPECS_DIR = 'content/specs';

/**
 * A stored spec's path: under `content/specs/`, with no `.` or `..` segment (DESIGN.md §10: content does
 * not choose where `npm run specs` writes, nor make a build read the key file as a spec); code
 * `FILE_NOT_IN_SPECS_FOLDER`.
 */
export const storedSpecFile = nonEmptyString.superRefine((value, ctx) => {
  const problem = storedSpecFileProblem(value);
  if (problem)
    ctx.addIssue({ code: 'custom', message: problem, params: { code: 'FILE_NOT_IN_SPECS_FOLDER' } });
});

/** Why `specFile` cannot be a stored spec's path ({@link storedSpecFile}), or undefined. */
export function storedSpecFileProblem(specFile: string): string | undefined {
  const inside = specFile.startsWith(`${STORED_SPECS_DIR}/`)
    ? relativePathProblem(specFile)
    : `it is not under ${STORED_SPECS_DIR}/`;
  return inside === undefined
    ? undefined
    : `specFile "${specFile}" must name a file under ${STORED_SPECS_DIR}/ (${inside}): stored specs are read and written there only`;
}

/** `InteractionProtocol` (the RAM proposal): the technical protocol used to reach a Resource. */
export const InteractionProtocol = z.enum(['INTERACTION_PROTOCOL_UNSPECIFIED', 'REST', 'A2A', 'MCP']);
/** `ResourceOwner` (the RAM proposal): CONSUMER is the user's own (2P), THIRD_PARTY an outside service (3P). */
export const ResourceOwner = z.enum(['RESOURCE_OWNER_UNSPECIFIED', 'CONSUMER', 'THIRD_PARTY']);
/** `IdentityType` (the RAM proposal): whose credentials an access runs under. */
export const IdentityType = z.enum(['IDENTITY_TYPE_UNSPECIFIED', 'END_USER', 'AGENT']);
/** `AccessNecessity` (the RAM proposal): how much the agent needs an access. */
export const AccessNecessity = z.enum([
  'ACCESS_NECESSITY_UNSPECIFIED',
  'REQUIRED',
  'RECOMMENDED',
  'OPTIONAL',
]);

/** HTTP methods accepted in `ApiOperationSpec.httpMethod` (RFC 9110 §9, upper case). */
export const HttpMethod = z.enum(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** `ResourceSpec` (the RAM proposal): where the machine-readable contract of a Resource lives. */
export const ResourceSpec = z
  .strictObject({
    specUrl: httpsUrl.optional().meta({
      description:
        'The machine-readable contract: an OpenAPI or Discovery document, an MCP server card, an AgentCard.',
      examples: ['https://www.googleapis.com/discovery/v1/apis/calendar/v3/rest'],
    }),
    resourcePath: nonEmptyString.optional().meta({
      description:
        'The resource inside that contract: a REST path template, or an MCP tool’s exact name (one tool per MCP resource, whose operation is its call).',
      examples: ['events'],
    }),
  })
  .meta({ spec: 'RAM proposal ResourceSpec' });

/** `sha256:` and 64 lowercase hex digits: the digest of a stored spec's bytes. */
export const sha256DigestString = z
  .string()
  .regex(/^sha256:[0-9a-f]{64}$/, 'must be "sha256:" and 64 lowercase hex digits');

/**
 * `Resource` (the RAM proposal) plus the authoring-only `manageAccessUrl` (DESIGN.md §6) and the stored copy of
 * its spec, `specFile` and `specDigest` (DESIGN.md §9, written by `npm run specs`).
 */
export const Resource = z
  .strictObject({
    id: nonEmptyString.meta({
      description: 'The resource id, unique in the site; operations name it in `resource`.',
      examples: ['google-calendar-events-v3'],
    }),
    interactionProtocol: InteractionProtocol.meta({
      description:
        'How the agent reaches it: REST (an HTTP API), MCP (an MCP server’s tools) or A2A (another agent).',
    }),
    owner: ResourceOwner.meta({
      description:
        'CONSUMER: the user’s own account (2P, needs the user’s authorization); THIRD_PARTY: an outside service (3P).',
    }),
    displayName: nonEmptyString.meta({
      ...PER_LANGUAGE,
      description: 'The resource’s name, shown to people.',
      examples: ['Google Calendar'],
    }),
    description: nonEmptyString.meta({
      ...PER_LANGUAGE,
      description: 'What the resource is, in a sentence.',
      examples: ['Your Google Calendar events.'],
    }),
    developerDocumentationUrl: httpsUrl.optional().meta({
      description: 'The resource’s documentation for developers.',
      examples: ['https://developers.google.com/calendar/api/v3/reference/events'],
    }),
    spec: ResourceSpec.optional().meta({
      description: 'Where the resource’s machine-readable contract lives.',
    }),
    manageAccessUrl: httpsUrl.optional().meta({
      description:
        'Where a user reviews or withdraws access (a CONSUMER resource); shown on permission pages and signed in the card beside the RAM (RAM extension params `manageAccessUrls`), never inside the RAM object.',
      examples: ['https://myaccount.google.com/connections'],
      spec: 'DESIGN.md §6',
    }),
    specFile: storedSpecFile.optional().meta({
      description:
        "Project-relative path of the stored copy of this resource's spec (an OpenAPI 3.x document, a Google Discovery document, or an MCP tools/list result), under content/specs/. Written by npm run specs, or by hand for a spec kept as a local file; builds read only this copy.",
      examples: ['content/specs/google-calendar-events-v3.json'],
      spec: 'DESIGN.md §9',
    }),
    specDigest: sha256DigestString.optional().meta({
      description:
        'sha256 digest of the stored spec file, "sha256:<hex>". Written by npm run specs; a build refuses a stored copy whose bytes no longer match it.',
      examples: ['sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'],
      spec: 'DESIGN.md §9',
    }),
  })
  .meta({ spec: 'RAM proposal Resource' });

/** `ApiOperationSpec` (the RAM proposal): how to find a REST operation in its spec. */
export const ApiOperationSpec = z
  .strictObject({
    specUrl: httpsUrl.optional().meta({
      description: 'The API description holding the operation, when not the resource’s.',
      examples: ['https://api.example.com/openapi.json'],
    }),
    operationId: nonEmptyString.optional().meta({
      description:
        'The operation’s id in that description (OpenAPI operationId, Discovery method id). On an MCP operation it may only repeat the resource’s `spec.resourcePath` (`RAM_MCP_TOOL_MISMATCH`).',
      examples: ['calendar.events.list'],
    }),
    httpMethod: HttpMethod.optional().meta({ description: 'The HTTP method of a REST operation.' }),
  })
  .meta({ spec: 'RAM proposal ApiOperationSpec' });

/** `Operation` (the RAM proposal) plus the authoring-only `readOnly` flag (DESIGN.md §6). */
export const Operation = z
  .strictObject({
    id: nonEmptyString.meta({
      description: 'The operation id, unique in the site; accesses name it in `operation`.',
      examples: ['calendar-events-list'],
    }),
    resource: nonEmptyString.meta({
      description: 'The id of the resource the operation acts on.',
      examples: ['google-calendar-events-v3'],
    }),
    description: nonEmptyString.meta({
      ...PER_LANGUAGE,
      description: 'What the operation does, in words a user understands.',
      examples: ['Lists the events of your calendar'],
    }),
    developerDocumentationUrl: z
      .array(httpsUrl)
      .min(1)
      .optional()
      .meta({
        description: 'The operation’s documentation for developers.',
        examples: [['https://developers.google.com/calendar/api/v3/reference/events/list']],
      }),
    apiOperationSpec: ApiOperationSpec.optional().meta({
      description: 'Where to find the operation in a machine-readable API description.',
    }),
    readOnly: z.boolean().optional().meta({
      description:
        'true when the operation changes nothing: the permission pages then say "only reads" of an MCP or A2A operation (those of a REST operation follow its `httpMethod`); signed in the card beside the RAM (RAM extension params `readOnlyOperations`), never inside the RAM object. Beside an `httpMethod` of POST, PUT, PATCH or DELETE it is a warning (`RAM_READ_ONLY_WRITE_METHOD`), and against a stored spec that says the operation may change data (an MCP tool without `annotations.readOnlyHint: true`) the warning `SPEC_READ_WRITE_MISMATCH`; either way the method or the spec wins: the operation is neither signed nor shown as one that only reads.',
      spec: 'DESIGN.md §6',
    }),
  })
  .meta({ spec: 'RAM proposal Operation' });

/**
 * The scope an access needs and why (authoring only, docs/permissions.md "Needed scopes"): what the publisher
 * says the access needs where the narrowest scope the spec lists for its operation would not do (RFC 6749
 * §3.3 scope; the RAM proposal leaves permission sets to tooling).
 */
export const NeededScope = z
  .strictObject({
    scope: nonEmptyString.meta({
      description: 'The scope, exactly as the stored spec names it; one the spec accepts for the operation.',
      examples: ['https://www.googleapis.com/auth/gmail.readonly'],
    }),
    reason: nonEmptyString.meta({
      ...PER_LANGUAGE,
      description:
        'What data the access needs that a narrower scope leaves out, and why, addressed to the user.',
      examples: ['The fare is in the body of the receipt email, which the metadata scope leaves out.'],
    }),
  })
  .meta({ spec: 'docs/permissions.md "Needed scopes"' });

/** `ResourceAccess` (the RAM proposal) plus the authoring-only `skills` list (DESIGN.md §1) and `neededScope`. */
export const ResourceAccess = z
  .strictObject({
    id: nonEmptyString.meta({
      description: 'The access id, unique in the agent.',
      examples: ['read-calendar'],
    }),
    operation: nonEmptyString.meta({
      description: 'The id of the operation the agent may perform.',
      examples: ['calendar-events-list'],
    }),
    identityUsed: IdentityType.meta({
      description: 'END_USER: the operation runs with the user’s credentials; AGENT: with the agent’s own.',
    }),
    confirmationRequired: z.boolean().optional().meta({
      description: 'true when the agent asks the user before each use (default false).',
    }),
    accessJustification: nonEmptyString.meta({
      ...PER_LANGUAGE,
      description: 'Why the agent needs the access, addressed to the user.',
      examples: ['To find the free days for your trip.'],
    }),
    necessity: AccessNecessity.meta({
      description:
        'REQUIRED: the agent cannot work without it; RECOMMENDED: it works worse; OPTIONAL: one feature needs it.',
    }),
    neededScope: NeededScope.optional().meta({
      description:
        'The permission (OAuth scope) the access really needs, with the reason, when it is broader than the narrowest scope the stored spec lists for the operation (Gmail `users.messages.get` accepts `gmail.metadata`, which leaves out the message body; an agent that reads the body names `gmail.readonly`). It must be one the spec accepts for the operation. The permission page then shows it with the reason, and a card asking for it is not "broader than needed"; published in the permission file, never in the RAM object.',
      spec: 'docs/permissions.md "Needed scopes"',
    }),
    skills: z
      .array(nonEmptyString)
      .min(1)
      .optional()
      .meta({
        description:
          'The ids of the skills that use the access (permission pages group by skill); never in a card.',
        examples: [['plan-trip']],
        spec: 'DESIGN.md §1',
      }),
  })
  .meta({ spec: 'RAM proposal ResourceAccess' });

/** `ResourceAccessManifest` (the RAM proposal) as authored in a RAM JSON file (`ramFile:`). */
export const ResourceAccessManifest = z
  .strictObject({
    resources: z.array(Resource).optional().meta({ description: 'The resources the agent uses.' }),
    operations: z.array(Operation).optional().meta({ description: 'The operations on those resources.' }),
    resourceAccesses: z
      .array(ResourceAccess)
      .optional()
      .meta({ description: 'What the agent may do with each operation.' }),
  })
  .meta({ spec: 'RAM proposal ResourceAccessManifest' });

/** A `content/resources/<id>.yaml` file, or an inline resource of an agent: a Resource and its operations. */
export const ResourceFile = Resource.extend({
  operations: z
    .array(
      Operation.omit({ resource: true }).extend({
        resource: nonEmptyString.optional().meta({
          description: 'The resource the operation acts on; default: the resource of this file.',
          examples: ['google-calendar-events-v3'],
        }),
      }),
    )
    .optional()
    .meta({ description: 'The operations of the resource.', spec: 'RAM proposal Operation' }),
}).meta({ spec: 'RAM proposal Resource' });

/** A validated Resource as authored (with `manageAccessUrl`). */
export type ResourceInput = z.infer<typeof Resource>;
/** A validated Operation as authored (with `readOnly`). */
export type OperationInput = z.infer<typeof Operation>;
/** A validated ResourceAccess as authored (with `skills`). */
export type ResourceAccessInput = z.infer<typeof ResourceAccess>;

/** An emitted RAM Resource: the proto fields only (the RAM proposal), camelCase JSON. */
export interface RamResource {
  id: string;
  interactionProtocol: z.infer<typeof InteractionProtocol>;
  owner: z.infer<typeof ResourceOwner>;
  displayName: string;
  description: string;
  developerDocumentationUrl?: string;
  spec?: { specUrl?: string; resourcePath?: string };
}

/** An emitted RAM Operation: the proto fields only (the RAM proposal). */
export interface RamOperation {
  id: string;
  resource: string;
  description: string;
  developerDocumentationUrl?: string[];
  apiOperationSpec?: { specUrl?: string; operationId?: string; httpMethod?: string };
}

/** An emitted RAM ResourceAccess: the proto fields only (the RAM proposal). */
export interface RamResourceAccess {
  id: string;
  operation: string;
  identityUsed: z.infer<typeof IdentityType>;
  confirmationRequired: boolean;
  accessJustification: string;
  necessity: z.infer<typeof AccessNecessity>;
}

/** The emitted `ResourceAccessManifest` of one agent (the RAM proposal; DESIGN.md §3). */
export interface Ram {
  resources: RamResource[];
  operations: RamOperation[];
  resourceAccesses: RamResourceAccess[];
}
