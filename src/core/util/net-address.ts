/**
 * Which network addresses a client of ardsite may reach on its own (DESIGN.md §4, ARD draft §6.5): the
 * private, loopback, link-local and reserved ranges (RFC 1918, RFC 6598, RFC 6890, RFC 4193, RFC 4291) are
 * refused unless the operator allows them; plain http only on a loopback host. Used by the one HTTP client
 * (verify/http-reader.ts), the schemas' URL rule, the content checks and the registry's rate limiter.
 */
import { BlockList, isIP } from 'node:net';

/** Addresses a verifier must not reach on its own: RFC 1918, loopback, link-local, CGNAT, ULA, … */
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv6');
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** True when `address` (IPv4 or IPv6, IPv4-mapped included) is private, loopback, link-local or reserved. */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return PRIVATE.check(mapped[1]!, 'ipv4');
  const family = isIP(address);
  if (family === 4) return PRIVATE.check(address, 'ipv4');
  if (family === 6) return PRIVATE.check(address, 'ipv6');
  return true;
}

/** The address of an IP-literal host name (`127.0.0.1`, `[::1]`), else undefined. */
export function ipLiteral(hostname: string): string | undefined {
  const bare = hostname.replace(/^\[(.*)\]$/, '$1');
  return isIP(bare) ? bare : undefined;
}

/** `localhost`, `*.localhost` (RFC 6761 §6.3) or a loopback address: where plain http may be used. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const literal = ipLiteral(host);
  return literal !== undefined && isLoopbackAddress(literal);
}

/**
 * True when `address` (IPv4, IPv6 or IPv4-mapped IPv6, no brackets) is a loopback address: 127.0.0.0/8
 * (RFC 1122 §3.2.1.3) or `::1` (RFC 4291 §2.5.3). False for anything that is not an IP address.
 */
export function isLoopbackAddress(address: string): boolean {
  const v4 =
    /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] ?? (isIP(address) === 4 ? address : undefined);
  if (v4 !== undefined) return LOOPBACK.check(v4, 'ipv4');
  return isIP(address) === 6 && LOOPBACK.check(address, 'ipv6');
}

/**
 * True when the URL host name `hostname` names this machine or a private network by itself: `localhost`
 * or `*.localhost` (RFC 6761 §6.3), or an IP literal (`10.0.0.5`, `[fe80::1]`, `[::ffff:127.0.0.1]`) that
 * {@link isPrivateAddress} refuses. A DNS name is not resolved here: the client checks the address it
 * resolves to when it connects.
 */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const literal = ipLiteral(host);
  return literal !== undefined && isPrivateAddress(literal);
}
