/**
 * An agent file written the way other A2A documents write a card: the v0.3 security forms
 * (`type: oauth2`, `security:`), the v0.2/v0.3 interface fields (`url`, `preferredTransport`,
 * `additionalInterfaces`, `transport`, `supportsAuthenticatedExtendedCard`) and snake_case names
 * (`default_input_modes`). Each such spelling is one `A2A_SPELLING` error that shows what to write
 * instead, and the front matter is rewritten into ardsite's form before it is validated, so the fault is
 * not reported again as unknown keys, a missing field or a false consequence elsewhere (one
 * error for one fault). The RAM parts are not touched: their snake_case is accepted (normalize.ts).
 */
import { stringify } from 'yaml';
import {
  anySecurityScheme,
  camelKeys,
  interfacesOfV03Card,
  isRecord,
  protocolBinding,
  protoSecurityRequirement,
  SCHEME_MEMBERS,
  snakeToCamel,
  type JsonRecord,
} from '../a2a/a2a-forms.js';
import { formatPath, type Diagnostic } from '../util/errors.js';
import { AgentFrontMatter } from '../schema/agent.js';
import { knownKeysAt } from '../model/issues.js';
import type { SourceDoc } from '../model/source.js';

/** Keys whose snake_case is accepted silently (the RAM, DESIGN.md §1) or that are free-form maps. */
const LEFT_ALONE = new Set(['resources', 'resourceAccesses', 'metadata', 'scopes', 'discovery']);

/** `value` as one line of flow-style YAML, for a message. */
function flow(value: unknown): string {
  return stringify(value, { collectionStyle: 'flow', lineWidth: 0 }).trim();
}

class Reporter {
  constructor(
    private readonly source: SourceDoc,
    readonly diagnostics: Diagnostic[],
  ) {}
  add(path: readonly PropertyKey[], message: string): void {
    this.diagnostics.push(
      this.source.diagnostic(
        { code: 'A2A_SPELLING', severity: 'error', message, path: formatPath(path) },
        path,
      ),
    );
  }
}

/** True for a value without keys inside it (neither an object nor an array). */
const isLeaf = (value: unknown): boolean => value === null || typeof value !== 'object';

/** Renames snake_case keys the schema knows in camelCase, depth first, reporting each once. */
function camelizeKnown(value: unknown, path: PropertyKey[], r: Reporter): unknown {
  // A leaf is kept as it is, without a path made for it: most values of a front matter are leaves.
  if (Array.isArray(value))
    return value.map((item, i) => (isLeaf(item) ? item : camelizeKnown(item, [...path, i], r)));
  if (!isRecord(value)) return value;
  const known = knownKeysAt(AgentFrontMatter, path);
  const out: JsonRecord = {};
  for (const key of Object.keys(value)) {
    const child = value[key];
    const camel = snakeToCamel(key);
    let name = key;
    if (camel !== key && known.includes(camel)) {
      if (camel in value) {
        r.add([...path, key], `"${key}" and "${camel}" are the same field written twice: keep "${camel}"`);
        continue;
      }
      r.add([...path, key], `"${key}" is the snake_case spelling: write "${camel}" instead`);
      name = camel;
    }
    out[name] =
      isLeaf(child) || (LEFT_ALONE.has(name) && path.length === 0)
        ? child
        : camelizeKnown(child, [...path, name], r);
  }
  return out;
}

/** `securitySchemes.<name>` in the v0.3 form (`type: …`) → the oneof form, one error each. */
function rewriteSchemes(front: JsonRecord, r: Reporter): void {
  if (!isRecord(front.securitySchemes)) return;
  const schemes: JsonRecord = { ...front.securitySchemes };
  for (const [name, scheme] of Object.entries(schemes)) {
    if (!isRecord(scheme) || !('type' in scheme)) continue;
    const proto = anySecurityScheme(scheme);
    if (proto) {
      r.add(
        ['securitySchemes', name, 'type'],
        `"type: ${String(scheme.type)}" is the A2A v0.3 form of a security scheme: ardsite writes the v1.0 form, one member named after the type. Write ${name}: ${flow(proto)}`,
      );
      schemes[name] = proto;
    } else {
      r.add(
        ['securitySchemes', name, 'type'],
        `"type: ${flow(scheme.type)}" is not a security scheme type (apiKey, http, oauth2, openIdConnect, mutualTLS); write one of ${SCHEME_MEMBERS.join(', ')} instead of "type"`,
      );
      delete schemes[name];
    }
  }
  front.securitySchemes = schemes;
}

