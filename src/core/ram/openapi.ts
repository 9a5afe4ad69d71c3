/**
 * An OpenAPI 3.0 or 3.1 document (JSON or YAML, already parsed) as a {@link SpecIndex}: every operation
 * of `paths` (path items given by `$ref`, OpenAPI 3.1 `components.pathItems` included), its `security`
 * (the operation's own, else the document's: OpenAPI 3.1 §4.8.10), and `components.securitySchemes`
 * (OAuth 2 flows with their scopes, OpenID Connect, API key, HTTP, mutual TLS; §4.8.27).
 *
 * `$ref`s are resolved by @apidevtools/json-schema-ref-parser with external references turned off: a
 * stored spec is one file, and a build never reads outside the project (DESIGN.md §9), so a `$ref` to
 * another file is reported rather than followed. Only what permissions need is resolved, so a broken
 * reference elsewhere in the document (in a schema or an extension) does not stop resolution.
 */
import $RefParser, { type $Refs } from '@apidevtools/json-schema-ref-parser';
import { ArdsiteError } from '../util/errors.js';
import { firstLine } from './discovery.js';
import type { SchemeRequirement, SchemeType, SecurityAlternative } from '../model/permissions.js';
import { SAFE_METHODS, type SpecIndex, type SpecOperation, type SpecScheme } from '../model/spec-index.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The operation members of a Path Item Object (OpenAPI 3.1 §4.8.9). */
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const SCHEME_TYPES: ReadonlySet<string> = new Set(['oauth2', 'openIdConnect', 'apiKey', 'http', 'mutualTLS']);

/** True when `doc` declares `openapi: 3.x`. */
export function isOpenApiDocument(doc: unknown): boolean {
  return isObject(doc) && typeof doc.openapi === 'string' && /^3\.\d+/.test(doc.openapi);
}

function invalid(file: string, why: string): ArdsiteError {
  return new ArdsiteError('SPEC_INVALID', `${file}: not a usable OpenAPI document: ${why}`);
}

/**
 * Parses an OpenAPI 3.x document into a {@link SpecIndex}. `doc` is not changed.
 * @throws ArdsiteError `SPEC_INVALID` naming `file` for a `$ref` that does not resolve or points to
 *   another file, a security requirement naming an undeclared scheme, or a malformed `paths`.
 */
export async function parseOpenApi(doc: Json, file: string): Promise<SpecIndex> {
  let refs: $Refs;
  try {
    refs = (await $RefParser.resolve(structuredClone(doc), {
      resolve: { external: false },
      dereference: { circular: 'ignore' },
    })) as unknown as $Refs;
  } catch (error) {
    throw invalid(file, (error as Error).message);
  }
  /** `value`, or the value its `$ref` names (chains followed). */
  const deref = (value: unknown, where: string): unknown => {
    let current = value;
    for (let hops = 0; isObject(current) && typeof current.$ref === 'string'; hops++) {
      const ref = current.$ref;
      if (!ref.startsWith('#'))
        throw invalid(file, `${where} refers to another file (${ref}); store a bundled spec`);
      if (hops > 32) throw invalid(file, `${where}: $ref chain too long`);
      try {
        current = refs.get(ref);
      } catch (error) {
        throw invalid(file, `${where}: ${(error as Error).message}`);
      }
    }
    return current;
  };

  const schemes = new Map<string, SpecScheme>();
  const components = isObject(doc.components) ? doc.components : {};
  const declared = isObject(components.securitySchemes) ? components.securitySchemes : {};
  for (const [name, raw] of Object.entries(declared)) {
    const scheme = deref(raw, `components.securitySchemes.${name}`);
    if (!isObject(scheme) || typeof scheme.type !== 'string' || !SCHEME_TYPES.has(scheme.type))
      throw invalid(file, `components.securitySchemes.${name} has no known type`);
    const scopes = new Map<string, string>();
    const urls: string[] = [];
    if (scheme.type === 'oauth2' && isObject(scheme.flows)) {
      for (const flow of Object.values(scheme.flows)) {
        if (!isObject(flow)) continue;
        for (const key of ['authorizationUrl', 'tokenUrl', 'refreshUrl', 'deviceAuthorizationUrl'])
          if (typeof flow[key] === 'string') urls.push(flow[key]);
        if (isObject(flow.scopes))
          for (const [scope, description] of Object.entries(flow.scopes))
            if (!scopes.has(scope)) scopes.set(scope, typeof description === 'string' ? description : '');
      }
    }
    if (scheme.type === 'openIdConnect' && typeof scheme.openIdConnectUrl === 'string')
      urls.push(scheme.openIdConnectUrl);
    schemes.set(name, {
      type: scheme.type as SchemeType,
      ...(typeof scheme.description === 'string' ? { description: scheme.description } : {}),
      scopes,
      urls: [...new Set(urls)],
    });
  }

  const security = (value: unknown, where: string): SecurityAlternative[] => {
    if (!Array.isArray(value)) throw invalid(file, `${where} is not a list`);
    return value.map((requirement, i) => {
      if (!isObject(requirement)) throw invalid(file, `${where}[${i}] is not an object`);
      const requirements: SchemeRequirement[] = Object.entries(requirement).map(([name, scopes]) => {
        const scheme = schemes.get(name);
        if (!scheme)
          throw invalid(
            file,
            `${where}[${i}] names the scheme "${name}", which components.securitySchemes does not declare`,
          );
        const list = Array.isArray(scopes) ? scopes.filter((s): s is string => typeof s === 'string') : [];
        return { scheme: name, type: scheme.type, scopes: [...new Set(list)].sort() };
      });
      return { requirements };
    });
  };
  const globalSecurity = doc.security === undefined ? [] : security(doc.security, 'security');

  const operations: SpecOperation[] = [];
  const paths = doc.paths === undefined ? {} : doc.paths;
  if (!isObject(paths)) throw invalid(file, 'paths is not an object');
  for (const [path, raw] of Object.entries(paths)) {
    const item = deref(raw, `paths["${path}"]`);
    if (!isObject(item)) throw invalid(file, `paths["${path}"] is not a Path Item Object`);
    for (const method of METHODS) {
      const op = deref(item[method], `paths["${path}"].${method}`);
      if (op === undefined) continue;
      if (!isObject(op)) throw invalid(file, `paths["${path}"].${method} is not an Operation Object`);
      const upper = method.toUpperCase();
      operations.push({
        ...(typeof op.operationId === 'string' ? { id: op.operationId } : {}),
        method: upper,
        path,
        readOnly: SAFE_METHODS.has(upper),
        ...(typeof op.summary === 'string'
          ? { description: firstLine(op.summary) }
          : typeof op.description === 'string'
            ? { description: firstLine(op.description) }
            : {}),
        security:
          op.security === undefined
            ? globalSecurity
            : security(op.security, `paths["${path}"].${method}.security`),
      });
    }
  }
  const info = isObject(doc.info) ? doc.info : {};
  const title = typeof info.title === 'string' ? ` "${info.title}"` : '';
  return { format: 'openapi', title: `OpenAPI ${String(doc.openapi)} document${title}`, operations, schemes };
}
