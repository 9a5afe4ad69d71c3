/**
 * The other spellings of A2A AgentCard fields, turned into the forms ardsite's agent files use (the A2A
 * v1.0 ProtoJSON forms, the A2A v0.3 AgentCard reference): the v0.3 JSON security scheme (`type: oauth2`, `in`, …), the v0.3
 * `security` list, the v0.2/v0.3 interface fields (`url`, `preferredTransport`, `additionalInterfaces`,
 * `transport`) and snake_case names. Used by `check` (to say what to write instead, A2A §4.5, §5.5) and
 * by `npm run import` (to keep what a card says). Pure functions over JSON values; nothing throws.
 */

/** A JSON object. */
export type JsonRecord = Record<string, unknown>;

/** True for a plain JSON object. */
export function isRecord(value: unknown): value is JsonRecord {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** `default_input_modes` → `defaultInputModes`; a name without `_` is returned as it is. */
export function snakeToCamel(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** The v0.3 `type` of a security scheme → the v1.0 oneof member that holds it (A2A v0.3 §5.5, v1.0). */
const MEMBER_OF_TYPE: Readonly<Record<string, string>> = {
  apiKey: 'apiKeySecurityScheme',
  http: 'httpAuthSecurityScheme',
  oauth2: 'oauth2SecurityScheme',
  openIdConnect: 'openIdConnectSecurityScheme',
  mutualTLS: 'mtlsSecurityScheme',
};

/** The five oneof members of a v1.0 `SecurityScheme`. */
export const SCHEME_MEMBERS = Object.values(MEMBER_OF_TYPE);

function pick(source: JsonRecord, names: readonly string[]): JsonRecord {
  const out: JsonRecord = {};
  for (const name of names) if (source[name] !== undefined) out[name] = source[name];
  return out;
}

/**
 * A v0.3 security scheme (`{ type: 'oauth2', flows, … }`, snake_case accepted) in the v1.0 oneof form
 * (`{ oauth2SecurityScheme: { flows, … } }`), or `undefined` when its `type` is none of apiKey, http,
 * oauth2, openIdConnect, mutualTLS. The `in` of an API key becomes `location`.
 */
export function protoSecurityScheme(v03: JsonRecord): JsonRecord | undefined {
  const scheme = camelKeys(v03) as JsonRecord;
  const member = typeof scheme.type === 'string' ? MEMBER_OF_TYPE[scheme.type] : undefined;
  if (!member) return undefined;
  let body: JsonRecord;
  switch (scheme.type) {
    case 'apiKey':
      body = { ...pick(scheme, ['description']), location: scheme.in ?? scheme.location, name: scheme.name };
      break;
    case 'http':
      body = pick(scheme, ['description', 'scheme', 'bearerFormat']);
      break;
    case 'oauth2':
      body = pick(scheme, ['description', 'flows', 'oauth2MetadataUrl']);
      break;
    case 'openIdConnect':
      body = pick(scheme, ['description', 'openIdConnectUrl']);
      break;
    default:
      body = pick(scheme, ['description']);
  }
  for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
  return { [member]: body };
}

/**
 * A security scheme in the v1.0 form, whatever form it came in: the oneof form as it is (snake_case
 * names camelised), the v0.3 form converted; `undefined` when it is neither.
 */
export function anySecurityScheme(value: unknown): JsonRecord | undefined {
  if (!isRecord(value)) return undefined;
  if ('type' in value) return protoSecurityScheme(value);
  const camel = camelKeys(value) as JsonRecord;
  return SCHEME_MEMBERS.some((m) => m in camel) ? camel : undefined;
}

/**
 * One security requirement in the v1.0 form `{ schemes: { name: { list: [scopes] } } }`, from either
 * that form or the v0.3 form `{ name: [scopes] }`; `undefined` for anything else.
 */
export function protoSecurityRequirement(value: unknown): JsonRecord | undefined {
  if (!isRecord(value)) return undefined;
  if (isRecord(value.schemes)) return value;
  const schemes: JsonRecord = {};
  for (const [name, scopes] of Object.entries(value)) {
    if (Array.isArray(scopes)) schemes[name] = { list: scopes };
    else if (isRecord(scopes) && Array.isArray(scopes.list)) schemes[name] = { list: scopes.list };
    else return undefined;
  }
  return Object.keys(schemes).length > 0 ? { schemes } : undefined;
}

/** Every key of every object of `value` camelised (free-form `metadata`, `scopes` and `params` kept). */
export function camelKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelKeys);
  if (!isRecord(value)) return value;
  const out: JsonRecord = {};
  for (const [key, child] of Object.entries(value)) {
    const camel = snakeToCamel(key);
    out[camel] = ['metadata', 'scopes', 'params'].includes(camel) ? child : camelKeys(child);
  }
  return out;
}

/** v0.2/v0.3 transport names → v1.0 `protocolBinding` (`GRPC`, `JSONRPC`, `HTTP+JSON`). */
export function protocolBinding(transport: unknown): string | undefined {
  if (typeof transport !== 'string') return undefined;
  const upper = transport.toUpperCase().replace(/[-_ ]/g, '');
  if (upper === 'JSONRPC') return 'JSONRPC';
  if (upper === 'GRPC') return 'GRPC';
  if (upper === 'HTTP+JSON' || upper === 'HTTPJSON' || upper === 'REST') return 'HTTP+JSON';
  return undefined;
}

/** A card's protocol version ("0.3.0", "1.0", 0.3) as ardsite's `protocolVersion` ("0.3" or "1.0"). */
export function majorMinor(version: unknown): '0.3' | '1.0' | undefined {
  const text = typeof version === 'number' ? String(version) : typeof version === 'string' ? version : '';
  if (/^0\.3(\.|$)/.test(text)) return '0.3';
  if (/^1\.0(\.|$)|^1$/.test(text)) return '1.0';
  return undefined;
}

/**
 * The `interfaces` of a card written the v0.2/v0.3 way: the main `url` with `preferredTransport`
 * (JSONRPC when absent, A2A v0.3 §5.6) and `protocolVersion`, then each `additionalInterfaces` item
 * (`{ url, transport }`) not equal to it. The version of a v0.2 card (none given) is taken as '0.3', the
 * nearest version ardsite serves. Empty when the card has no `url`.
 */
export function interfacesOfV03Card(card: JsonRecord): JsonRecord[] {
  const c = camelKeys(card) as JsonRecord;
  if (typeof c.url !== 'string') return [];
  const version = majorMinor(c.protocolVersion) ?? '0.3';
  const main = {
    url: c.url,
    protocolBinding: protocolBinding(c.preferredTransport) ?? 'JSONRPC',
    protocolVersion: version,
  };
  const out: JsonRecord[] = [main];
  for (const item of Array.isArray(c.additionalInterfaces) ? c.additionalInterfaces : []) {
    if (!isRecord(item) || typeof item.url !== 'string') continue;
    const binding = protocolBinding(item.transport ?? item.protocolBinding);
    if (!binding) continue;
    if (out.some((i) => i.url === item.url && i.protocolBinding === binding)) continue;
    out.push({ url: item.url, protocolBinding: binding, protocolVersion: version });
  }
  return out;
}
