/**
 * The JSON body of a lookup API request (ARD draft §4.2.2, §4.2.3: `POST /search`, `POST /explore`):
 * `application/json` (or a `+json` type), UTF-8, at most `registry.maxBodyBytes`, read without ever
 * quoting it in an error (ARD draft §7). The service (./service.ts) parses every POST body with
 * {@link jsonBodyOf} from the bytes the server read; {@link readBodyBytes} reads them from a web Request
 * (the Astro routes of the server bundle).
 */
import { RegistryProblem, invalidArgument } from './problems.js';

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

/** One decoder for every body: a non-streaming `decode` keeps no state between calls (WHATWG Encoding §7.2). */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

const tooLarge = (maxBytes: number) =>
  new RegistryProblem(
    'INVALID_ARGUMENT',
    `the body is larger than this registry accepts (${maxBytes} bytes)`,
    {
      status: 413,
    },
  );

/**
 * Reads the body of a web Request as bytes, stopping after `maxBytes + 1` bytes: a result longer than
 * `maxBytes` means the body is over the cap (told by {@link jsonBodyOf}, after the Content-Type check).
 * An empty Buffer when the request has no body.
 */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<Buffer> {
  if (!request.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    chunks.push(value);
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      break;
    }
  }
  return Buffer.concat(chunks, size);
}

/**
 * The JSON value of a request body given as bytes (`body`, read by the server, at most `maxBytes + 1` of
 * them), with the request's `Content-Type` and declared `Content-Length` (null when absent).
 * @throws RegistryProblem INVALID_ARGUMENT (400 for a wrong Content-Type, an empty body, bytes that are
 *   not UTF-8 or not JSON; 413 for a body over the cap, declared or read).
 */
export function jsonBodyOf(
  contentType: string | null,
  declaredLength: string | null,
  body: Uint8Array,
  maxBytes: number,
): unknown {
  if (contentType === null || !JSON_TYPE.test(contentType))
    throw invalidArgument('the body must be JSON: send Content-Type: application/json');
  if (Number(declaredLength ?? NaN) > maxBytes || body.byteLength > maxBytes) throw tooLarge(maxBytes);
  if (body.byteLength === 0) throw invalidArgument('the body is empty; it must be a JSON object');
  let text: string;
  try {
    text = UTF8.decode(body);
  } catch {
    throw invalidArgument('the body is not UTF-8');
  }
  try {
    return JSON.parse(text);
  } catch {
    // The parser's message quotes the body, which may hold the query text: never repeated (§7).
    throw invalidArgument('the body is not valid JSON');
  }
}

/**
 * The JSON value of a web Request's body ({@link readBodyBytes}, then {@link jsonBodyOf}).
 * @throws RegistryProblem INVALID_ARGUMENT as {@link jsonBodyOf}.
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  const type = request.headers.get('content-type');
  const declared = request.headers.get('content-length');
  // A wrong type or a declared size over the cap is refused before a byte is read.
  jsonBodyOf(type, declared, Buffer.from('{}'), maxBytes);
  return jsonBodyOf(type, declared, await readBodyBytes(request, maxBytes), maxBytes);
}
