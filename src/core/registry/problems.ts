/**
 * Error responses of the lookup API (ARD draft §4.2.5): HTTP Problem Details (RFC 9457,
 * `application/problem+json`) with the draft's machine-readable `error` member, one of the codes of its
 * Table 1, repeated as `errorCode` with the detail as `message` for ard-spec v0.91 clients. The `type` URI and the `title` belong to the code (RFC 9457 §3.1: a title does not change from
 * occurrence to occurrence); the HTTP status is the code's, except where HTTP has a more precise status
 * for the same code: 405 (a method the endpoint does not take, `NOT_IMPLEMENTED`) and 413 (a body over
 * the cap, `INVALID_ARGUMENT`).
 *
 * This module has no dependencies: the Astro routes of registry mode (bundled by @astrojs/node) import
 * it through src/core/registry/runtime.ts.
 */

/** The error codes of ARD draft §4.2.5 Table 1, with their status, title and problem type slug. */
export const PROBLEM_CODES = {
  /** Malformed query JSON, missing required fields, or invalid filter syntax. */
  INVALID_ARGUMENT: { status: 400, title: 'Invalid Argument', slug: 'invalid-argument' },
  /** Missing or invalid authentication credentials (not used: the API is public). */
  UNAUTHENTICATED: { status: 401, title: 'Unauthenticated', slug: 'unauthenticated' },
  /** The caller lacks access (not used: the API is public). */
  PERMISSION_DENIED: { status: 403, title: 'Permission Denied', slug: 'permission-denied' },
  /** The agent identifier, registry or endpoint does not exist. */
  NOT_FOUND: { status: 404, title: 'Not Found', slug: 'not-found' },
  /** Rate limit exceeded; the answer carries Retry-After (RFC 9110 §10.2.3). */
  RATE_LIMIT_EXCEEDED: { status: 429, title: 'Rate Limit Exceeded', slug: 'rate-limit-exceeded' },
  /** Internal server or storage failure. */
  INTERNAL_ERROR: { status: 500, title: 'Internal Error', slug: 'internal-error' },
  /** The requested feature (an endpoint's method, a federation mode) is not implemented here. */
  NOT_IMPLEMENTED: { status: 501, title: 'Not Implemented', slug: 'not-implemented' },
} as const;

/** One error code of Table 1. */
export type ProblemCode = keyof typeof PROBLEM_CODES;

/** Prefix of every problem `type` URI, as in the draft's example. */
export const PROBLEM_TYPE_BASE = 'https://agenticresourcediscovery.org/problems/';

/** The media type of an error body (RFC 9457 §3). */
export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

/**
 * The JSON body of an error: the RFC 9457 §3.1 members, the draft's `error` (ARD draft §4.2.5), and the
 * same code and text again as `errorCode` and `message`, the error envelope ard-spec v0.91's clients and
 * its conformance tool read (RFC 9457 §3.2 allows such extension members). Both kinds of client find
 * what they look for in one body.
 */
export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  error: ProblemCode;
  /** Equal to `error` (ard-spec v0.91). */
  errorCode: ProblemCode;
  /** Equal to `detail` (ard-spec v0.91). */
  message: string;
}

/**
 * A failure of one API request, thrown by the registry's modules and turned into a problem response at
 * the edge. `detail` is written for the client; it never repeats `query.text` (ARD draft §7).
 */
export class RegistryProblem extends Error {
  override readonly name = 'RegistryProblem';
  readonly code: ProblemCode;
  /** The HTTP status: the code's own, or 405 / 413 (see the module comment). */
  readonly status: number;
  /** Extra response headers (`Retry-After`, `Allow`). */
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    code: ProblemCode,
    detail: string,
    options: { status?: number; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.code = code;
    this.status = options.status ?? PROBLEM_CODES[code].status;
    this.headers = options.headers ?? {};
  }

  /** The RFC 9457 body of this problem. */
  toBody(): ProblemBody {
    const { title, slug } = PROBLEM_CODES[this.code];
    return {
      type: `${PROBLEM_TYPE_BASE}${slug}`,
      title,
      status: this.status,
      detail: this.message,
      error: this.code,
      errorCode: this.code,
      message: this.message,
    };
  }
}

/** Shorthand for the most common problem: a 400 INVALID_ARGUMENT with `detail`. */
export function invalidArgument(detail: string): RegistryProblem {
  return new RegistryProblem('INVALID_ARGUMENT', detail);
}

/**
 * The web Response of `problem`, with `headers` (security headers, CORS) and the problem's own headers.
 * Errors are never cached.
 */
export function problemResponse(
  problem: RegistryProblem,
  headers: Readonly<Record<string, string>> = {},
): Response {
  return new Response(`${JSON.stringify(problem.toBody())}\n`, {
    status: problem.status,
    headers: {
      ...headers,
      ...problem.headers,
      'Content-Type': PROBLEM_MEDIA_TYPE,
      'Cache-Control': 'no-store',
    },
  });
}
