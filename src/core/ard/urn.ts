/**
 * The ARD discovery identifier: `urn:air:<fqdn>:<namespace>:<name>` (ARD draft §3.4, DESIGN.md §2).
 * ardsite's own identifiers follow its stricter rule: the FQDN is lower case, has no port, no trailing
 * dot and is not an IP address; namespace and name match `[a-z0-9._-]+`. Other publishers' identifiers,
 * which a verifier and a registry read, need only be RFC 8141 URNs of that shape (`rule: 'ard'`).
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
 * An RFC 8141 NSS segment without `:` (RFC 8141 §2: pchar, i.e. unreserved, sub-delims, `@` and
 * percent-encoded octets, then `/` too after the first character).
 */
const NSS_SEGMENT =
  /^(?:[A-Za-z0-9\-._~!$&'()*+,;=@]|%[0-9A-Fa-f]{2})(?:[A-Za-z0-9\-._~!$&'()*+,;=@/]|%[0-9A-Fa-f]{2})*$/;

/**
 * The rule an identifier is read by: `ardsite`, the publisher's own (DESIGN.md §2), or `ard`, any
 * publisher's (ARD draft §3.4 over RFC 8141: `urn`, `air` and the domain in any case, the domain read
 * in lower case; namespace and name any NSS characters but `:`, `/` not first).
 */
export type UrnRule = 'ardsite' | 'ard';

/** Domains found to be FQDNs: a manifest's thousands of identifiers name a few domains, checked once each. */
const fqdns = new Set<string>();
const MAX_FQDNS = 1_024;

/**
 * True when `domain` is a lower-case FQDN of at least two labels, with no port, no trailing dot, and not
 * an IPv4 address (RFC 1123 labels; ARD draft §3.4).
 */
export function isFqdn(domain: string): boolean {
  if (fqdns.has(domain)) return true;
  if (domain.length > 253 || domain.endsWith('.')) return false;
  const labels = domain.split('.');
  if (labels.length < 2) return false;
  if (labels.every((l) => /^\d+$/.test(l))) return false;
  if (/^\d+$/.test(labels[labels.length - 1] ?? '')) return false;
  const valid = labels.every((l) => LABEL.test(l));
  if (valid && fqdns.size < MAX_FQDNS) fqdns.add(domain);
  return valid;
}

/**
 * Parses an identifier by `rule` (default `ardsite`, see {@link UrnRule}). Returns the parts (under the
 * `ard` rule, the domain in lower case), or a reason string when it breaks the rule (ARD draft §3.4).
 */
export function parseAirUrn(identifier: string, rule: UrnRule = 'ardsite'): AirUrn | string {
  const parts = identifier.split(':');
  const fold = (part: string | undefined) => (rule === 'ard' ? part?.toLowerCase() : part);
  if (parts.length !== 5 || fold(parts[0]) !== 'urn' || fold(parts[1]) !== 'air') {
    return `"${identifier}" is not of the form urn:air:<domain>:<namespace>:<name>`;
  }
  const [, , given = '', namespace = '', name = ''] = parts;
  const domain = fold(given)!;
  if (!isFqdn(domain)) {
    return rule === 'ard'
      ? `"${given}" is not a domain name (no port, no IP address, no trailing dot)`
      : `"${given}" is not a lower-case domain name (no port, no IP address, no trailing dot)`;
  }
  const segment = rule === 'ard' ? NSS_SEGMENT : SEGMENT;
  const allowed = rule === 'ard' ? 'be RFC 8141 characters other than ":"' : 'match [a-z0-9._-]+';
  if (!segment.test(namespace)) return `namespace "${namespace}" must ${allowed}`;
  if (!segment.test(name)) return `name "${name}" must ${allowed}`;
  return { domain, namespace, name };
}

/** Builds `urn:air:<domain>:<namespace>:<name>`; the caller has validated the parts. */
export function formatAirUrn(urn: AirUrn): string {
  return `urn:air:${urn.domain}:${urn.namespace}:${urn.name}`;
}

/**
 * True when `identifier` has the shape of an ARD identifier that some registry may hold: `urn:air:` (in
 * any case, RFC 8141 §3.1) then a publisher and a name, with any namespace segments between them, each
 * segment RFC 8141 NSS characters other than `:` (ARD draft §3.4; ard-spec v0.91, where the namespace may
 * be left out or hold several segments). What a registry's lookup (ard-spec v0.91 §5.3.4) takes before
 * answering 404 rather than 400 INVALID_ARGUMENT; an identifier of this shape need not pass
 * {@link parseAirUrn}.
 */
export function isArdIdentifier(identifier: string): boolean {
  if (identifier.slice(0, 8).toLowerCase() !== 'urn:air:') return false;
  const segments = identifier.slice(8).split(':');
  return segments.length >= 2 && segments.every((s) => NSS_SEGMENT.test(s));
}
