/**
 * The AgentCard fields of `npm run import`: an A2A AgentCard of any era (v0.2, v0.3, v1.0, hybrid;
 * camelCase or snake_case; A2A v0.3 §5.5 and v1.0 `AgentCard`) turned into the front matter of an
 * ardsite agent file (src/core/schema/agent.ts). Each value is kept when ardsite can express it, in the
 * form the agent file takes; what is dropped or changed is recorded with its reason.
 */
import {
  anySecurityScheme,
  interfacesOfV03Card,
  isRecord,
  majorMinor,
  protocolBinding,
  protoSecurityRequirement,
  type JsonRecord,
} from '../a2a/a2a-forms.js';
import { AgentSkill } from '../schema/agent.js';
import { SecurityRequirement, SecurityScheme } from '../schema/security.js';
import { httpsUrlProblem, mediaType } from '../schema/common.js';

/** One thing the import did not keep as it was: the card's field path and why. */
export interface ImportNote {
  /** Path in the card, e.g. `capabilities.stateTransitionHistory`, `defaultInputModes[0]`. */
  field: string;
  /** What happened and why, in a sentence. */
  reason: string;
}

/** Collects what was dropped (not in the agent file) and what was changed (kept in another form). */
export class ImportNotes {
  readonly dropped: ImportNote[] = [];
  readonly changed: ImportNote[] = [];
  drop(field: string, reason: string): void {
    this.dropped.push({ field, reason });
  }
  change(field: string, reason: string): void {
    this.changed.push({ field, reason });
  }
}

function firstIssue(result: { success: boolean; error?: { issues: { message: string }[] } }): string {
  return result.error?.issues[0]?.message ?? 'not valid';
}

/** A URL field kept when ardsite publishes it (https, or http on localhost), else dropped. */
export function urlField(value: unknown, field: string, notes: ImportNotes): string | undefined {
  if (value === undefined) return undefined;
  const problem = typeof value === 'string' ? httpsUrlProblem(value) : 'not a string';
  if (!problem) return value as string;
  notes.drop(field, `${problem}: ardsite publishes https URLs only`);
  return undefined;
}

/** The media types of a list that are `type/subtype`; the others dropped with their reason. */
export function mediaTypes(value: unknown, field: string, notes: ImportNotes): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const kept: string[] = [];
  value.forEach((item, i) => {
    if (typeof item === 'string' && mediaType.safeParse(item).success) {
      if (!kept.includes(item)) kept.push(item);
    } else
      notes.drop(
        `${field}[${i}]`,
        `${JSON.stringify(item)} is not a media type (type/subtype)${item === 'text' ? '; text/plain is the media type of plain text' : ''}`,
      );
  });
  return kept.length > 0 ? kept : undefined;
}

/** `grpc://host:port`, `https://host/path` → `host:port` (the form of a GRPC interface url). */
function grpcTarget(url: string, field: string, notes: ImportNotes): string {
  if (/^[A-Za-z0-9.-]+:\d{1,5}$/.test(url)) return url;
  try {
    const u = new URL(url);
    const port = u.port || (u.protocol === 'http:' ? '80' : '443');
    const target = `${u.hostname}:${port}`;
    notes.change(
      field,
      `GRPC url "${url}" written as host:port "${target}"${u.pathname !== '/' ? ` (the path ${u.pathname} has no place in a GRPC target)` : ''}`,
    );
    return target;
  } catch {
    return url;
  }
}

