/**
 * The A2A AgentCard of one agent (DESIGN.md §3): an A2A v1.0 card, made hybrid with the v0.3 fields of
 * the A2A v0.3 AgentCard reference when the agent declares a `0.3` interface, carrying the agent's RAM twice (top-level
 * `resourceAccessManifest`, the RAM proposal's field, and a data-only extension that the A2A card
 * signature covers) and an extension naming its own ARD entry (ARD draft §4.3.1).
 */
import { utf8Bytes, withoutUndefined, type JsonObject, type JsonValue } from '../util/json.js';
import type { AgentModel, ContentModel } from '../model/content.js';
import { ArdsiteError } from '../util/errors.js';
import { hybridSecuritySchemes, v03SecurityRequirement } from './card-v03.js';
import type { AgentInterfaceInput } from '../schema/agent.js';
import type { CardPermissions } from '../model/permissions.js';
import type { Ram } from '../schema/ram.js';
import { readOnlyOperationIds } from '../ram/ram-effects.js';

/** URI of the data-only extension that names the card's ARD entry (ARD draft §4.3.1; docs/extensions.md). */
export const ENTRY_EXTENSION_URI = 'urn:ardsite:ext:ard-entry:v1';

/** The v0.3 `protocolVersion` a hybrid card declares (the A2A v0.3 AgentCard reference). */
export const V03_PROTOCOL_VERSION = '0.3.0';

export type { JsonObject, JsonValue } from '../util/json.js';

/**
 * An `AgentExtension` (A2A v1.0 `capabilities.extensions[]`). `required` is written only when `true`:
 * `false` is its default, which A2A v1.0 §8.4.1 says to omit.
 */
export interface AgentExtension {
  uri: string;
  description: string;
  required?: true;
  params: JsonObject;
}

/** `true`, or `undefined` for `false` and absent: a proto3 bool at its default is omitted (A2A v1.0 §8.4.1). */
const trueOnly = (value: boolean | undefined): true | undefined => (value === true ? true : undefined);

/**
 * The params of the RAM extension: the RAM, plus the skill → access map when the author gave one, plus
 * the permission sets derived from the specs and the digest of the permission file (DESIGN.md §9;
 * src/core/model/permissions.ts), each beside the RAM, never inside it.
 */
export type RamExtensionParams = Ram & {
  skillAccesses?: Record<string, string[]>;
  permissions?: CardPermissions;
} & PageFacts;

/**
 * What the permission page says beyond the RAM (DESIGN.md §6), signed beside it in the RAM extension
 * params so that the page shows only what the publisher signed: the operations of the agent's
 * RAM that only read (the author's `readOnly: true` unless its method or stored spec says it writes:
 * src/core/ram/ram-effects.ts `readOnlyOperationIds`; sorted ids), and, by resource id, where the visitor manages or
 * revokes the access to one of their own (`CONSUMER`) resources. Each is absent when empty.
 */
export interface PageFacts {
  readOnlyOperations?: string[];
  manageAccessUrls?: Record<string, string>;
}

/** The {@link PageFacts} of `agent` from the catalog's authoring data in `model`. Pure. */
export function pageFacts(
  agent: AgentModel,
  model: Pick<ContentModel, 'operations' | 'resources' | 'permissions'>,
): PageFacts {
  const facts: PageFacts = {};
  const readOnly = readOnlyOperationIds(agent.ram.operations, model.operations, model.permissions).sort();
  if (readOnly.length > 0) facts.readOnlyOperations = readOnly;
  const manage: Record<string, string> = {};
  for (const r of agent.ram.resources) {
    const url = model.resources.get(r.id)?.manageAccessUrl;
    if (r.owner === 'CONSUMER' && url) manage[r.id] = url;
  }
  if (Object.keys(manage).length > 0) facts.manageAccessUrls = manage;
  return facts;
}

/** Inputs to {@link buildAgentCard} that come from the build, not from the agent file. */
export interface CardContext {
  /** The site's `did:web:<domain>`. */
  did: string;
  /** The agent's permission sets and permission file digest, when its accesses have stored specs. */
  permissions?: CardPermissions;
  /**
   * The agent's changes document (src/core/releases/agent-changes.ts), when it has a release history:
   * its absolute URL and `sha256:<hex>` digest, pinned in the card by {@link CHANGES_EXTENSION_URI}.
   */
  changes?: { url: string; digest: string };
}

/**
 * URI of the data-only extension that pins the agent's changes document by digest (docs/releases.md):
 * `params: {url, digest, mediaType}`. Inside the card, it is covered by the card's A2A signature and by
 * the ARD entry's signed digest.
 */
