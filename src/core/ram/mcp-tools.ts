/**
 * A stored MCP `tools/list` result (MCP 2025-06-18, "Tools": `{ "tools": [Tool, …] }`, or the whole
 * JSON-RPC response carrying it in `result`) as a {@link SpecIndex}: one operation per tool, named by its
 * `name`, read-only when its `annotations.readOnlyHint` is true (the default is false), destructive per
 * `annotations.destructiveHint` (default true for a tool that is not read-only), reaching outside the server per
 * `annotations.openWorldHint` (default true: "may interact with an open world of external entities"). A
 * tools/list result
 * names no authorisation: MCP authorises the server as a whole (MCP "Authorization"), so the operations
 * carry no alternatives.
 */
import { ArdsiteError } from '../util/errors.js';
import { firstLine } from './discovery.js';
import type { SpecIndex, SpecOperation } from '../model/spec-index.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The `{ tools: […] }` object of `doc` (a tools/list result, or a JSON-RPC response holding one), if any. */
function toolsResult(doc: unknown): Json | undefined {
  if (!isObject(doc)) return undefined;
  if (Array.isArray(doc.tools)) return doc;
  if (doc.jsonrpc === '2.0' && isObject(doc.result) && Array.isArray(doc.result.tools)) return doc.result;
  return undefined;
}

/** True when `doc` is a tools/list result or a JSON-RPC response holding one. */
export function isMcpToolsList(doc: unknown): boolean {
  return toolsResult(doc) !== undefined;
}

/**
 * Parses a stored tools/list result into a {@link SpecIndex}.
 * @throws ArdsiteError `SPEC_INVALID` naming `file` when it holds no `tools` list, or a tool has no name
 *   or the same name as another.
 */
export function parseMcpTools(doc: unknown, file: string): SpecIndex {
  const result = toolsResult(doc);
  if (!result)
    throw new ArdsiteError('SPEC_INVALID', `${file}: not an MCP tools/list result (no "tools" list)`);
  const seen = new Set<string>();
  const operations: SpecOperation[] = (result.tools as unknown[]).map((tool, i) => {
    if (!isObject(tool) || typeof tool.name !== 'string' || tool.name === '')
      throw new ArdsiteError('SPEC_INVALID', `${file}: tools[${i}] has no name`);
    if (seen.has(tool.name))
      throw new ArdsiteError('SPEC_INVALID', `${file}: two tools are named "${tool.name}"`);
    seen.add(tool.name);
    const annotations = isObject(tool.annotations) ? tool.annotations : {};
    const readOnly = annotations.readOnlyHint === true;
    return {
      id: tool.name,
      readOnly,
      ...(typeof tool.description === 'string' ? { description: firstLine(tool.description) } : {}),
      ...(readOnly ? {} : { destructive: annotations.destructiveHint !== false }),
      openWorld: annotations.openWorldHint !== false,
      security: [],
    };
  });
  return { format: 'mcp-tools', title: 'MCP tools/list result', operations, schemes: new Map() };
}
