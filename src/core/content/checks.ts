/**
 * The checks on loaded content that a schema cannot express (DESIGN.md §5, the rules of §1 and the RAM
 * integrity rules of §4): references, ids unique within their kind, enum values, URL rules of
 * interfaces, and the warnings marked W in DESIGN.md §5; the other entries' checks are ./other-entry-checks.ts.
 */
import { primaryAgentOf, servesV03 } from '../a2a/legacy-card.js';
import type { Diagnostic } from '../util/errors.js';
import { Reporter } from './check-reporter.js';
import { checkEntries } from './other-entry-checks.js';
import { checkWordTables } from '../i18n/words/index.js';
import { checkLanguages } from './language-checks.js';
import { checkShownNames } from './name-checks.js';
import { httpsUrlProblem } from '../schema/common.js';
import { isLoopbackHost } from '../util/net-address.js';
import { writeMethodMarkedReadOnly } from '../ram/ram-effects.js';
import { parseAirUrn } from '../ard/urn.js';
import type { AgentModel, ContentModel } from '../model/content.js';

/** HTTP methods that may change data (RFC 9110 §9.2.1: not safe). */
export const WRITE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The representative queries an agent's entry carries: the author's, else its skills' examples (max 5). */
export function representativeQueries(agent: AgentModel): string[] {
  const authored = agent.front.discovery?.representativeQueries;
  if (authored && authored.length > 0) return authored;
  return agent.front.skills.flatMap((s) => s.examples ?? []).slice(0, 5);
}

function checkCatalog(model: ContentModel, r: Reporter): void {
  for (const { resource, origin } of model.resources.values()) {
    if (resource.interactionProtocol === 'INTERACTION_PROTOCOL_UNSPECIFIED') {
      r.add(
        origin.source,
        [...origin.path, 'interactionProtocol'],
        'RAM_UNSPECIFIED_ENUM',
        'interactionProtocol must be REST, A2A or MCP, not INTERACTION_PROTOCOL_UNSPECIFIED',
      );
    }
    if (resource.owner === 'RESOURCE_OWNER_UNSPECIFIED') {
      r.add(
        origin.source,
        [...origin.path, 'owner'],
        'RAM_UNSPECIFIED_ENUM',
        "owner must be CONSUMER (the user's own service) or THIRD_PARTY (an outside service), not RESOURCE_OWNER_UNSPECIFIED",
      );
    }
  }
  for (const { operation, origin, readOnly } of model.operations.values()) {
    // The author's own two statements disagree, so no spec is needed to see it (DESIGN.md §6).
    const method = writeMethodMarkedReadOnly(operation, readOnly);
    if (method !== undefined) {
      r.add(
        origin.source,
        [...origin.path, 'readOnly'],
        'RAM_READ_ONLY_WRITE_METHOD',
        `operation "${operation.id}" is marked readOnly: true, but its httpMethod ${method} is not a safe method and may change data (RFC 9110 §9.2.1: only GET, HEAD, OPTIONS and TRACE are safe); remove readOnly, or correct apiOperationSpec.httpMethod`,
        'warning',
      );
    }
    const res = model.resources.get(operation.resource);
    if (!res) {
      r.add(
        origin.source,
        [...origin.path, 'resource'],
        'RAM_DANGLING_RESOURCE',
        `operation "${operation.id}" names resource "${operation.resource}", which is not defined in content/resources/, a ramFile or an inline resource`,
      );
      continue;
    }
    const protocol = res.resource.interactionProtocol;
    if (protocol === 'REST' && !operation.apiOperationSpec?.httpMethod) {
      r.add(
        origin.source,
        [...origin.path, 'apiOperationSpec', 'httpMethod'],
        'RAM_REST_WITHOUT_HTTP_METHOD',
        `operation "${operation.id}" is on a REST resource and needs apiOperationSpec.httpMethod (GET, POST, …)`,
      );
    }
    // One MCP tool per resource (the RAM proposal's ResourceSpec.resource_path): an operationId naming
    // another tool is an error. With a stored tools/list, resolution reports it with the tools the list has.
    const tool = operation.apiOperationSpec?.operationId;
    const resourceTool = res.resource.spec?.resourcePath;
    if (
      protocol === 'MCP' &&
      tool !== undefined &&
      resourceTool !== undefined &&
      tool !== resourceTool &&
      res.specFile === undefined
    ) {
      r.add(
        origin.source,
        [...origin.path, 'apiOperationSpec', 'operationId'],
        'RAM_MCP_TOOL_MISMATCH',
        `operation "${operation.id}" names the tool "${tool}", but its resource "${res.resource.id}" is the tool "${resourceTool}": an MCP resource is one tool (spec.resourcePath: its name) and its operation is that tool's call, so define a resource for "${tool}"`,
      );
    }
    if ((protocol === 'MCP' || protocol === 'A2A') && operation.apiOperationSpec) {
      r.add(
        origin.source,
        [...origin.path, 'apiOperationSpec'],
        'RAM_API_SPEC_NOT_REST',
        protocol === 'MCP'
          ? `operation "${operation.id}" is on an MCP resource; apiOperationSpec describes REST operations (the RAM proposal), so readers of the card may ignore it: the operation is the call of the resource's tool (spec.resourcePath). ardsite reads only its operationId, which must name that tool`
          : `operation "${operation.id}" is on an A2A resource; apiOperationSpec describes REST operations (the RAM proposal), so readers of the card ignore it`,
        'warning',
      );
    }
  }
}