export const CHANGES_EXTENSION_URI = 'urn:ardsite:ext:ram-changes:v1';

/** Drops `undefined` members (shallow), keeping the order of the others. */
const defined = (value: Record<string, unknown>): JsonObject => withoutUndefined(value) as JsonObject;

/**
 * Throws when `value` holds an empty string, array or object anywhere (DESIGN.md §3: A2A requires
 * non-empty arrays, and the SDKs' canonicalisation drops empty values, so signer and verifier would
 * disagree). The loader's schemas already refuse empty input; this guards the builder itself.
 * @throws ArdsiteError `SCHEMA_EMPTY` naming the JSON path.
 */
export function assertNoEmptyValues(value: unknown, where: string, path = '$'): void {
  const empty = firstEmpty(value);
  if (empty) throw new ArdsiteError('SCHEMA_EMPTY', `${where}: ${path}${empty.suffix} is ${empty.what}`);
}

/**
 * The first empty value in `value` (depth first, in key order): its path below `value` (`.key`, `[i]`)
 * and what it is. The path is built only for the value found, not for each one walked (a card has about
 * 500 values, and none is ever empty).
 */
function firstEmpty(value: unknown): { suffix: string; what: string } | undefined {
  if (value === '' || value === undefined || value === null) return { suffix: '', what: 'empty' };
  if (Array.isArray(value)) {
    if (value.length === 0) return { suffix: '', what: 'an empty list' };
    for (let i = 0; i < value.length; i++) {
      const found = firstEmpty(value[i]);
      if (found) return { suffix: `[${i}]${found.suffix}`, what: found.what };
    }
  } else if (typeof value === 'object') {
    const keys = Object.keys(value);
    if (keys.length === 0) return { suffix: '', what: 'an empty object' };
    for (const k of keys) {
      const found = firstEmpty((value as Record<string, unknown>)[k]);
      if (found) return { suffix: `.${k}${found.suffix}`, what: found.what };
    }
  }
  return undefined;
}

/** `supportedInterfaces[]` entry (A2A v1.0 `AgentInterface`). */
function v1Interface(i: AgentInterfaceInput): JsonObject {
  return defined({
    url: i.url,
    protocolBinding: i.protocolBinding,
    protocolVersion: i.protocolVersion,
    tenant: i.tenant,
  });
}

/** What {@link ramExtensionParams} puts beside the RAM in the extension params (never inside it). */
export const RAM_EXTENSION_EXTRAS = [
  'skillAccesses',
  'permissions',
  'readOnlyOperations',
  'manageAccessUrls',
] as const;

/**
 * The RAM in RAM extension params: `params` without {@link RAM_EXTENSION_EXTRAS}, the copy the top-level
 * `resourceAccessManifest` must equal (the RAM proposal's extension form; DESIGN.md §3).
 *
 * @param params the extension's `params` object.
 * @returns a shallow copy without those members. Never throws.
 */
export function ramOfExtensionParams(params: Record<string, unknown>): Record<string, unknown> {
  const ram = { ...params };
  for (const extra of RAM_EXTENSION_EXTRAS) delete ram[extra];
  return ram;
}

/**
 * The RAM extension params: the RAM, then `skillAccesses`, `permissions` and the page facts
 * ({@link pageFacts}: `readOnlyOperations`, `manageAccessUrls`) beside it (never inside the RAM).
 */
export function ramExtensionParams(
  agent: AgentModel,
  model: Pick<ContentModel, 'operations' | 'resources'>,
  permissions?: CardPermissions,
): RamExtensionParams {
  const params: RamExtensionParams = { ...agent.ram };
  if (agent.skillAccesses && Object.keys(agent.skillAccesses).length > 0)
    params.skillAccesses = agent.skillAccesses;
  if (permissions) params.permissions = permissions;
  return { ...params, ...pageFacts(agent, model) };
}

/**
 * Builds the unsigned card of `agent` (DESIGN.md §3), field order fixed so the serialisation is stable:
 * the v1.0 fields, then the v0.3 fields when the agent has a `0.3` interface (in the v0.3 JSON forms;
 * its security schemes then also carry their v0.3 members, ./card-v03.ts), then the top-level RAM.
 * Members equal to their default (`false` bools) are omitted (A2A v1.0 §8.4.1).
 * An agent without any access carries no RAM (an empty RAM would be empty lists).
 * @throws ArdsiteError `SCHEMA_EMPTY` if an empty value would be emitted; `CARD_V03_UNREPRESENTABLE`.
 */
