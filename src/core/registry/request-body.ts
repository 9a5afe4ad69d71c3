/**
 * The JSON body of a lookup API request (ARD draft §4.2.2, §4.2.3: `POST /search`, `POST /explore`):
 * `application/json` (or a `+json` type), UTF-8, at most `registry.maxBodyBytes`, read without ever
 * quoting it in an error (ARD draft §7). The service (./service.ts) reads every POST body with it.
 */
import { RegistryProblem, invalidArgument } from './problems.js';

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

/**
 * Reads a JSON request body of at most `maxBytes`.
 * @throws RegistryProblem INVALID_ARGUMENT (400 for a wrong Content-Type, an empty body or bad JSON; 413
 *   for a body over the cap, refused from Content-Length before reading when it is declared).
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  const type = request.headers.get('content-type');
  if (type === null || !JSON_TYPE.test(type))
    throw invalidArgument('the body must be JSON: send Content-Type: application/json');
  const tooLarge = () =>
    new RegistryProblem(
      'INVALID_ARGUMENT',
      `the body is larger than this registry accepts (${maxBytes} bytes)`,
      {
        status: 413,
      },
    );
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        throw tooLarge();
      }
      chunks.push(value);
    }
  }
  if (size === 0) throw invalidArgument('the body is empty; it must be a JSON object');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
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
