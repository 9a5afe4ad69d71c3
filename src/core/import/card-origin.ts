/**
 * Whose card an import reads: the addresses that say where a card lives and who provides it (the URL it
 * was read from, its interface URLs, `provider.url`; A2A v1.0 `AgentCard.supportedInterfaces`,
 * `AgentProvider.url`) compared with the publisher's site. Two hosts belong to one site when they share
 * a registrable domain (the Public Suffix List's "registrable domain", private domains included, so that
 * `a.github.io` and `b.github.io` are two sites). A card with an address on another site is another
 * organisation's: ardsite must not sign it as the publisher's own (ARD draft §3.5.1: a signature binds
 * the signer's domain only).
 */
import { getDomain, parse } from 'tldts';
import { isFqdn } from '../ard/urn.js';
import { cardAddresses } from './card-addresses.js';
import type { JsonRecord } from '../a2a/a2a-forms.js';

/** The publisher's own places: `domain` and `organizationUrl` of content/publisher.yaml. */
export interface PublisherSite {
  domain: string;
  organizationUrl?: string;
}

/** An address of the card on another site than the publisher's. */
export interface ForeignAddress {
  /** Where it was found: a card field (`provider.url`) or `(read from)` for the URL of the card. */
  field: string;
  value: string;
  /** Its host in lower case, e.g. `agents.trips.test`. */
  host: string;
  /** Its registrable domain, e.g. `trips.test`. */
  site: string;
}

/** The field name a foreign address has when it is the URL the card was read from. */
export const READ_FROM = '(read from)';

const SITE_RULES = { allowPrivateDomains: true } as const;

function siteOf(host: string): string | undefined {
  return getDomain(host, SITE_RULES) ?? undefined;
}

/** The host of `value` when it is an absolute http(s) URL naming a domain (not an IP, not localhost). */
function domainHost(value: string): string | undefined {
  if (!URL.canParse(value)) return undefined;
  const url = new URL(value);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  const parsed = parse(host, SITE_RULES);
  return parsed.isIp || parsed.domain === null ? undefined : host;
}

/**
 * The card's addresses on another site than the publisher's: the URL it was read from (`readFrom`),
 * its interface URLs and `provider.url`, in that order. Addresses on loopback or an IP address, and
 * GRPC `host:port` targets, say nothing of a site and are not listed. Never throws.
 */
export function foreignAddresses(
  card: JsonRecord,
  publisher: PublisherSite,
  readFrom?: string,
): ForeignAddress[] {
  const own = new Set(
    [publisher.domain, publisher.organizationUrl && domainHost(publisher.organizationUrl)]
      .filter((h): h is string => typeof h === 'string')
      .map((h) => siteOf(h) ?? h),
  );
  const candidates = [
    ...(readFrom ? [{ field: READ_FROM, value: readFrom }] : []),
    ...cardAddresses(card).filter((a) => a.isInterface || a.field === 'provider.url'),
  ];
  const out: ForeignAddress[] = [];
  for (const { field, value } of candidates) {
    const host = domainHost(value);
    const site = host && siteOf(host);
    if (host && site && !own.has(site)) out.push({ field, value, host, site });
  }
  return out;
}

/**
 * The domain an identifier of the card's publisher names (ARD draft §3.4): the host the card was read
 * from, else the provider's, else an interface's; the first that is an FQDN. Undefined when none is.
 */
export function foreignDomain(foreign: readonly ForeignAddress[]): string | undefined {
  const rank = (a: ForeignAddress) => (a.field === READ_FROM ? 0 : a.field === 'provider.url' ? 1 : 2);
  return [...foreign].sort((a, b) => rank(a) - rank(b)).find((a) => isFqdn(a.host))?.host;
}

/**
 * The other sites in words, each with the fields that name it, e.g.
 * `trips.test (provider.url, supportedInterfaces[0].url)`. Never throws.
 */
export function sitesInWords(foreign: readonly ForeignAddress[]): string {
  const fields = new Map<string, string[]>();
  for (const a of foreign) fields.set(a.site, [...(fields.get(a.site) ?? []), a.field]);
  return [...fields].map(([site, names]) => `${site} (${names.join(', ')})`).join(', ');
}
