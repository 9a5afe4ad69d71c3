/**
 * The network options of the commands that fetch over HTTPS under verify's rules (`npm run pin`, `npm run
 * specs`): `--resolve host=URL` (as curl's), `--allow-private`, `--timeout MS` and `--max-bytes N`, and the
 * reader they configure (src/core/verify/http-reader.ts: https only, a size cap, a timeout, no private
 * address unless allowed).
 */
import type { SiteReader } from '../../core/verify/reader.js';
import {
  DEFAULT_MAX_BYTES,
  DEFAULT_TIMEOUT_MS,
  httpReader,
  parseResolve,
} from '../../core/verify/http-reader.js';

/** The `parseArgs` options of the network flags, to spread into a command's own options. */
export const NETWORK_OPTIONS = {
  resolve: { type: 'string', multiple: true, default: [] as string[] },
  'allow-private': { type: 'boolean', default: false },
  timeout: { type: 'string' },
  'max-bytes': { type: 'string' },
} as const;

/** The values `parseArgs` gives for {@link NETWORK_OPTIONS}. */
export interface NetworkValues {
  resolve?: string[];
  'allow-private'?: boolean;
  timeout?: string;
  'max-bytes'?: string;
}

/**
 * The HTTPS reader the flags in `values` describe. A malformed `--resolve`, `--timeout` or `--max-bytes`
 * prints `<command>: <reason>` and `usage` to stderr and exits 2 (a usage error, never a stack trace).
 */
export function networkReader(values: NetworkValues, command: string, usage: string): SiteReader {
  const usageError = (message: string): never => {
    process.stderr.write(`${command}: ${message}\n${usage}\n`);
    process.exit(2);
  };
  const positive = (name: string, value: string | undefined, fallback: number): number => {
    if (value === undefined) return fallback;
    const n = Number(value);
    return Number.isInteger(n) && n > 0
      ? n
      : usageError(`--${name} expects a positive whole number, got "${value}"`);
  };
  let resolve: Map<string, string>;
  try {
    resolve = parseResolve(values.resolve ?? []);
  } catch (error) {
    return usageError((error as Error).message);
  }
  return httpReader({
    resolve,
    allowPrivate: values['allow-private'] ?? false,
    timeoutMs: positive('timeout', values.timeout, DEFAULT_TIMEOUT_MS),
    maxBytes: positive('max-bytes', values['max-bytes'], DEFAULT_MAX_BYTES),
  });
}