/** The card's interfaces in ardsite's form (A2A v1.0 `supportedInterfaces`, or the v0.2/v0.3 fields). */
export function interfacesOf(card: JsonRecord, notes: ImportNotes): JsonRecord[] {
  const cardVersion = majorMinor(card.protocolVersion);
  const listed = Array.isArray(card.supportedInterfaces)
    ? card.supportedInterfaces
    : Array.isArray(card.interfaces)
      ? card.interfaces
      : undefined;
  let found: JsonRecord[] = [];
  if (listed) {
    listed.forEach((item: unknown, i) => {
      if (!isRecord(item) || typeof item.url !== 'string') return;
      const binding = protocolBinding(item.protocolBinding ?? item.transport);
      if (!binding) {
        notes.drop(
          `supportedInterfaces[${i}]`,
          `transport ${JSON.stringify(item.protocolBinding ?? item.transport)} is none of JSONRPC, GRPC, HTTP+JSON`,
        );
        return;
      }
      const version = majorMinor(item.protocolVersion) ?? cardVersion ?? '1.0';
      if (item.protocolBinding === undefined)
        notes.change(
          `supportedInterfaces[${i}].transport`,
          `written as protocolBinding: ${binding} (A2A v1.0)`,
        );
      if (majorMinor(item.protocolVersion) === undefined)
        notes.change(
          `supportedInterfaces[${i}].protocolVersion`,
          `absent: the card's protocol version ${version} is used`,
        );
      found.push({
        url: item.url,
        protocolBinding: binding,
        protocolVersion: version,
        ...(typeof item.tenant === 'string' && item.tenant !== '' ? { tenant: item.tenant } : {}),
      });
    });
    for (const legacy of ['url', 'preferredTransport', 'additionalInterfaces'])
      if (card[legacy] !== undefined)
        notes.change(
          legacy,
          'the v0.3 address fields of a hybrid card: ardsite writes them again from interfaces',
        );
  } else {
    found = interfacesOfV03Card(card);
    if (found.length > 0 && card.protocolVersion === undefined)
      notes.change(
        'url',
        'a card without protocolVersion (A2A v0.2): its address is served as a v0.3 interface',
      );
  }
  const kept: JsonRecord[] = [];
  found.forEach((iface, i) => {
    const field = `interfaces[${i}].url`;
    if (iface.protocolBinding === 'GRPC') iface.url = grpcTarget(iface.url as string, field, notes);
    else {
      const problem = httpsUrlProblem(iface.url as string);
      if (problem) {
        notes.drop(field, `${problem}: ardsite publishes https URLs only`);
        return;
      }
    }
    if (
      !kept.some(
        (k) =>
          k.url === iface.url &&
          k.protocolBinding === iface.protocolBinding &&
          k.protocolVersion === iface.protocolVersion,
      )
    )
      kept.push(iface);
  });
  // ardsite's cards are A2A v1.0 cards with v0.3 fields added (DESIGN.md §3): one 1.0 interface is needed.
  const first03 = kept.find((k) => k.protocolVersion === '0.3');
  if (first03 && !kept.some((k) => k.protocolVersion === '1.0')) {
    kept.unshift({ ...first03, protocolVersion: '1.0' });
    notes.change(
      'protocolVersion',
      `ardsite publishes A2A v1.0 cards (with the v0.3 fields kept for v0.3 clients): a '1.0' interface at ${String(first03.url)} was added. Remove it if the agent does not speak v1.0 there, and give the v1.0 address instead`,
    );
  }
  return kept;
}

