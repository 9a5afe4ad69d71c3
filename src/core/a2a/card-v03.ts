/**
 * The v0.3 half of a hybrid AgentCard (DESIGN.md §3 and §9 "Hybrid cards amended"): the A2A v0.3 JSON
 * forms written beside the v1.0 ProtoJSON forms, as the official A2A SDKs write hybrid cards, so that a
 * strict v0.3 client (the official A2A v0.3.0 JSON Schema, @a2a-js/sdk's v0.3 translator) and a v1.0
 * client both read the same card.
 *
 * - security requirements: v1.0 `{schemes: {<name>: {list: [scopes]}}}` → v0.3 `{<name>: [scopes]}`
 *   (A2A v0.3 §5.5 `security`, OpenAPI 3.0 Security Requirement Object);
 * - security schemes: the v0.3 members (`type`, `description`, `in`/`name`, `scheme`/`bearerFormat`,
 *   `flows`/`oauth2MetadataUrl`, `openIdConnectUrl`) beside the v1.0 oneof member (A2A v0.3 §5.5
 *   `SecurityScheme`; A2A v1.0 `SecurityScheme`).
 */
import { ArdsiteError } from '../util/errors.js';
import { withoutUndefined, type JsonObject } from '../util/json.js';
import type { SecurityRequirementInput, SecuritySchemeInput } from '../schema/security.js';

/** The OAuth 2.0 flows v0.3 knows (A2A v0.3 `OAuthFlows`); v1.0 adds `deviceCode` and `pkceRequired`. */
const V03_FLOWS = ['authorizationCode', 'clientCredentials', 'implicit', 'password'] as const;

/** A v1.0 security requirement in the v0.3 form: scheme name → its scopes (A2A v0.3 `security`). */
export function v03SecurityRequirement(requirement: SecurityRequirementInput): Record<string, string[]> {
  return Object.fromEntries(Object.entries(requirement.schemes).map(([name, s]) => [name, [...s.list]]));
}

type OAuthFlowsInput = NonNullable<SecuritySchemeInput['oauth2SecurityScheme']>['flows'];

/**
 * The v0.3 `flows` of a v1.0 OAuth scheme: the flows v0.3 knows, each without `pkceRequired`.
 * @throws ArdsiteError `CARD_V03_UNREPRESENTABLE` when no flow is left (only `deviceCode`), since v0.3
 *   requires at least one flow and @a2a-js/sdk's translator refuses a scheme without one.
 */
function v03Flows(flows: OAuthFlowsInput, where: string): JsonObject {
  const out: JsonObject = {};
  for (const name of V03_FLOWS) {
    const flow = flows[name];
    if (!flow) continue;
    const { pkceRequired: _pkce, ...rest } = flow as Record<string, unknown>;
    out[name] = withoutUndefined(rest) as JsonObject;
  }
  if (Object.keys(out).length === 0) {
    throw new ArdsiteError(
      'CARD_V03_UNREPRESENTABLE',
      `${where}: an OAuth scheme with only a deviceCode flow cannot be described to A2A v0.3 clients (v0.3 has no deviceCode flow); add another flow or drop the 0.3 interface`,
    );
  }
  return out;
}

/**
 * A v1.0 security scheme (proto oneof form) made hybrid: the v0.3 members first, then the v1.0 oneof
 * member unchanged, so each reader finds its own form (A2A v0.3 `SecurityScheme` discriminated by
 * `type`; A2A v1.0 `SecurityScheme` oneof).
 * @throws ArdsiteError `CARD_V03_UNREPRESENTABLE` (see {@link v03Flows}).
 */
export function hybridSecurityScheme(scheme: SecuritySchemeInput, where: string): JsonObject {
  const v1 = withoutUndefined(scheme as Record<string, unknown>) as JsonObject;
  let v03: Record<string, unknown>;
  if (scheme.apiKeySecurityScheme) {
    const s = scheme.apiKeySecurityScheme;
    v03 = { type: 'apiKey', description: s.description, in: s.location, name: s.name };
  } else if (scheme.httpAuthSecurityScheme) {
    const s = scheme.httpAuthSecurityScheme;
    v03 = { type: 'http', description: s.description, scheme: s.scheme, bearerFormat: s.bearerFormat };
  } else if (scheme.oauth2SecurityScheme) {
    const s = scheme.oauth2SecurityScheme;
    v03 = {
      type: 'oauth2',
      description: s.description,
      flows: v03Flows(s.flows, where),
      oauth2MetadataUrl: s.oauth2MetadataUrl,
    };
  } else if (scheme.openIdConnectSecurityScheme) {
    const s = scheme.openIdConnectSecurityScheme;
    v03 = { type: 'openIdConnect', description: s.description, openIdConnectUrl: s.openIdConnectUrl };
  } else {
    v03 = { type: 'mutualTLS', description: scheme.mtlsSecurityScheme?.description };
  }
  return { ...(withoutUndefined(v03) as JsonObject), ...v1 };
}

/** Every scheme of a v1.0 `securitySchemes` map made hybrid ({@link hybridSecurityScheme}). */
export function hybridSecuritySchemes(
  schemes: Record<string, SecuritySchemeInput>,
  where: string,
): JsonObject {
  return Object.fromEntries(
    Object.entries(schemes).map(([name, s]) => [
      name,
      hybridSecurityScheme(s, `${where}: securitySchemes.${name}`),
    ]),
  );
}