/** `security:` (v0.3) → `securityRequirements:` at `path` (the front matter or a skill). */
function rewriteSecurity(holder: JsonRecord, path: PropertyKey[], r: Reporter): void {
  if (!('security' in holder)) return;
  const list = Array.isArray(holder.security) ? holder.security : [holder.security];
  const converted = list.map(protoSecurityRequirement);
  const ok = converted.every((c) => c !== undefined) && converted.length > 0;
  const hint = ok
    ? `write securityRequirements: ${flow(converted)}`
    : 'write securityRequirements: [{ schemes: { <scheme name>: { list: [<scope>, …] } } }]';
  if ('securityRequirements' in holder)
    r.add(
      [...path, 'security'],
      `"security" is the A2A v0.3 name of securityRequirements, given twice: keep securityRequirements`,
    );
  else {
    r.add([...path, 'security'], `"security" is the A2A v0.3 name: ${hint}`);
    if (ok) holder.securityRequirements = converted;
  }
  delete holder.security;
}

/** The v0.2/v0.3 interface fields at the top of a card → `interfaces`. */
const V03_INTERFACE_FIELDS = ['url', 'preferredTransport', 'additionalInterfaces', 'protocolVersion'];

function rewriteInterfaces(front: JsonRecord, r: Reporter): void {
  const present = Object.keys(front).filter((k) => V03_INTERFACE_FIELDS.includes(snakeToCamel(k)));
  if (present.length === 0) return;
  const converted = interfacesOfV03Card(front);
  const names = present.map((k) => `"${k}"`).join(', ');
  if ('interfaces' in front || converted.length === 0)
    r.add(
      [present[0]!],
      `${names}: the A2A v0.3 way of naming where the agent answers; ardsite lists every address in interfaces: [{ url, protocolBinding, protocolVersion }]${'interfaces' in front ? ', which this file has: remove them' : ''}`,
    );
  else {
    r.add(
      [present[0]!],
      `${names}: the A2A v0.3 way of naming where the agent answers. Write interfaces: ${flow(converted)}`,
    );
    front.interfaces = converted;
  }
  for (const k of present) delete front[k];
}

/** `interfaces[].transport` → `protocolBinding`; `supportsAuthenticatedExtendedCard` → capabilities. */
function rewriteSmallFields(front: JsonRecord, r: Reporter): void {
  if (Array.isArray(front.interfaces)) {
    front.interfaces = front.interfaces.map((item: unknown, i) => {
      if (!isRecord(item) || !('transport' in item) || 'protocolBinding' in item) return item;
      const binding = protocolBinding(item.transport);
      r.add(
        ['interfaces', i, 'transport'],
        `"transport" is the A2A v0.3 name: write protocolBinding: ${binding ?? 'JSONRPC | GRPC | HTTP+JSON'}`,
      );
      const { transport: _dropped, ...rest } = item;
      return binding ? { ...rest, protocolBinding: binding } : rest;
    });
  }
  if ('supportsAuthenticatedExtendedCard' in front) {
    const value = front.supportsAuthenticatedExtendedCard;
    r.add(
      ['supportsAuthenticatedExtendedCard'],
      `"supportsAuthenticatedExtendedCard" is the A2A v0.3 name: write capabilities: { extendedAgentCard: ${flow(value)} }`,
    );
    delete front.supportsAuthenticatedExtendedCard;
    if (typeof value === 'boolean')
      front.capabilities = {
        ...(isRecord(front.capabilities) ? front.capabilities : {}),
        extendedAgentCard: value,
      };
  }
}

/**
 * Reports each A2A spelling of `front` (an agent's parsed front matter, read from `source`) as one
 * `A2A_SPELLING` error into `diagnostics`, and returns the front matter rewritten into ardsite's form (a
 * copy; `front` itself is not changed). A value that is not an object is returned as it is.
 */
export function rewriteA2aSpellings(front: unknown, source: SourceDoc, diagnostics: Diagnostic[]): unknown {
  if (!isRecord(front)) return front;
  const r = new Reporter(source, diagnostics);
  // Top-level v0.3 names first (their snake_case too), then every other snake_case name the schema knows.
  const out = { ...front };
  rewriteInterfaces(out, r);
  for (const key of Object.keys(out))
    if (
      snakeToCamel(key) === 'supportsAuthenticatedExtendedCard' &&
      key !== 'supportsAuthenticatedExtendedCard'
    ) {
      out.supportsAuthenticatedExtendedCard = out[key];
      delete out[key];
    }
  rewriteSmallFields(out, r);
  const camel = camelizeKnown(out, [], r) as JsonRecord;
  if (isRecord(camel.securitySchemes))
    camel.securitySchemes = Object.fromEntries(
      Object.entries(camel.securitySchemes).map(([k, v]) => [
        k,
        isRecord(v) && 'type' in v ? camelKeys(v) : v,
      ]),
    );
  rewriteSchemes(camel, r);
  rewriteSecurity(camel, [], r);
  if (Array.isArray(camel.skills))
    camel.skills = camel.skills.map((skill: unknown, i) => {
      if (!isRecord(skill)) return skill;
      const copy = { ...skill };
      rewriteSecurity(copy, ['skills', i], r);
      return copy;
    });
  return camel;
}
