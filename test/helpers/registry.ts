/**
 * Registry-mode test helpers: build a project in registry mode (the real `scripts/build.ts --registry`
 * in a child process), start the one server over it in this process (src/core/registry/server.ts) with
 * test settings, and talk to it over HTTP with `fetch`.
 */
import { createServer } from 'node:net';
import { expect } from 'vitest';
import { RegistrySettings, type RegistryConfig } from '../../src/core/schema/registry-settings.js';
import {
  startRegistryServer,
  type RegistryServer,
  type RegistryServerOptions,
} from '../../src/core/registry/server.js';
import { buildProject, fixedKeyEnv, type BuildResult } from './build.js';

/** The TEST-ONLY pageToken secret. */
export const TEST_SECRET = new TextEncoder().encode('test-only registry page token secret, 48 bytes!!');

/** Builds `root` in registry mode with the fixed TEST-ONLY key; fails the test when the build fails. */
export async function buildRegistrySite(
  root: string,
  options: { env?: Record<string, string | undefined>; out?: string } = {},
): Promise<BuildResult> {
  const result = await buildProject(root, {
    ...options,
    env: { ...fixedKeyEnv(), ...options.env },
    args: ['--registry'],
  });
  expect(result.stderr, 'the registry build failed').toMatch(/Registry mode: the lookup API/);
  expect(result.code).toBe(0);
  return result;
}

/** Registry settings: the defaults, loopback exempt from the rate limit, `overrides` laid over. */
export function testSettings(overrides: Record<string, unknown> = {}): RegistryConfig {
  return RegistrySettings.parse({ rateLimit: { exemptLoopback: true }, ...overrides });
}

/** A started test registry and the log lines it wrote. */
export interface TestRegistry extends RegistryServer {
  logs: string[];
}

/** Starts the one server over `dir` with {@link testSettings} (or `options.settings`), on a free port. */
export async function startTestRegistry(
  dir: string,
  options: Partial<RegistryServerOptions> & { overrides?: Record<string, unknown> } = {},
): Promise<TestRegistry> {
  const logs: string[] = [];
  const { overrides, ...rest } = options;
  const server = await startRegistryServer({
    dir,
    settings: testSettings(overrides),
    secret: TEST_SECRET,
    port: 0,
    log: (line) => logs.push(line),
    accessLog: true,
    ...rest,
  });
  return Object.assign(server, { logs });
}

/** An answer: status, headers and the parsed JSON body (undefined when not JSON). */
export interface JsonAnswer<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** Sends `init` to `url` and reads the answer as JSON when it is. */
export async function call<T = Record<string, unknown>>(
  url: string,
  init: RequestInit = {},
): Promise<JsonAnswer<T>> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body: body as T, text };
}

/** POSTs `body` (an object, serialised) as JSON. */
export function postJson<T = Record<string, unknown>>(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<JsonAnswer<T>> {
  return call<T>(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** `n` TCP ports free right now on 127.0.0.1 (for registries that must know each other's URL). */
export async function freePorts(n: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<ReturnType<typeof createServer>>((resolve) => {
          const s = createServer();
          s.listen(0, '127.0.0.1', () => resolve(s));
        }),
    ),
  );
  const ports = servers.map((s) => (s.address() as { port: number }).port);
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  return ports;
}

/**
 * Asserts the error shape of both readers: the RFC 9457 problem of ARD draft §4.2.5 with `error` and
 * `status`, and ard-spec v0.91's `errorCode` and `message` (the same code, the same text as `detail`).
 */
export function expectProblem(answer: JsonAnswer, status: number, error: string): void {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers.get('content-type')).toBe('application/problem+json');
  expect(answer.body).toEqual({
    type: expect.stringMatching(/^https:\/\/agenticresourcediscovery\.org\/problems\/[a-z-]+$/),
    title: expect.any(String),
    status,
    detail: expect.any(String),
    error,
    errorCode: error,
    message: answer.body.detail,
  });
  expect(answer.body.message).not.toBe('');
}
