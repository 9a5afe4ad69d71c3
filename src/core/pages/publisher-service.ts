/**
 * Whether an outside (`THIRD_PARTY`, the RAM proposal's `ResourceOwner`) resource is run by the publisher
 * itself: its address (`spec.specUrl`, the RAM proposal's `ResourceSpec.spec_url`, an MCP server's URL) is on
 * the publisher's domain or on its organisation's. The permission page then does not file it under
 * "services run by others" (DESIGN.md §10 "Truth on pages").
 */
import type { PublisherConfig } from '../schema/publisher.js';
import type { RamResource } from '../schema/ram.js';

/** The host of `url` in lower case, without a leading `www.`; undefined when it is not an absolute URL. */
function baseHost(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return undefined;
  }
}

/** True when `host` is `domain` or one of its subdomains (RFC 1034 §3.1: labels to the left). */
function onDomain(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

/**
 * True when `resource` is an outside resource whose `spec.specUrl` is on `publisher.domain` or on the host of
 * `publisher.organizationUrl` (a leading `www.` left out), or a subdomain of either. Pure.
 */
export function runByPublisher(
  resource: RamResource,
  publisher: Pick<PublisherConfig, 'domain' | 'organizationUrl'>,
): boolean {
  const url = resource.spec?.specUrl;
  if (resource.owner !== 'THIRD_PARTY' || url === undefined) return false;
  const host = baseHost(url);
  if (host === undefined) return false;
  const domains = [publisher.domain.toLowerCase(), baseHost(publisher.organizationUrl)];
  return domains.some((d) => d !== undefined && d !== '' && onDomain(host, d));
}
