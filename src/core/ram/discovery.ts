/**
 * A Google API Discovery document (Discovery Service, "REST description" format, `discoveryVersion: v1`)
 * as a {@link SpecIndex}: every method of `resources` (nested) and of the top-level `methods`, with its
 * `id`, `httpMethod`, `path` (under `servicePath`) and `scopes`; `auth.oauth2.scopes` with their
 * descriptions. A Discovery method accepts any one of its scopes, so each scope is an alternative.
 */
import { ArdsiteError } from '../util/errors.js';
import type { SecurityAlternative } from '../model/permissions.js';
import { SAFE_METHODS, type SpecIndex, type SpecOperation, type SpecScheme } from '../model/spec-index.js';

/** The scheme name ardsite gives a Discovery document's `auth.oauth2`. */
export const DISCOVERY_SCHEME = 'oauth2';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** True when `doc` looks like a Discovery document: `kind: discovery#restDescription` or `discoveryVersion`. */
export function isDiscoveryDocument(doc: unknown): boolean {
  return (
    isObject(doc) && (doc.kind === 'discovery#restDescription' || typeof doc.discoveryVersion === 'string')
  );
}

/** `/` + `a` + `b`, with one slash between the parts. */
function joinPath(...parts: string[]): string {
  return `/${parts
    .map((p) => p.replace(/^\/+|\/+$/g, ''))
    .filter((p) => p !== '')
    .join('/')}`;
}

/**
 * Parses a Discovery document into a {@link SpecIndex}.
 * @throws ArdsiteError `SPEC_INVALID` naming `file` when a method lacks `id`, `path` or `httpMethod`, or
 *   when `resources`/`methods` are not objects.
 */
export function parseDiscovery(doc: Json, file: string): SpecIndex {
  const servicePath = typeof doc.servicePath === 'string' ? doc.servicePath : '';
  const scopes = new Map<string, string>();
  const auth = isObject(doc.auth) && isObject(doc.auth.oauth2) ? doc.auth.oauth2 : undefined;
  if (auth && isObject(auth.scopes)) {
    for (const [scope, value] of Object.entries(auth.scopes)) {
      const description = isObject(value) && typeof value.description === 'string' ? value.description : '';
      scopes.set(scope, description);
    }
  }
  const operations: SpecOperation[] = [];
  const walk = (node: Json, where: string): void => {
    if (node.methods !== undefined) {
      if (!isObject(node.methods)) throw invalid(file, `${where}.methods is not an object`);
      for (const [name, method] of Object.entries(node.methods)) {
        const at = `${where}.methods.${name}`;
        if (!isObject(method)) throw invalid(file, `${at} is not an object`);
        const { id, path, httpMethod, flatPath } = method;
        if (typeof id !== 'string' || typeof path !== 'string' || typeof httpMethod !== 'string')
          throw invalid(file, `${at} lacks id, path or httpMethod`);
        const methodScopes = Array.isArray(method.scopes)
          ? method.scopes.filter((s): s is string => typeof s === 'string')
          : [];
        const security: SecurityAlternative[] = methodScopes.map((scope) => ({
          requirements: [{ scheme: DISCOVERY_SCHEME, type: 'oauth2', scopes: [scope] }],
        }));
        const full = joinPath(servicePath, path);
        const aliases = new Set([joinPath(path)]);
        if (typeof flatPath === 'string') {
          aliases.add(joinPath(servicePath, flatPath));
          aliases.add(joinPath(flatPath));
        }
        aliases.delete(full);
        const method_ = httpMethod.toUpperCase();
        operations.push({
          id,
          method: method_,
          path: full,
          pathAliases: [...aliases],
          readOnly: SAFE_METHODS.has(method_),
          ...(typeof method.description === 'string' ? { description: firstLine(method.description) } : {}),
          security,
        });
      }
    }
    if (node.resources !== undefined) {
      if (!isObject(node.resources)) throw invalid(file, `${where}.resources is not an object`);
      for (const [name, child] of Object.entries(node.resources)) {
        if (!isObject(child)) throw invalid(file, `${where}.resources.${name} is not an object`);
        walk(child, `${where}.resources.${name}`);
      }
    }
  };
  walk(doc, '$');
  const schemes = new Map<string, SpecScheme>();
  if (auth) schemes.set(DISCOVERY_SCHEME, { type: 'oauth2', scopes, urls: [] });
  const name = typeof doc.name === 'string' ? doc.name : '';
  const version = typeof doc.version === 'string' ? doc.version : '';
  return {
    format: 'google-discovery',
    title: `Google Discovery document ${name}${version ? ` ${version}` : ''}`.trim(),
    operations,
    schemes,
  };
}

/** The first line of a description, as a sentence. */
export function firstLine(text: string): string {
  return text.split('\n')[0]!.trim();
}

function invalid(file: string, why: string): ArdsiteError {
  return new ArdsiteError('SPEC_INVALID', `${file}: not a usable Google Discovery document: ${why}`);
}
