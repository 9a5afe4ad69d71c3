/**
 * One loopback rule (src/core/util/net-address.ts) for where plain http is allowed: the schemas' URL rule
 * (httpsUrlProblem), the content checks and the HTTP client agree on `localhost`, `*.localhost` (RFC 6761
 * §6.3), 127.0.0.0/8 and `::1`, IPv4-mapped forms included, and on what is not loopback.
 */
import { describe, expect, it } from 'vitest';
import { httpsUrlProblem } from '../../../src/core/schema/common.js';
import { isLoopbackAddress, isLoopbackHost } from '../../../src/core/util/net-address.js';

const LOOPBACK_URLS = [
  'http://localhost:4321/agent',
  'http://app.localhost/agent',
  'http://LOCALHOST./agent',
  'http://127.0.0.1/agent',
  'http://127.8.9.10:8080/agent',
  'http://[::1]/agent',
  'http://[::ffff:127.0.0.1]/agent',
];
const OTHER_URLS = [
  'http://example.com/agent',
  'http://127.0.0.1.example.com/agent',
  'http://localhost.example.com/agent',
  'http://10.0.0.1/agent',
  'http://[::2]/agent',
];

describe('the loopback rule', () => {
  it.each(LOOPBACK_URLS)('allows plain http on %s, as the HTTP client does', (url) => {
    expect(httpsUrlProblem(url)).toBeUndefined();
    expect(isLoopbackHost(new URL(url).hostname)).toBe(true);
  });

  it.each(OTHER_URLS)('refuses plain http on %s, as the HTTP client does', (url) => {
    expect(httpsUrlProblem(url)).toMatch(/https/);
    expect(isLoopbackHost(new URL(url).hostname)).toBe(false);
  });

  it('reads client addresses with the same rule', () => {
    expect(['127.0.0.1', '::1', '::ffff:127.0.0.1'].map(isLoopbackAddress)).toEqual([true, true, true]);
    expect(['10.0.0.1', '::2', 'localhost', ''].map(isLoopbackAddress)).toEqual([false, false, false, false]);
  });
});
