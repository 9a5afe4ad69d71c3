/**
 * The network options of the commands that fetch over HTTPS under verify's rules (`ardsite pin`,
 * `ardsite specs`, `ardsite import`): `--resolve host=URL` (as curl's), `--allow-private`, `--timeout MS`
 * and `--max-bytes N`, declared once for commander, and the reader they configure
 * (src/core/verify/http-reader.ts: https only, a size cap, a timeout, no private address unless allowed).
 * The reader's module (node:http, node:https) is loaded only when a command reads the network, so that
 * declaring the options costs `ardsite --version` nothing.
 */
import { Option } from 'commander';
import type { SiteReader } from '../../core/verify/reader.js';
import { repeated } from './args.js';
import { UsageError } from './usage-error.js';

/** The `--resolve` and `--allow-private` options, which every command that reads a URL takes. */
export function resolveOptions(): Option[] {
  return [
    new Option(
      '--resolve <host=URL>',
      'read https://host/… from URL instead (a test server, a site not yet deployed); repeatable',
    )
      .argParser(repeated)
      .default([]),
    new Option(
      '--allow-private',
      'allow private, loopback and link-local addresses (the operator’s switch)',
    ).default(false),
  ];
}

/** The `--timeout MS` and `--max-bytes N` options (strings, checked by {@link positiveNumber}). */
export function limitOptions(): Option[] {
  return [
    new Option('--timeout <ms>', "each request's time limit, in milliseconds (default 15000, as verify's)"),
    new Option('--max-bytes <n>', 'the largest document read, in bytes (default 32 MiB, as verify’s)'),
  ];
}

/** The values commander gives for {@link resolveOptions} and {@link limitOptions}. */
export interface NetworkValues {
  resolve: string[];
  allowPrivate: boolean;
  timeout?: string;
  maxBytes?: string;
}

/**
 * `value` (the text of option `--name`) as a positive whole number, `fallback` when absent.
 *
 * @throws UsageError `--name expects a positive whole number, got "…"`.
 */
export function positiveNumber(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (Number.isInteger(n) && n > 0) return n;
  throw new UsageError(`--${name} expects a positive whole number, got "${value}"`);
}

/**
 * The `--resolve` map of `values` (a promise: the reader's module is loaded then).
 *
 * @throws UsageError for a malformed `host=URL` (src/core/verify/http-reader.ts `parseResolve`).
 */
export async function resolveMap(values: readonly string[]): Promise<Map<string, string>> {
  const { parseResolve } = await import('../../core/verify/http-reader.js');
  try {
    return parseResolve(values);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/**
 * The HTTPS reader the flags in `values` describe (a promise: its module is loaded then).
 *
 * @throws UsageError for a malformed `--resolve`, `--timeout` or `--max-bytes` (exit 2 at the boundary).
 */
export async function networkReader(values: NetworkValues): Promise<SiteReader> {
  const { DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT_MS, httpReader } =
    await import('../../core/verify/http-reader.js');
  return httpReader({
    resolve: await resolveMap(values.resolve),
    allowPrivate: values.allowPrivate,
    timeoutMs: positiveNumber('timeout', values.timeout, DEFAULT_TIMEOUT_MS),
    maxBytes: positiveNumber('max-bytes', values.maxBytes, DEFAULT_MAX_BYTES),
  });
}
