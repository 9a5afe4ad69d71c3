/**
 * The shape of an MCP server card: an entry of type `application/mcp-server-card+json` (ARD draft
 * §3.2.1) points at an MCP registry `server.json`, which the verifier checks against the MCP registry's
 * official JSON Schema of 2025-12-11 (draft-07, shipped in ./schemas/ with its source and licence), with
 * ajv and ajv-formats, so that what MCP registries and clients refuse (a `name` that is not reverse-DNS,
 * a remote without a URL) is found before they are asked.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import serverSchema from './schemas/mcp-server.schema.2025-12-11.json' with { type: 'json' };

/** The `$id` of the schema cards are checked against (the MCP registry's dated server.json schema). */
export const MCP_SERVER_SCHEMA_ID = serverSchema.$id;

let validator: ValidateFunction | undefined;

/** The compiled schema, made on first use (each helper thread makes its own). */
function validateServerJson(): ValidateFunction {
  if (validator) return validator;
  // The schema documents members with `example`, which ajv's strict mode reads as unknown keywords.
  const ajv = new Ajv({ allErrors: true, strict: false });
  (addFormatsModule as unknown as (a: Ajv) => void)(ajv);
  validator = ajv.compile(serverSchema);
  return validator;
}

/** One schema error as `path: message` (`name: must match pattern "…"`); `(card)` for the root. */
function describeError(error: ErrorObject): string {
  const where = error.instancePath.replace(/^\//, '').replaceAll('/', '.') || '(card)';
  const detail =
    error.keyword === 'additionalProperties'
      ? `${String((error.params as { additionalProperty?: string }).additionalProperty)} is not allowed`
      : (error.message ?? error.keyword);
  return `${where}: ${detail}`;
}

/**
 * Checks the bytes of an MCP server card against the official `server.json` schema.
 * @param bytes The card as served (UTF-8 JSON).
 * @returns Every problem as `path: message` (at most 10, the count of the rest appended), or `[]` when
 *   the card matches; a card that is not JSON gives one problem saying so. Never throws.
 */
export function mcpServerCardProblems(bytes: Uint8Array): string[] {
  let card: unknown;
  try {
    card = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch (error) {
    return [`(card): not JSON (${(error as Error).message})`];
  }
  const validate = validateServerJson();
  if (validate(card)) return [];
  const problems = (validate.errors ?? []).map(describeError);
  const unique = [...new Set(problems)];
  return unique.length > 10 ? [...unique.slice(0, 10), `and ${unique.length - 10} more`] : unique;
}
