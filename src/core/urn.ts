/**
 * The ARD discovery identifier: `urn:air:<fqdn>:<namespace>:<name>` (ARD draft §3.4, DESIGN.md §2).
 * The FQDN is lower case, has no port, no trailing dot and is not an IP address; namespace and name
 * match `[a-z0-9._-]+`.
 */

/** The parts of a valid `urn:air` identifier. */
export interface AirUrn {
  domain: string;
  namespace: string;
  name: string;
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const SEGMENT = /^[a-z0-9._-]+$/;

/**
 * True when `domain` is a lower-case FQDN of at least two labels, with no port, no trailing dot, and not
 * an IPv4 address (RFC 1123 labels; ARD draft §3.4).
 */
export function isFqdn(domain: string): boolean {
  if (domain.length > 253 || domain.endsWith('.')) return false;
  const labels = domain.split('.');
  if (labels.length < 2) return false;
  if (labels.every((l) => /^\d+$/.test(l))) return false;
  if (/^\d+$/.test(labels[labels.length - 1] ?? '')) return false;
  return labels.every((l) => LABEL.test(l));
}

/**
 * Parses an identifier. Returns the parts, or a reason string when it breaks the rule (ARD draft §3.4).
 */
export function parseAirUrn(identifier: string): AirUrn | string {
  const parts = identifier.split(':');
  if (parts.length !== 5 || parts[0] !== 'urn' || parts[1] !== 'air') {
    return `"${identifier}" is not of the form urn:air:<domain>:<namespace>:<name>`;
  }
  const [, , domain = '', namespace = '', name = ''] = parts;
  if (!isFqdn(domain)) {
    return `"${domain}" is not a lower-case domain name (no port, no IP address, no trailing dot)`;
  }
  if (!SEGMENT.test(namespace)) return `namespace "${namespace}" must match [a-z0-9._-]+`;
  if (!SEGMENT.test(name)) return `name "${name}" must match [a-z0-9._-]+`;
  return { domain, namespace, name };
}

/** Builds `urn:air:<domain>:<namespace>:<name>`; the caller has validated the parts. */
export function formatAirUrn(urn: AirUrn): string {
  return `urn:air:${urn.domain}:${urn.namespace}:${urn.name}`;
}
