/**
 * Reads the bytes of a stored spec (JSON or YAML) and hands it to the parser of its kind: OpenAPI 3.x
 * (./openapi.ts), Google Discovery (./discovery.ts) or an MCP tools/list result (./mcp-tools.ts). YAML is
 * read with the YAML 1.2 core schema (js-yaml, as the content loader reads JSON-compatible YAML).
 */
import { CORE_SCHEMA, load as loadYaml } from 'js-yaml';
import { detached } from '../content/source.js';
import { ArdsiteError } from '../errors.js';
import { jsonErrorPlace } from '../json-position.js';
import { isDiscoveryDocument, parseDiscovery } from './discovery.js';
import { isMcpToolsList, parseMcpTools } from './mcp-tools.js';
import { isOpenApiDocument, parseOpenApi } from './openapi.js';
import type { SpecIndex } from './spec-index.js';

/**
 * The parsed document of `bytes` (UTF-8, a leading byte order mark dropped): JSON (RFC 8259, `JSON.parse`)
 * when it starts like JSON, else YAML 1.2 (core schema).
 * @throws ArdsiteError `SPEC_INVALID` naming `file` and, for JSON, the line and column of the first error.
 */
export function readSpecDocument(bytes: Uint8Array, file: string): unknown {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes).replace(/^\uFEFF/, '');
  const json = /^\s*[{[]/.test(text);
  try {
    // YAML's strings are slices of the text: detached, so the index does not keep a whole spec alive.
    return json ? JSON.parse(text) : detached(loadYaml(text, { schema: CORE_SCHEMA }));
  } catch (error) {
    // js-yaml's first line ends with its "(line:column)"; V8's JSON messages often have no position.
    const at = json ? jsonErrorPlace(text, error) : '';
    throw new ArdsiteError(
      'SPEC_INVALID',
      `${file}: neither JSON nor YAML${at}: ${(error as Error).message.split('\n')[0]}`,
    );
  }
}

/**
 * Parses a stored spec into a {@link SpecIndex}, whatever its kind.
 * @throws ArdsiteError `SPEC_INVALID` naming `file` when it is none of the three kinds or is malformed.
 */
export async function parseSpec(bytes: Uint8Array, file: string): Promise<SpecIndex> {
  const doc = readSpecDocument(bytes, file);
  if (isOpenApiDocument(doc)) return parseOpenApi(doc as Record<string, unknown>, file);
  if (isDiscoveryDocument(doc)) return parseDiscovery(doc as Record<string, unknown>, file);
  if (isMcpToolsList(doc)) return parseMcpTools(doc, file);
  throw new ArdsiteError(
    'SPEC_INVALID',
    `${file}: not an OpenAPI 3.x document ("openapi": "3.…"), a Google Discovery document ("kind": "discovery#restDescription") or an MCP tools/list result ("tools": […])`,
  );
}