/** `capabilities` kept as ardsite writes them; the rest (and the v0.3 spellings) noted. */
export function capabilitiesOf(card: JsonRecord, notes: ImportNotes): JsonRecord | undefined {
  const caps = isRecord(card.capabilities) ? card.capabilities : {};
  const out: JsonRecord = {};
  for (const name of ['streaming', 'pushNotifications', 'extendedAgentCard'])
    if (typeof caps[name] === 'boolean') out[name] = caps[name];
  for (const legacy of ['supportsAuthenticatedExtendedCard', 'supportsExtendedAgentCard'])
    if (typeof card[legacy] === 'boolean' && out.extendedAgentCard === undefined) {
      out.extendedAgentCard = card[legacy];
      notes.change(legacy, 'written as capabilities.extendedAgentCard (A2A v1.0)');
    }
  for (const name of Object.keys(caps)) {
    if (['streaming', 'pushNotifications', 'extendedAgentCard', 'extensions'].includes(name)) continue;
    notes.drop(
      `capabilities.${name}`,
      'not an AgentCapabilities field of A2A v1.0; ardsite’s cards do not carry it',
    );
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The declared schemes in the v1.0 oneof form; each that does not validate is dropped. */
export function securitySchemesOf(card: JsonRecord, notes: ImportNotes): JsonRecord | undefined {
  if (!isRecord(card.securitySchemes)) return undefined;
  const out: JsonRecord = {};
  for (const [name, value] of Object.entries(card.securitySchemes)) {
    const proto = anySecurityScheme(value);
    const parsed = proto ? SecurityScheme.safeParse(proto) : undefined;
    if (proto && parsed?.success) {
      out[name] = proto;
      if (isRecord(value) && 'type' in value)
        notes.change(`securitySchemes.${name}`, 'the v0.3 form written in the v1.0 form');
    } else
      notes.drop(
        `securitySchemes.${name}`,
        proto ? firstIssue(parsed!) : 'not a security scheme of A2A v0.3 or v1.0',
      );
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Requirements (`security` or `securityRequirements`) in the v1.0 form; unusable ones dropped. */
export function requirementsOf(
  holder: JsonRecord,
  field: string,
  schemes: JsonRecord | undefined,
  notes: ImportNotes,
): JsonRecord[] | undefined {
  const list = holder.securityRequirements ?? holder.security;
  if (!Array.isArray(list)) return undefined;
  const where = holder.securityRequirements !== undefined ? 'securityRequirements' : 'security';
  const out: JsonRecord[] = [];
  list.forEach((item: unknown, i) => {
    const path = `${field}${where}[${i}]`;
    const proto = protoSecurityRequirement(item);
    if (!proto) return notes.drop(path, 'not a security requirement of A2A v0.3 or v1.0');
    const names = Object.keys(proto.schemes as JsonRecord);
    const undeclared = names.filter((n) => !schemes || !(n in schemes));
    if (undeclared.length > 0)
      return notes.drop(
        path,
        `names ${undeclared.join(', ')}, which securitySchemes does not declare (or which was dropped)`,
      );
    const parsed = SecurityRequirement.safeParse(proto);
    if (!parsed.success)
      return notes.drop(
        path,
        `requires ${names.join(', ')} without scopes: the A2A SDKs drop an empty scope list when they canonicalise a card for its signature, so ardsite requires only schemes with scopes (the scheme stays declared in securitySchemes)`,
      );
    out.push(proto);
  });
  return out.length > 0 ? out : undefined;
}

/** The skills in ardsite's form: each kept field checked on its own; a skill that cannot be kept dropped. */
export function skillsOf(
  card: JsonRecord,
  schemes: JsonRecord | undefined,
  notes: ImportNotes,
): JsonRecord[] {
  const skills = Array.isArray(card.skills) ? card.skills : [];
  const out: JsonRecord[] = [];
  skills.forEach((skill: unknown, i) => {
    const field = `skills[${i}]`;
    if (!isRecord(skill) || typeof skill.id !== 'string') return notes.drop(field, 'a skill without an id');
    const s: JsonRecord = {
      id: skill.id,
      name: skill.name ?? skill.id,
      description: skill.description ?? skill.name,
    };
    if (skill.description === undefined)
      notes.change(`${field}.description`, 'absent: the skill name is used');
    const tags = Array.isArray(skill.tags)
      ? skill.tags.filter((t) => typeof t === 'string' && t.trim() !== '')
      : [];
    if (tags.length > 0) s.tags = tags;
    else {
      s.tags = [skill.id];
      notes.change(
        `${field}.tags`,
        `absent or empty (A2A requires tags): the skill id "${skill.id}" is used`,
      );
    }
    const examples = Array.isArray(skill.examples)
      ? skill.examples.filter((e) => typeof e === 'string' && e.trim() !== '')
      : [];
    if (examples.length > 0) s.examples = examples;
    const input = mediaTypes(skill.inputModes, `${field}.inputModes`, notes);
    if (input) s.inputModes = input;
    const output = mediaTypes(skill.outputModes, `${field}.outputModes`, notes);
    if (output) s.outputModes = output;
    const reqs = requirementsOf(skill, `${field}.`, schemes, notes);
    if (reqs) s.securityRequirements = reqs;
    const parsed = AgentSkill.safeParse(s);
    if (!parsed.success) return notes.drop(field, `skill "${skill.id}": ${firstIssue(parsed)}`);
    for (const key of Object.keys(skill))
      if (
        ![
          'id',
          'name',
          'description',
          'tags',
          'examples',
          'inputModes',
          'outputModes',
          'security',
          'securityRequirements',
        ].includes(key)
      )
        notes.drop(`${field}.${key}`, 'not an AgentSkill field ardsite writes');
    out.push(s);
  });
  return out;
}