/** The hostname of `url`, or `undefined` when it is not an absolute URL. */
function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}

function checkAgent(agent: AgentModel, model: ContentModel, r: Reporter): void {
  const { source, front } = agent;
  const skillIds = new Map<string, number>();
  front.skills.forEach((skill, i) => {
    if (skillIds.has(skill.id))
      r.add(
        source,
        ['skills', i, 'id'],
        'RAM_DUPLICATE_ID',
        `skill id "${skill.id}" is used twice in this agent`,
      );
    else skillIds.set(skill.id, i);
  });

  front.interfaces.forEach((iface, i) => {
    if (iface.protocolBinding === 'GRPC') {
      if (!/^[A-Za-z0-9.-]+:\d{1,5}$/.test(iface.url) && !/^\[[0-9a-fA-F:]+\]:\d{1,5}$/.test(iface.url)) {
        r.add(
          source,
          ['interfaces', i, 'url'],
          'SCHEMA_INVALID_VALUE',
          `a GRPC interface url is host:port (for example agents.example.com:443), got "${iface.url}"`,
        );
      }
    } else {
      const problem = httpsUrlProblem(iface.url);
      if (problem) r.add(source, ['interfaces', i, 'url'], 'URL_NOT_HTTPS', problem);
    }
    // Allowed for trying an agent out (DESIGN.md §5), but a signed card that sends clients to localhost
    // only works on the machine that runs the agent.
    const host = iface.protocolBinding === 'GRPC' ? iface.url.replace(/:\d+$/, '') : hostOf(iface.url);
    if (host !== undefined && isLoopbackHost(host))
      r.add(
        source,
        ['interfaces', i, 'url'],
        'URL_LOOPBACK',
        `${iface.url} is on this machine (a loopback address): clients anywhere else cannot reach the agent there; give the address it answers at once deployed`,
        'warning',
      );
  });
  const v03 = front.interfaces.filter((i) => i.protocolVersion === '0.3');
  if (v03.length > 0 && !front.interfaces.some((i) => i.protocolVersion === '1.0')) {
    r.add(
      source,
      ['interfaces'],
      'SCHEMA_INVALID_VALUE',
      'declare at least one interface with protocolVersion "1.0"; the card is an A2A v1.0 card, with v0.3 fields added for the 0.3 interfaces',
    );
  }

  const schemes = new Set(Object.keys(front.securitySchemes ?? {}));
  const checkRequirements = (
    reqs: { schemes: Record<string, unknown> }[] | undefined,
    base: PropertyKey[],
  ) => {
    reqs?.forEach((req, i) => {
      for (const name of Object.keys(req.schemes)) {
        if (!schemes.has(name)) {
          r.add(
            source,
            [...base, i, 'schemes', name],
            'CARD_UNKNOWN_SECURITY_SCHEME',
            `security requirement names scheme "${name}", which securitySchemes does not declare`,
          );
        }
      }
    });
  };
  checkRequirements(front.securityRequirements, ['securityRequirements']);
  front.skills.forEach((s, i) =>
    checkRequirements(s.securityRequirements, ['skills', i, 'securityRequirements']),
  );

  const queries = representativeQueries(agent);
  if (queries.length < 2 || queries.length > 5) {
    r.add(
      source,
      ['discovery', 'representativeQueries'],
      'ARD_QUERIES_COUNT',
      `the entry will carry ${queries.length} representative ${queries.length === 1 ? 'query' : 'queries'}; ARD asks for 2 to 5 (give discovery.representativeQueries, or examples on the skills)`,
      'warning',
    );
  }

  const accessIds = new Map<string, true>();
  for (const { access, skills, origin } of agent.accesses) {
    const at = origin.path;
    if (accessIds.has(access.id))
      r.add(
        origin.source,
        [...at, 'id'],
        'RAM_DUPLICATE_ID',
        `access id "${access.id}" is used twice in the RAM of agent "${agent.slug}"`,
      );
    accessIds.set(access.id, true);
    skills.forEach((skill, i) => {
      if (!skillIds.has(skill)) {
        r.add(
          origin.source,
          [...at, 'skills', i],
          'RAM_UNKNOWN_SKILL',
          `access "${access.id}" maps to skill "${skill}", which agent "${agent.slug}" does not declare (skills: ${[...skillIds.keys()].join(', ')})`,
        );
      }
    });
    if (access.identityUsed === 'IDENTITY_TYPE_UNSPECIFIED') {
      r.add(
        origin.source,
        [...at, 'identityUsed'],
        'RAM_UNSPECIFIED_ENUM',
        'identityUsed must be END_USER (acts as the user) or AGENT (acts as itself), not IDENTITY_TYPE_UNSPECIFIED',
      );
    }
    if (access.necessity === 'ACCESS_NECESSITY_UNSPECIFIED') {
      r.add(
        origin.source,
        [...at, 'necessity'],
        'RAM_UNSPECIFIED_ENUM',
        'necessity must be REQUIRED, RECOMMENDED or OPTIONAL, not ACCESS_NECESSITY_UNSPECIFIED',
      );
    }
    const op = model.operations.get(access.operation);
    const res = op && model.resources.get(op.operation.resource);
    if (!op || !res) continue;
    if (res.resource.owner === 'CONSUMER' && access.identityUsed === 'AGENT') {
      r.add(
        origin.source,
        [...at, 'identityUsed'],
        'RAM_CONSUMER_AS_AGENT',
        `access "${access.id}" reaches the user's own service "${res.resource.displayName}" with the agent's own identity; a user's service is normally reached as END_USER`,
        'warning',
      );
    }
    const method = op.operation.apiOperationSpec?.httpMethod;
    if (
      method &&
      WRITE_METHODS.has(method) &&
      access.identityUsed === 'END_USER' &&
      !access.confirmationRequired
    ) {
      r.add(
        origin.source,
        [...at, 'confirmationRequired'],
        'RAM_WRITE_WITHOUT_CONFIRMATION',
        `access "${access.id}" changes data (${method}) as the user without asking first; set confirmationRequired: true, or say in its accessJustification why it need not ask (the warning stays: people are told it acts without asking)`,
        'warning',
      );
    }
  }
}

