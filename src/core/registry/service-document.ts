/**
 * The document the registry entry's `url` answers with on the static site: a JSON
 * description of the lookup API at that base URI (ARD draft §3.6: the `application/ai-registry+json`
 * entry "advertises the Base URI of its dynamic Agent Registry"; §4.2: its endpoints). Without it the
 * entry's url answered 404 wherever the site is served without `npm run serve`.
 *
 * Written at build time into `dist/` at the base path itself (a file named as the path's last segment,
 * served as `application/ai-registry+json` by `_headers`), and served there by `npm run serve` too, so
 * the entry can pin it: the entry's `digest` (and its trustManifest subject's) is the SHA-256 of these
 * bytes (ARD draft §3.5.2). Everything in it is fixed at build time: nothing depends on run-time
 * settings such as peers or rate limits.
 */
import type { RegistryConfig } from '../schema/registry-settings.js';
import { DEFAULT_LIST_PAGE_SIZE, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './query.js';

/** What the description is made of. */
export interface ServiceDocumentInput {
  /** The registry entry's identifier (`urn:air:…`). */
  identifier: string;
  displayName: string;
  description: string;
  /** The base URI (`https://<domain><basePath>`). */
  baseUri: string;
  /** The publisher's did:web. */
  publisher: string;
  settings: Pick<RegistryConfig, 'federation'>;
}

/**
 * The service description (a JSON object; serialise it with `serializeJsonDocument`). Its endpoints are
 * the lookup API's (ARD draft §4.2.2–§4.2.4 and ard-spec's `GET /agents/{identifier}`), each with its
 * method, absolute URL and the section that defines it.
 */
export function registryServiceDocument(input: ServiceDocumentInput): Record<string, unknown> {
  const url = (p: string) => `${input.baseUri}${p}`;
  const { federation } = input.settings;
  return {
    identifier: input.identifier,
    type: 'application/ai-registry+json',
    displayName: input.displayName,
    description: input.description,
    url: input.baseUri,
    publisher: input.publisher,
    endpoints: [
      {
        method: 'POST',
        url: url('/search'),
        definedBy: 'ARD draft §4.2.2 (search-request, search-response)',
      },
      { method: 'POST', url: url('/explore'), definedBy: 'ARD draft §4.2.3' },
      {
        method: 'GET',
        url: url('/agents'),
        definedBy: 'ARD draft §4.2.4; ard-spec OpenAPI listAgents',
        parameters: ['filter', 'orderBy', 'pageSize', 'pageToken', 'filter.<term-path>', 'context.<prefix>'],
      },
      { method: 'GET', url: url('/agents/{identifier}'), definedBy: 'ard-spec, lookup of one entry' },
    ],
    pageSize: {
      search: { default: DEFAULT_PAGE_SIZE, max: MAX_PAGE_SIZE },
      agents: { default: DEFAULT_LIST_PAGE_SIZE, max: MAX_PAGE_SIZE },
    },
    federation: {
      modes: [...federation.modes],
      default: federation.defaultMode,
      maxHops: federation.maxHops,
    },
    errors: 'application/problem+json (RFC 9457) with the error codes of ARD draft §4.2.5',
  };
}
