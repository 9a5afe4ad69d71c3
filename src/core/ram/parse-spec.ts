/**
 * Reads the bytes of a stored spec (JSON or YAML) and hands it to the parser of its kind: OpenAPI 3.x
 * (./openapi.ts), Google Discovery (./discovery.ts) or an MCP tools/list result (./mcp-tools.ts). YAML is
 * read with the YAML 1.2 core schema by the one bounded YAML reader (../bounded-yaml.ts), as content is, so
 * aliases that expand a small spec into a huge one are refused before anything walks it.
 */
import { readYaml, YamlReadError } from '../util/bounded-yaml.js';
import { detached } from '../model/source.js';
import { ArdsiteError } from '../util/errors.js';
import { jsonErrorPlace } from '../util/json-position.js';
import { isDiscoveryDocument, parseDiscovery } from './discovery.js';
import { isMcpToolsList, parseMcpTools } from './mcp-tools.js';
import { isOpenApiDocument, parseOpenApi } from './openapi.js';
import type { SpecIndex } from '../model/spec-index.js';

/**
 * The parsed document of `bytes` (UTF-8, a leading byte order mark dropped): JSON (RFC 8259, `JSON.parse`)
 * when it starts like JSON, else YAML 1.2 (core schema, aliases bounded: ../bounded-yaml.ts).
 * @throws ArdsiteError `SPEC_INVALID` naming `file` and the line (and column, where known) of the first
 *   error; `YAML_ALIASES_TOO_LARGE` naming `file` and the line of its first alias when its aliases expand
 *   it too far or an alias contains itself.
 */
export function readSpecDocument(bytes: Uint8Array, file: string): unknown {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes).replace(/^\uFEFF/, '');
  const json = /^\s*[{[]/.test(text);
  try {
    // YAML's strings are slices of the text: detached, so the index does not keep a whole spec alive.
    return json ? JSON.parse(text) : detached(readYaml(text, file));
  } catch (error) {
    if (error instanceof YamlReadError && error.code === 'YAML_ALIASES_TOO_LARGE') throw error;
    // V8's JSON messages often have no position; js-yaml's are placed by the reader.
    const at = json
      ? jsonErrorPlace(text, error)
      : error instanceof YamlReadError && error.line !== undefined
        ? ` at line ${error.line}${error.column !== undefined ? `, column ${error.column}` : ''}`
        : '';
    const reason = error instanceof YamlReadError ? error.reason : (error as Error).message.split('\n')[0];
    throw new ArdsiteError('SPEC_INVALID', `${file}: neither JSON nor YAML${at}: ${reason}`);
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