export function buildAgentCard(agent: AgentModel, model: ContentModel, context: CardContext): JsonObject {
  const { front } = agent;
  const { publisher } = model;
  const hasRam = agent.ram.resourceAccesses.length > 0;

  const extensions: AgentExtension[] = [];
  if (hasRam) {
    extensions.push({
      uri: publisher.ram.extensionUri,
      description:
        'Resource Access Manifest (RAM): the outside resources this agent accesses for its users, which operations, as whom, why and whether it asks first.',
      params: ramExtensionParams(agent, model, context.permissions) as unknown as JsonObject,
    });
  }
  // Text ardsite writes into a card is ASCII: a verifier that canonicalises with `\u` escapes for
  // non-ASCII (RFC 8785 §3.2.2.2 says not to, yet some do) still gets the signed bytes of an ASCII card.
  extensions.push({
    uri: ENTRY_EXTENSION_URI,
    description: 'The ARD entry this card belongs to and its publisher (ARD draft section 4.3.1).',
    params: { identifier: agent.identifier, publisher: context.did },
  });
  if (context.changes) {
    extensions.push({
      uri: CHANGES_EXTENSION_URI,
      description:
        "What changed in this agent's Resource Access Manifest since its previous versions, pinned by digest.",
      params: { url: context.changes.url, digest: context.changes.digest, mediaType: 'application/json' },
    });
  }

  const capabilities = defined({
    streaming: trueOnly(front.capabilities?.streaming),
    pushNotifications: trueOnly(front.capabilities?.pushNotifications),
    extendedAgentCard: trueOnly(front.capabilities?.extendedAgentCard),
    extensions: extensions as unknown as JsonValue,
  });

  const skills = front.skills.map((s) =>
    defined({
      id: s.id,
      name: s.name,
      description: s.description,
      tags: s.tags,
      examples: s.examples,
      inputModes: s.inputModes,
      outputModes: s.outputModes,
      securityRequirements: s.securityRequirements as JsonValue | undefined,
    }),
  );

  const card = defined({
    name: front.name,
    description: front.description,
    supportedInterfaces: front.interfaces.map(v1Interface),
    provider: front.provider ?? { url: publisher.organizationUrl, organization: publisher.organization },
    version: front.version,
    documentationUrl: front.documentationUrl ?? `${publisher.siteUrl}agents/${agent.slug}/`,
    capabilities,
    securitySchemes: front.securitySchemes as JsonValue | undefined,
    securityRequirements: front.securityRequirements as JsonValue | undefined,
    defaultInputModes: front.defaultInputModes,
    defaultOutputModes: front.defaultOutputModes,
    skills,
    iconUrl: front.iconUrl,
  });

  const legacy = front.interfaces.filter((i) => i.protocolVersion === '0.3');
  const primary = legacy[0];
  if (primary) {
    // v0.3 clients (the A2A v0.3 AgentCard reference; the official A2A v0.3.0 JSON Schema) read these, in the v0.3 JSON forms
    // (DESIGN.md §9 "Hybrid cards amended"); v1.0 renamed the JSON-RPC methods, so they are sent to the
    // 0.3 endpoint only.
    const where = `agent card of ${agent.file}`;
    card.protocolVersion = V03_PROTOCOL_VERSION;
    card.url = primary.url;
    card.preferredTransport = primary.protocolBinding;
    card.additionalInterfaces = legacy.map((i) =>
      defined({ url: i.url, transport: i.protocolBinding, tenant: i.tenant }),
    );
    if (front.capabilities?.extendedAgentCard === true) card.supportsAuthenticatedExtendedCard = true;
    if (front.securitySchemes) card.securitySchemes = hybridSecuritySchemes(front.securitySchemes, where);
    if (front.securityRequirements) card.security = front.securityRequirements.map(v03SecurityRequirement);
    card.skills = skills.map((s, i) => {
      const reqs = front.skills[i]?.securityRequirements;
      return reqs ? { ...s, security: reqs.map(v03SecurityRequirement) } : s;
    }) as JsonValue;
  }

  if (hasRam && publisher.ram.topLevel && front.ram?.topLevel !== false) {
    card.resourceAccessManifest = agent.ram as unknown as JsonObject;
  }
  assertNoEmptyValues(card, `agent card of ${agent.file}`);
  return card;
}

/**
 * Serialises a card (or any emitted JSON document) the one way ardsite writes JSON files: the object's
 * own key order, 2-space indent, a trailing newline, UTF-8 (DESIGN.md §4 step 3). These are the bytes
 * every path that serves the document gets, and the bytes the digest covers.
 */
export function serializeJsonDocument(value: unknown): Uint8Array {
  return utf8Bytes(`${JSON.stringify(value, null, 2)}\n`);
}