function checkUnused(model: ContentModel, r: Reporter): void {
  const usedOps = new Set<string>();
  const usedResources = new Set<string>();
  for (const agent of model.agents) {
    for (const op of agent.ram.operations) usedOps.add(op.id);
    for (const res of agent.ram.resources) usedResources.add(res.id);
  }
  for (const id of model.usedByInvalidAgents.operationIds) usedOps.add(id);
  for (const id of model.usedByInvalidAgents.resourceIds) usedResources.add(id);
  for (const { resource, origin } of model.resources.values()) {
    if (!usedResources.has(resource.id))
      r.add(
        origin.source,
        origin.path,
        'RAM_UNUSED',
        `resource "${resource.id}" is not used by any access of any agent`,
        'warning',
      );
  }
  for (const { operation, origin } of model.operations.values()) {
    if (!usedOps.has(operation.id) && usedResources.has(operation.resource)) {
      r.add(
        origin.source,
        origin.path,
        'RAM_UNUSED',
        `operation "${operation.id}" is not used by any access of any agent`,
        'warning',
      );
    }
  }
}

/**
 * Runs every content check of DESIGN.md §5 (and §1, §4 RAM integrity) over a loaded model. Returns
 * the diagnostics (errors and warnings); never throws on bad content.
 */
export function checkContent(model: ContentModel): Diagnostic[] {
  const r = new Reporter();
  checkCatalog(model, r);
  for (const agent of model.agents) checkAgent(agent, model, r);
  checkEntries(model, r);
  checkShownNames(
    [
      ...model.agents.map((a) => ({ source: a.source, path: ['name'], name: a.front.name })),
      ...model.entries.map((e) => ({ source: e.source, path: ['displayName'], name: e.entry.displayName })),
    ],
    r,
  );
  checkUnused(model, r);
  const primary = model.publisher.primaryAgent;
  // An agent file with errors is reported there; naming it is not a second fault.
  if (primary && !model.agents.some((a) => a.slug === primary) && !model.agentFiles.includes(primary)) {
    r.add(
      model.publisherSource,
      ['primaryAgent'],
      'SCHEMA_INVALID_VALUE',
      `primaryAgent "${primary}" is not an agent (agents: ${model.agentFiles.join(', ') || 'none'})`,
    );
  }
  const primaryAgent = primaryAgentOf(model);
  if (model.publisher.hosting.legacyAgentJson === true && primaryAgent && !servesV03(primaryAgent)) {
    r.add(
      model.publisherSource,
      ['hosting', 'legacyAgentJson'],
      'HOSTING_LEGACY_CARD',
      `/.well-known/agent.json will hold the card of "${primaryAgent.slug}", which has no '0.3' interface: it is an A2A v1.0 card without the v0.3 fields (url, preferredTransport) that clients before v0.3 read. Add a protocolVersion '0.3' interface to ${primaryAgent.file}, or remove hosting.legacyAgentJson`,
      'warning',
    );
  }
  r.diagnostics.push(...checkLanguages(model));
  r.diagnostics.push(...checkWordTables());
  for (const agent of model.agents) {
    // A file name outside [a-z0-9._-] is reported by the loader, as the cause: not twice.
    if (!/^[a-z0-9._-]+$/.test(agent.slug)) continue;
    const urn = parseAirUrn(agent.identifier);
    if (typeof urn === 'string') r.add(agent.source, [], 'ARD_URN_INVALID', urn);
  }
  return r.diagnostics;
}
