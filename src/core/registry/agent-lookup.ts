/**
 * `GET /agents/{identifier}` of the lookup API (ard-spec v0.91 §5.3.4): which entry of the catalog a
 * lookup path names. Used by ./service.ts.
 */
import { isArdIdentifier } from '../ard/urn.js';
import type { Catalog } from './catalog.js';
import { RegistryProblem, invalidArgument } from './problems.js';
import { REQUEST_ORIGIN } from './api-request.js';

/** The origin given to request targets to read them as URLs: only their path and query string are used. */

/**
 * `GET /agents/{identifier}` (ard-spec v0.91 §5.3.4, its ADR-0010): the entry of this registry's own
 * index whose identifier is exactly the one in the path, decoded once; never forwarded to peers. The
 * answer is the catalog entry as indexed, without the search-only members `score` and `source`;
 * `?version=` picks one version, else the latest (versions compared with their numbers as numbers),
 * and `Link: <…>; rel="alternate"` headers name the others. It is cacheable (`Cache-Control`, `ETag`;
 * `If-None-Match` gives 304).
 * @throws RegistryProblem INVALID_ARGUMENT (an identifier that is not an ARD identifier, bad
 *   parameters), NOT_FOUND (no such identifier or version).
 * @param target The request target (path and query string) under `basePath`.
 * @returns The entry, and the answer's extra headers (`Link`).
 */
export function lookUpAgent(
  catalog: Catalog,
  basePath: string,
  target: string,
): { entry: Record<string, unknown>; extra: Record<string, string> } {
  const url = new URL(target, REQUEST_ORIGIN);
  const prefix = `${basePath}/agents/`;
  let identifier: string;
  try {
    identifier = decodeURIComponent(url.pathname.slice(prefix.length));
  } catch {
    throw invalidArgument('the identifier in the path is not valid percent-encoded UTF-8');
  }
  if (!isArdIdentifier(identifier))
    throw invalidArgument(
      `${JSON.stringify(identifier.slice(0, 200))} is not an ARD identifier (urn:air:<publisher>:<namespace>:<name>, percent-encoded as one path segment)`,
    );
  let version: string | undefined;
  for (const [name, value] of url.searchParams) {
    if (name !== 'version' || version !== undefined || value === '')
      throw invalidArgument(
        `GET /agents/{identifier} takes one parameter, version=<version>, not ${JSON.stringify(name.slice(0, 64))}${name === 'version' ? ' twice or empty' : ''}`,
      );
    version = value;
  }
  const versions = catalog.byIdentifier.get(identifier) ?? [];
  if (versions.length === 0)
    throw new RegistryProblem(
      'NOT_FOUND',
      `no entry of this registry has the identifier ${JSON.stringify(identifier.slice(0, 200))}`,
    );
  const position =
    version === undefined
      ? versions[versions.length - 1]!
      : versions.find((p) => catalog.entries[p]!.version === version);
  if (position === undefined)
    throw new RegistryProblem(
      'NOT_FOUND',
      `the entry ${JSON.stringify(identifier.slice(0, 200))} has no version ${JSON.stringify(version!.slice(0, 64))}; it has ${versions.map((p) => catalog.entries[p]!.version ?? '(none)').join(', ')}`,
    );
  const others = versions
    .filter((p) => p !== position && catalog.entries[p]!.version !== undefined)
    .map(
      (p) =>
        `<${prefix}${encodeURIComponent(identifier)}?version=${encodeURIComponent(catalog.entries[p]!.version!)}>; rel="alternate"`,
    );
  const extra: Record<string, string> = others.length > 0 ? { Link: others.join(', ') } : {};
  const {
    score: _score,
    source: _source,
    ...entry
  } = catalog.entries[position]!.entry as Record<string, unknown>;
  return { entry, extra };
}
